// Package jexl reads the expressions of Apache Commons SCXML's jexl data
// model (datamodel="jexl", JEXL 3) as a dialect of setbot's action
// language: a translator rewrites JEXL's syntax into the action language
// by the one dialect table below (Table), keeping every position of the
// original text, and Vet refuses, once the checker has typed the
// expressions, the constructs whose JEXL meaning differs from the
// ECMAScript meaning setbot would otherwise give them.
//
// The table is also the documentation: README's section "The jexl data
// model" lists the same rows (TestTableInREADME keeps them in step).
package jexl

// How is how the translator applies a row of the table.
type How int

// The ways a row applies.
const (
	Same     How = iota // the JEXL text is the action language's: it is kept
	Word                // a word operator: replaced by Setbot
	Function            // a function of one argument, f(x): replaced by Setbot around x
	Method              // a method x.m(...): replaced by Setbot
	Refused             // refused with the row's Note, at the construct's position
)

// A Row is one JEXL construct and what setbot reads it as.
type Row struct {
	JEXL   string // the construct as JEXL writes it
	How    How
	Setbot string // what setbot reads; for Function rows a pattern with x
	Note   string // where JEXL's meaning and setbot's agree, and where setbot refuses
}

// Table is the dialect table: every JEXL construct the translator knows,
// in the order README lists them.
var Table = []Row{
	{"eq", Word, "==", "equality of two values of one kind (numbers of either kind compare as numbers); values of different kinds are an error, as everywhere in setbot"},
	{"ne", Word, "!=", "as eq"},
	{"lt", Word, "<", "numbers, or strings by code point"},
	{"le", Word, "<=", "as lt"},
	{"gt", Word, ">", "as lt"},
	{"ge", Word, ">=", "as lt"},
	{"and", Word, "&&", "operands must be booleans: JEXL's truth of other values (the string 'false' is false) is not ECMAScript's, so setbot refuses them"},
	{"or", Word, "||", "as and"},
	{"not", Word, "!", "as and"},
	{"div", Word, "/", "on ints JEXL divides as Java's long division, truncating toward zero, as setbot does; a divisor that is not a constant other than 0 is refused (JEXL fails on 0, setbot's x / 0 is 0)"},
	{"mod", Word, "%", "as Java's %: the sign of the dividend; divisors as for div"},
	{"== != < <= > >= && || !", Same, "the same", "as the word operators"},
	{"+", Same, "+", "adds numbers; joins two strings where one is a literal that cannot read as a number ('Name: ' + s, and + chains that hold one); other + of strings is refused, for JEXL adds two strings that both read as numbers ('1' + '2' is 3); + of a string and a decimal (Java writes 2.0) or a value that may be null is refused"},
	{"- * / %", Same, "the same", "on numbers; an int and an int give an int; / and % as div and mod"},
	{"null", Same, "null", "JEXL has one null; x == null is true where x is null or has no value"},
	{"empty(x)", Function, "(!(x))", "true for null, 0, and the empty string; refused on booleans, arrays and objects, where JEXL and ECMAScript disagree"},
	{"size(x)", Function, "((x).length)", "the length of a string or an array; refused on objects (JEXL counts a map's keys)"},
	{"x.length()", Method, "x.length", "of a string"},
	{"x.size()", Method, "x.length", "of an array (a Java list)"},
	{"x.contains(y)", Method, "x.includes(y)", "of a string or an array"},
	{"x.startsWith(y), x.endsWith(y), x.indexOf(y)", Same, "the same", "Java's String methods, which ECMAScript's agree with"},
	{"In('s')", Same, "In('s')", "Commons SCXML's In(): whether state s is active"},
	{"var x = e", Same, "var x = e", "in <script>"},
	{"1L, 1.5d", Same, "1, 1.5", "a long and a double: setbot's int and decimal"},
	{"=~ !~ =^ !^ =$ !$", Refused, "", "JEXL's match, starts-with and ends-with operators: write x.startsWith(y) or x == y"},
	{"?: ??", Refused, "", "JEXL's elvis and null-coalescing operators: write c ? a : b"},
	{"?. ?[", Refused, "", "JEXL's safe navigation: test x == null first"},
	{"..", Refused, "", "JEXL's ranges"},
	{"-> function new", Refused, "", "JEXL's lambdas, functions and Java constructors"},
	{"& | ^ ~ << >> >>>", Refused, "", "JEXL's bit operators work on 64-bit longs, ECMAScript's on 32-bit ints"},
	{"{a: 1}", Refused, "", "a map key that is a name: JEXL's key is the variable's value, ECMAScript's the name; write {'a': 1}"},
	{"ns:f(x)", Refused, "", "functions of a namespace the host registers, which the model does not define"},
	{"System.currentTimeMillis()", Refused, "", "a Java class's method: the host's, which the model does not define; declare it as a black box (<setbot:function>) and call that"},
	{"x.m(...)", Refused, "", "other Java methods (substring and charAt throw where ECMAScript's do not, equals, isEmpty, ...)"},
	{"x.length", Refused, "", "JEXL reads length only of a Java array: write size(x)"},
	{"1f 1b 1h 0x1F 017", Refused, "", "a float, a BigDecimal, a BigInteger, and hexadecimal and octal ints"},
	{"\\n \\t \\u0041 in strings", Refused, "", "escapes other than \\\\, \\' and \\\", which JEXL's versions read differently"},
	{"`...${x}`", Refused, "", "JEXL's template strings"},
	{"#pragma @annotation", Refused, "", "JEXL's pragmas and annotations (its comments, // and /* */ and ##, are read as comments)"},
}

// words maps a word operator to the action language's operator (the Word
// rows of Table).
var words = func() map[string]string {
	m := make(map[string]string)
	for _, r := range Table {
		if r.How == Word {
			m[r.JEXL] = r.Setbot
		}
	}
	return m
}()
