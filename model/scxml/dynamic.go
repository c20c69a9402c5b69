package scxml

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// A <send> whose event, target or type is an expression (eventexpr,
// targetexpr, typeexpr), or whose id is generated (idlocation), and a
// <cancel> whose id is an expression (sendidexpr), are read as
// placeholders and expanded once every block of the model is read
// (expandDynamic): which values an expression can take depends on the
// assignments anywhere in the model. The expansion writes only what the
// rest of setbot already runs: an if/else chain over the values, each
// branch a <send> with fixed attributes, so the flattener, the executors
// and the interpreter need nothing of their own for it.

// dynSend is a <send> with an attribute computed when it runs.
type dynSend struct {
	pos          source.Pos
	event        string   // the event attribute, or ""
	eventExpr    ast.Expr // eventexpr, or nil
	eventAttr    attribute
	target       string   // the target attribute, or ""
	targetExpr   ast.Expr // targetexpr, or nil
	typeExpr     ast.Expr // typeexpr, or nil
	delay        ast.Expr // delay or delayexpr, or nil
	id, location string   // location: the idlocation variable
	args         []*ast.Arg
}

// generatedID is the send id setbot generates for the n-th <send> (in
// reading order) whose idlocation is loc. It is one per <send> element,
// not per execution: see the README.
func generatedID(loc string, n int) string { return fmt.Sprintf("_send.%s.%d", loc, n) }

// placeholders is what reading gives the phase of computed sends: the
// sends and cancels with computed attributes, read as placeholders, and
// the blocks that hold them, in reading order.
type placeholders struct {
	sends   map[*ast.Send]*dynSend
	cancels map[*ast.Cancel]ast.Expr
	blocks  []*ast.Block // every block of executable content read (deferBlock)
	// idCount is how many sends of each idlocation have been read.
	idCount map[string]int
}

func newPlaceholders() *placeholders {
	return &placeholders{sends: make(map[*ast.Send]*dynSend), cancels: make(map[*ast.Cancel]ast.Expr), idCount: make(map[string]int)}
}

// deferBlock makes a block whose statements are lowered (lowerBlock) once
// the placeholders in it are expanded (expandDynamic).
func (ph *placeholders) deferBlock(stmts []ast.Stmt) *ast.Block {
	blk := &ast.Block{Stmts: stmts}
	ph.blocks = append(ph.blocks, blk)
	return blk
}

// send returns the placeholder of d.
func (ph *placeholders) send(d *dynSend) *ast.Send {
	s := &ast.Send{SendPos: d.pos}
	ph.sends[s] = d
	return s
}

// cancel returns the placeholder of a <cancel> at pos whose id is e.
func (ph *placeholders) cancel(pos source.Pos, e ast.Expr) *ast.Cancel {
	c := &ast.Cancel{CancelPos: pos}
	ph.cancels[c] = e
	return c
}

// nextID returns the id of the next <send> read whose idlocation is loc.
func (ph *placeholders) nextID(loc string) string {
	ph.idCount[loc]++
	return generatedID(loc, ph.idCount[loc])
}

// values is what the reader knows of the values of the variables: every
// expression assigned to each (its initial value included), the
// variables written in ways it does not follow (opaque), and the arrays
// that keep their initial value (consts).
type values struct {
	m       *model.Model
	assigns map[string][]ast.Expr
	undef   map[string]bool // may hold undefined (a <data> without a value)
	opaque  map[string]bool
	consts  map[string]*ast.ArrayLit
	// names are the names _event.name may hold in the block being
	// expanded, and all those it may hold anywhere (eventNames); nil where
	// they are not known.
	names, all []string
	readName   bool // _event.name was read since it was last reset
	endless    bool // the names all computes grow without end (eventNames)
	owner      map[*ast.Block]*model.Transition
	// cycle: a variable was read whose values were being collected, so
	// that a value computed from it (computed) is not known yet.
	cycle bool
}

// collectValues collects the values of the variables of m from its
// initial values and from all, its code, and funcs, its functions, where
// the sends of ph store the ids setbot generates. The value of a variable
// an invoking machine passes is the parent's: not followed.
func collectValues(m *model.Model, ph *placeholders, all []code, funcs map[string]*ast.FuncDecl) *values {
	vs := &values{m: m, assigns: make(map[string][]ast.Expr), undef: make(map[string]bool), opaque: make(map[string]bool)}
	var nodes []ast.Node
	for _, v := range m.Vars {
		if _, ok := v.Init.(*ast.Absent); ok {
			vs.undef[v.Name] = true
		} else if v.Init != nil {
			vs.assigns[v.Name] = append(vs.assigns[v.Name], v.Init)
			nodes = append(nodes, v.Init)
		}
		if v.Passed {
			vs.opaque[v.Name] = true
		}
	}
	for _, c := range all {
		vs.collect(c.body, ph, nil)
		nodes = append(nodes, c.nodes()...)
	}
	for _, f := range funcs {
		vs.collect(f.Body, ph, f.Locals())
		nodes = append(nodes, f)
	}
	vs.consts = constArrays(m, nodes)
	return vs
}

// collect notes the assignments of body to the variables. In a function's
// body (with locals, its parameters and local variables), those to a
// local are none of theirs, and a value computed from a local is not
// followed.
func (vs *values) collect(body *ast.Block, ph *placeholders, locals map[string]bool) {
	global := func(id *ast.Ident) bool { return id != nil && !locals[id.Name] }
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.Assign:
			readsLocal := ast.Any(s.Value, func(n ast.Node) bool { id, ok := n.(*ast.Ident); return ok && locals[id.Name] })
			switch {
			case !global(s.Target):
			case s.Op == ast.ASSIGN && !readsLocal:
				vs.assigns[s.Target.Name] = append(vs.assigns[s.Target.Name], s.Value)
			default:
				vs.opaque[s.Target.Name] = true
			}
		case *ast.IncDec:
			vs.opaque[s.Target.Name] = vs.opaque[s.Target.Name] || global(s.Target)
		case *ast.ForEach:
			for _, id := range []*ast.Ident{s.Item, s.Index} {
				if global(id) {
					vs.opaque[id.Name] = true
				}
			}
		case *ast.Send:
			if d := ph.sends[s]; d != nil && d.location != "" {
				vs.assigns[d.location] = append(vs.assigns[d.location], &ast.StrLit{ValuePos: d.pos, Value: d.id})
			}
		}
		return true
	})
}

// of returns the string values e can take, sorted, and whether it may be
// undefined; ok is false when they are not known from the model (e reads
// an event's data, or a variable some code computes) or e may be a
// number. Literals, _sessionid, _name, _event.origin and
// _event.origintype, c ? a : b, variables whose every assignment is
// known, elements of constant arrays and what computed computes from them
// are.
func (vs *values) of(e ast.Expr) (vals []string, undef, ok bool) {
	set := make(map[value]bool)
	ok = vs.into(e, set, &undef, make(map[string]bool))
	for v := range set {
		if v.num {
			return nil, undef, false // the expansion compares strings
		}
		vals = append(vals, v.str)
	}
	sort.Strings(vals)
	return vals, undef, ok
}

// into adds to set the values e can take, sets undef where it may be
// undefined, and reports whether they are known (of); seen holds the
// variables whose values are being collected.
func (vs *values) into(e ast.Expr, set map[value]bool, undef *bool, seen map[string]bool) bool {
	switch x := e.(type) {
	case *ast.StrLit:
		set[value{str: x.Value}] = true
		return true
	case *ast.IntLit:
		return intLit(x, set)
	case *ast.Index:
		return vs.element(x, set, undef, seen)
	case *ast.Absent:
		*undef = true
		return true
	case *ast.SysVar:
		switch x.Name {
		case "_sessionid":
			set[value{str: model.SessionID}] = true
			return true
		case "_name":
			set[value{str: vs.m.Name}] = true
			return true
		}
	case *ast.EventField:
		return vs.eventField(x, set, undef)
	case *ast.Cond:
		return vs.into(x.Then, set, undef, seen) && vs.into(x.Else, set, undef, seen)
	case *ast.Binary, *ast.Method, *ast.Unary:
		return vs.computed(x, set, seen)
	case *ast.Ident:
		if vs.opaque[x.Name] || vs.m.Var(x.Name) == nil {
			return false
		}
		if seen[x.Name] {
			vs.cycle = true
			return true // its values are being collected
		}
		seen[x.Name] = true
		// An assignment may run after any event.
		names := vs.names
		vs.names = vs.all
		defer func() { vs.names = names }()
		if vs.undef[x.Name] {
			*undef = true
		}
		for _, a := range vs.assigns[x.Name] {
			if !vs.into(a, set, undef, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// eventField adds to set the values the field x of _event can take, and
// reports whether they are known.
func (vs *values) eventField(x *ast.EventField, set map[value]bool, undef *bool) bool {
	// The events the machine sends itself come from its own session
	// through the SCXML processor; the others have no origin.
	switch x.Field {
	case "origin":
		set[value{str: model.SessionLocation}], *undef = true, true
		return true
	case "origintype":
		set[value{str: parser.SCXMLProcessor}], *undef = true, true
		return true
	case "name":
		vs.readName = true
		for _, n := range vs.names {
			set[value{str: n}] = true
		}
		return vs.names != nil
	}
	return false
}

// expandDynamic is the phase of computed sends. It takes the model m as
// read, all its code and its functions (funcs), the placeholders ph that reading left in its blocks
// and the lowerer; it expands the placeholders of every block read into
// fixed sends and cancels (expander), lowers the block, and gives the
// statements of each block as expanded, before lowering, which checking
// lowers again where the types show more elements to fail
// (failNonArrays).
func expandDynamic(d *diag, m *model.Model, all []code, funcs map[string]*ast.FuncDecl, ph *placeholders, low *lowerer) (map[*ast.Block][]ast.Stmt, map[string]source.Pos) {
	xp := &expander{diag: d, m: m, ph: ph, low: low, vs: collectValues(m, ph, all, funcs)}
	xp.ids = xp.timerIDs(all)
	xp.outputs = xp.outputTargets(all)
	compared := comparedNames(m, all, xp.vs)
	xp.eventNames(xp.vs, compared)
	source := make(map[*ast.Block][]ast.Stmt)
	for _, blk := range ph.blocks {
		xp.vs.block(blk)
		stmts := xp.expandList(blk.Stmts)
		source[blk] = stmts
		blk.Stmts = low.lowerBlock(stmts)
	}
	return source, compared
}

// expander writes the placeholders of computed sends and cancels as fixed
// ones, from what the model shows of the values of their expressions
// (vs), the ids of its delayed sends and the outputs it names.
type expander struct {
	*diag
	m            *model.Model
	ph           *placeholders
	low          *lowerer
	vs           *values
	ids, outputs []string
}

// timerIDs are the ids a <cancel> can name: those of the delayed sends.
func (xp *expander) timerIDs(all []code) []string {
	return sendSet(all, nil, func(s *ast.Send) string {
		if d := xp.ph.sends[s]; d != nil && d.delay != nil {
			return d.id
		}
		if s.Delay != nil {
			return s.ID
		}
		return ""
	})
}

// outputTargets are the output channels the model names: #_parent and the
// fixed #_NAME targets of its sends.
func (xp *expander) outputTargets(all []code) []string {
	return sendSet(all, []string{model.TargetParent}, func(s *ast.Send) string {
		if xp.ph.sends[s] == nil && strings.HasPrefix(s.Target, "#_") && sendError(s.Target) == "" && s.Target != model.TargetInternal {
			return s.Target
		}
		return ""
	})
}

// sendSet returns, sorted and without repeats, the given words and what
// word says of each send of all ("" for nothing).
func sendSet(all []code, given []string, word func(*ast.Send) string) []string {
	set := make(map[string]bool)
	for _, w := range given {
		set[w] = true
	}
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			if s, ok := n.(*ast.Send); ok {
				if w := word(s); w != "" {
					set[w] = true
				}
			}
			return true
		})
	}
	return slices.Sorted(maps.Keys(set))
}

func (xp *expander) expandList(stmts []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range stmts {
		switch x := s.(type) {
		case *ast.Send:
			if d := xp.ph.sends[x]; d != nil {
				out = append(out, xp.expandSend(d)...)
				continue
			}
		case *ast.Cancel:
			if e := xp.ph.cancels[x]; e != nil {
				out = append(out, xp.expandCancel(x, e)...)
				continue
			}
		case *ast.If:
			y := *x
			y.Then = &ast.Block{Lbrace: x.Then.Lbrace, Stmts: xp.expandList(x.Then.Stmts)}
			if x.Else != nil {
				y.Else = xp.expandList([]ast.Stmt{x.Else})[0]
			}
			out = append(out, &y)
			continue
		case *ast.Block:
			out = append(out, &ast.Block{Lbrace: x.Lbrace, Stmts: xp.expandList(x.Stmts)})
			continue
		case *ast.ForEach:
			y := *x
			y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: xp.expandList(x.Body.Stmts)}
			out = append(out, &y)
			continue
		}
		out = append(out, s)
	}
	return out
}

// failRaise is the raise of error.execution that stands for a <send> that
// fails when it runs with a value it computed: the rest of its block is
// skipped (lowerSends). No warning: the model may never compute it.
func (xp *expander) failRaise(pos source.Pos, id string) *ast.Raise {
	r := &ast.Raise{RaisePos: pos, Event: model.ErrorExecution, ID: id, Platform: true}
	xp.low.failed[r] = true
	return r
}

func strictEq(x ast.Expr, v string) ast.Expr {
	return &ast.Binary{X: x, OpPos: x.Pos(), Op: ast.SEQL, Y: &ast.StrLit{ValuePos: x.Pos(), Value: v}}
}

func startsWith(x ast.Expr, prefix string) ast.Expr {
	return &ast.Method{X: x, DotPos: x.Pos(), Name: "startsWith", Call: true, Args: []ast.Expr{&ast.StrLit{ValuePos: x.Pos(), Value: prefix}}}
}

// arm is one branch of a chain: taken when cond holds (nil: always).
type arm struct {
	cond ast.Expr
	then []ast.Stmt
}

// chain writes if (c1) {…} else if (c2) {…} … for the arms; an arm without
// a condition ends it.
func chain(pos source.Pos, arms []arm) []ast.Stmt {
	var tail ast.Stmt
	for i := len(arms) - 1; i >= 0; i-- {
		a := arms[i]
		blk := &ast.Block{Lbrace: pos, Stmts: a.then}
		if a.cond == nil {
			tail = blk
			continue
		}
		tail = &ast.If{IfPos: pos, Cond: a.cond, Then: blk, Else: tail}
	}
	switch t := tail.(type) {
	case nil:
		return nil
	case *ast.Block:
		return t.Stmts
	}
	return []ast.Stmt{tail}
}

// byValue writes a chain over the values an expression takes: one arm per
// value, the last without a test unless the expression may also be
// undefined, in which case undef is the last arm.
func byValue(pos source.Pos, e ast.Expr, vals []string, undefined bool, arm1 func(v string) []ast.Stmt, undef []ast.Stmt) []ast.Stmt {
	var arms []arm
	for i, v := range vals {
		a := arm{cond: strictEq(e, v), then: arm1(v)}
		if i == len(vals)-1 && !undefined {
			a.cond = nil
		}
		arms = append(arms, a)
	}
	if undefined {
		arms = append(arms, arm{then: undef})
	}
	return chain(pos, arms)
}

// expandSend writes the <send> d as fixed sends: first the generated id
// assigned to its idlocation (as the send starts, so that the id is there
// even when the send fails), then a chain over its type, its event and its
// target.
func (xp *expander) expandSend(d *dynSend) []ast.Stmt {
	var out []ast.Stmt
	if v := xp.m.Var(d.location); v != nil && v.Type.Kind != ast.Undef && v.Type.Kind != ast.String {
		xp.errorf(xp.file.Offset(d.pos), "idlocation %s holds %s values, and a send id is a string: store the id in a variable of its own (a <data> without expr)", d.location, v.Type.Kind)
		return nil
	}
	if d.location != "" {
		out = append(out, &ast.Assign{Target: &ast.Ident{NamePos: d.pos, Name: d.location}, OpPos: d.pos, Op: ast.ASSIGN,
			Value: &ast.StrLit{ValuePos: d.pos, Value: d.id}})
	}
	fail := func() []ast.Stmt { return []ast.Stmt{xp.failRaise(d.pos, d.id)} }
	byTarget := func(event string) []ast.Stmt {
		if d.targetExpr == nil {
			return []ast.Stmt{xp.fixedSend(d, event, d.target)}
		}
		vals, undef, ok := xp.vs.of(d.targetExpr)
		if ok {
			return byValue(d.pos, d.targetExpr, vals, undef, func(t string) []ast.Stmt { return []ast.Stmt{xp.fixedSend(d, event, t)} }, fail())
		}
		// Not known from the model: a chain over the classes of targets
		// (sendError), the outputs the model names, and the rest.
		e := d.targetExpr
		self := model.SessionLocation
		arms := []arm{
			{strictEq(e, model.TargetInternal), []ast.Stmt{xp.fixedSend(d, event, model.TargetInternal)}},
			{strictEq(e, self), []ast.Stmt{xp.fixedSend(d, event, self)}},
			{startsWith(e, model.TargetSessionPrefix), []ast.Stmt{xp.fixedSend(d, event, model.TargetSessionPrefix)}},
		}
		for _, o := range xp.outputs {
			arms = append(arms, arm{strictEq(e, o), []ast.Stmt{xp.fixedSend(d, event, o)}})
		}
		// An output channel the model does not name cannot be reached.
		arms = append(arms, arm{startsWith(e, "#_"), []ast.Stmt{&ast.Raise{RaisePos: d.pos, Event: model.ErrorCommunication, ID: d.id, Platform: true}}})
		return chain(d.pos, append(arms, arm{then: fail()}))
	}
	var body []ast.Stmt
	if d.eventExpr == nil {
		body = byTarget(d.event)
	} else {
		xp.vs.readName = false
		vals, undef, ok := xp.vs.of(d.eventExpr)
		if !ok {
			xp.refuseEventExpr(d)
			return nil
		}
		body = byValue(d.pos, d.eventExpr, vals, undef, func(ev string) []ast.Stmt {
			if !validEventName(ev) {
				return fail()
			}
			return byTarget(ev)
		}, fail())
	}
	if d.typeExpr != nil {
		body = chain(d.pos, []arm{
			{&ast.Binary{X: strictEq(d.typeExpr, parser.SCXMLProcessor), OpPos: d.pos, Op: ast.LOR, Y: strictEq(d.typeExpr, "scxml")}, body},
			{then: fail()},
		})
	}
	return append(out, body...)
}

// refuseEventExpr refuses the eventexpr of d, whose values the model does
// not tell, saying why where it can.
func (xp *expander) refuseEventExpr(d *dynSend) {
	expr := strings.TrimSpace(d.eventAttr.Value)
	const instead = "name the event in event=\"...\" (one <send> per event, under <if> where it varies)"
	passed := ""
	ast.Any(d.eventExpr, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && xp.m.Var(id.Name) != nil && xp.m.Var(id.Name).Passed {
			passed = id.Name
		}
		return passed != ""
	})
	number := false // every value known, one of them a number: of refuses it
	set, undef := make(map[value]bool), false
	if xp.vs.into(d.eventExpr, set, &undef, make(map[string]bool)) {
		for v := range set {
			number = number || v.num
		}
	}
	switch {
	case number:
		xp.refusef(d.eventAttr.Offsets0(), "eventexpr %q may be a number, and setbot takes only strings for event names: make it a string (write '' + the number), or "+instead, expr)
	case xp.vs.readName && xp.vs.endless:
		xp.refusef(d.eventAttr.Offsets0(), "eventexpr %q reads _event.name, and the events this model's eventexprs compute from _event.name are taken and computed from again without end: setbot cannot tell all the events they name; "+instead, expr)
	case passed != "":
		xp.refusef(d.eventAttr.Offsets0(), "eventexpr %q reads %s, which the invoking machine's <param> sets: setbot cannot tell which events it names (it does not follow the parent's values into the child); "+instead, expr, passed)
	default:
		xp.refusef(d.eventAttr.Offsets0(), "eventexpr %q: setbot cannot tell which events it names (the value is computed at run time); "+instead+", or assign the variable only string constants", expr)
	}
}

func validEventName(name string) bool {
	return name != "" && !strings.ContainsAny(name, " \t\n*")
}

// fixedSend is d sent with a fixed event and target, as a <send> with
// those attributes reads (send).
func (xp *expander) fixedSend(d *dynSend, event, target string) ast.Stmt {
	id := d.id
	switch {
	case target == model.TargetInternal && d.delay == nil:
		return &ast.Raise{RaisePos: d.pos, Event: event, Args: d.args, ID: id}
	case target == model.TargetInternal:
		xp.refusef(xp.file.Offset(d.pos), "a delayed <send> whose target may be #_internal is not supported: remove the delay or the target")
	case target == model.SessionLocation:
		target = "" // the machine's own session: its external queue
	case target != "" && d.delay != nil && sendError(target) == "":
		xp.refusef(xp.file.Offset(d.pos), "a delayed <send> whose target may be the external target %q is not supported: delay an event to the machine itself, and send to %q when it arrives", target, target)
	}
	if target != "" && sendError(target) == "" {
		id = "" // an output's send id is nothing the machine can observe
	}
	return &ast.Send{SendPos: d.pos, Event: event, Args: d.args, Target: target, Delay: d.delay, ID: id}
}

// expandCancel writes <cancel sendidexpr> as a chain of fixed cancels over
// the ids of the model's delayed sends (a cancel of any other id changes
// nothing), those the expression can take where they are known.
func (xp *expander) expandCancel(c *ast.Cancel, e ast.Expr) []ast.Stmt {
	ids := xp.ids
	if vals, _, ok := xp.vs.of(e); ok {
		ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return !slices.Contains(vals, id) })
	}
	var arms []arm
	for _, id := range ids {
		arms = append(arms, arm{strictEq(e, id), []ast.Stmt{&ast.Cancel{CancelPos: c.CancelPos, SendID: id}}})
	}
	return chain(c.CancelPos, arms)
}
