package sim

import (
	"fmt"
	"math/big"
	"strconv"

	intarith "github.com/setbot/setbot/model/lang/arith"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/vocab"
)

// Eval evaluates e with C/ECMAScript short-circuiting, recording the
// decision path of every &&, || and ?: it evaluates.
func (x *Executor) Eval(e ast.Expr) (Value, error) {
	switch n := e.(type) {
	case *ast.IntLit:
		return IntValue(n.Value), nil
	case *ast.DecLit:
		return DecimalValue(n.Value), nil
	case *ast.ToDecimal:
		i, err := x.evalInt(n.X)
		return DecimalValue(new(big.Rat).SetInt64(i)), err
	case *ast.BoolLit:
		return BoolValue(n.Value), nil
	case *ast.StrLit:
		return StringValue(n.Value), nil
	case *ast.EventField:
		return x.eventField(n)
	case *ast.Method:
		return x.method(n)
	case *ast.External:
		return x.call(n)
	case *ast.Digits:
		i, err := x.evalInt(n.X)
		if err != nil || i < 0 {
			return StringValue(""), err // never negative: the lowering tests the sign
		}
		return StringValue(strconv.FormatInt(i, 10)), nil
	case *ast.Convert:
		return x.convert(n)
	case *ast.Floor:
		v, err := x.Eval(n.X)
		if err != nil {
			return Value{}, err
		}
		if v.Kind != ast.Decimal {
			return Value{}, x.errorf(n, "Math.floor of %s, not a decimal", v.Kind)
		}
		q := new(big.Int).Div(v.Rat.Num(), v.Rat.Denom()) // Euclidean division: toward -inf
		if !q.IsInt64() {
			return Value{}, x.errorf(n, "Math.floor(%s) is beyond the 64-bit integers", v)
		}
		return IntValue(q.Int64()), nil
	case *ast.Ident:
		if v, ok := x.lookup(n.Name); ok {
			return v, nil
		}
		return Value{}, x.errorf(n, "unknown variable %s", n.Name)
	case *ast.EventParam:
		return x.param(n)
	case *ast.InState:
		if x.In == nil {
			return Value{}, x.errorf(n, "In('%s') has no configuration to be evaluated against", n.State)
		}
		b, err := x.In(n.State)
		if err != nil {
			return Value{}, x.errorf(n, "%v", err)
		}
		return BoolValue(b), nil
	case *ast.Unary:
		return x.unary(n)
	case *ast.Binary:
		return x.binary(n)
	case *ast.Cond:
		c, err := x.cond(n.Cond)
		if err != nil {
			return Value{}, err
		}
		if c {
			return x.Eval(n.Then)
		}
		return x.Eval(n.Else)
	}
	return Value{}, x.errorf(e, "unsupported expression %T", e)
}

// EvalBool evaluates a condition (a guard, say) that must be bool. Its own
// outcome is not a branching point; those inside it are recorded.
func (x *Executor) EvalBool(e ast.Expr) (bool, error) {
	v, err := x.Eval(e)
	if err != nil {
		return false, err
	}
	if v.Kind != ast.Bool {
		return false, x.errorf(e, "%s is %s, not bool", printer.ExprString(e), v.Kind)
	}
	return v.Bool, nil
}

// cond evaluates a branching condition and records its outcome on the
// decision path.
func (x *Executor) cond(e ast.Expr) (bool, error) {
	b, err := x.EvalBool(e)
	if err != nil {
		return false, err
	}
	x.record(b)
	return b, nil
}

func (x *Executor) evalInt(e ast.Expr) (int64, error) {
	v, err := x.Eval(e)
	if err != nil {
		return 0, err
	}
	if v.Kind != ast.Int {
		return 0, x.errorf(e, "%s is %s, not int", printer.ExprString(e), v.Kind)
	}
	return v.Int, nil
}

// eventField reads _event (whether an event is being processed), a field
// of it, or the tag of a field that may be undefined (lower.AbsentOf), from
// the event being processed and how it arrived.
func (x *Executor) eventField(n *ast.EventField) (Value, error) {
	if n.Field == "" {
		return BoolValue(x.Event != nil), nil
	}
	field, tag := lower.AbsentOf(n.Field)
	switch {
	case !ast.EventFields[field]:
		return Value{}, x.errorf(n, "_event has no field %s", n.Field)
	case x.Event == nil:
		return Value{}, x.errorf(n, "_event.%s read where no event is being processed", field)
	case field == "name":
		return StringValue(x.Event.Name), nil
	}
	v, has := x.Event.Meta.Field(field)
	if !tag {
		return StringValue(v), nil
	}
	if has {
		return IntValue(ast.AbsentValue), nil
	}
	return IntValue(ast.AbsentUndefined), nil
}

// param reads _event.data.Name of the event being processed.
func (x *Executor) param(n *ast.EventParam) (Value, error) {
	if x.Event == nil {
		return Value{}, x.errorf(n, "_event.data.%s read where no event is being processed", n.Name)
	}
	v, ok := x.Event.Args[n.Name]
	if !ok {
		return Value{}, x.errorf(n, "_event.data.%s: event %s carries no parameter %s", n.Name, x.Event.Name, n.Name)
	}
	return v, nil
}

func (x *Executor) unary(n *ast.Unary) (Value, error) {
	switch n.Op {
	case ast.NOT:
		b, err := x.EvalBool(n.X)
		return BoolValue(!b), err
	case ast.SUB:
		// The operand is evaluated once: its branching points are recorded
		// once.
		v, err := x.Eval(n.X)
		switch {
		case err != nil:
			return Value{}, err
		case v.Kind == ast.Decimal:
			return DecimalValue(new(big.Rat).Neg(v.Rat)), nil
		case v.Kind != ast.Int:
			return Value{}, x.errorf(n.X, "%s is %s, not int", printer.ExprString(n.X), v.Kind)
		}
		neg, ok := intarith.Neg(v.Int)
		if !ok {
			return Value{}, x.overflow(n, printer.ExprString(n))
		}
		return IntValue(neg), nil
	case ast.TILD:
		v, err := x.evalInt(n.X)
		return IntValue(ecma.BitNot(v)), err
	}
	return Value{}, x.errorf(n, "unsupported operator %s", n.Op)
}

func (x *Executor) binary(n *ast.Binary) (Value, error) {
	switch n.Op {
	case ast.LAND, ast.LOR:
		l, err := x.cond(n.X)
		if err != nil {
			return Value{}, err
		}
		if l == (n.Op == ast.LOR) {
			return BoolValue(l), nil
		}
		r, err := x.EvalBool(n.Y)
		return BoolValue(r), err
	case ast.EQL, ast.NEQ:
		l, err := x.Eval(n.X)
		if err != nil {
			return Value{}, err
		}
		r, err := x.Eval(n.Y)
		if err != nil {
			return Value{}, err
		}
		if l.Kind != r.Kind {
			return Value{}, x.errorf(n, "%s compares %s with %s", printer.ExprString(n), l.Kind, r.Kind)
		}
		return BoolValue(l.Equal(r) == (n.Op == ast.EQL)), nil
	}
	lv, err := x.Eval(n.X)
	if err != nil {
		return Value{}, err
	}
	if lv.Kind == ast.String {
		return x.stringBinary(n, lv.Str)
	}
	if lv.Kind == ast.Decimal {
		return x.decimalBinary(n, lv.Rat)
	}
	// The left operand is evaluated once: its branching points are
	// recorded once.
	if lv.Kind != ast.Int {
		return Value{}, x.errorf(n.X, "%s is %s, not int", printer.ExprString(n.X), lv.Kind)
	}
	l := lv.Int
	r, err := x.evalInt(n.Y)
	if err != nil {
		return Value{}, err
	}
	switch n.Op {
	case ast.LSS:
		return BoolValue(l < r), nil
	case ast.GTR:
		return BoolValue(l > r), nil
	case ast.LEQ:
		return BoolValue(l <= r), nil
	case ast.GEQ:
		return BoolValue(l >= r), nil
	}
	if n.Op.IsBitOp() {
		return IntValue(bitOp(n.Op, l, r)), nil
	}
	v, ok, known := arith(n.Op, l, r)
	if !known {
		return Value{}, x.errorf(n, "unsupported operator %s", n.Op)
	}
	if !ok {
		return Value{}, x.overflow(n, printer.ExprString(n))
	}
	return IntValue(v), nil
}

// MaxString is the longest string (in bytes) a run computes: a
// concatenation beyond it stops the run at the term bound. A string the
// symbolic executor keeps is a concatenation of fewer than
// vocab.MaxTermSize parts, each a constant of the model or one of at most
// solver.MaxJoined bytes it joined: of at most 40 MB unless the model's
// own constants are long, so a run stops here on a path the tree cut too,
// and a string doubled in a loop costs no more than this.
const MaxString = 64 << 20

// concat returns l + r, the value of n, or the term bound's error where it
// is longer than MaxString.
func (x *Executor) concat(n ast.Node, l, r string) (Value, error) {
	if len(l)+len(r) > MaxString {
		return Value{}, &BoundError{Bound: vocab.BoundTerm, Limit: vocab.MaxTermSize, Pos: x.pos(n),
			What: fmt.Sprintf("a string grows beyond %d bytes (the term bound): setbot does not follow it", MaxString)}
	}
	return StringValue(l + r), nil
}

// stringBinary evaluates + and the comparisons on strings; l is the value
// of the left operand.
func (x *Executor) stringBinary(n *ast.Binary, l string) (Value, error) {
	r, err := x.evalString(n.Y)
	if err != nil {
		return Value{}, err
	}
	switch n.Op {
	case ast.ADD:
		return x.concat(n, l, r)
	case ast.LSS:
		return BoolValue(ecma.CompareStrings(l, r) < 0), nil
	case ast.GTR:
		return BoolValue(ecma.CompareStrings(l, r) > 0), nil
	case ast.LEQ:
		return BoolValue(ecma.CompareStrings(l, r) <= 0), nil
	case ast.GEQ:
		return BoolValue(ecma.CompareStrings(l, r) >= 0), nil
	}
	return Value{}, x.errorf(n, "operator %s does not apply to strings", n.Op)
}

// arith applies an arithmetic operator (ADD, SUB, MUL, QUO, REM) to int64
// operands, as package arith defines them: ok is false when the exact
// result does not fit int64; known is false for any other operator.
func arith(op ast.Token, a, b int64) (n int64, ok, known bool) {
	f, known := arithOps[op]
	if !known {
		return 0, false, false
	}
	n, ok = f(a, b)
	return n, ok, true
}

var arithOps = map[ast.Token]func(a, b int64) (int64, bool){
	ast.ADD: intarith.Add, ast.SUB: intarith.Sub, ast.MUL: intarith.Mul, ast.QUO: intarith.Quo, ast.REM: intarith.Rem,
}

// assignOps maps compound assignment operators to their arithmetic.
var assignOps = map[ast.Token]ast.Token{
	ast.ADD_ASSIGN: ast.ADD,
	ast.SUB_ASSIGN: ast.SUB,
	ast.MUL_ASSIGN: ast.MUL,
	ast.QUO_ASSIGN: ast.QUO,
	ast.REM_ASSIGN: ast.REM,
}

func (x *Executor) overflow(n ast.Node, what string) error {
	return fmt.Errorf("integer overflow in %s at %s", what, x.pos(n))
}

// errorf returns an error positioned at n.
func (x *Executor) errorf(n ast.Node, format string, args ...any) error {
	return fmt.Errorf("%s: %s", x.pos(n), fmt.Sprintf(format, args...))
}
