package scxml

import (
	"math"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// sendError names the error event a send to target raises, or "" when the
// send is delivered: to the machine itself (no target), or as an output
// (#_parent and #_name, an invoke id in SCXML, which setbot reads as an
// output channel). A #_scxml_ session cannot be reached, since setbot's
// machine knows no other session; any other target is not one the SCXML
// event processor supports.
func sendError(target string) string {
	switch {
	case target == "" || target == model.TargetInternal:
		return ""
	case strings.HasPrefix(target, model.TargetSessionPrefix):
		return model.ErrorCommunication
	case strings.HasPrefix(target, "#_") && len(target) > len("#_"):
		return ""
	}
	return model.ErrorExecution
}

// maxLowered bounds the statements the lowering of one block may write:
// every if that may raise error.execution copies what follows it into its
// other branches, so nested and successive ones multiply the block.
const maxLowered = 10000

// lowerBlock lowers one block of executable content (lowerSends), or
// refuses it, at its first failing element, when the rewriting outgrows
// maxLowered statements. Only a failing element makes the lowering copy
// statements; a block without one is lowered as it is, however long.
func (b *builder) lowerBlock(stmts []ast.Stmt) []ast.Stmt {
	var f ast.Stmt
	for _, s := range stmts {
		if f = b.failing(s); f != nil {
			break
		}
	}
	if f == nil {
		b.lowerLeft = math.MaxInt
		return b.lowerSends(stmts)
	}
	b.lowerLeft = maxLowered
	out := b.lowerSends(stmts)
	if b.lowerLeft < 0 {
		what, hint := "the sends to unsupported targets", "send to \"#_parent\" or \"#_name\" for an output, or end the block with the send"
		if _, ok := f.(*ast.Send); !ok {
			what, hint = "the elements", "fix the failing element, or end the block with it"
		}
		b.errorf(b.file.Offset(f.Pos()), "%s in this block raise %s under so many conditions that skipping "+
			"the rest of the block takes more than %d statements to write: %s", what, model.ErrorExecution, maxLowered, hint)
		return stmts
	}
	return out
}

// lowerSends replaces the sends of one block of executable content whose
// target raises an error by a raise of that error, and skips what follows
// every element that raises error.execution: such a send, and the raises
// that stand for elements that fail (builder.fail). error.execution is an
// error of the element, so the rest of the block is skipped (§4.10):
// the statements after it are dropped, and those after an if that may
// raise it move into the branches that do not. error.communication comes
// from the delivery, which is asynchronous (§6.2.4), so the block goes on.
// The error goes on the internal queue when the send executes.
func (b *builder) lowerSends(stmts []ast.Stmt) []ast.Stmt {
	if b.lowerLeft -= len(stmts); b.lowerLeft < 0 {
		return stmts // lowerBlock refuses the block
	}
	var out []ast.Stmt
	for i, s := range stmts {
		switch x := s.(type) {
		case *ast.Send:
			// The error is the platform's, and its sendid the send's id.
			switch sendError(x.Target) {
			case model.ErrorExecution:
				return append(out, b.raiseFailure(&ast.Raise{RaisePos: x.SendPos, Event: model.ErrorExecution, ID: x.ID, Platform: true})...)
			case model.ErrorCommunication:
				out = append(out, &ast.Raise{RaisePos: x.SendPos, Event: model.ErrorCommunication, ID: x.ID, Platform: true})
				continue
			}
		case *ast.Raise:
			if b.failed[x] {
				return append(out, b.raiseFailure(x)...)
			}
		case *ast.If:
			if b.failing(x) != nil {
				return append(out, b.lowerIf(x, stmts[i+1:]))
			}
		case *ast.ForEach:
			if b.failing(x) != nil {
				return append(out, b.lowerLoop(x, stmts[i+1:])...)
			}
		case *ast.Block:
			if f, ok := b.failing(x).(*ast.Send); ok {
				b.refusef(b.file.Offset(f.SendPos), "a send to target %q inside a nested block is not supported: it raises %s, which skips the rest of the block; move it out of the block", f.Target, model.ErrorExecution)
			}
		case *ast.While, *ast.For:
			if f, ok := b.failing(x).(*ast.Send); ok {
				b.refusef(b.file.Offset(f.SendPos), "a send to target %q inside a script loop is not supported: it raises %s, which ends the loop and skips the rest of the block; send to \"#_parent\" or \"#_name\" for an output", f.Target, model.ErrorExecution)
			}
		}
		out = append(out, b.lowerNested(s))
	}
	return out
}

// raiseFailure returns the raise of error.execution r, which ends the
// block, and inside a <foreach> the assignment that ends the loop too.
func (b *builder) raiseFailure(r *ast.Raise) []ast.Stmt {
	if b.loopFailed == "" {
		return []ast.Stmt{r}
	}
	flag := &ast.Ident{NamePos: r.RaisePos, Name: b.loopFailed}
	return []ast.Stmt{r, &ast.Assign{Target: flag, OpPos: r.RaisePos, Op: ast.ASSIGN, Value: &ast.BoolLit{ValuePos: r.RaisePos, Value: true}}}
}

// lowerLoop lowers a <foreach> that may raise error.execution, followed by
// rest. The error ends the loop and the block that holds it (§4.6), so a
// local flag records it: the raise sets it, the loop runs while it is
// false, and rest runs only if it stays false. A loop nested in the body
// shares the flag, since its error ends every enclosing loop too.
//
//	{ bool failed = false; for (item, index of array; !failed) { ...; raise error.execution; failed = true }; if (!failed) { rest } }
func (b *builder) lowerLoop(x *ast.ForEach, rest []ast.Stmt) []ast.Stmt {
	pos := x.ForPos
	var out []ast.Stmt
	outer := b.loopFailed
	if outer == "" {
		b.loops++
		b.loopFailed = "_foreach_failed_" + strconv.Itoa(b.loops)
		out = append(out, &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: b.loopFailed}, Type: ast.BoolType, Value: &ast.BoolLit{ValuePos: pos}})
	}
	ok := &ast.Unary{OpPos: pos, Op: ast.NOT, X: &ast.Ident{NamePos: pos, Name: b.loopFailed}}
	y := *x
	y.Cond = ok
	if x.Cond != nil {
		y.Cond = &ast.Binary{X: x.Cond, OpPos: pos, Op: ast.LAND, Y: ok}
	}
	y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: b.lowerSends(x.Body.Stmts)}
	out = append(out, &y)
	b.loopFailed = outer
	if len(rest) > 0 {
		out = append(out, &ast.If{IfPos: pos, Cond: ok, Then: &ast.Block{Lbrace: pos, Stmts: b.lowerSends(rest)}})
	}
	return out
}

// lowerIf lowers an if that may raise error.execution, followed by rest:
// every branch ends with rest, so rest runs only where no error was raised.
func (b *builder) lowerIf(x *ast.If, rest []ast.Stmt) *ast.If {
	then := &ast.Block{Lbrace: x.Then.Lbrace, Stmts: b.lowerSends(b.join(x.Then, rest))}
	var els ast.Stmt
	switch e := x.Else.(type) {
	case nil:
		if len(rest) > 0 {
			els = &ast.Block{Lbrace: x.IfPos, Stmts: b.lowerSends(rest)}
		}
	case *ast.If:
		els = b.lowerIf(e, rest)
	case *ast.Block:
		els = &ast.Block{Lbrace: e.Lbrace, Stmts: b.lowerSends(b.join(e, rest))}
	}
	return &ast.If{IfPos: x.IfPos, Cond: x.Cond, Then: then, Else: els}
}

// join appends rest to the statements of a branch. A local the branch
// declares would capture a name rest reads or declares; that is refused.
func (b *builder) join(branch *ast.Block, rest []ast.Stmt) []ast.Stmt {
	used := make(map[string]bool)
	for _, s := range rest {
		ast.Inspect(s, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	for _, s := range branch.Stmts {
		if d, ok := s.(*ast.Decl); ok && used[d.Name.Name] {
			b.errorf(b.file.Offset(d.DeclPos), "local %s is declared in a branch of an if that may raise %s, and used after the if: declare it before the if", d.Name.Name, model.ErrorExecution)
		}
	}
	return append(append([]ast.Stmt(nil), branch.Stmts...), rest...)
}

// lowerNested lowers the blocks inside s that do not raise error.execution
// (their error.communication sends).
func (b *builder) lowerNested(s ast.Stmt) ast.Stmt {
	switch x := s.(type) {
	case *ast.If:
		y := *x
		y.Then = &ast.Block{Lbrace: x.Then.Lbrace, Stmts: b.lowerSends(x.Then.Stmts)}
		if x.Else != nil {
			y.Else = b.lowerNested(x.Else)
		}
		return &y
	case *ast.Block:
		return &ast.Block{Lbrace: x.Lbrace, Stmts: b.lowerSends(x.Stmts)}
	case *ast.While:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: b.lowerSends(x.Body.Stmts)}
		return &y
	case *ast.For:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: b.lowerSends(x.Body.Stmts)}
		return &y
	case *ast.ForEach:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: b.lowerSends(x.Body.Stmts)}
		return &y
	}
	return s
}

// failing returns the first statement under n that raises
// error.execution as an error of its element, or nil: a send to a target
// the SCXML event processor does not support, or the raise that stands for
// an element that fails (builder.fail).
func (b *builder) failing(n ast.Node) ast.Stmt {
	var f ast.Stmt
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.Send:
			if f == nil && sendError(s.Target) == model.ErrorExecution {
				f = s
			}
		case *ast.Raise:
			if f == nil && b.failed[s] {
				f = s
			}
		}
		return f == nil
	})
	return f
}

// fail reports, as a warning, an element that SCXML makes an error when it
// runs, and returns the raise of error.execution that stands for it; the
// lowering skips the rest of its block (lowerSends), as for any error of
// executable content. what says what is wrong, in the manner of an error
// message.
func (b *builder) fail(off int, what string) *ast.Raise {
	b.warnf(off, "%s: setbot raises %s here and skips the rest of the block, as the SCXML specification requires", what, model.ErrorExecution)
	r := &ast.Raise{RaisePos: b.pos(off), Event: model.ErrorExecution, Platform: true}
	b.failed[r] = true
	return r
}

// failSend is fail for a <send> with the given id, which the error's
// _event.sendid reports.
func (b *builder) failSend(off int, what, id string) *ast.Raise {
	r := b.fail(off, what)
	r.ID = id
	return r
}

// warnf reports a warning: the model loads, and the warning is kept in it.
func (b *builder) warnf(off int, format string, args ...any) {
	b.warns.Add(b.file.Position(b.file.Pos(off)), format, args...)
}
