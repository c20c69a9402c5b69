package lang

// Equal reports whether a and b are the same tree, ignoring positions. A
// nil and an empty statement list are equal.
func Equal(a, b Node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *IntLit:
		y, ok := b.(*IntLit)
		return ok && x.Value == y.Value
	case *DecLit:
		y, ok := b.(*DecLit)
		return ok && x.Value.Cmp(y.Value) == 0
	case *ToDecimal:
		y, ok := b.(*ToDecimal)
		return ok && Equal(x.X, y.X)
	case *BoolLit:
		y, ok := b.(*BoolLit)
		return ok && x.Value == y.Value
	case *Ident:
		y, ok := b.(*Ident)
		return ok && x.Name == y.Name
	case *EventParam:
		y, ok := b.(*EventParam)
		return ok && x.Name == y.Name
	case *InState:
		y, ok := b.(*InState)
		return ok && x.State == y.State
	case *StrLit:
		y, ok := b.(*StrLit)
		return ok && x.Value == y.Value
	case *Absent:
		y, ok := b.(*Absent)
		return ok && x.Null == y.Null
	case *EventField:
		y, ok := b.(*EventField)
		return ok && x.Field == y.Field
	case *SysVar:
		y, ok := b.(*SysVar)
		return ok && x.Name == y.Name && x.Processor == y.Processor
	case *TypeOf:
		y, ok := b.(*TypeOf)
		return ok && Equal(x.X, y.X)
	case *Method:
		y, ok := b.(*Method)
		if !ok || x.Name != y.Name || x.Call != y.Call || len(x.Args) != len(y.Args) || !Equal(x.X, y.X) {
			return false
		}
		for i := range x.Args {
			if !Equal(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	case *Unary:
		y, ok := b.(*Unary)
		return ok && x.Op == y.Op && Equal(x.X, y.X)
	case *Binary:
		y, ok := b.(*Binary)
		return ok && x.Op == y.Op && Equal(x.X, y.X) && Equal(x.Y, y.Y)
	case *Cond:
		y, ok := b.(*Cond)
		return ok && Equal(x.Cond, y.Cond) && Equal(x.Then, y.Then) && Equal(x.Else, y.Else)
	case *ArrayLit:
		y, ok := b.(*ArrayLit)
		if !ok || len(x.Elems) != len(y.Elems) {
			return false
		}
		for i := range x.Elems {
			if !Equal(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	case *ObjectLit:
		y, ok := b.(*ObjectLit)
		if !ok || len(x.Fields) != len(y.Fields) {
			return false
		}
		for i, f := range x.Fields {
			if f.Name != y.Fields[i].Name || !Equal(f.Value, y.Fields[i].Value) {
				return false
			}
		}
		return true
	case *Index:
		y, ok := b.(*Index)
		return ok && Equal(x.X, y.X) && Equal(x.Index, y.Index)
	case *Member:
		y, ok := b.(*Member)
		return ok && x.Name == y.Name && Equal(x.X, y.X)
	case *Block:
		y, ok := b.(*Block)
		return ok && blocksEqual(x, y)
	case *Assign:
		y, ok := b.(*Assign)
		return ok && x.Op == y.Op && x.Target.Name == y.Target.Name && pathsEqual(x.Path, y.Path) && Equal(x.Value, y.Value)
	case *IncDec:
		y, ok := b.(*IncDec)
		return ok && x.Op == y.Op && x.Target.Name == y.Target.Name && pathsEqual(x.Path, y.Path)
	case *ForEach:
		y, ok := b.(*ForEach)
		return ok && x.Item.Name == y.Item.Name && (x.Index == nil) == (y.Index == nil) &&
			(x.Index == nil || x.Index.Name == y.Index.Name) && Equal(x.Array, y.Array) && Equal(x.Cond, y.Cond) && blocksEqual(x.Body, y.Body)
	case *Decl:
		y, ok := b.(*Decl)
		return ok && x.Name.Name == y.Name.Name && x.Type == y.Type && Equal(x.Value, y.Value)
	case *If:
		y, ok := b.(*If)
		return ok && Equal(x.Cond, y.Cond) && blocksEqual(x.Then, y.Then) && Equal(x.Else, y.Else)
	case *While:
		y, ok := b.(*While)
		return ok && Equal(x.Cond, y.Cond) && blocksEqual(x.Body, y.Body)
	case *For:
		y, ok := b.(*For)
		return ok && Equal(x.Init, y.Init) && Equal(x.Cond, y.Cond) &&
			Equal(x.Post, y.Post) && blocksEqual(x.Body, y.Body)
	case *Raise:
		y, ok := b.(*Raise)
		return ok && x.Event == y.Event && x.ID == y.ID && x.Platform == y.Platform && argsEqual(x.Args, y.Args)
	case *Send:
		y, ok := b.(*Send)
		return ok && x.Event == y.Event && x.Target == y.Target && Equal(x.Delay, y.Delay) && x.ID == y.ID && x.From == y.From && argsEqual(x.Args, y.Args)
	case *Cancel:
		y, ok := b.(*Cancel)
		return ok && x.SendID == y.SendID && x.Prefix == y.Prefix
	case *Assume:
		y, ok := b.(*Assume)
		return ok && Equal(x.Cond, y.Cond)
	case *Bound:
		y, ok := b.(*Bound)
		return ok && x.Name == y.Name && x.Limit == y.Limit && Equal(x.Cond, y.Cond)
	case *Floor:
		y, ok := b.(*Floor)
		return ok && Equal(x.X, y.X)
	case *Digits:
		y, ok := b.(*Digits)
		return ok && Equal(x.X, y.X)
	case *Convert:
		y, ok := b.(*Convert)
		return ok && x.Fun == y.Fun && x.Radix10 == y.Radix10 && Equal(x.X, y.X)
	case *Call:
		y, ok := b.(*Call)
		return ok && x.Fun == y.Fun && exprsEqual(x.Args, y.Args)
	case *External:
		y, ok := b.(*External)
		return ok && x.Fun == y.Fun && x.Result == y.Result && exprsEqual(x.Args, y.Args)
	case *FuncDecl:
		y, ok := b.(*FuncDecl)
		if !ok || x.Name.Name != y.Name.Name || len(x.Params) != len(y.Params) {
			return false
		}
		for i := range x.Params {
			if x.Params[i].Name != y.Params[i].Name {
				return false
			}
		}
		return blocksEqual(x.Body, y.Body)
	case *Return:
		y, ok := b.(*Return)
		return ok && Equal(x.Value, y.Value)
	}
	return false
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
