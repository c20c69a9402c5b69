// Package ast declares the syntax trees of setbot's action language
// (package lang), as go/ast does Go's: the nodes, the tokens, the types a
// declaration or a setbot:type annotation names (the language's types are
// written in its text, so they belong to its syntax), the one child walker
// from which Inspect, Equal, Key and the rewriting functions derive, and
// the limits on a tree's size and nesting
// (docs/architecture.md §The action language).
//
// Nodes are never changed once built: passes that transform a tree
// (lowering, inlining, simplification, in package lang) return new trees.
package ast

import (
	"fmt"
	"math/big"

	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Node is any AST node.
type Node interface {
	Pos() source.Pos
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Expressions.
type (
	// IntLit is an integer literal.
	IntLit struct {
		ValuePos source.Pos
		Value    int64
	}

	// DecLit is a decimal literal, 1.5 or 2e3: a number with a fraction or
	// an exponent. Value is its value as ECMAScript reads it, the exact
	// value of the nearest double (ParseDecimal); Text is the literal as
	// written ("" for one the lowering or folding made, printed from
	// Value). Rounded says that the written value is not exactly a double
	// (0.1), so that Value is a rounding of it.
	DecLit struct {
		ValuePos source.Pos
		Value    *big.Rat
		Text     string
		Rounded  bool
	}

	// ToDecimal is Number(X): the int or decimal X as a decimal. ECMAScript
	// has one number type, so it is X itself there; in setbot it marks
	// where an int meets a decimal, and the lowering writes it wherever one
	// does.
	ToDecimal struct {
		Start source.Pos
		X     Expr
	}

	// BoolLit is true or false.
	BoolLit struct {
		ValuePos source.Pos
		Value    bool
	}

	// StrLit is a string literal, 'abc' or "abc"; Value is decoded.
	StrLit struct {
		ValuePos source.Pos
		Value    string
	}

	// Absent is undefined or null (Null set).
	Absent struct {
		ValuePos source.Pos
		Null     bool
	}

	// TypeOf is typeof X: "number", "boolean", "string", "undefined" or
	// "object" (null).
	TypeOf struct {
		OpPos source.Pos
		X     Expr
	}

	// EventField is a field of the event being processed other than its
	// data: _event.Field with Field one of EventFields. An empty Field is
	// _event itself: an object (undefined before the first event), and in
	// lowered code only a condition (whether an event has been processed).
	// Lowered code also reads the tag of a field that may be undefined,
	// AbsentName(Field).
	EventField struct {
		Start source.Pos
		Field string
	}

	// SysVar is an SCXML system variable that holds a string: _sessionid,
	// _name, or the location of an event I/O processor,
	// _ioprocessors['Processor'].location (Name "_ioprocessors"), where
	// Processor is the key as written; or, with Name "_ioprocessors" and no
	// Processor, the _ioprocessors object itself (which lowering replaces
	// by its identity).
	SysVar struct {
		NamePos   source.Pos
		Name      string
		Processor string
	}

	// Method is a string property or method: X.length (Call false, no
	// Args) or X.Name(Args) with Name one of StringMethods.
	Method struct {
		X      Expr
		DotPos source.Pos
		Name   string
		Call   bool
		Args   []Expr
	}

	// Ident names a machine variable or a local.
	Ident struct {
		NamePos source.Pos
		Name    string
	}

	// EventParam is _event.data.Name: a parameter of the event being
	// processed; with Name DataParam, _event.data as a whole.
	EventParam struct {
		Start source.Pos
		Name  string
	}

	// InState is In('State'): whether the state is active.
	InState struct {
		Start source.Pos
		State string
	}

	// Unary is a prefix operation: NOT, SUB (negation) or TILD (bitwise
	// not).
	Unary struct {
		OpPos source.Pos
		Op    Token
		X     Expr
	}

	// Binary is an infix operation: arithmetic, comparison, bit operation,
	// LAND or LOR.
	Binary struct {
		X     Expr
		OpPos source.Pos
		Op    Token
		Y     Expr
	}

	// Cond is Cond ? Then : Else.
	Cond struct {
		Cond     Expr
		Question source.Pos
		Then     Expr
		Else     Expr
	}

	// ArrayLit is an array literal [Elems...].
	ArrayLit struct {
		Lbrack source.Pos
		Elems  []Expr
	}

	// ObjectLit is an object literal {Name: Value, ...}.
	ObjectLit struct {
		Lbrace source.Pos
		Fields []*FieldInit
	}

	// Index is X[Index]: an element of an array.
	Index struct {
		X      Expr
		Lbrack source.Pos
		Index  Expr
	}

	// Member is X.Name: a field of an object. (X.length and the string
	// methods are Method.)
	Member struct {
		X      Expr
		DotPos source.Pos
		Name   string
	}

	// Floor is the greatest int not above the decimal X: Math.floor of a
	// decimal, which the lowering writes (and builds Math.ceil, round and
	// trunc of a decimal from). It prints as Math.floor(X).
	Floor struct {
		Start source.Pos
		X     Expr
	}

	// Digits is the decimal digits of the int X, which is not negative:
	// String(X) for X >= 0, which the lowering writes (String of an int
	// puts a '-' before the digits of -X). It prints as String(X).
	Digits struct {
		Start source.Pos
		X     Expr
	}

	// Convert is a conversion between strings and numbers whose value
	// ECMAScript may leave undefined (NaN) or setbot computes exactly only
	// on a range (package ecma): parseInt of a string or a decimal (Fun
	// "parseInt", an int), Number of a string ("Number", a decimal) and
	// String of a decimal ("String", a string). The lowering writes it;
	// the executors cut the path with the bound vocab.BoundNumber where
	// the value is not exact. It prints as Fun(X), or parseInt(X, 10)
	// where Radix10 is set.
	//
	// Radix10 is whether a parseInt call gave the radix 10: without it,
	// ECMAScript reads a "0x" or "0X" prefix (after the white space and
	// sign) as base 16, which setbot leaves beyond the exact range.
	Convert struct {
		Start   source.Pos
		Fun     string
		X       Expr
		Radix10 bool
	}

	// Call is Fun(Args...): a call of a function declared in a <script>,
	// of a built-in (Math.max, parseInt, ...; Fun is the dotted name) or
	// of a black-box function declared with setbot:function. The SCXML
	// reader inlines the first two before checking (Inliner), so only a
	// black box reaches the checker, which makes it an External; any other
	// Call the checker refuses.
	Call struct {
		FunPos source.Pos
		Fun    string
		Args   []Expr
	}

	// External is a call of a black-box function, one whose code the model
	// does not hold (setbot:function): the executors answer it from the
	// function's summary, its table of input/output rows (Boudhiba, Gaston,
	// Le Gall and Prevosto, "Symbolic execution of transition systems with
	// function summaries", TAP 2017), or with a fresh value per call.
	// Params are its parameters' types, Result its result's: ints,
	// decimals, bools or strings.
	External struct {
		FunPos source.Pos
		Fun    string
		Args   []Expr
		Params []Type
		Result Type
	}
)

// FieldInit is one field of an object literal: Name: Value.
type FieldInit struct {
	NamePos source.Pos
	Name    string
	Value   Expr
}

// Sel is one step of an assignment's location below its variable: the
// field .Name, or the element [Index] when Index is not nil.
type Sel struct {
	Pos   source.Pos // of the '.' or the '['
	Name  string
	Index Expr
}

// Statements.
type (
	// Block is a sequence of statements; a scope for local declarations.
	Block struct {
		Lbrace source.Pos // NoPos for a top-level statement list
		Stmts  []Stmt
	}

	// Assign is Target Op Value with Op one of ASSIGN, ADD_ASSIGN,
	// SUB_ASSIGN, MUL_ASSIGN, QUO_ASSIGN, REM_ASSIGN. Path, when not
	// empty, makes the location a part of Target: a[i].f = v. Lowered
	// code has no paths.
	Assign struct {
		Target *Ident
		Path   []*Sel
		OpPos  source.Pos
		Op     Token
		Value  Expr
	}

	// IncDec is Target++ or Target-- (Op is INC or DEC), on a part of
	// Target when Path is not empty.
	IncDec struct {
		Target *Ident
		Path   []*Sel
		OpPos  source.Pos
		Op     Token
	}

	// Decl declares a local: "var x = e", "let x = e" (type inferred; Type
	// is the zero Type) or "int x = e", "bool b = e" (Type given). Value is
	// nil when the declaration has no initialiser (typed form only; the
	// local then starts at 0 or false).
	Decl struct {
		DeclPos source.Pos
		Name    *Ident
		Type    Type
		Value   Expr
	}

	// If is if (Cond) Then else Else; Else is nil, a *Block or an *If.
	If struct {
		IfPos source.Pos
		Cond  Expr
		Then  *Block
		Else  Stmt
	}

	// While is while (Cond) Body.
	While struct {
		WhilePos source.Pos
		Cond     Expr
		Body     *Block
	}

	// For is for (Init; Cond; Post) Body. Init is nil, *Decl, *Assign or
	// *IncDec; Post is nil, *Assign or *IncDec; a nil Cond means true.
	For struct {
		ForPos source.Pos
		Init   Stmt
		Cond   Expr
		Post   Stmt
		Body   *Block
	}

	// ForEach runs Body once for each element of Array, in order, with
	// Item set to the element and Index (nil for none) to its index:
	// for (item, index of array) body, SCXML's <foreach>. It iterates over
	// a shallow copy: assignments to the array in Body do not change what
	// it iterates over. Cond, when not nil, is tested before each
	// iteration and ends the loop when false: for (item, index of array;
	// cond) body. The SCXML reader sets it where an element of the body
	// raises error.execution, which ends the loop (SCXML §4.6). Local
	// makes Item and Index locals of Body, declared each time round, as
	// the parameters of ECMAScript's array.forEach(function (item, index)
	// {...}) are: for (let item, index of array) body; otherwise they are
	// variables the loop assigns. Lowered code has no ForEach.
	ForEach struct {
		ForPos source.Pos
		Item   *Ident
		Index  *Ident
		Array  Expr
		Cond   Expr
		Body   *Block
		Local  bool
	}

	// Raise puts Event on the internal queue: raise e(p: v, ...) [id "id"].
	// ID is the send id of a <send target="#_internal" id="...">, which
	// _event.sendid reads. Platform marks an event the platform raises
	// (_event.type "platform"): an error a failed send reports (with that
	// send's id) or a done.state event; no source code writes one, the
	// readers and the flattener do, and it prints as "raise platform e()".
	Raise struct {
		RaisePos source.Pos
		Event    string
		Args     []*Arg
		ID       string
		Platform bool
	}

	// Send sends Event: send e(p: v, ...) [to "target"] [after "delay"] [id "id"].
	// An empty Target is the machine itself (its external queue, as SCXML's
	// <send> without a target); any other target makes the event an output.
	// (The SCXML reader lowers a send to a target the SCXML event processor
	// cannot deliver to into a raise of error.execution or
	// error.communication, so such a Send never reaches the IR.)
	// A Delay makes it a timer: a string expression whose value is a CSS2
	// duration ("500ms", "2s", "1.5s"; model.ParseDelay reads it).
	// ID is the send id that a Cancel names; it matters only for a timer.
	Send struct {
		SendPos source.Pos
		Event   string
		Args    []*Arg
		Target  string
		Delay   Expr // nil: no delay
		ID      string
		// From is set only in a composed machine (model/compose): the
		// invoke id of the child session whose send to its parent this
		// is, which the event carries as _event.invokeid.
		From string
	}

	// Cancel removes every pending timer sent with SendID: cancel "id".
	Cancel struct {
		CancelPos source.Pos
		SendID    string
		// Prefix, set only in a composed machine (model/compose), cancels
		// every timer whose send id begins with SendID: the delayed sends
		// of a child session that ends.
		Prefix bool
	}

	// Assume cuts the path unless Cond holds. It does not occur in source
	// models: the flattener emits it where a condition is evaluated after
	// earlier actions of the same macrostep have written what it reads.
	Assume struct {
		AssumePos source.Pos
		Cond      Expr
	}

	// Bound goes on only where Cond holds; where it does not, the path
	// meets the bound Name, whose limit is Limit, and stops there: the
	// symbolic executor cuts it and counts it as a hit of Name, the
	// concrete executors stop with an error naming it. It does not occur
	// in source models: the lowering emits it where a value may outgrow
	// what a variable holds (vocab.BoundArray).
	Bound struct {
		BoundPos source.Pos
		Name     vocab.Bound
		Limit    int64
		Cond     Expr
	}

	// FuncDecl is function Name(Params...) Body, a function declared in a
	// <script>. The SCXML reader takes it out of the script and inlines
	// its calls (Inliner); no other code holds one.
	FuncDecl struct {
		FuncPos source.Pos
		Name    *Ident
		Params  []*Ident
		Body    *Block
	}

	// Return ends a function with the value Value (undefined when nil).
	// It occurs only in a FuncDecl's body.
	Return struct {
		ReturnPos source.Pos
		Value     Expr
	}
)

// Arg is one named event argument: Name: Value.
type Arg struct {
	NamePos source.Pos
	Name    string
	Value   Expr
}

func (x *IntLit) Pos() source.Pos     { return x.ValuePos }
func (x *StrLit) Pos() source.Pos     { return x.ValuePos }
func (x *DecLit) Pos() source.Pos     { return x.ValuePos }
func (x *ToDecimal) Pos() source.Pos  { return x.Start }
func (x *Absent) Pos() source.Pos     { return x.ValuePos }
func (x *TypeOf) Pos() source.Pos     { return x.OpPos }
func (x *EventField) Pos() source.Pos { return x.Start }
func (x *SysVar) Pos() source.Pos     { return x.NamePos }
func (x *Method) Pos() source.Pos     { return x.X.Pos() }
func (x *BoolLit) Pos() source.Pos    { return x.ValuePos }
func (x *Ident) Pos() source.Pos      { return x.NamePos }
func (x *EventParam) Pos() source.Pos { return x.Start }
func (x *InState) Pos() source.Pos    { return x.Start }
func (x *Unary) Pos() source.Pos      { return x.OpPos }
func (x *Binary) Pos() source.Pos     { return x.X.Pos() }
func (x *Cond) Pos() source.Pos       { return x.Cond.Pos() }
func (x *ArrayLit) Pos() source.Pos   { return x.Lbrack }
func (x *ObjectLit) Pos() source.Pos  { return x.Lbrace }
func (x *Index) Pos() source.Pos      { return x.X.Pos() }
func (x *Member) Pos() source.Pos     { return x.X.Pos() }
func (x *Call) Pos() source.Pos       { return x.FunPos }
func (x *Floor) Pos() source.Pos      { return x.Start }
func (x *Digits) Pos() source.Pos     { return x.Start }
func (x *Convert) Pos() source.Pos    { return x.Start }
func (x *External) Pos() source.Pos   { return x.FunPos }

func (s *Block) Pos() source.Pos {
	if s.Lbrace.IsValid() || len(s.Stmts) == 0 {
		return s.Lbrace
	}
	return s.Stmts[0].Pos()
}
func (s *Assign) Pos() source.Pos   { return s.Target.Pos() }
func (s *IncDec) Pos() source.Pos   { return s.Target.Pos() }
func (s *Decl) Pos() source.Pos     { return s.DeclPos }
func (s *If) Pos() source.Pos       { return s.IfPos }
func (s *While) Pos() source.Pos    { return s.WhilePos }
func (s *For) Pos() source.Pos      { return s.ForPos }
func (s *ForEach) Pos() source.Pos  { return s.ForPos }
func (s *Raise) Pos() source.Pos    { return s.RaisePos }
func (s *Send) Pos() source.Pos     { return s.SendPos }
func (s *Cancel) Pos() source.Pos   { return s.CancelPos }
func (s *Assume) Pos() source.Pos   { return s.AssumePos }
func (s *Bound) Pos() source.Pos    { return s.BoundPos }
func (s *FuncDecl) Pos() source.Pos { return s.FuncPos }
func (s *Return) Pos() source.Pos   { return s.ReturnPos }

// Locals returns the names local to s: its parameters and the names its
// body declares (var, let, a for-of loop's item and index).
func (s *FuncDecl) Locals() map[string]bool {
	locals := make(map[string]bool)
	for _, p := range s.Params {
		locals[p.Name] = true
	}
	Inspect(s.Body, func(n Node) bool {
		switch x := n.(type) {
		case *Decl:
			locals[x.Name.Name] = true
		case *ForEach:
			locals[x.Item.Name] = true
			if x.Index != nil {
				locals[x.Index.Name] = true
			}
		}
		return true
	})
	return locals
}

func (*IntLit) exprNode()     {}
func (*StrLit) exprNode()     {}
func (*DecLit) exprNode()     {}
func (*ToDecimal) exprNode()  {}
func (*Absent) exprNode()     {}
func (*TypeOf) exprNode()     {}
func (*EventField) exprNode() {}
func (*SysVar) exprNode()     {}
func (*Method) exprNode()     {}
func (*BoolLit) exprNode()    {}
func (*Ident) exprNode()      {}
func (*EventParam) exprNode() {}
func (*InState) exprNode()    {}
func (*Unary) exprNode()      {}
func (*Binary) exprNode()     {}
func (*Cond) exprNode()       {}
func (*ArrayLit) exprNode()   {}
func (*ObjectLit) exprNode()  {}
func (*Index) exprNode()      {}
func (*Member) exprNode()     {}
func (*Call) exprNode()       {}
func (*Floor) exprNode()      {}
func (*Digits) exprNode()     {}
func (*Convert) exprNode()    {}
func (*External) exprNode()   {}

func (*Block) stmtNode()    {}
func (*Assign) stmtNode()   {}
func (*IncDec) stmtNode()   {}
func (*Decl) stmtNode()     {}
func (*If) stmtNode()       {}
func (*While) stmtNode()    {}
func (*For) stmtNode()      {}
func (*ForEach) stmtNode()  {}
func (*Raise) stmtNode()    {}
func (*Send) stmtNode()     {}
func (*Cancel) stmtNode()   {}
func (*Assume) stmtNode()   {}
func (*Bound) stmtNode()    {}
func (*FuncDecl) stmtNode() {}
func (*Return) stmtNode()   {}

// DataParam is the name of the parameter that carries an event's data as
// a whole, _event.data, when it is one value rather than named parameters
// (the <content> of an SCXML <send> or <donedata>). SCXML reserves names
// that start with an underscore for the platform.
const DataParam = "_data"

// NoDataParam is the name of the parameter that says an event was raised
// or sent without data, where others of its raises and sends pass
// parameters: true where _event.data is undefined, and reading a
// parameter of it throws (ECMAScript's TypeError). Reserved as DataParam.
const NoDataParam = "_nodata"

// EventFields are the fields of _event besides data (SCXML §5.10.1), each
// a string (or undefined where the event has none).
var EventFields = map[string]bool{"name": true, "type": true, "sendid": true, "origin": true, "origintype": true, "invokeid": true}

// StringMethods are the string methods of the language and their largest
// number of arguments: the ones guards use, and substr, replace and
// lastIndexOf with a position, which the lowering writes with them.
var StringMethods = map[string]int{"indexOf": 1, "lastIndexOf": 2, "startsWith": 1, "endsWith": 1, "includes": 1, "substring": 2, "charAt": 1, "slice": 2,
	"substr": 2, "replace": 2}

// What says, in one line, what meeting the bound means: the message of
// the executors that stop or cut a path there.
func (s *Bound) What() string {
	switch s.Name {
	case vocab.BoundArray:
		return fmt.Sprintf("an array grows past its bound of %d elements (the array bound; raise it with setbot:type)", s.Limit)
	case vocab.BoundKeys:
		return fmt.Sprintf("a key computed when it runs names none of the object's %d keys, and ECMAScript would add it (the keys bound: an object keeps the keys of its initial value, "+
			"and one used as a dictionary, {} at first, up to %d; give every key in the object's initial value)", s.Limit, DictLen)
	case vocab.BoundIndex:
		return "an element is assigned past the end of its array or below index 0 (the index bound: setbot models an element assigned within the array or just past its end)"
	}
	return fmt.Sprintf("a path meets the %s bound (%d)", s.Name, s.Limit)
}

// DecimalText returns the text of a decimal literal: as written, or from
// its value.
func DecimalText(x *DecLit) string {
	if x.Text != "" {
		return x.Text
	}
	s, _ := ecma.FormatDecimal(x.Value)
	return s
}
