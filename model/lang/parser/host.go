package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"
)

// Calls of the objects that SCXML engines written in JavaScript give their
// scripts, as statements: console's logging methods, which are <log>
// (setbot ignores what is logged, as it ignores <log>), and SCXML.raise
// and SCXML.send, with which the scripts of scxmlrun (ldltools) and of
// SCION raise and send events: they are <raise> and <send>, and parse into
// the language's raise and send statements, so that every executor runs
// them as it runs those.
//
// The argument is an object as those engines take it: SCXML.raise({name:
// "e", data: {...}}) or SCXML.raise({event: {name: "e", data: {...}}}) (or
// the name alone, SCXML.raise("e")), and SCXML.send({event: {name: "e",
// data: {...}}, target: "...", type: "...", topic: "..."}) or SCION's
// SCXML.send({name: "e", data: {...}, target: "..."}). A send whose type is
// the SCXML event processor and that names no target goes to the machine
// itself, as <send> without a target does; any other send is an output to
// the host, to "#_"+topic when it names a topic (scxmlrun publishes it
// there), to its target when it names one, and otherwise to "#_parent",
// the process that runs the machine.

// A call of a function written as a statement, f(a), evaluates the call
// and drops its value: it parses into the declaration of a local that
// nothing reads, var _callN = f(a) (N the call's offset in its file, so
// that the name is one no other statement of the model declares). The
// functions of a <script> compute a value and change nothing (see
// Inliner), so that is all such a call does. A call of a function the
// model neither declares nor names with setbot:function is the host's
// (onLightOff(), a callback of the application): the Inliner makes it an
// output to HostTarget, the event named after the function with the
// arguments as parameters arg0, arg1, ..., so that what the machine asks
// of its host shows among its outputs.

// CallStmtPrefix begins the name of the local that a call statement
// declares.
const CallStmtPrefix = "_call"

// ForwardEvent is the event of a send that forwards the event being
// processed, SCXML.send({event: _event}): the reader replaces it by a send
// of each event the code may be processing, with that event's data.
const ForwardEvent = "_event"

// HostTarget is the target of the output a call of a host function makes.
const HostTarget = "#_host"

func callStmt(c *ast.Call, off int) ast.Stmt {
	return &ast.Decl{DeclPos: c.FunPos, Name: &ast.Ident{NamePos: c.FunPos, Name: CallStmtPrefix + strconv.Itoa(off)}, Value: c}
}

// builtinNames are the built-in functions with a plain name.
var builtinNames = map[string]bool{"String": true, "Number": true, "Boolean": true, "parseInt": true, "parseFloat": true}

// hostObjects are the objects whose methods a statement may call.
var hostObjects = map[string]bool{"console": true, "SCXML": true}

// consoleMethods are console's methods, each a <log>.
var consoleMethods = map[string]bool{"log": true, "info": true, "warn": true, "error": true, "debug": true, "trace": true}

// hostMethods names the methods of a host object that setbot reads.
func hostMethods(obj string) string {
	if obj == "SCXML" {
		return "raise and send"
	}
	return "log, info, warn, error, debug and trace"
}

// hostObject is the object of the method call fun (a dotted name), or "".
func hostObject(fun string) string {
	obj, _, ok := strings.Cut(fun, ".")
	if !ok {
		return ""
	}
	return obj
}

// hostCall converts the call c of a host object's method, a statement:
// nil for a log, a Raise or Send for SCXML.raise and SCXML.send. It
// reports what it cannot convert, at the call, and returns nil then.
func (p *parser) hostCall(c *ast.Call) ast.Stmt {
	obj, method, _ := strings.Cut(c.Fun, ".")
	switch {
	case obj == "console" && consoleMethods[method]:
		return nil
	case obj == "SCXML" && (method == "raise" || method == "send"):
		if len(c.Args) != 1 {
			p.hostError(c, "takes one argument, an object such as {name: \"e\", data: {...}}")
			return nil
		}
		if method == "raise" {
			return p.hostRaise(c)
		}
		return p.hostSend(c)
	}
	p.errs = append(p.errs, &source.Error{Pos: p.src.positionOf(c.FunPos), Msg: CallMsg(c.Fun), Refused: true})
	return nil
}

func (p *parser) hostError(c *ast.Call, format string, args ...any) {
	p.errorPos(c.FunPos, c.Fun+" "+fmt.Sprintf(format, args...))
}

// hostEvent is the event an argument of SCXML.raise or SCXML.send names.
type hostEvent struct {
	name string
	args []*ast.Arg
	rest map[string]*ast.FieldInit // the argument's other fields
	ok   bool
}

// hostEventOf reads the event of x, the argument of c: a string (its
// name), or an object with the fields name and data, or event (an object
// with name and data); the fields in keep may sit beside those and are
// returned in rest.
func (p *parser) hostEventOf(c *ast.Call, x ast.Expr, keep ...string) hostEvent {
	var ev hostEvent
	if s, ok := x.(*ast.StrLit); ok {
		ev.name, ev.ok = s.Value, p.hostName(c, s)
		return ev
	}
	o, ok := x.(*ast.ObjectLit)
	if !ok {
		p.hostError(c, "takes an object such as {name: \"e\", data: {...}}, or an event's name: write one of those in place of %s", printer.ExprString(x))
		return ev
	}
	ev.rest = make(map[string]*ast.FieldInit)
	var others []*ast.FieldInit // the fields beside the event's, in order
	fields := o.Fields
	if f := field(fields, "event"); f != nil {
		if e, ok := f.Value.(*ast.EventField); ok && e.Field == "" && len(keep) > 0 {
			// SCXML.send({event: _event}): scxmlrun sends the event
			// being processed, its name and data (the reader expands it).
			for _, g := range fields {
				if g.Name != "event" && !slices.Contains(keep, g.Name) {
					p.errorPos(g.NamePos, fmt.Sprintf("%s with field %s: setbot reads the fields name and data of the event%s", c.Fun, g.Name, extraFields(keep)))
					return ev
				}
				ev.rest[g.Name] = g
			}
			ev.name, ev.ok = ForwardEvent, true
			return ev
		}
		if e, ok := f.Value.(*ast.EventField); ok && e.Field == "" {
			p.hostError(c, "of _event raises the event being processed again, which is not modelled: name the event, {event: {name: \"e\", data: {...}}}")
			return ev
		}
		inner, ok := f.Value.(*ast.ObjectLit)
		if !ok {
			p.hostError(c, "with event %s: write the event as an object, {name: \"e\", data: {...}}", printer.ExprString(f.Value))
			return ev
		}
		for _, g := range fields {
			if g.Name != "event" {
				others = append(others, g)
			}
		}
		fields = inner.Fields
	}
	for _, g := range fields {
		switch g.Name {
		case "name", "data":
		default:
			others = append(others, g)
		}
	}
	for _, g := range others {
		if !slices.Contains(keep, g.Name) {
			p.errorPos(g.NamePos, fmt.Sprintf("%s with field %s: setbot reads the fields name and data of the event%s", c.Fun, g.Name, extraFields(keep)))
			return ev
		}
		ev.rest[g.Name] = g
	}
	n := field(fields, "name")
	if n == nil {
		p.hostError(c, "without the event's name: write {name: \"e\", ...}")
		return ev
	}
	s, ok := n.Value.(*ast.StrLit)
	if !ok {
		p.errorPos(n.Value.Pos(), fmt.Sprintf("%s with a computed event name %s: setbot reads an event's name written as a string", c.Fun, printer.ExprString(n.Value)))
		return ev
	}
	if !p.hostName(c, s) {
		return ev
	}
	ev.name = s.Value
	if d := field(fields, "data"); d != nil {
		ev.args = dataArgs(d)
	}
	ev.ok = true
	return ev
}

// dataArgs are the event arguments that the data field d gives: its
// fields for an object literal (as <param>s give them), and otherwise the
// value as a whole (as <content> gives it).
func dataArgs(d *ast.FieldInit) []*ast.Arg {
	if o, ok := d.Value.(*ast.ObjectLit); ok {
		args := make([]*ast.Arg, 0, len(o.Fields))
		for _, f := range o.Fields {
			args = append(args, &ast.Arg{NamePos: f.NamePos, Name: f.Name, Value: f.Value})
		}
		return args
	}
	if a, ok := d.Value.(*ast.Absent); ok && !a.Null {
		return nil
	}
	return []*ast.Arg{{NamePos: d.NamePos, Name: ast.DataParam, Value: d.Value}}
}

func (p *parser) hostName(c *ast.Call, s *ast.StrLit) bool {
	if s.Value == "" || strings.ContainsAny(s.Value, " \t\n*") {
		p.errorPos(s.ValuePos, fmt.Sprintf("%s of an invalid event name %q: write one name of dot-separated words", c.Fun, s.Value))
		return false
	}
	return true
}

func (p *parser) hostRaise(c *ast.Call) ast.Stmt {
	ev := p.hostEventOf(c, c.Args[0])
	if !ev.ok {
		return nil
	}
	return &ast.Raise{RaisePos: c.FunPos, Event: ev.name, Args: ev.args}
}

func (p *parser) hostSend(c *ast.Call) ast.Stmt {
	ev := p.hostEventOf(c, c.Args[0], "target", "type", "topic")
	if !ev.ok {
		return nil
	}
	str := func(name string) (string, bool) {
		f := ev.rest[name]
		if f == nil {
			return "", true
		}
		s, ok := f.Value.(*ast.StrLit)
		if !ok {
			p.errorPos(f.Value.Pos(), fmt.Sprintf("%s with a computed %s %s: write it as a string", c.Fun, name, printer.ExprString(f.Value)))
			return "", false
		}
		return strings.TrimSpace(s.Value), true
	}
	target, ok1 := str("target")
	typ, ok2 := str("type")
	topic, ok3 := str("topic")
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	switch {
	case typ != "" && !IsSCXMLProcessor(typ):
		p.errorPos(ev.rest["type"].NamePos, fmt.Sprintf("%s of type %q: setbot has only the SCXML event processor, %q", c.Fun, typ, "scxml"))
		return nil
	case target != "":
	case topic != "":
		target = "#_" + topic
	case typ == "":
		target = "#_parent"
	}
	return &ast.Send{SendPos: c.FunPos, Event: ev.name, Args: ev.args, Target: target}
}

func field(fs []*ast.FieldInit, name string) *ast.FieldInit {
	for _, f := range fs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func extraFields(keep []string) string {
	if len(keep) == 0 {
		return ""
	}
	return ", and of the send " + strings.Join(keep, ", ")
}

// errorPos reports an error at pos, a position in the parser's snippet.
func (p *parser) errorPos(pos source.Pos, msg string) {
	p.errs = append(p.errs, &source.Error{Pos: p.src.positionOf(pos), Msg: msg})
}

// parseNew parses new Array(...) and new Object(), from the constructor's
// name; off is the offset of new. They are literals: new Object() is {},
// new Array() is [], and new Array(a, b, ...) of two or more elements, or
// of one that is no number, is [a, b, ...]. new Array(n) of a number n
// makes n holes, which setbot does not model; it is refused.
func (p *parser) parseNew(off int) ast.Expr {
	ctor, at := p.lit, p.off
	p.next()
	var args []ast.Expr
	if p.tok == ast.LPAREN {
		args = p.parseCallArgs()
		mark := len(p.errs)
		p.closeParen()
		if len(p.errs) > mark {
			return p.bad(off)
		}
	}
	if ctor == "Object" {
		if len(args) > 0 {
			p.refuseAt(at, "new Object(value) is not modelled: write an object literal {name: value, ...}")
			return p.bad(off)
		}
		return &ast.ObjectLit{Lbrace: p.pos(off)}
	}
	if len(args) == 1 {
		switch args[0].(type) {
		case *ast.StrLit, *ast.BoolLit, *ast.ArrayLit, *ast.ObjectLit, *ast.Absent:
		default:
			p.refuseAt(at, "new Array(n) makes an array of n holes, which setbot does not model: write the elements, [a, b, ...]")
			return p.bad(off)
		}
	}
	return &ast.ArrayLit{Lbrack: p.pos(off), Elems: args}
}

// IsHostFunction reports whether fun may name a host function: no built-in,
// no method setbot knows of ECMAScript's own objects, and not console's or
// SCXML's (statements of their own).
func IsHostFunction(fun string) bool {
	if builtinNames[fun] || ast.IsKeyword(fun) || fun == "In" {
		return false
	}
	obj := hostObject(fun)
	method := fun[strings.LastIndexByte(fun, '.')+1:]
	return obj != "Math" && !hostObjects[obj] && method != "" && (obj == "" || !builtinMethods[method] && !growingMethods[method] && stringAlternatives[method] == "")
}

// HostMsg is the refusal of a call of the host function fun whose use
// gives no type.
func HostMsg(fun string) string {
	if fun == "new Date" {
		return "new Date() is a black box of the host's (the time), read as a number where its use gives that type " +
			"(new Date() - t > 900, compared with a number literal), and here it does not: use it in such a comparison"
	}
	return "call of " + fun + ", a function the model does not define (its host's): setbot reads such a call as a black box of unknown result " +
		"where its use gives the type (compared with a literal, in a condition, in arithmetic), and here it does not; " +
		"declare it, <setbot:function name=\"" + fun + "\" returns=\"int\"/> (or bool, decimal, string), or compare its result with a literal"
}

// hostPath returns the dotted name of x, a variable or a chain of fields
// of one (blackjack, app.ui), whose method a call names: a host object's.
func hostPath(x ast.Expr) (string, bool) {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name, true
	case *ast.Member:
		s, ok := hostPath(x.X)
		return s + "." + x.Name, ok
	}
	return "", false
}

// builtinMethods are methods of ECMAScript's arrays, strings, numbers and
// objects that setbot does not model: a call of one is refused, not read
// as a host's.
var builtinMethods = map[string]bool{
	"join": true, "slice": true, "splice": true, "map": true, "filter": true, "reduce": true, "forEach": true,
	"some": true, "every": true, "find": true, "findIndex": true, "sort": true, "reverse": true, "push": true,
	"pop": true, "shift": true, "unshift": true, "split": true,
	"toUpperCase": true, "toLowerCase": true, "trim": true, "toString": true, "toFixed": true, "valueOf": true,
	"hasOwnProperty": true, "padStart": true, "padEnd": true, "repeat": true, "match": true, "search": true,
}
