package ast

import (
	"fmt"
	"reflect"
)

// The child walker. Every node kind lists its children once, by slot
// (slots): a slot is one child position of the kind, a field holding one
// child or a list of them, in a fixed order. An absent child (the Else of
// an If without one, the Init of a for (; c;)) is reported as absent in
// its slot, and a list as a list, so that For{Cond: c} and For{Init: c}
// differ and two nodes of one kind pair their children slot by slot. What
// a node holds besides its children (an operator, a name, a literal's
// value) are its leaves (leaves). Equal, Key, Inspect, RewriteExpr,
// RewriteBlock and the printer's argument lists derive from these two
// functions, in the manner of go/ast.Walk and the field-by-field cursor of
// golang.org/x/tools/go/ast/astutil.Apply.

// A slot is one child position of a node: a field holding one child
// (len 1; at(0) is nil when the child is absent) or a list of children.
type slot interface {
	len() int
	// at returns the i-th child, nil when absent. For a list of parts (an
	// argument, an object literal's field, a step of an assignment's
	// path) it is the part's expression, and name(i) the part's name.
	at(i int) Node
	name(i int) string
	// copyList gives the node that holds the slot a copy of the list, so
	// that set leaves the node it was copied from alone; set makes n the
	// i-th child (for a part, of a copy of the part).
	copyList()
	set(i int, n Node)
	role() role
}

// role is what a slot's children are to a rewriting: expressions read,
// names written or declared (an assignment's target, a local, a loop's
// item, a function's parameters), or statements.
type role int

const (
	exprRole role = iota
	nameRole
	stmtRole
)

// one is a slot of one child of type T (Expr, Stmt, *Block or *Ident).
type one[T interface {
	Node
	comparable
}] struct{ p *T }

func (s one[T]) len() int { return 1 }

func (s one[T]) at(int) Node {
	var none T
	if *s.p == none {
		return nil
	}
	return *s.p
}

func (s one[T]) name(int) string { return "" }
func (s one[T]) copyList()       {}

func (s one[T]) set(_ int, n Node) {
	var none T
	if n == nil {
		*s.p = none
		return
	}
	*s.p = n.(T)
}

func (s one[T]) role() role { return roleOf(s.p) }

// list is a slot of a list of children of type T.
type list[T Node] struct{ p *[]T }

func (s list[T]) len() int          { return len(*s.p) }
func (s list[T]) at(i int) Node     { return (*s.p)[i] }
func (s list[T]) name(int) string   { return "" }
func (s list[T]) copyList()         { *s.p = append((*s.p)[:0:0], *s.p...) }
func (s list[T]) set(i int, n Node) { (*s.p)[i] = n.(T) }
func (s list[T]) role() role        { return roleOf(s.p) }

// roleOf tells the role of a slot by the type of the field that holds it.
func roleOf(field any) role {
	switch field.(type) {
	case **Ident, *[]*Ident:
		return nameRole
	case *Stmt, **Block, *[]Stmt:
		return stmtRole
	}
	return exprRole
}

// A namedExpr is an element of a list that names its expression: an Arg,
// a FieldInit or a Sel (whose Index is absent for a field step).
type namedExpr[P any] interface {
	partName() string
	expr() Expr
	withExpr(Expr) P
}

func (a *Arg) partName() string       { return a.Name }
func (a *Arg) expr() Expr             { return a.Value }
func (f *FieldInit) partName() string { return f.Name }
func (f *FieldInit) expr() Expr       { return f.Value }
func (s *Sel) partName() string       { return s.Name }
func (s *Sel) expr() Expr             { return s.Index }

func (a *Arg) withExpr(e Expr) *Arg {
	c := *a
	c.Value = e
	return &c
}

func (f *FieldInit) withExpr(e Expr) *FieldInit {
	c := *f
	c.Value = e
	return &c
}

func (s *Sel) withExpr(e Expr) *Sel {
	c := *s
	c.Index = e
	return &c
}

// parts is a slot of a list of parts.
type parts[P namedExpr[P]] struct{ p *[]P }

func (s parts[P]) len() int { return len(*s.p) }

func (s parts[P]) at(i int) Node { return (*s.p)[i].expr() }

func (s parts[P]) name(i int) string { return (*s.p)[i].partName() }
func (s parts[P]) copyList()         { *s.p = append((*s.p)[:0:0], *s.p...) }
func (s parts[P]) set(i int, n Node) { e, _ := n.(Expr); (*s.p)[i] = (*s.p)[i].withExpr(e) }
func (s parts[P]) role() role        { return exprRole }

// maxSlots is the most slots a kind has (ForEach's).
const maxSlots = 5

// slots appends the slots of n to s, in the order of n's kind.
func slots(s []slot, n Node) []slot {
	if s, ok := exprSlots(s, n); ok {
		return s
	}
	return stmtSlots(s, n)
}

// exprSlots appends the slots of the expression n and reports whether n is
// an expression.
func exprSlots(s []slot, n Node) ([]slot, bool) {
	switch x := n.(type) {
	case *IntLit, *DecLit, *BoolLit, *StrLit, *Absent, *EventField, *SysVar, *Ident, *EventParam, *InState:
		return s, true
	case *TypeOf:
		return append(s, one[Expr]{&x.X}), true
	case *ToDecimal:
		return append(s, one[Expr]{&x.X}), true
	case *Method:
		return append(s, one[Expr]{&x.X}, list[Expr]{&x.Args}), true
	case *Unary:
		return append(s, one[Expr]{&x.X}), true
	case *Binary:
		return append(s, one[Expr]{&x.X}, one[Expr]{&x.Y}), true
	case *Cond:
		return append(s, one[Expr]{&x.Cond}, one[Expr]{&x.Then}, one[Expr]{&x.Else}), true
	case *ArrayLit:
		return append(s, list[Expr]{&x.Elems}), true
	case *ObjectLit:
		return append(s, parts[*FieldInit]{&x.Fields}), true
	case *Index:
		return append(s, one[Expr]{&x.X}, one[Expr]{&x.Index}), true
	case *Member:
		return append(s, one[Expr]{&x.X}), true
	case *Floor:
		return append(s, one[Expr]{&x.X}), true
	case *Digits:
		return append(s, one[Expr]{&x.X}), true
	case *Convert:
		return append(s, one[Expr]{&x.X}), true
	case *Call:
		return append(s, list[Expr]{&x.Args}), true
	case *External:
		return append(s, list[Expr]{&x.Args}), true
	}
	return s, false
}

// stmtSlots appends the slots of the statement or block n.
func stmtSlots(s []slot, n Node) []slot {
	switch x := n.(type) {
	case *Block:
		return append(s, list[Stmt]{&x.Stmts})
	case *Assign:
		return append(s, one[*Ident]{&x.Target}, parts[*Sel]{&x.Path}, one[Expr]{&x.Value})
	case *IncDec:
		return append(s, one[*Ident]{&x.Target}, parts[*Sel]{&x.Path})
	case *Decl:
		return append(s, one[*Ident]{&x.Name}, one[Expr]{&x.Value})
	case *If:
		return append(s, one[Expr]{&x.Cond}, one[*Block]{&x.Then}, one[Stmt]{&x.Else})
	case *While:
		return append(s, one[Expr]{&x.Cond}, one[*Block]{&x.Body})
	case *For:
		return append(s, one[Stmt]{&x.Init}, one[Expr]{&x.Cond}, one[Stmt]{&x.Post}, one[*Block]{&x.Body})
	case *ForEach:
		return append(s, one[*Ident]{&x.Item}, one[*Ident]{&x.Index}, one[Expr]{&x.Array}, one[Expr]{&x.Cond}, one[*Block]{&x.Body})
	case *Raise:
		return append(s, parts[*Arg]{&x.Args})
	case *Send:
		return append(s, parts[*Arg]{&x.Args}, one[Expr]{&x.Delay})
	case *Cancel:
		return s
	case *Assume:
		return append(s, one[Expr]{&x.Cond})
	case *Bound:
		return append(s, one[Expr]{&x.Cond})
	case *FuncDecl:
		return append(s, one[*Ident]{&x.Name}, list[*Ident]{&x.Params}, one[*Block]{&x.Body})
	case *Return:
		return append(s, one[Expr]{&x.Value})
	}
	panic(fmt.Sprintf("lang: unexpected node %T", n))
}

// leafValues is what a node holds besides its children and its
// positions: its names and strings, a number (an integer literal's value,
// an operator, a bound's limit), a flag and a type, those a kind does not
// have zero. It is comparable with ==.
type leafValues struct {
	text [4]string
	num  int64
	flag bool
	typ  Type
}

// leaves returns n's leaf values: equal for two nodes of a kind exactly
// when they agree in everything but their children and positions. A
// decimal literal's is its value (not the text it was written as); a
// black-box call's its name and result type (its parameters' types follow
// from its name).
func leaves(n Node) leafValues {
	switch x := n.(type) {
	case *IntLit:
		return leafValues{num: x.Value}
	case *DecLit:
		return leafValues{text: [4]string{x.Value.RatString()}}
	case *BoolLit:
		return leafValues{flag: x.Value}
	case *StrLit:
		return leafValues{text: [4]string{x.Value}}
	case *Absent:
		return leafValues{flag: x.Null}
	case *EventField:
		return leafValues{text: [4]string{x.Field}}
	case *SysVar:
		return leafValues{text: [4]string{x.Name, x.Processor}}
	case *Ident:
		return leafValues{text: [4]string{x.Name}}
	case *EventParam:
		return leafValues{text: [4]string{x.Name}}
	case *InState:
		return leafValues{text: [4]string{x.State}}
	}
	return operatorLeaves(n)
}

// operatorLeaves returns the leaf values of the nodes with children.
func operatorLeaves(n Node) leafValues {
	switch x := n.(type) {
	case *Method:
		return leafValues{text: [4]string{x.Name}, flag: x.Call}
	case *Unary:
		return leafValues{num: int64(x.Op)}
	case *Binary:
		return leafValues{num: int64(x.Op)}
	case *Member:
		return leafValues{text: [4]string{x.Name}}
	case *Convert:
		return leafValues{text: [4]string{x.Fun}, flag: x.Radix10}
	case *Call:
		return leafValues{text: [4]string{x.Fun}}
	case *External:
		return leafValues{text: [4]string{x.Fun}, typ: x.Result}
	case *Assign:
		return leafValues{num: int64(x.Op)}
	case *IncDec:
		return leafValues{num: int64(x.Op)}
	case *Decl:
		return leafValues{typ: x.Type}
	case *Raise:
		return leafValues{text: [4]string{x.Event, x.ID}, flag: x.Platform}
	case *Send:
		return leafValues{text: [4]string{x.Event, x.Target, x.ID, x.From}}
	case *Cancel:
		return leafValues{text: [4]string{x.SendID}, flag: x.Prefix}
	case *Bound:
		return leafValues{text: [4]string{string(x.Name)}, num: x.Limit}
	}
	return leafValues{}
}

// absent reports whether n is no node: nil, or a nil pointer of a node
// type (a nil *Block passed as a Node).
func absent(n Node) bool {
	return n == nil || reflect.ValueOf(n).IsNil()
}

// copyNode returns a copy of the node n that shares n's children.
func copyNode[N Node](n N) N {
	v := reflect.ValueOf(n).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return c.Interface().(N)
}

// Inspect traverses the tree rooted at n in depth-first order, as
// go/ast.Inspect does: it calls f(n); if that returns true, it inspects
// each child (argument values included) and then calls f(nil).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	EachChild(n, func(c Node) { Inspect(c, f) })
	f(nil)
}

// Any reports whether f holds for a node of the tree rooted at n; it
// stops at the first that does.
func Any(n Node, f func(Node) bool) bool {
	found := false
	Inspect(n, func(x Node) bool {
		found = found || x != nil && f(x)
		return !found
	})
	return found
}

// EachChild calls visit for each child of n present, slot by slot
// (argument values included).
func EachChild(n Node, visit func(Node)) {
	var buf [maxSlots]slot
	for _, s := range slots(buf[:0], n) {
		for i := range s.len() {
			if c := s.at(i); c != nil {
				visit(c)
			}
		}
	}
}

// MapExpr returns a copy of the expression e whose children are g of e's,
// slot by slot.
func MapExpr(e Expr, g func(Expr) Expr) Expr {
	c := copyNode(e)
	var buf [maxSlots]slot
	for _, s := range slots(buf[:0], c) {
		s.copyList()
		for i := range s.len() {
			if x := s.at(i); x != nil {
				s.set(i, g(x.(Expr)))
			}
		}
	}
	return c
}

// RewriteExpr returns a copy of e in which f has been applied bottom-up to
// every sub-expression: each node is copied, its children are rewritten,
// and f receives the copy and returns its replacement. e is not modified.
func RewriteExpr(e Expr, f func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	return f(MapExpr(e, func(c Expr) Expr { return RewriteExpr(c, f) }))
}

// RewriteBlock returns a copy of b in which every expression of every
// statement has been rewritten with RewriteExpr(…, f). Assignment targets
// and declared names are names, not expressions read: they are copied
// without passing them to f. b is not modified.
func RewriteBlock(b *Block, f func(Expr) Expr) *Block {
	if b == nil {
		return nil
	}
	return RewriteStmt(b, f).(*Block)
}

// RewriteStmt returns a copy of the statement s with its expressions
// rewritten (RewriteBlock).
func RewriteStmt(s Stmt, f func(Expr) Expr) Stmt {
	if absent(s) {
		return nil
	}
	c := copyNode(s)
	var buf [maxSlots]slot
	for _, sl := range slots(buf[:0], c) {
		sl.copyList()
		for i := range sl.len() {
			switch x := sl.at(i); {
			case sl.role() == exprRole:
				e, _ := x.(Expr)
				sl.set(i, RewriteExpr(e, f)) // a part is copied even without its expression
			case x == nil:
			case sl.role() == nameRole:
				sl.set(i, copyNode(x))
			default:
				sl.set(i, RewriteStmt(x.(Stmt), f))
			}
		}
	}
	return c
}

func CopyIdent(x *Ident) *Ident {
	y := *x
	return &y
}

// WithEventName returns e with _event.name replaced by the name of the
// event being processed.
func WithEventName(e Expr, name string) Expr {
	return RewriteExpr(e, func(x Expr) Expr {
		if f, ok := x.(*EventField); ok && f.Field == "name" {
			return &StrLit{ValuePos: f.Start, Value: name}
		}
		return x
	})
}
