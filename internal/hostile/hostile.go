// Package hostile generates the inputs a hostile pull request can send: models and
// configurations whose size or nesting is chosen to crash, stall or exhaust whoever reads
// them. Tests generate them at the size they need instead of committing megabytes, and
// the note on each limit measures them at 1 MB.
//
// Every model is valid SCXML with the ECMAScript data model; what makes it hostile is only
// its size or its depth.
package hostile

import (
	"fmt"
	"strings"
)

// head opens a model with one int variable x and one state s0 that stays on event e.
const head = `<?xml version="1.0" encoding="UTF-8"?>
<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">
  <datamodel><data id="x" expr="0"/></datamodel>
`

// guarded is a model whose one transition has the condition cond.
func guarded(cond string) []byte {
	var b strings.Builder
	b.WriteString(head)
	fmt.Fprintf(&b, "  <state id=\"s0\">\n    <transition event=\"e\" cond=\"%s\" target=\"s1\"/>\n  </state>\n  <state id=\"s1\"/>\n</scxml>\n", cond)
	return []byte(b.String())
}

// Sum is a model whose condition is x + 1 + 1 ... > 0 with terms terms: a chain of
// binary operators as deep as it is long (300,000 terms make a 1.2 MB file).
func Sum(terms int) []byte { return guarded(SumCond(terms)) }

// SumCond is the condition of Sum, escaped for an attribute.
func SumCond(terms int) string { return "x" + strings.Repeat(" + 1", terms) + " &gt; 0" }

// Parens is a model whose condition is x > 0 inside depth pairs of parentheses.
func Parens(depth int) []byte { return guarded(ParensCond(depth)) }

// ParensCond is the condition of Parens, escaped for an attribute.
func ParensCond(depth int) string {
	return strings.Repeat("(", depth) + "x &gt; 0" + strings.Repeat(")", depth)
}

// Alternatives is a model whose condition is x == 0 || x == 1 || ... of about size
// bytes: one long expression made of many small ones.
func Alternatives(size int) []byte { return guarded(AlternativesCond(size)) }

// AlternativesCond is the condition of Alternatives.
func AlternativesCond(size int) string {
	var c strings.Builder
	c.WriteString("x == 0")
	for i := 1; c.Len() < size; i++ {
		fmt.Fprintf(&c, " || x == %d", i)
	}
	return c.String()
}

// The shapes above are refused at the size that once crashed or exhausted the
// reader. Those below make a model as large by repeating one piece that the limits
// accept (a condition, a script, an assignment): what reading an accepted model costs
// for its size.

// ring writes a model of states states s0, s1, ..., each going to the next (the last to
// s0) on event e; transition writes the attributes and content of state i's transition
// after its event, ending the element.
func ring(states int, transition func(b *strings.Builder, i int)) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := range states {
		fmt.Fprintf(&b, "  <state id=\"s%d\">\n    <transition event=\"e\" target=\"s%d\"", i, (i+1)%states)
		transition(&b, i)
		b.WriteString("\n  </state>\n")
	}
	b.WriteString("</scxml>\n")
	return []byte(b.String())
}

// Guards is a model of a ring of states states, each going to the next on e when cond
// holds (a condition escaped for an attribute: SumCond, say).
func Guards(states int, cond string) []byte {
	return ring(states, func(b *strings.Builder, _ int) { fmt.Fprintf(b, " cond=\"%s\"/>", cond) })
}

// Scripts is a model of a ring of states states, each going to the next on e running a
// <script> of statements statements, as Script's.
func Scripts(states, statements int) []byte {
	return ring(states, func(b *strings.Builder, _ int) {
		b.WriteString(">\n      <script>")
		for range statements {
			b.WriteString("x = x + 1;\n")
		}
		b.WriteString("</script>\n    </transition>")
	})
}

// Assigns is a model of a ring of states states, each going to the next on e adding its
// number to x with an <assign>, as Counter counts.
func Assigns(states int) []byte {
	return ring(states, func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "><assign location=\"x\" expr=\"x + %d\"/></transition>", i)
	})
}

// Script is a model whose transition runs a <script> of statements statements.
func Script(statements int) []byte {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("  <state id=\"s0\">\n    <transition event=\"e\" target=\"s1\">\n      <script>")
	for range statements {
		b.WriteString("x = x + 1;\n")
	}
	b.WriteString("</script>\n    </transition>\n  </state>\n  <state id=\"s1\"/>\n</scxml>\n")
	return []byte(b.String())
}

// SymbolicScript is a model whose transition on e, of an int parameter y, runs a <script>
// of statements statements x = x * y + 1 (the first sets y): each makes the value of x a
// larger polynomial of the input, 10,000 of them one of degree 10,000 that the solver is
// then asked about (the condition x > 5 of the next transition).
func SymbolicScript(statements int) []byte {
	var b strings.Builder
	b.WriteString(inputHead)
	b.WriteString("  <state id=\"s0\">\n    <transition event=\"e\" target=\"s1\">\n      <script>y = _event.data.y;\n")
	for range statements - 1 {
		b.WriteString("x = x * y + 1;\n")
	}
	b.WriteString(symbolicTail)
	return []byte(b.String())
}

// Doubles is a model whose transition on e runs a <script> of statements statements
// s = s + s on a string s of two characters: its value is 2^(statements+1) characters.
func Doubles(statements int) []byte {
	var b strings.Builder
	b.WriteString(inputHead)
	b.WriteString("  <state id=\"s0\">\n    <transition event=\"e\" target=\"s1\">\n      <script>")
	for range statements {
		b.WriteString("s = s + s;\n")
	}
	b.WriteString(symbolicTail)
	return []byte(b.String())
}

// inputHead opens a model with an input event e of an int parameter y, and variables x, y
// and s (a string).
const inputHead = `<?xml version="1.0" encoding="UTF-8"?>
<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" version="1.0" datamodel="ecmascript" initial="s0">
  <setbot:event name="e"><setbot:param name="y" type="int"/></setbot:event>
  <datamodel><data id="x" expr="0"/><data id="y" expr="0"/><data id="s" expr="'ab'"/></datamodel>
`

// symbolicTail closes inputHead's script and transition: state s1 goes on to s2 on e where
// x > 5 or s is longer than 5 characters.
const symbolicTail = `</script>
    </transition>
  </state>
  <state id="s1">
    <transition event="e" cond="x &gt; 5 || s.length &gt; 5" target="s2"/>
  </state>
  <state id="s2"/>
</scxml>
`

// Parallel is a model with one parallel state of regions regions, each with two states and
// a transition between them on an event of its own (2,000 regions make a 340 KB file).
func Parallel(regions int) []byte {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("  <parallel id=\"s0\">\n")
	for i := range regions {
		fmt.Fprintf(&b, "    <state id=\"r%d\"><state id=\"r%da\"><transition event=\"e%d\" target=\"r%db\"/></state><state id=\"r%db\"/></state>\n", i, i, i, i, i)
	}
	b.WriteString("  </parallel>\n</scxml>\n")
	return []byte(b.String())
}

// Idle is a model with a ring of states states, each going to the next on event next, and
// events more events e0, e1, ... that only the last state takes. Flattening offers each
// configuration only the events its transitions take, so that this costs states + events
// macrosteps, not states × events (9,000 × 9,000 make a 1 MB file).
func Idle(states, events int) []byte {
	return eventRing(states, events, "")
}

// Busy is Idle with a transition in every state of the ring that takes any event (a
// wildcard) when false holds: flattening tries every event in every state, states × events
// macrosteps of which almost none does anything. It stays within the MLM bounds when states
// does, and takes as long to flatten as it likes (1,000 × 1,000 take seconds, 9,000 × 20,000
// hours): only the job's time limit ends it.
func Busy(states, events int) []byte {
	return eventRing(states, events, `<transition event="*" cond="false"/>`)
}

// eventRing is Idle with more in each state but the last.
func eventRing(states, events int, more string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := range states - 1 {
		fmt.Fprintf(&b, "  <state id=\"s%d\"><transition event=\"next\" target=\"s%d\"/>%s</state>\n", i, i+1, more)
	}
	fmt.Fprintf(&b, "  <state id=\"s%d\">\n    <transition event=\"next\" target=\"s0\"/>\n", max(states-1, 0))
	for i := range events {
		fmt.Fprintf(&b, "    <transition event=\"e%d\" target=\"s0\"/>\n", i)
	}
	b.WriteString("  </state>\n</scxml>\n")
	return []byte(b.String())
}

// Counter is a model that counts without end: every event e adds 1 to x, so its tree is
// as large as its bounds let it grow.
func Counter() []byte {
	return []byte(head + `  <state id="s0">
    <transition event="e" target="s0"><assign location="x" expr="x + 1"/></transition>
    <transition event="f" cond="x % 2 == 0" target="s0"><assign location="x" expr="x * 3"/></transition>
  </state>
</scxml>
`)
}

// GreedyConfig is a .setbot.yml that asks for bounds no host can give: 10^12 states and
// paths of 10^9 events. (It parses: a configuration that does not is refused before any
// bound is used.)
func GreedyConfig() []byte {
	return []byte("bounds:\n  depth: 1000000000\n  max_states: 1000000000000\n  max_mlm_states: 1000000000000\n  loop_bound: 1000000000\n")
}
