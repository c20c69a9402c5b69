package lang

import (
	"fmt"
)

// Calls, methods and conversions, as go/types keeps them in call.go,
// builtins.go and conversions.go.

// callType returns the type of a call, a method or a conversion.
func (c *checker) callType(e Expr) Type {
	switch x := e.(type) {
	case *Method:
		return c.method(x)
	case *Call:
		return c.call(x)
	case *External:
		return c.external(x)
	case *ToDecimal:
		if k := c.value(x.X, "Number()", Invalid); k != Invalid && !k.IsNumber() && k != String {
			c.refusef(x.X, "%s is %s: Number() of it is not modelled; setbot's Number() takes a number or a string", ExprString(x.X), article(k))
		}
		return DecimalType
	case *Floor:
		c.value(x.X, "Math.floor()", Decimal)
		return IntType
	case *Digits:
		c.value(x.X, "String()", Int)
		return StringType
	case *Convert:
		return c.convert(x)
	}
	panic(fmt.Sprintf("lang: unexpected expression %T", e))
}

// convert returns the type of a conversion the lowering wrote.
func (c *checker) convert(x *Convert) Type {
	switch x.Fun {
	case "parseInt":
		c.value(x.X, "parseInt()", Invalid)
		return IntType
	case "Number":
		c.value(x.X, "Number()", String)
		return DecimalType
	}
	c.value(x.X, "String()", Decimal)
	return StringType
}

// external checks a call of a black-box function against the types its
// setbot:function declares.
func (c *checker) external(x *External) Type {
	for i, a := range x.Args {
		k, want := c.value(a, x.Fun+"()", Invalid), x.Params[i].Kind
		if k != Invalid && k != want && !(k == Int && want == Decimal) {
			c.errorf(a, "argument %d of %s is %s: its setbot:function declares %s", i+1, x.Fun, article(k), x.Params[i])
		}
	}
	return x.Result
}

func (c *checker) method(x *Method) Type {
	what := "." + x.Name
	t := c.expr(x.X)
	switch {
	case x.Call && x.Name == "concat":
		return c.concat(x, t)
	case x.Call && t.Kind == Array:
		return c.arrayMethod(x, t)
	case x.Call:
	case t.Kind == Object:
		return c.member(x, x.X, t, x.Name) // a field called length
	case t.Kind == Array && !t.MayBeAbsent():
		return RangeType(int64(t.Comp.MinLen), int64(t.Comp.Len))
	}
	switch {
	case t.Kind == Invalid:
	case t.Kind == Mixed:
		c.mixedValue(x.X, t, what)
	case t.MayBeAbsent():
		c.absent(x.X, what)
	case t.Kind != String:
		c.errorf(x.X, "%s is %s: %s needs a string", ExprString(x.X), t.Kind, what)
	}
	if x.Name == "length" {
		return IntType
	}
	lo, hi := StringMethods[x.Name], StringMethods[x.Name]
	if x.Name == "substring" || x.Name == "slice" {
		lo = 1
	}
	switch {
	case len(x.Args) > hi && hi == 1 && x.Name != "charAt":
		// ECMAScript's position argument.
		c.refuseAt(x.DotPos, "%s with a position is not supported: search a substring instead, e.g. s.substring(p)%s(t)", what, what)
		return Type{}
	case len(x.Args) < lo || len(x.Args) > hi:
		c.errorAt(x.DotPos, "%s takes %d argument(s), found %d", what, hi, len(x.Args))
		return Type{}
	}
	arg := String
	if x.Name == "substring" || x.Name == "charAt" || x.Name == "slice" {
		arg = Int
	}
	for _, a := range x.Args {
		c.value(a, "an argument of "+what, arg)
	}
	switch x.Name {
	case "indexOf":
		return IntType
	case "substring", "charAt", "slice":
		return StringType
	}
	return BoolType
}

// concat types a.concat(b, ...) on a of type t as ECMAScript computes it:
// a new array of a's elements, then each argument's, where an argument
// that is an array is spread and any other value is one element. Its
// fewest elements and its bound are the sums of theirs; its elements share
// one type, as every array's do.
func (c *checker) concat(x *Method, t Type) Type {
	for _, a := range x.Args {
		c.expr(a)
	}
	switch {
	case t.Kind == Invalid:
		return Type{}
	case t.Kind.IsRef():
		c.refusef(x, "%s", refReadMsg(ExprString(x.X), t.Kind))
		return Type{}
	case t.MayBeAbsent():
		c.absent(x.X, ".concat")
		return Type{}
	case t.Kind == String:
		c.errorAt(x.DotPos, "concat on the string %s: write %s + ...", ExprString(x.X), ExprString(x.X))
		return Type{}
	case t.Kind != Array:
		c.errorf(x.X, "%s is %s, not an array: .concat needs an array", ExprString(x.X), article(t.Kind))
		return Type{}
	}
	elem, minLen, maxLen := t.Comp.Elem, t.Comp.MinLen, t.Comp.Len
	for _, a := range x.Args {
		at := c.info.Types[a]
		et, lo, hi := at, 1, 1
		switch {
		case at.Kind == Invalid:
			return Type{}
		case at.Kind.IsRef():
			c.refusef(a, "%s", refPartMsg(at.Kind))
			return Type{}
		case at.Kind == Mixed:
			c.refusef(a, "%s", mixedPartMsg(at, at, ".concat"))
			return Type{}
		case at.Kind == Array:
			et, lo, hi = at.Comp.Elem, at.Comp.MinLen, at.Comp.Len
		}
		switch {
		case hi == 0: // an empty array adds no elements, nor their type
		case maxLen == 0:
			elem = et
		default:
			j := c.joinElems(elem, et)
			if j.Kind == Invalid {
				c.errorf(a, "%s adds elements of type %s to an array of %s: an array holds values of one type (and undefined); use one array per type", ExprString(a), et, elem)
				return Type{}
			}
			elem = j
		}
		minLen, maxLen = minLen+lo, maxLen+hi
	}
	if maxLen > MaxArrayLen {
		c.errorf(x, "%s may have %d elements: at most %d are modelled; split the data", ExprString(x), maxLen, MaxArrayLen)
		return Type{}
	}
	return ArrayType(elem, minLen, maxLen)
}

// arrayMethods are the methods of arrays that guards use: they compare
// the elements with their argument as === does.
var arrayMethods = map[string]bool{"indexOf": true, "includes": true}

// arrayMethod checks a.indexOf(v) and a.includes(v) on an array a of type
// t. Elements that are arrays or objects would compare by identity, which
// is not modelled.
func (c *checker) arrayMethod(x *Method, t Type) Type {
	what := "." + x.Name
	for _, a := range x.Args {
		c.expr(a)
	}
	if !arrayMethods[x.Name] {
		c.errorAt(x.DotPos, "%s is not an array method setbot models: of the array methods, indexOf, includes and concat are; write what it computes with a <foreach>", what)
		return Type{}
	}
	if len(x.Args) != 1 {
		c.refuseAt(x.DotPos, "%s on an array takes 1 argument, found %d: a start index is not supported; compare the elements you need with ===", what, len(x.Args))
		return Type{}
	}
	elem, vt := t.Comp.Elem, c.info.Types[x.Args[0]]
	switch {
	case elem.IsComposite() || vt.IsComposite():
		c.refuseAt(x.DotPos, "%s over %s compares arrays or objects by identity, which is not modelled: compare a field or an element with ===", what, t)
		return Type{}
	case vt.Kind != Invalid && vt.Kind != Undef && elem.Kind != Undef && vt.Kind != elem.Kind:
		c.errorAt(x.DotPos, "%s looks for %s value among the elements of %s, which are %s: it never finds one; look for %s value",
			what, article(vt.Kind), ExprString(x.X), t.Comp.Elem, article(elem.Kind))
	}
	if x.Name == "indexOf" {
		return RangeType(-1, int64(t.Comp.Len)-1)
	}
	return BoolType
}

// call checks a call the inliner left: a rounding built-in on an int (the
// int itself), or a call of something setbot does not model.
func (c *checker) call(x *Call) Type {
	if Rounding[x.Fun] && len(x.Args) == 1 {
		switch k := c.value(x.Args[0], x.Fun+"()", Invalid); k {
		case Int, Decimal, Invalid:
			return IntType
		default:
			c.refusef(x, "rounding %s with %s is not modelled: setbot rounds numbers; convert the value first", article(k), x.Fun)
			return Type{}
		}
	}
	if x.Fun == "String" && len(x.Args) == 1 {
		t := c.expr(x.Args[0])
		if t.Kind == Mixed {
			return StringType // the string of whichever kind it holds
		}
		switch k := c.valueOf(x.Args[0], t, "String()", Invalid); k {
		case Int, Decimal, Bool, String, Invalid:
			return StringType
		default:
			c.refusef(x, "String of %s is not modelled: setbot formats numbers, bools and strings", article(k))
			return Type{}
		}
	}
	if x.Fun == "parseInt" && (len(x.Args) == 1 || len(x.Args) == 2) {
		if len(x.Args) == 2 {
			c.value(x.Args[1], "parseInt()", Invalid)
			if r, ok := Simplify(x.Args[1]).(*IntLit); !ok || r.Value != 10 {
				c.errorf(x.Args[1], "parseInt with radix %s: setbot models radix 10 only; leave the radix out or write 10", ExprString(x.Args[1]))
				return Type{}
			}
		}
		switch k := c.value(x.Args[0], "parseInt()", Invalid); k {
		case Int, Decimal, String, Invalid:
			return IntType
		default:
			c.refusef(x, "parseInt of %s is not modelled: setbot parses strings and truncates numbers", article(k))
			return Type{}
		}
	}
	for _, a := range x.Args {
		c.expr(a)
	}
	if x.Fun == "parseInt" {
		c.errorf(x, "call of parseInt with %d arguments: setbot models parseInt(s) and parseInt(s, 10)", len(x.Args))
		return Type{}
	}
	if hostFunction(x.Fun) {
		c.refusef(x, "%s", hostMsg(x.Fun))
		return Type{}
	}
	c.refusef(x, "%s", callMsg(x.Fun))
	return Type{}
}
