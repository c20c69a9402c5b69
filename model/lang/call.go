package lang

import (
	"fmt"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang/simplify"
)

// Calls, methods and conversions, as go/types keeps them in call.go,
// builtins.go and conversions.go.

// callType returns the type of a call, a method or a conversion.
func (c *checker) callType(e ast.Expr) ast.Type {
	switch x := e.(type) {
	case *ast.Method:
		return c.method(x)
	case *ast.Call:
		return c.call(x)
	case *ast.External:
		return c.external(x)
	case *ast.ToDecimal:
		if k := c.value(x.X, "Number()", ast.Invalid); k != ast.Invalid && !k.IsNumber() && k != ast.String {
			c.refusef(x.X, "%s is %s: Number() of it is not modelled; setbot's Number() takes a number or a string", printer.ExprString(x.X), ast.Article(k))
		}
		return ast.DecimalType
	case *ast.Floor:
		c.value(x.X, "Math.floor()", ast.Decimal)
		return ast.IntType
	case *ast.Digits:
		c.value(x.X, "String()", ast.Int)
		return ast.StringType
	case *ast.Convert:
		return c.convert(x)
	}
	panic(fmt.Sprintf("lang: unexpected expression %T", e))
}

// convert returns the type of a conversion the lowering wrote.
func (c *checker) convert(x *ast.Convert) ast.Type {
	switch x.Fun {
	case "parseInt":
		c.value(x.X, "parseInt()", ast.Invalid)
		return ast.IntType
	case "Number":
		c.value(x.X, "Number()", ast.String)
		return ast.DecimalType
	}
	c.value(x.X, "String()", ast.Decimal)
	return ast.StringType
}

// external checks a call of a black-box function against the types its
// setbot:function declares.
func (c *checker) external(x *ast.External) ast.Type {
	for i, a := range x.Args {
		k, want := c.value(a, x.Fun+"()", ast.Invalid), x.Params[i].Kind
		if k != ast.Invalid && k != want && !(k == ast.Int && want == ast.Decimal) {
			c.errorf(a, "argument %d of %s is %s: its setbot:function declares %s", i+1, x.Fun, ast.Article(k), x.Params[i])
		}
	}
	return x.Result
}

// method checks x, a method or the length of an array or a string, or a
// field of an object read as x.length, and returns its type.
func (c *checker) method(x *ast.Method) ast.Type {
	t := c.expr(x.X)
	switch {
	case x.Call && x.Name == "concat":
		return c.concat(x, t)
	case x.Call && x.Name == "push":
		// A statement a.push(...) is read as a = a.concat([...]) by the
		// parser; only push used as a value reaches here.
		for _, a := range x.Args {
			c.expr(a)
		}
		c.refuseAt(x.DotPos, "the value of %s.push(...), the array's new length, is not modelled: call push as a statement of its own, then read %s.length",
			printer.ExprString(x.X), printer.ExprString(x.X))
		return ast.Type{}
	case x.Call && t.Kind == ast.Array && !t.MayBeAbsent():
		return c.arrayMethod(x, t)
	case x.Call:
	case t.Kind == ast.Object:
		return c.member(x, x.X, t, x.Name) // a field called length
	case t.Kind == ast.Array && !t.MayBeAbsent():
		return ast.RangeType(int64(t.Comp.MinLen), int64(t.Comp.Len))
	}
	return c.stringMethod(x, t)
}

// stringMethod checks x, the length or a method of a string of type t,
// and returns its type.
func (c *checker) stringMethod(x *ast.Method, t ast.Type) ast.Type {
	what := "." + x.Name
	switch {
	case t.Kind == ast.Invalid:
	case t.Kind == ast.Mixed:
		c.mixedValue(x.X, t, what)
	case t.MayBeAbsent():
		c.absent(x.X, what)
	case t.Kind != ast.String:
		c.errorf(x.X, "%s is %s: %s needs a string", printer.ExprString(x.X), t.Kind, what)
	}
	if x.Name == "length" {
		return ast.IntType
	}
	lo, hi := ast.StringMethods[x.Name], ast.StringMethods[x.Name]
	if x.Name == "substring" || x.Name == "slice" || x.Name == "substr" || x.Name == "lastIndexOf" {
		lo = 1
	}
	switch {
	case len(x.Args) > hi && hi == 1 && x.Name != "charAt":
		// ECMAScript's position argument.
		c.refuseAt(x.DotPos, "%s with a position is not supported: search a substring instead, e.g. s.substring(p)%s(t)", what, what)
		return ast.Type{}
	case len(x.Args) < lo || len(x.Args) > hi:
		c.errorAt(x.DotPos, "%s takes %d argument(s), found %d", what, hi, len(x.Args))
		return ast.Type{}
	}
	arg := ast.String
	if x.Name == "substring" || x.Name == "charAt" || x.Name == "slice" || x.Name == "substr" {
		arg = ast.Int
	}
	for i, a := range x.Args {
		if x.Name == "lastIndexOf" && i == 1 {
			arg = ast.Int // the position to search back from
		}
		c.value(a, "an argument of "+what, arg)
	}
	switch x.Name {
	case "indexOf", "lastIndexOf":
		return ast.IntType
	case "replace":
		c.replacement(x.Args[1])
		return ast.StringType
	case "substring", "charAt", "slice", "substr":
		return ast.StringType
	}
	return ast.BoolType
}

// concat types a.concat(b, ...) on a of type t as ECMAScript computes it:
// a new array of a's elements, then each argument's, where an argument
// that is an array is spread and any other value is one element. Its
// fewest elements and its bound are the sums of theirs; its elements share
// one type, as every array's do.
func (c *checker) concat(x *ast.Method, t ast.Type) ast.Type {
	for _, a := range x.Args {
		c.expr(a)
	}
	switch {
	case t.Kind == ast.Invalid:
		return ast.Type{}
	case t.Kind.IsRef():
		c.refusef(x, "%s", parser.RefReadMsg(printer.ExprString(x.X), t.Kind))
		return ast.Type{}
	case t.MayBeAbsent():
		c.absent(x.X, ".concat")
		return ast.Type{}
	case t.Kind == ast.String:
		c.errorAt(x.DotPos, "concat on the string %s: write %s + ...", printer.ExprString(x.X), printer.ExprString(x.X))
		return ast.Type{}
	case t.Kind != ast.Array:
		c.errorf(x.X, "%s is %s, not an array: .concat needs an array", printer.ExprString(x.X), ast.Article(t.Kind))
		return ast.Type{}
	}
	elem, minLen, maxLen := t.Comp.Elem, t.Comp.MinLen, t.Comp.Len
	for _, a := range x.Args {
		at := c.info.Types[a]
		et, lo, hi := at, 1, 1
		switch {
		case at.Kind == ast.Invalid:
			return ast.Type{}
		case at.Kind.IsRef():
			c.refusef(a, "%s", parser.RefPartMsg(at.Kind))
			return ast.Type{}
		case at.Kind == ast.Mixed:
			c.refusef(a, "%s", mixedPartMsg(at, at, ".concat"))
			return ast.Type{}
		case at.Kind == ast.Array:
			et, lo, hi = at.Comp.Elem, at.Comp.MinLen, at.Comp.Len
		}
		switch {
		case hi == 0: // an empty array adds no elements, nor their type
		case maxLen == 0:
			elem = et
		default:
			j := c.joinElems(elem, et)
			if j.Kind == ast.Invalid {
				c.errorf(a, "%s adds elements of type %s to an array of %s: an array holds values of one type (and undefined); use one array per type", printer.ExprString(a), et, elem)
				return ast.Type{}
			}
			elem = j
		}
		minLen, maxLen = minLen+lo, maxLen+hi
	}
	if maxLen > ast.MaxArrayLen {
		c.errorf(x, "%s may have %d elements: at most %d are modelled; split the data", printer.ExprString(x), maxLen, ast.MaxArrayLen)
		return ast.Type{}
	}
	return ast.ArrayType(elem, minLen, maxLen)
}

// arrayMethods are the methods of arrays that guards use: they compare
// the elements with their argument as === does.
var arrayMethods = map[string]bool{"indexOf": true, "includes": true}

// arrayMethod checks a.indexOf(v) and a.includes(v) on an array a of type
// t. Elements that are arrays or objects would compare by identity, which
// is not modelled.
func (c *checker) arrayMethod(x *ast.Method, t ast.Type) ast.Type {
	what := "." + x.Name
	for _, a := range x.Args {
		c.expr(a)
	}
	if !arrayMethods[x.Name] {
		c.errorAt(x.DotPos, "%s is not an array method setbot models: of the array methods, indexOf, includes and concat are; write what it computes with a <foreach>", what)
		return ast.Type{}
	}
	if len(x.Args) != 1 {
		c.refuseAt(x.DotPos, "%s on an array takes 1 argument, found %d: a start index is not supported; compare the elements you need with ===", what, len(x.Args))
		return ast.Type{}
	}
	elem, vt := t.Comp.Elem, c.info.Types[x.Args[0]]
	switch {
	case elem.IsComposite() || vt.IsComposite():
		c.refuseAt(x.DotPos, "%s over %s compares arrays or objects by identity, which is not modelled: compare a field or an element with ===", what, t)
		return ast.Type{}
	case vt.Kind != ast.Invalid && vt.Kind != ast.Undef && elem.Kind != ast.Undef && vt.Kind != elem.Kind:
		c.errorAt(x.DotPos, "%s looks for %s value among the elements of %s, which are %s: it never finds one; look for %s value",
			what, ast.Article(vt.Kind), printer.ExprString(x.X), t.Comp.Elem, ast.Article(elem.Kind))
	}
	if x.Name == "indexOf" {
		return ast.RangeType(-1, int64(t.Comp.Len)-1)
	}
	return ast.BoolType
}

// call checks a call the inliner left: a rounding built-in on an int (the
// int itself), or a call of something setbot does not model.
func (c *checker) call(x *ast.Call) ast.Type {
	if Rounding[x.Fun] && len(x.Args) == 1 {
		switch k := c.value(x.Args[0], x.Fun+"()", ast.Invalid); k {
		case ast.Int, ast.Decimal, ast.Invalid:
			return ast.IntType
		default:
			c.refusef(x, "rounding %s with %s is not modelled: setbot rounds numbers; convert the value first", ast.Article(k), x.Fun)
			return ast.Type{}
		}
	}
	if x.Fun == "String" && len(x.Args) == 1 {
		t := c.expr(x.Args[0])
		if t.Kind == ast.Mixed {
			return ast.StringType // the string of whichever kind it holds
		}
		switch k := c.valueOf(x.Args[0], t, "String()", ast.Invalid); k {
		case ast.Int, ast.Decimal, ast.Bool, ast.String, ast.Invalid:
			return ast.StringType
		default:
			c.refusef(x, "String of %s is not modelled: setbot formats numbers, bools and strings", ast.Article(k))
			return ast.Type{}
		}
	}
	if x.Fun == "parseInt" && (len(x.Args) == 1 || len(x.Args) == 2) {
		if len(x.Args) == 2 {
			c.value(x.Args[1], "parseInt()", ast.Invalid)
			if r, ok := simplify.Expr(x.Args[1]).(*ast.IntLit); !ok || r.Value != 10 {
				c.errorf(x.Args[1], "parseInt with radix %s: setbot models radix 10 only; leave the radix out or write 10", printer.ExprString(x.Args[1]))
				return ast.Type{}
			}
		}
		t := c.expr(x.Args[0])
		k := t.Kind
		if !t.MayBeAbsent() || t.Kind == ast.Mixed {
			k = c.valueOf(x.Args[0], t, "parseInt()", ast.Invalid)
		}
		// parseInt(undefined) and parseInt(null) parse the strings
		// "undefined" and "null": NaN (ECMAScript's ToString, then no
		// digit), which the lowering makes the number bound, as for
		// parseInt('abc').
		switch k {
		case ast.Int, ast.Decimal, ast.String, ast.Invalid, ast.Undef:
			return ast.IntType
		default:
			c.refusef(x, "parseInt of %s is not modelled: setbot parses strings and truncates numbers", ast.Article(k))
			return ast.Type{}
		}
	}
	for _, a := range x.Args {
		c.expr(a)
	}
	if x.Fun == "parseInt" {
		c.errorf(x, "call of parseInt with %d arguments: setbot models parseInt(s) and parseInt(s, 10)", len(x.Args))
		return ast.Type{}
	}
	if parser.IsHostFunction(x.Fun) {
		c.refusef(x, "%s", parser.HostMsg(x.Fun))
		return ast.Type{}
	}
	c.refusef(x, "%s", parser.CallMsg(x.Fun))
	return ast.Type{}
}

// replacement checks the replacement string of s.replace(p, r): a literal,
// whose $ patterns (ECMAScript's GetSubstitution: $$, $&, $` and $') the
// lowering writes out; $1 to $99 name captures, which a string pattern has
// none of, and ECMAScript leaves their meaning to the implementation.
func (c *checker) replacement(r ast.Expr) {
	lit, ok := r.(*ast.StrLit)
	if !ok {
		if c.info.Types[r].Kind == ast.String {
			c.refusef(r, "a replacement computed at run time is not modelled (its $ patterns would be read when it runs): write it as a string literal")
		}
		return
	}
	for i := 0; i+1 < len(lit.Value); i++ {
		if lit.Value[i] == '$' && lit.Value[i+1] >= '0' && lit.Value[i+1] <= '9' {
			c.refusef(r, "$%c in a replacement names a capture, and a string pattern has none (ECMAScript leaves it to the implementation): write $$ for a dollar sign", lit.Value[i+1])
			return
		}
		if lit.Value[i] == '$' && lit.Value[i+1] == '$' {
			i++
		}
	}
}

// Rounding are the built-ins that round a number to an integer. On an int
// they are the int itself; the checker refuses them on a decimal.
var Rounding = map[string]bool{"Math.floor": true, "Math.ceil": true, "Math.round": true, "Math.trunc": true}
