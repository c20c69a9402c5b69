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

// lowerer lowers blocks of executable content: it replaces the sends that
// raise an error by the raise, and skips what follows each element that
// raises error.execution (lowerSends). It takes the raises that stand for
// elements that fail when they run (fail, failed), which reading the
// document and the phases after it mark, and gives each block lowered.
// One lowerer serves a document from reading to checking, so that the
// flags of <foreach> loops are numbered once (lowerLoop).
type lowerer struct {
	*diag
	// failed holds the raises of error.execution that stand for elements
	// that fail when they run (fail).
	failed map[*ast.Raise]bool
	// left is how many more statements the lowering of the current
	// block's failing sends may write (lowerBlock); loopFailed names the
	// flag that ends the <foreach> being lowered, if any (lowerLoop), and
	// loops numbers the flags.
	left       int
	loopFailed string
	loops      int
}

// maxLowered bounds the statements the lowering of one block may write:
// every if that may raise error.execution copies what follows it into its
// other branches, so nested and successive ones multiply the block.
const maxLowered = 10000

// lowerBlock lowers one block of executable content (lowerSends), or
// refuses it, at its first failing element, when the rewriting outgrows
// maxLowered statements. Only a failing element makes the lowering copy
// statements; a block without one is lowered as it is, however long.
func (l *lowerer) lowerBlock(stmts []ast.Stmt) []ast.Stmt {
	var f ast.Stmt
	for _, s := range stmts {
		if f = l.failing(s); f != nil {
			break
		}
	}
	if f == nil {
		l.left = math.MaxInt
		return l.lowerSends(stmts)
	}
	l.left = maxLowered
	out := l.lowerSends(stmts)
	if l.left < 0 {
		what, hint := "the sends to unsupported targets", "send to \"#_parent\" or \"#_name\" for an output, or end the block with the send"
		if _, ok := f.(*ast.Send); !ok {
			what, hint = "the elements", "fix the failing element, or end the block with it"
		}
		l.errorf(l.file.Offset(f.Pos()), "%s in this block raise %s under so many conditions that skipping "+
			"the rest of the block takes more than %d statements to write: %s", what, model.ErrorExecution, maxLowered, hint)
		return stmts
	}
	return out
}

// lowerSends replaces the sends of one block of executable content whose
// target raises an error by a raise of that error, and skips what follows
// every element that raises error.execution: such a send, and the raises
// that stand for elements that fail (lowerer.fail). error.execution is an
// error of the element, so the rest of the block is skipped (§4.10):
// the statements after it are dropped, and those after an if that may
// raise it move into the branches that do not. error.communication comes
// from the delivery, which is asynchronous (§6.2.4), so the block goes on.
// The error goes on the internal queue when the send executes.
func (l *lowerer) lowerSends(stmts []ast.Stmt) []ast.Stmt {
	if l.left -= len(stmts); l.left < 0 {
		return stmts // lowerBlock refuses the block
	}
	var out []ast.Stmt
	for i, s := range stmts {
		switch x := s.(type) {
		case *ast.Send:
			// The error is the platform's, and its sendid the send's id.
			switch sendError(x.Target) {
			case model.ErrorExecution:
				return append(out, l.raiseFailure(&ast.Raise{RaisePos: x.SendPos, Event: model.ErrorExecution, ID: x.ID, Platform: true})...)
			case model.ErrorCommunication:
				out = append(out, &ast.Raise{RaisePos: x.SendPos, Event: model.ErrorCommunication, ID: x.ID, Platform: true})
				continue
			}
		case *ast.Raise:
			if l.failed[x] {
				return append(out, l.raiseFailure(x)...)
			}
		case *ast.If:
			if l.failing(x) != nil {
				return append(out, l.lowerIf(x, stmts[i+1:]))
			}
		case *ast.ForEach:
			if l.failing(x) != nil {
				return append(out, l.lowerLoop(x, stmts[i+1:])...)
			}
		case *ast.Block:
			if f, ok := l.failing(x).(*ast.Send); ok {
				l.refusef(l.file.Offset(f.SendPos), "a send to target %q inside a nested block is not supported: it raises %s, which skips the rest of the block; move it out of the block", f.Target, model.ErrorExecution)
			}
		case *ast.While, *ast.For:
			if f, ok := l.failing(x).(*ast.Send); ok {
				l.refusef(l.file.Offset(f.SendPos), "a send to target %q inside a script loop is not supported: it raises %s, which ends the loop and skips the rest of the block; send to \"#_parent\" or \"#_name\" for an output", f.Target, model.ErrorExecution)
			}
		}
		out = append(out, l.lowerNested(s))
	}
	return out
}

// raiseFailure returns the raise of error.execution r, which ends the
// block, and inside a <foreach> the assignment that ends the loop too.
func (l *lowerer) raiseFailure(r *ast.Raise) []ast.Stmt {
	if l.loopFailed == "" {
		return []ast.Stmt{r}
	}
	flag := &ast.Ident{NamePos: r.RaisePos, Name: l.loopFailed}
	return []ast.Stmt{r, &ast.Assign{Target: flag, OpPos: r.RaisePos, Op: ast.ASSIGN, Value: &ast.BoolLit{ValuePos: r.RaisePos, Value: true}}}
}

// lowerLoop lowers a <foreach> that may raise error.execution, followed by
// rest. The error ends the loop and the block that holds it (§4.6), so a
// local flag records it: the raise sets it, the loop runs while it is
// false, and rest runs only if it stays false. A loop nested in the body
// shares the flag, since its error ends every enclosing loop too.
//
//	{ bool failed = false; for (item, index of array; !failed) { ...; raise error.execution; failed = true }; if (!failed) { rest } }
func (l *lowerer) lowerLoop(x *ast.ForEach, rest []ast.Stmt) []ast.Stmt {
	pos := x.ForPos
	var out []ast.Stmt
	outer := l.loopFailed
	if outer == "" {
		l.loops++
		l.loopFailed = "_foreach_failed_" + strconv.Itoa(l.loops)
		out = append(out, &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: l.loopFailed}, Type: ast.BoolType, Value: &ast.BoolLit{ValuePos: pos}})
	}
	ok := &ast.Unary{OpPos: pos, Op: ast.NOT, X: &ast.Ident{NamePos: pos, Name: l.loopFailed}}
	y := *x
	y.Cond = ok
	if x.Cond != nil {
		y.Cond = &ast.Binary{X: x.Cond, OpPos: pos, Op: ast.LAND, Y: ok}
	}
	y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: l.lowerSends(x.Body.Stmts)}
	out = append(out, &y)
	l.loopFailed = outer
	if len(rest) > 0 {
		out = append(out, &ast.If{IfPos: pos, Cond: ok, Then: &ast.Block{Lbrace: pos, Stmts: l.lowerSends(rest)}})
	}
	return out
}

// lowerIf lowers an if that may raise error.execution, followed by rest:
// every branch ends with rest, so rest runs only where no error was raised.
func (l *lowerer) lowerIf(x *ast.If, rest []ast.Stmt) *ast.If {
	then := &ast.Block{Lbrace: x.Then.Lbrace, Stmts: l.lowerSends(l.join(x.Then, rest))}
	var els ast.Stmt
	switch e := x.Else.(type) {
	case nil:
		if len(rest) > 0 {
			els = &ast.Block{Lbrace: x.IfPos, Stmts: l.lowerSends(rest)}
		}
	case *ast.If:
		els = l.lowerIf(e, rest)
	case *ast.Block:
		els = &ast.Block{Lbrace: e.Lbrace, Stmts: l.lowerSends(l.join(e, rest))}
	}
	return &ast.If{IfPos: x.IfPos, Cond: x.Cond, Then: then, Else: els}
}

// join appends rest to the statements of a branch. A local the branch
// declares would capture a name rest reads or declares; that is refused.
func (l *lowerer) join(branch *ast.Block, rest []ast.Stmt) []ast.Stmt {
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
			l.errorf(l.file.Offset(d.DeclPos), "local %s is declared in a branch of an if that may raise %s, and used after the if: declare it before the if", d.Name.Name, model.ErrorExecution)
		}
	}
	return append(append([]ast.Stmt(nil), branch.Stmts...), rest...)
}

// lowerNested lowers the blocks inside s that do not raise error.execution
// (their error.communication sends).
func (l *lowerer) lowerNested(s ast.Stmt) ast.Stmt {
	switch x := s.(type) {
	case *ast.If:
		y := *x
		y.Then = &ast.Block{Lbrace: x.Then.Lbrace, Stmts: l.lowerSends(x.Then.Stmts)}
		if x.Else != nil {
			y.Else = l.lowerNested(x.Else)
		}
		return &y
	case *ast.Block:
		return &ast.Block{Lbrace: x.Lbrace, Stmts: l.lowerSends(x.Stmts)}
	case *ast.While:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: l.lowerSends(x.Body.Stmts)}
		return &y
	case *ast.For:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: l.lowerSends(x.Body.Stmts)}
		return &y
	case *ast.ForEach:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: l.lowerSends(x.Body.Stmts)}
		return &y
	}
	return s
}

// failing returns the first statement under n that raises
// error.execution as an error of its element, or nil: a send to a target
// the SCXML event processor does not support, or the raise that stands for
// an element that fails (lowerer.fail).
func (l *lowerer) failing(n ast.Node) ast.Stmt {
	var f ast.Stmt
	ast.Inspect(n, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.Send:
			if f == nil && sendError(s.Target) == model.ErrorExecution {
				f = s
			}
		case *ast.Raise:
			if f == nil && l.failed[s] {
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
func (l *lowerer) fail(off int, what string) *ast.Raise {
	l.warnFailure(off, what)
	return l.failure(off)
}

// warnFailure is fail's warning.
func (l *lowerer) warnFailure(off int, what string) {
	l.warnf(off, "%s: setbot raises %s here and skips the rest of the block, as the SCXML specification requires", what, model.ErrorExecution)
}

// failure is fail without the warning, for an element whose failure one
// already reported stands for.
func (l *lowerer) failure(off int) *ast.Raise {
	r := &ast.Raise{RaisePos: l.pos(off), Event: model.ErrorExecution, Platform: true}
	l.failed[r] = true
	return r
}

// failSend is fail for a <send> with the given id, which the error's
// _event.sendid reports.
func (l *lowerer) failSend(off int, what, id string) *ast.Raise {
	r := l.fail(off, what)
	r.ID = id
	return r
}
