package parser

import (
	"sort"
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
)

// Constructs of ECMAScript and C outside the language, recognised to refuse
// them with a hint of what to write instead. Every message about one is
// "what is refused: what to write instead", in one line.

// unsupportedOperators are operators outside the language, longest first
// among those that share a prefix.
var unsupportedOperators = []struct{ op, hint string }{
	{"**", "multiply it out, e.g. x * x"},
	{"<<=", "write x = x << n"},
	{">>=", "write x = x >> n"},
	{"&=", "write x = x & y"},
	{"|=", "write x = x | y"},
	{"^=", "write x = x ^ y"},
}

// UnsupportedStatements are statement keywords outside the language.
var UnsupportedStatements = map[string]string{
	"break":    "end the loop through its condition",
	"continue": "skip the rest of the body with if",
	"return":   "return is allowed only in a function; elsewhere code runs to its end, so put what follows under if",
	"do":       "write a while loop",
	"switch":   "write if and else if",
	"function": "declare a function by name at the top of a <script>: function f(a, b) { return a + b; }",
	"const":    "declare it with var or let",
	"try":      "error events are not supported yet; write the body without it",
}

// unsupportedPrefixes are keyword operators that ECMAScript writes before
// an operand.
var unsupportedPrefixes = map[string]string{
	"new":    "write an object literal {name: value, ...} or an array literal [...]",
	"delete": "an object keeps the fields of its initial value; assign the field a value instead",
}

// systemVariables are the SCXML system variables other than _event.
var systemVariables = map[string]bool{"_ioprocessors": true, "_x": true}

func systemVariableMsg(name string) string {
	if name == "_ioprocessors" {
		return "_ioprocessors: of its parts, the SCXML event processor's location is modelled; read _ioprocessors['scxml'].location"
	}
	return name + " is not supported yet: of the system variables, _sessionid, _name, _ioprocessors['scxml'].location and _event's fields are modelled; compare with those"
}

// RefReadMsg is the error for a part of a stored reference to a platform
// object (x, of kind k) read through the reference.
func RefReadMsg(x string, k ast.Kind) string {
	if k == ast.EventRef {
		return x + " holds an _event object, whose fields are read only through _event: store the field you need while the event is processed, e.g. v = _event.name"
	}
	return x + " holds _ioprocessors, whose parts are read only through _ioprocessors: read _ioprocessors['scxml'].location"
}

// RefPartMsg is the error for a reference to a platform object (of kind
// k) put into an array, an object or an event's data.
func RefPartMsg(k ast.Kind) string {
	if k == ast.EventRef {
		return "_event as a part of an array, an object or an event's data is not modelled: put its fields there, e.g. _event.name"
	}
	return "_ioprocessors as a part of an array, an object or an event's data is not modelled: put its location there, _ioprocessors['scxml'].location"
}

// readOnlyMsg is the error for an assignment to a system variable, or to
// a part of one.
func readOnlyMsg(what string) string {
	if i := strings.IndexAny(what, ".["); i > 0 {
		what += " is part of the system variable " + what[:i]
	} else {
		what += " is a system variable"
	}
	return what + ", which cannot be assigned (SCXML raises error.execution): assign a variable of your own"
}

// UndeclaredMsg is the error for a name that is neither a variable nor a
// local, with a hint when the name is one ECMAScript predefines.
func UndeclaredMsg(name string) string {
	switch {
	case systemVariables[name]:
		return systemVariableMsg(name)
	case UnsupportedStatements[name] != "":
		return name + " is a statement, not a value: write an expression"
	}
	return "undeclared name " + name
}

// MemberMsg is the error for a member access other than _event.data.NAME.
func MemberMsg(path string) string {
	root, _, _ := strings.Cut(path, ".")
	switch {
	case systemVariables[root]:
		return systemVariableMsg(root)
	case path == "_event.data":
		return "member access _event.data: read one parameter, _event.data.NAME"
	case root == "_event":
		return "member access " + path + ": _event has the fields name, type, sendid, origin, origintype, invokeid and data.NAME; read one of those"
	}
	return "member access " + path + ": read a field of an object, or of strings length and the methods indexOf, startsWith, endsWith, includes, substring and charAt"
}

// indexMsg is the error for an index expression.
func indexMsg(path string) string {
	root, _, _ := strings.Cut(path, ".")
	switch {
	case systemVariables[root]:
		return systemVariableMsg(root)
	case path == "_event.data":
		return "index expression _event.data[...]: name the parameter in quotes, _event.data['NAME'], or read _event.data.NAME"
	}
	return "index expression " + path + "[...]: of _event, only data can be indexed, with a parameter's name in quotes"
}

// CallMsg is the error for a call of anything but In.
func CallMsg(path string) string {
	if path == "function" {
		return "function expression: a function is not a value in setbot; declare it by name at the top of a <script>: function f(a) { ... }"
	}
	if obj := hostObject(path); hostObjects[obj] {
		return "unsupported call " + path + "(...): of " + obj + ", setbot reads " + hostMethods(obj) + " as statements of their own, not as values"
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 && growingMethods[path[i+1:]] {
		a := path[:i]
		return "unsupported call " + path + "(...): of the methods that change an array in place setbot models push; " +
			"write the new array with concat, e.g. " + a + " = [x].concat(" + a + ")"
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		if alt, ok := stringAlternatives[path[i+1:]]; ok {
			return "unsupported call " + path + "(...): " + alt
		}
	}
	return "unsupported call " + path + "(...): setbot models functions declared in a <script> or with setbot:function, In('state'), Number(x), Boolean(x), String(x), parseInt(x), " +
		"Math.abs, min, max, sign, pow, floor, ceil, round and trunc, the string methods (" + methodList() +
		") and concat; write what it computes with those, operators and ?:"
}

// stringAlternatives say what to write for the string methods setbot does
// not model.
var stringAlternatives = map[string]string{
	"toUpperCase": "case conversion is not modelled; compare with each spelling the string can have",
	"toLowerCase": "case conversion is not modelled; compare with each spelling the string can have",
	"trim":        "white space trimming is not modelled; compare with the trimmed value",
}

// methodList names the string methods of the language, sorted.
func methodList() string {
	names := make([]string, 0, len(ast.StringMethods))
	for m := range ast.StringMethods {
		names = append(names, m)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// growingMethods are the array methods that make an array longer in
// place. setbot models a statement a.push(...) (the parser reads it as
// a = a.concat([...])) and refuses the others.
var growingMethods = map[string]bool{"push": true, "unshift": true, "splice": true}
