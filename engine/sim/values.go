package sim

import (
	"strings"
	"unicode/utf8"

	"github.com/setbot/setbot/model/lang"
)

// The string operations of the action language, on strings as sequences
// of Unicode code points, as the solver's string theory counts them
// (ECMAScript counts UTF-16 code units: the two agree on text without
// characters beyond the Basic Multilingual Plane).

// strLen is s.length.
func strLen(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// indexOf is s.indexOf(t): the index of the first occurrence of t, -1 when
// there is none.
func indexOf(s, t string) int64 {
	i := strings.Index(s, t)
	if i < 0 {
		return -1
	}
	return int64(utf8.RuneCountInString(s[:i]))
}

// substring is s.substring(start, end): the indexes are clamped to
// [0, length] and swapped when start > end.
func substring(s string, start, end int64) string {
	r := []rune(s)
	n := int64(len(r))
	start, end = min(max(start, 0), n), min(max(end, 0), n)
	if start > end {
		start, end = end, start
	}
	return string(r[start:end])
}

// charAt is s.charAt(i): the character at i, "" when i is out of range.
func charAt(s string, i int64) string {
	r := []rune(s)
	if i < 0 || i >= int64(len(r)) {
		return ""
	}
	return string(r[i])
}

// method evaluates a string property or method.
func (x *Executor) method(n *lang.Method) (Value, error) {
	recv, err := x.evalString(n.X)
	if err != nil {
		return Value{}, err
	}
	args := make([]Value, len(n.Args))
	for i, a := range n.Args {
		if args[i], err = x.Eval(a); err != nil {
			return Value{}, err
		}
	}
	switch n.Name {
	case "length":
		return IntValue(strLen(recv)), nil
	case "indexOf":
		return IntValue(indexOf(recv, args[0].Str)), nil
	case "startsWith":
		return BoolValue(strings.HasPrefix(recv, args[0].Str)), nil
	case "endsWith":
		return BoolValue(strings.HasSuffix(recv, args[0].Str)), nil
	case "includes":
		return BoolValue(strings.Contains(recv, args[0].Str)), nil
	case "charAt":
		return StringValue(charAt(recv, args[0].Int)), nil
	case "substring":
		end := strLen(recv)
		if len(args) > 1 {
			end = args[1].Int
		}
		return StringValue(substring(recv, args[0].Int, end)), nil
	}
	return Value{}, x.errorf(n, "unsupported string method %s", n.Name)
}

func (x *Executor) evalString(e lang.Expr) (string, error) {
	v, err := x.Eval(e)
	if err != nil {
		return "", err
	}
	if v.Kind != lang.String {
		return "", x.errorf(e, "%s is %s, not string", lang.ExprString(e), v.Kind)
	}
	return v.Str, nil
}

// bitOp applies one of ECMAScript's 32-bit bit operators: the operands go
// through ToInt32 (>>>'s left one through ToUint32), a shift count is taken
// modulo 32, and the result is a signed 32-bit integer (unsigned for >>>).
func bitOp(op lang.Token, a, b int64) int64 {
	x, y := int32(a), int32(b)
	s := uint32(b) & 31
	switch op {
	case lang.AND:
		return int64(x & y)
	case lang.OR:
		return int64(x | y)
	case lang.XOR:
		return int64(x ^ y)
	case lang.SHL:
		return int64(x << s)
	case lang.SHR:
		return int64(x >> s)
	case lang.USHR:
		return int64(uint32(a) >> s)
	}
	panic("sim: not a bit operator: " + op.String())
}
