package lang

import (
	"fmt"
	"maps"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/vocab"
)

// Statements, as go/types keeps them in stmt.go: blocks, control flow,
// declarations, raise and send with their arguments.

func (c *checker) block(b *ast.Block) {
	c.push()
	for _, s := range b.Stmts {
		c.stmt(s)
	}
	c.pop()
}

func (c *checker) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.Block:
		c.block(x)
	case *ast.Assign:
		c.assign(x)
	case *ast.IncDec:
		var t ast.Type
		c.keyed = false
		if len(x.Path) == 0 {
			t = c.expr(x.Target)
		} else {
			t = c.loc(x.Target, x.Path)
			c.info.PartWrites = append(c.info.PartWrites, PartWrite{Path: targetPlace(x.Target, x.Path), Pos: x.Target.NamePos})
		}
		switch {
		case c.keyed:
			c.refuseKeyed(x.OpPos, x.Op)
		case t.MayBeAbsent():
			c.absent(x.Target, "operator "+x.Op.String())
		case t.Kind == ast.Decimal:
			c.info.DecimalArith = append(c.info.DecimalArith, x.OpPos)
		case t.Kind != ast.Invalid && t.Kind != ast.Int:
			c.errorAt(x.OpPos, "operator %s needs an int variable, found %s", x.Op, t.Kind)
		}
	case *ast.Decl:
		c.decl(x)
	case *ast.If:
		c.cond(x.Cond)
		before := c.saveValued()
		c.block(x.Then)
		then := c.saveValued()
		c.valued = before
		if x.Else != nil {
			c.stmt(x.Else)
		}
		c.meetValued(then)
	case *ast.While:
		c.forget(x)
		outer := c.saveValued()
		c.cond(x.Cond)
		c.block(x.Body)
		c.valued = outer
	case *ast.For:
		c.push()
		if x.Init != nil {
			c.stmt(x.Init)
		}
		c.forget(x)
		outer := c.saveValued()
		if x.Cond != nil {
			c.cond(x.Cond)
		}
		if x.Post != nil {
			c.stmt(x.Post)
		}
		c.block(x.Body)
		c.valued = outer
		c.pop()
	case *ast.ForEach:
		c.forEach(x)
	case *ast.Raise:
		c.args(x.Event, x.Args)
	case *ast.Send:
		c.args(x.Event, x.Args)
		if x.Delay != nil {
			c.value(x.Delay, "a delay", ast.String)
		}
	case *ast.Cancel:
	case *ast.Assume:
		if !c.env.AllowAssume {
			c.errorf(x, "assume is not allowed in models: remove it")
		}
		c.cond(x.Cond)
	case *ast.FuncDecl:
		c.errorf(x, "function %s is declared inside a block: declare functions at the top of a <script>", x.Name.Name)
	case *ast.Return:
		c.errorf(x, "return outside a function: %s", parser.UnsupportedStatements["return"])
	case *ast.Bound:
		if !c.env.AllowAssume && x.Name != vocab.BoundCall { // the inliner's
			c.errorf(x, "bound is not allowed in models: remove it")
		}
		c.cond(x.Cond)
	default:
		panic(fmt.Sprintf("lang: unexpected statement %T", s))
	}
}

// saveValued returns a copy of the set of names known to hold a value.
func (c *checker) saveValued() map[string]bool { return maps.Clone(c.valued) }

// meetValued keeps only the names that also hold a value in other: after
// two branches, what both gave a value.
func (c *checker) meetValued(other map[string]bool) {
	maps.DeleteFunc(c.valued, func(name string, _ bool) bool { return !other[name] })
}

// forget drops what a loop writes from the names known to hold a value:
// its body may run any number of times, so nothing it assigns is known.
func (c *checker) forget(loop ast.Stmt) {
	for _, name := range Defs(loop) {
		delete(c.valued, name)
	}
	ast.Inspect(loop, func(n ast.Node) bool {
		if f, ok := n.(*ast.ForEach); ok {
			delete(c.valued, f.Item.Name)
			if f.Index != nil {
				delete(c.valued, f.Index.Name)
			}
		}
		return true
	})
}

// forEach checks for (item, index of array) body. Item and index are
// assigned each time round, so the body sees them hold values (where the
// elements are values).
func (c *checker) forEach(x *ast.ForEach) {
	at := c.expr(x.Array)
	c.forget(x)
	outer := c.saveValued()
	if x.Cond != nil {
		c.cond(x.Cond)
	}
	var elem ast.Type
	switch {
	case at.Kind == ast.Invalid:
	case at.MayBeAbsent():
		c.absent(x.Array, "foreach")
	case at.Kind != ast.Array:
		c.errorf(x.Array, "foreach over %s, which is %s: foreach needs an array", printer.ExprString(x.Array), ast.Article(at.Kind))
	default:
		elem = at.Comp.Elem
		if arr := place(x.Array); arr != nil {
			c.share([]string{x.Item.Name}, append(arr, "[]"), elem, x.Item.NamePos)
		}
	}
	if x.Local {
		c.localForEach(x, elem)
		c.valued = outer
		return
	}
	if tt := c.loc(x.Item, nil); elem.Kind != ast.Invalid && tt.Kind != ast.Invalid {
		if msg := Assignable(tt, elem); msg != "" {
			c.errorf(x.Item, "foreach item %s cannot hold the elements of %s: %s", x.Item.Name, printer.ExprString(x.Array), msg)
		}
	}
	if x.Index != nil {
		if tt := c.loc(x.Index, nil); tt.Kind != ast.Invalid && tt.Kind != ast.Int && tt.Kind != ast.Undef {
			c.errorf(x.Index, "foreach index %s is %s: the index is an int", x.Index.Name, tt)
		}
		c.valued[x.Index.Name] = true
	}
	if elem.Kind != ast.Invalid && !elem.MayBeAbsent() {
		c.valued[x.Item.Name] = true
	}
	c.block(x.Body)
	c.valued = outer
}

// localForEach checks the body of for (let item, index of array) body,
// whose item and index are its locals: the item of the elements' type
// elem (Invalid where the array is in error), the index an int. The loop
// iterates over a copy, which is forEach's reading of each element as it
// comes to it only where the body assigns nothing the array reads.
func (c *checker) localForEach(x *ast.ForEach, elem ast.Type) {
	reads := make(map[string]bool)
	for _, u := range Uses(x.Array) {
		reads[u] = true
	}
	for _, d := range Defs(x.Body) {
		if reads[d] {
			c.refusef(x.Array, "the loop's body assigns %s, which %s reads: forEach would see the new elements, where setbot's loop goes over the array as it was; assign a copy, or loop with an index", d, printer.ExprString(x.Array))
			return
		}
	}
	c.push()
	defer c.pop()
	for _, id := range []*ast.Ident{x.Item, x.Index} {
		if id == nil {
			continue
		}
		if _, global := c.env.Vars[id.Name]; global {
			c.errorf(id, "parameter %s of the loop shadows the machine variable %s: rename the parameter", id.Name, id.Name)
			return
		}
		t := elem
		if id == x.Index {
			t = ast.IntType
		}
		c.info.Types[id] = t
		c.scope.names[id.Name] = t
		if t.Kind != ast.Invalid && !t.MayBeAbsent() {
			c.valued[id.Name] = true
		}
	}
	c.block(x.Body)
}

func (c *checker) decl(x *ast.Decl) {
	t := ast.Type{Kind: x.Type.Kind}
	if x.Value != nil {
		vt := c.expr(x.Value)
		c.share([]string{x.Name.Name}, place(x.Value), vt, x.DeclPos)
		switch {
		case t.Kind == ast.Invalid:
			t = ast.Type{Kind: vt.Kind, Absent: vt.MayBeAbsent(), Comp: vt.Comp, Kinds: vt.Kinds}
		case vt.Kind != ast.Invalid && vt.Kind != t.Kind && !(t.Kind == ast.Decimal && vt.Kind == ast.Int):
			c.errorf(x.Value, "cannot use %s value as %s in declaration of %s", vt.Kind, t.Kind, x.Name.Name)
		}
	}
	c.info.Types[x.Name] = t
	delete(c.valued, x.Name.Name)
	if _, global := c.env.Vars[x.Name.Name]; global {
		// In an SCXML script "var x" would assign the datamodel's x; a
		// local of the same name would silently mean something else.
		c.errorf(x.Name, "local %s shadows the machine variable %s: drop the declaration to assign the variable, or rename the local", x.Name.Name, x.Name.Name)
		return
	}
	if _, dup := c.scope.names[x.Name.Name]; dup {
		c.errorf(x.Name, "%s redeclared in this block", x.Name.Name)
		return
	}
	c.scope.names[x.Name.Name] = t
}

// args checks the arguments of a raised or sent event against its
// declared parameters, when the event is known.
func (c *checker) args(event string, args []*ast.Arg) {
	params, known := map[string]ast.Type(nil), false
	if c.env.Event != nil {
		params, known = c.env.Event(event)
	}
	seen := make(map[string]bool)
	for _, a := range args {
		t := c.expr(a.Value)
		if seen[a.Name] {
			c.errorAt(a.NamePos, "duplicate argument %s: pass each parameter once", a.Name)
			continue
		}
		seen[a.Name] = true
		if t.Kind.IsRef() {
			c.refusef(a.Value, "%s", parser.RefPartMsg(t.Kind))
			continue
		}
		if !known {
			continue
		}
		pt, ok := params[a.Name]
		switch {
		case !ok:
			c.errorAt(a.NamePos, "event %s has no parameter %s", event, a.Name)
		case t.Kind != ast.Invalid && t.MayBeAbsent() && !pt.MayBeAbsent():
			c.errorf(a.Value, "%s may be undefined or null, and parameter %s of event %s cannot be: give it a value first", printer.ExprString(a.Value), a.Name, event)
		case (t.Kind == ast.Mixed || pt.Kind == ast.Mixed) && t.Kind != ast.Invalid && t.Kind != ast.Undef:
			if msg := Assignable(pt, t); msg != "" {
				c.errorf(a.Value, "cannot pass %s as parameter %s of event %s: %s", printer.ExprString(a.Value), a.Name, event, msg)
			}
		case t.Kind != ast.Invalid && t.Kind != ast.Undef && t.Kind != pt.Kind && !(pt.Kind == ast.Decimal && t.Kind == ast.Int):
			c.errorf(a.Value, "cannot use %s value as %s in argument %s of event %s", t.Kind, pt.Kind, a.Name, event)
		case t.IsComposite():
			if msg := Assignable(pt, t); msg != "" {
				c.errorf(a.Value, "cannot pass %s as parameter %s of event %s: %s", printer.ExprString(a.Value), a.Name, event, msg)
			}
		}
		if ok {
			c.info.Args[a] = pt
		}
	}
}
