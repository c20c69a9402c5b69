package sim

import (
	"fmt"
	"math"

	"github.com/setbot/setbot/model/lang"
)

// eval evaluates e with C/ECMAScript short-circuiting, recording the
// decision path of every &&, || and ?: it evaluates.
func (f *frame) eval(e lang.Expr) (Value, error) {
	switch x := e.(type) {
	case *lang.IntLit:
		return IntValue(x.Value), nil
	case *lang.BoolLit:
		return BoolValue(x.Value), nil
	case *lang.Ident:
		if v, ok := f.lookup(x.Name); ok {
			return v, nil
		}
		return Value{}, f.errorf(x, "unknown variable %s", x.Name)
	case *lang.EventParam:
		return f.param(x)
	case *lang.InState:
		// The flattener resolves In() against the configuration it knows
		// at each point; one left in the machine has no concrete meaning.
		return Value{}, f.errorf(x, "In('%s') was not resolved by the flattener", x.State)
	case *lang.Unary:
		return f.unary(x)
	case *lang.Binary:
		return f.binary(x)
	case *lang.Cond:
		c, err := f.cond(x.Cond)
		if err != nil {
			return Value{}, err
		}
		if c {
			return f.eval(x.Then)
		}
		return f.eval(x.Else)
	}
	return Value{}, f.errorf(e, "unsupported expression %T", e)
}

// cond evaluates a branching condition and records its outcome on the
// decision path.
func (f *frame) cond(e lang.Expr) (bool, error) {
	b, err := f.evalBool(e)
	if err != nil {
		return false, err
	}
	f.record(b)
	return b, nil
}

func (f *frame) evalBool(e lang.Expr) (bool, error) {
	v, err := f.eval(e)
	if err != nil {
		return false, err
	}
	if v.Kind != lang.Bool {
		return false, f.errorf(e, "%s is %s, not bool", lang.ExprString(e), v.Kind)
	}
	return v.Bool, nil
}

func (f *frame) evalInt(e lang.Expr) (int64, error) {
	v, err := f.eval(e)
	if err != nil {
		return 0, err
	}
	if v.Kind != lang.Int {
		return 0, f.errorf(e, "%s is %s, not int", lang.ExprString(e), v.Kind)
	}
	return v.Int, nil
}

// param reads _event.data.Name of the event being processed.
func (f *frame) param(x *lang.EventParam) (Value, error) {
	if f.ev == nil {
		return Value{}, f.errorf(x, "_event.data.%s read where no event is being processed", x.Name)
	}
	v, ok := f.ev.Args[x.Name]
	if !ok {
		return Value{}, f.errorf(x, "_event.data.%s: event %s carries no parameter %s", x.Name, f.ev.Name, x.Name)
	}
	return v, nil
}

func (f *frame) unary(x *lang.Unary) (Value, error) {
	switch x.Op {
	case lang.NOT:
		b, err := f.evalBool(x.X)
		return BoolValue(!b), err
	case lang.SUB:
		n, err := f.evalInt(x.X)
		if err != nil {
			return Value{}, err
		}
		if n == math.MinInt64 {
			return Value{}, f.overflow(x, lang.ExprString(x))
		}
		return IntValue(-n), nil
	}
	return Value{}, f.errorf(x, "unsupported operator %s", x.Op)
}

func (f *frame) binary(x *lang.Binary) (Value, error) {
	switch x.Op {
	case lang.LAND, lang.LOR:
		l, err := f.cond(x.X)
		if err != nil {
			return Value{}, err
		}
		if l == (x.Op == lang.LOR) {
			return BoolValue(l), nil
		}
		r, err := f.evalBool(x.Y)
		return BoolValue(r), err
	case lang.EQL, lang.NEQ:
		l, err := f.eval(x.X)
		if err != nil {
			return Value{}, err
		}
		r, err := f.eval(x.Y)
		if err != nil {
			return Value{}, err
		}
		if l.Kind != r.Kind {
			return Value{}, f.errorf(x, "%s compares %s with %s", lang.ExprString(x), l.Kind, r.Kind)
		}
		eq := l.Int == r.Int
		if l.Kind == lang.Bool {
			eq = l.Bool == r.Bool
		}
		return BoolValue(eq == (x.Op == lang.EQL)), nil
	}
	l, err := f.evalInt(x.X)
	if err != nil {
		return Value{}, err
	}
	r, err := f.evalInt(x.Y)
	if err != nil {
		return Value{}, err
	}
	switch x.Op {
	case lang.LSS:
		return BoolValue(l < r), nil
	case lang.GTR:
		return BoolValue(l > r), nil
	case lang.LEQ:
		return BoolValue(l <= r), nil
	case lang.GEQ:
		return BoolValue(l >= r), nil
	}
	n, ok, known := arith(x.Op, l, r)
	if !known {
		return Value{}, f.errorf(x, "unsupported operator %s", x.Op)
	}
	if !ok {
		return Value{}, f.overflow(x, lang.ExprString(x))
	}
	return IntValue(n), nil
}

// arith applies an arithmetic operator (ADD, SUB, MUL, QUO, REM) to int64
// operands. ok is false when the exact result does not fit int64; known is
// false for any other operator. Division and remainder follow C (the
// quotient truncates toward zero, the remainder has the dividend's sign),
// with x / 0 = 0 and x % 0 = x, as the solver defines them.
func arith(op lang.Token, a, b int64) (n int64, ok, known bool) {
	switch op {
	case lang.ADD:
		n = a + b
		return n, (a >= 0) != (b >= 0) || (n >= 0) == (a >= 0), true
	case lang.SUB:
		n = a - b
		return n, (a >= 0) == (b >= 0) || (n >= 0) == (a >= 0), true
	case lang.MUL:
		if a == 0 || b == 0 {
			return 0, true, true
		}
		n = a * b
		if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return n, false, true
		}
		return n, n/b == a, true
	case lang.QUO:
		if b == 0 {
			return 0, true, true
		}
		if a == math.MinInt64 && b == -1 {
			return a, false, true
		}
		return a / b, true, true
	case lang.REM:
		if b == 0 {
			return a, true, true
		}
		if b == -1 {
			return 0, true, true
		}
		return a % b, true, true
	}
	return 0, false, false
}

// assignOps maps compound assignment operators to their arithmetic.
var assignOps = map[lang.Token]lang.Token{
	lang.ADD_ASSIGN: lang.ADD,
	lang.SUB_ASSIGN: lang.SUB,
	lang.MUL_ASSIGN: lang.MUL,
	lang.QUO_ASSIGN: lang.QUO,
	lang.REM_ASSIGN: lang.REM,
}

func (f *frame) overflow(n lang.Node, what string) error {
	return fmt.Errorf("integer overflow in %s at %s", what, f.pos(n))
}

// errorf returns an error positioned at n.
func (f *frame) errorf(n lang.Node, format string, args ...any) error {
	return fmt.Errorf("%s: %s", f.pos(n), fmt.Sprintf(format, args...))
}
