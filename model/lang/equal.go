package lang

// Equal reports whether a and b are the same tree, ignoring positions. A
// nil and an empty statement list are equal. It asks the leaves, then the
// expressions with operands, then the statements; a node of none of them
// equals nothing.
func Equal(a, b Node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	for _, kind := range []func(a, b Node) (bool, bool){leafEqual, exprEqual, stmtEqual} {
		if equal, known := kind(a, b); known {
			return equal
		}
	}
	return false
}

// leafEqual compares the nodes without children: literals and names.
func leafEqual(a, b Node) (equal, known bool) {
	switch x := a.(type) {
	case *IntLit:
		y, ok := b.(*IntLit)
		return ok && x.Value == y.Value, true
	case *DecLit:
		y, ok := b.(*DecLit)
		return ok && x.Value.Cmp(y.Value) == 0, true
	case *BoolLit:
		y, ok := b.(*BoolLit)
		return ok && x.Value == y.Value, true
	case *Ident:
		y, ok := b.(*Ident)
		return ok && x.Name == y.Name, true
	case *EventParam:
		y, ok := b.(*EventParam)
		return ok && x.Name == y.Name, true
	case *InState:
		y, ok := b.(*InState)
		return ok && x.State == y.State, true
	case *StrLit:
		y, ok := b.(*StrLit)
		return ok && x.Value == y.Value, true
	case *Absent:
		y, ok := b.(*Absent)
		return ok && x.Null == y.Null, true
	case *EventField:
		y, ok := b.(*EventField)
		return ok && x.Field == y.Field, true
	case *SysVar:
		y, ok := b.(*SysVar)
		return ok && x.Name == y.Name && x.Processor == y.Processor, true
	default:
		return false, false
	}
}

// exprEqual compares the expressions that have operands.
func exprEqual(a, b Node) (equal, known bool) {
	switch x := a.(type) {
	case *ToDecimal:
		y, ok := b.(*ToDecimal)
		return ok && Equal(x.X, y.X), true
	case *TypeOf:
		y, ok := b.(*TypeOf)
		return ok && Equal(x.X, y.X), true
	case *Method:
		y, ok := b.(*Method)
		return ok && x.Name == y.Name && x.Call == y.Call && Equal(x.X, y.X) && exprsEqual(x.Args, y.Args), true
	case *Unary:
		y, ok := b.(*Unary)
		return ok && x.Op == y.Op && Equal(x.X, y.X), true
	case *Binary:
		y, ok := b.(*Binary)
		return ok && x.Op == y.Op && Equal(x.X, y.X) && Equal(x.Y, y.Y), true
	case *Cond:
		y, ok := b.(*Cond)
		return ok && Equal(x.Cond, y.Cond) && Equal(x.Then, y.Then) && Equal(x.Else, y.Else), true
	case *ArrayLit:
		y, ok := b.(*ArrayLit)
		return ok && exprsEqual(x.Elems, y.Elems), true
	case *ObjectLit:
		y, ok := b.(*ObjectLit)
		if !ok || len(x.Fields) != len(y.Fields) {
			return false, true
		}
		for i, f := range x.Fields {
			if f.Name != y.Fields[i].Name || !Equal(f.Value, y.Fields[i].Value) {
				return false, true
			}
		}
		return true, true
	case *Index:
		y, ok := b.(*Index)
		return ok && Equal(x.X, y.X) && Equal(x.Index, y.Index), true
	case *Member:
		y, ok := b.(*Member)
		return ok && x.Name == y.Name && Equal(x.X, y.X), true
	case *Floor:
		y, ok := b.(*Floor)
		return ok && Equal(x.X, y.X), true
	case *Digits:
		y, ok := b.(*Digits)
		return ok && Equal(x.X, y.X), true
	case *Convert:
		y, ok := b.(*Convert)
		return ok && x.Fun == y.Fun && x.Radix10 == y.Radix10 && Equal(x.X, y.X), true
	case *Call:
		y, ok := b.(*Call)
		return ok && x.Fun == y.Fun && exprsEqual(x.Args, y.Args), true
	case *External:
		y, ok := b.(*External)
		return ok && x.Fun == y.Fun && x.Result == y.Result && exprsEqual(x.Args, y.Args), true
	default:
		return false, false
	}
}

// stmtEqual compares the statements and blocks.
func stmtEqual(a, b Node) (equal, known bool) {
	switch x := a.(type) {
	case *Block:
		y, ok := b.(*Block)
		return ok && blocksEqual(x, y), true
	case *Assign:
		y, ok := b.(*Assign)
		return ok && x.Op == y.Op && x.Target.Name == y.Target.Name && pathsEqual(x.Path, y.Path) && Equal(x.Value, y.Value), true
	case *IncDec:
		y, ok := b.(*IncDec)
		return ok && x.Op == y.Op && x.Target.Name == y.Target.Name && pathsEqual(x.Path, y.Path), true
	case *ForEach:
		y, ok := b.(*ForEach)
		return ok && x.Item.Name == y.Item.Name && (x.Index == nil) == (y.Index == nil) &&
			(x.Index == nil || x.Index.Name == y.Index.Name) && Equal(x.Array, y.Array) && Equal(x.Cond, y.Cond) && blocksEqual(x.Body, y.Body), true
	case *Decl:
		y, ok := b.(*Decl)
		return ok && x.Name.Name == y.Name.Name && x.Type == y.Type && Equal(x.Value, y.Value), true
	case *If:
		y, ok := b.(*If)
		return ok && Equal(x.Cond, y.Cond) && blocksEqual(x.Then, y.Then) && Equal(x.Else, y.Else), true
	case *While:
		y, ok := b.(*While)
		return ok && Equal(x.Cond, y.Cond) && blocksEqual(x.Body, y.Body), true
	case *For:
		y, ok := b.(*For)
		return ok && Equal(x.Init, y.Init) && Equal(x.Cond, y.Cond) &&
			Equal(x.Post, y.Post) && blocksEqual(x.Body, y.Body), true
	case *Raise:
		y, ok := b.(*Raise)
		return ok && x.Event == y.Event && x.ID == y.ID && x.Platform == y.Platform && argsEqual(x.Args, y.Args), true
	case *Send:
		y, ok := b.(*Send)
		return ok && x.Event == y.Event && x.Target == y.Target && Equal(x.Delay, y.Delay) && x.ID == y.ID && x.From == y.From && argsEqual(x.Args, y.Args), true
	case *Cancel:
		y, ok := b.(*Cancel)
		return ok && x.SendID == y.SendID && x.Prefix == y.Prefix, true
	case *Assume:
		y, ok := b.(*Assume)
		return ok && Equal(x.Cond, y.Cond), true
	case *Bound:
		y, ok := b.(*Bound)
		return ok && x.Name == y.Name && x.Limit == y.Limit && Equal(x.Cond, y.Cond), true
	case *FuncDecl:
		y, ok := b.(*FuncDecl)
		if !ok || x.Name.Name != y.Name.Name || len(x.Params) != len(y.Params) {
			return false, true
		}
		for i := range x.Params {
			if x.Params[i].Name != y.Params[i].Name {
				return false, true
			}
		}
		return blocksEqual(x.Body, y.Body), true
	case *Return:
		y, ok := b.(*Return)
		return ok && Equal(x.Value, y.Value), true
	default:
		return false, false
	}
}

func exprsEqual(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func blocksEqual(a, b *Block) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if len(a.Stmts) != len(b.Stmts) {
		return false
	}
	for i := range a.Stmts {
		if !Equal(a.Stmts[i], b.Stmts[i]) {
			return false
		}
	}
	return true
}

func pathsEqual(a, b []*Sel) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || (a[i].Index == nil) != (b[i].Index == nil) ||
			a[i].Index != nil && !Equal(a[i].Index, b[i].Index) {
			return false
		}
	}
	return true
}

func argsEqual(a, b []*Arg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !Equal(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}
