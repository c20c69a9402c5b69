package solver

import "strings"

// A call of a black-box function is a variable named by the call,
// fun(arg, ...), with its arguments printed: calls with the same
// arguments are one variable (a function gives one result per input), and
// the table remembers the call, so that the summaries of Boudhiba, Gaston,
// Le Gall and Prevosto ("Symbolic execution of transition systems with
// function summaries", TAP 2017) can be built over its arguments. To the
// decision procedure it is a variable like any other.

// Call is a black-box function's call: its result is the variable Result.
type Call struct {
	Fun    string
	Args   []Term
	Result Term
}

// Apply returns the variable that holds the result, of sort s, of fun
// applied to args.
func (t *Table) Apply(fun string, s Sort, args []Term) Term {
	var b strings.Builder
	b.WriteString(fun + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.String(a))
	}
	b.WriteString(")")
	x := t.Var(b.String(), s)
	if t.calls == nil {
		t.calls = make(map[Term]*Call)
	}
	if _, ok := t.calls[x]; !ok {
		t.calls[x] = &Call{Fun: fun, Args: append([]Term(nil), args...), Result: x}
	}
	return x
}

// Applied returns the call whose result x is, if x is one.
func (t *Table) Applied(x Term) (*Call, bool) {
	c, ok := t.calls[x]
	return c, ok
}

// Concretise marks x, a conjunct that pins variables to concrete values
// where the solver could not decide a branch (concolic execution).
func (t *Table) Concretise(x Term) {
	if t.pins == nil {
		t.pins = make(map[Term]bool)
	}
	t.pins[x] = true
}

// Concretised reports whether x is a conjunct Concretise marked.
func (t *Table) Concretised(x Term) bool { return t.pins[x] }

// Calls returns the calls that occur in the terms xs, innermost first
// (the calls an argument makes come before the call), each once.
func (t *Table) Calls(xs ...Term) []*Call {
	var out []*Call
	seen := make(map[Term]bool)
	var visit func(x Term)
	visit = func(x Term) {
		for _, v := range t.Vars(x) {
			c, ok := t.calls[v]
			if !ok || seen[v] {
				continue
			}
			seen[v] = true
			for _, a := range c.Args {
				visit(a)
			}
			out = append(out, c)
		}
	}
	for _, x := range xs {
		visit(x)
	}
	return out
}
