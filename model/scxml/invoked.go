package scxml

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/source"
)

// invocation says how a document is read: as the top model, or as the
// machine an <invoke> of another starts.
type invocation struct {
	// dir is the directory of this document relative to the top model's
	// (src files are read relative to it), topName the top model's name;
	// srcs the files of the chain of invokes that led to this document,
	// which it must not invoke again.
	dir, topName string
	srcs         []string
	// invoked is set while reading an invoked machine (its donedata is
	// its parent's); passed are the variables of it that its parent's
	// <param>s set, with the type of each value.
	invoked bool
	passed  map[string]passedParam
}

// invoker holds what the invoke phase (readInvokes) needs to read the
// child machines of a document: where the document comes from and how
// it is read, and the model the children's events go to.
type invoker struct {
	*diag
	m    *model.Model
	opts Options
	inv  invocation
}

// readInvokes is the invoke phase. It takes the model m of a document
// read as "as" says, with its variables read, the <invoke>s read (pending)
// and what gives the values of its variables (valuesOf, asked only for a
// srcexpr); it reads the child machine of every <invoke> (the values of
// params are typed in the parent) and makes the events each child sends
// its parent, and its done.invoke event, events of the parent.
func readInvokes(d *diag, m *model.Model, opts Options, as invocation, pending []pendingInvoke, valuesOf func() *values) {
	iv := &invoker{diag: d, m: m, opts: opts, inv: as}
	vars := varTypes(m)
	var vs *values
	for _, p := range pending {
		inv := p.inv
		if p.srcExpr != nil {
			if vs == nil {
				vs = valuesOf()
			}
			if !iv.srcFromExpr(&p, vs) {
				continue
			}
		}
		passed := make(map[string]passedParam)
		inv.Params = slices.DeleteFunc(inv.Params, func(a *ast.Arg) bool {
			if !slices.Contains(p.namelist, a) || iv.m.Var(a.Name) != nil {
				return false
			}
			iv.warnf(iv.file.Offset(a.NamePos), "namelist entry %q names no variable of the data model: the invoke raises %s "+
				"when it runs, and starts nothing", a.Name, model.ErrorExecution)
			inv.OK = &ast.BoolLit{ValuePos: a.NamePos, Value: false}
			return true
		})
		for _, a := range inv.Params {
			info, errs := lang.CheckExpr(&lang.Env{Vars: vars}, iv.fset, a.Value, ast.Invalid)
			if len(errs) > 0 {
				iv.errs = append(iv.errs, errs...)
				continue
			}
			t := info.Types[a.Value]
			switch t.Kind {
			case ast.Int, ast.Bool, ast.String, ast.Decimal:
			default:
				iv.errorf(iv.file.Offset(a.NamePos), "the value of %s passed to the invoked machine is %s: setbot passes numbers, "+
					"strings and booleans whose type the parent's <data> gives", a.Name, t.Kind)
				continue
			}
			a.Value = lower.Expr(a.Value, info, false)
			passed[a.Name] = passedParam{typ: t, pos: a.NamePos}
		}
		var child *model.Model
		switch {
		case p.content != nil:
			var cd *diag
			child, cd = readMachine(iv.fset, iv.file, iv.opts, invocation{dir: iv.inv.dir, topName: iv.inv.topName, srcs: iv.inv.srcs, invoked: true, passed: passed}, p.content)
			iv.errs = append(iv.errs, cd.errs...)
			iv.warns = append(iv.warns, cd.warns...)
		case p.hasSrc:
			child = iv.readChild(p, passed)
		}
		if child == nil {
			continue
		}
		child.Name, child.Invoked = inv.ID, true
		inv.Child = child
		iv.parentEvents(inv)
	}
}

// srcFromExpr reads an <invoke srcexpr> as the src it can name: setbot
// composes the machines a model invokes before it runs, so it reads the
// values the expression can take (the string constants assigned to a
// variable, say); of those, exactly one must name a file that can be read.
// The invoke then starts that file's machine where the expression has that
// value when the invoke runs, and fails (error.execution) otherwise.
func (iv *invoker) srcFromExpr(p *pendingInvoke, vs *values) bool {
	vals, _, ok := vs.of(p.srcExpr)
	if !ok {
		iv.refusef(p.srcAttr.Offsets0(), "<invoke srcexpr> %q: setbot cannot tell which files it names (the value is computed at run time); "+
			"write src=\"file:NAME.scxml\", or assign the variable only string constants", p.srcAttr.Value)
		return false
	}
	var readable []string
	for _, v := range vals {
		rel := strings.TrimPrefix(v, "file:")
		if rel == "" || strings.Contains(rel, "://") || path.IsAbs(rel) || iv.opts.ReadFile == nil {
			continue
		}
		if _, err := iv.opts.ReadFile(rel); err == nil {
			readable = append(readable, v)
		}
	}
	switch len(readable) {
	case 0:
		iv.errorf(p.srcAttr.Offsets0(), "<invoke srcexpr> %q names no file setbot can read (its values: %s)", p.srcAttr.Value, quoteAll(vals))
		return false
	case 1:
	default:
		iv.errorf(p.srcAttr.Offsets0(), "<invoke srcexpr> %q may name %d machines (%s): setbot composes one machine per invoke; "+
			"write one <invoke src> per machine, in states that tell them apart", p.srcAttr.Value, len(readable), quoteAll(readable))
		return false
	}
	p.src, p.hasSrc = p.srcAttr, true
	p.src.Value = readable[0]
	is := &ast.Binary{X: p.srcExpr, OpPos: p.srcExpr.Pos(), Op: ast.EQL, Y: &ast.StrLit{ValuePos: p.srcExpr.Pos(), Value: readable[0]}}
	if p.inv.OK == nil {
		p.inv.OK = is
	} else {
		p.inv.OK = &ast.Binary{X: p.inv.OK, OpPos: is.OpPos, Op: ast.LAND, Y: is}
	}
	return true
}

func quoteAll(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// readChild reads the machine of an <invoke src>: a file relative to the
// invoking document, read as the model's other src files are (the caller's
// ReadFile: at the same commit, in a repository).
func (iv *invoker) readChild(p pendingInvoke, passed map[string]passedParam) *model.Model {
	rel := strings.TrimPrefix(strings.TrimSpace(p.src.Value), "file:")
	if rel == "" || strings.Contains(rel, "://") || path.IsAbs(rel) {
		iv.refusef(p.src.Offsets0(), "<invoke> src %q is not supported: name a file relative to the model (src=\"file:NAME.scxml\"), "+
			"or write the child <scxml> inside <content>", p.src.Value)
		return nil
	}
	key := path.Join(iv.inv.dir, rel) // relative to the top model
	top := path.Base(iv.inv.topName)
	if key == top || slices.Contains(iv.inv.srcs, key) {
		iv.errorf(p.src.Offsets0(), "<invoke> src %q invokes a machine that is already running in this chain of invokes "+
			"(%s): setbot composes a fixed set of machines, so a machine cannot invoke itself", p.src.Value,
			strings.Join(append(append([]string{top}, iv.inv.srcs...), key), " -> "))
		return nil
	}
	file, data := readSrc(iv.diag, iv.opts, p.src, "<invoke> src")
	if file == nil {
		return nil
	}
	root, perr := parseDOM(file, []byte(data), iv.opts.MaxNesting)
	if perr != nil {
		iv.errs = append(iv.errs, perr)
		return nil
	}
	opts := iv.opts
	opts.ReadFile = func(name string) ([]byte, error) { return iv.opts.ReadFile(path.Join(path.Dir(rel), name)) }
	p.inv.Src = key
	child, cd := readMachine(iv.fset, file, opts, invocation{dir: path.Dir(key), topName: iv.inv.topName, srcs: append(slices.Clip(iv.inv.srcs), key), invoked: true, passed: passed}, root)
	iv.errs = append(iv.errs, cd.errs...)
	iv.warns = append(iv.warns, cd.warns...)
	return child
}

// parentEvents registers in the parent the events the child of inv sends
// it (with the child's parameter types) and its done.invoke event.
func (iv *invoker) parentEvents(inv *model.Invoke) {
	add := func(name string, params []model.Param, pos source.Pos) {
		ev := iv.m.EventByName(name)
		if ev == nil {
			ev = &model.Event{Name: name, Declared: true, Params: params, Pos: pos}
			iv.m.AddEvent(ev)
		}
		ev.Kinds |= model.Invoked
	}
	for _, s := range inv.ToParent() {
		var params []model.Param
		if ev := inv.Child.EventByName(s.Event); ev != nil {
			params = ev.Params
		}
		add(s.Event, params, s.SendPos)
	}
	var data []model.Param
	if ev := inv.Child.EventByName(model.DoneData); ev != nil {
		data = ev.Params
	}
	add(model.DoneInvoke(inv.ID), data, inv.Pos)
}
