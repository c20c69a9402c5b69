package scxml_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestUnboundConds: a cond that always reads a name bound nowhere is
// false and raises error.execution, with a warning; one that reads it
// only after && is false and raises error.execution where what && reads
// before it holds; one read on some values otherwise (after ||, in a
// branch of ?:) stays an error. A name that some code assigns is a global
// (TestAssignedGlobals).
func TestUnboundConds(t *testing.T) {
	doc := func(cond, code string) string {
		return head + `<datamodel><data id="x" expr="0"/></datamodel>
<state id="a"><transition event="go" cond="` + cond + `" target="b">` + code + `</transition></state><state id="b"/></scxml>`
	}
	for _, tt := range []struct{ cond, code, err string }{
		{"ghost", "", ""},
		{"ghost.f > 1 || x > 0", "", ""},
		{"!(ghost + 1 == x)", "", ""},
		{"x > 0 &amp;&amp; ghost", "", ""},
		{"x > 0 || ghost", "", "undeclared name ghost"},
		{"x > 0 ? ghost : 1", "", "undeclared name ghost"},
	} {
		m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc(tt.cond, tt.code)), scxml.Options{})
		if tt.err != "" {
			if !strings.Contains(errs.Error(), tt.err) {
				t.Errorf("cond %q: errors %v, want %s", tt.cond, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("cond %q: %v", tt.cond, errs)
			continue
		}
		tr := m.State("a").Transitions[0]
		if tr.CondFails == (tr.FailsWhen != nil) || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Error(), "ghost is bound nowhere in the model") {
			t.Errorf("cond %q: fails %v, warnings %v", tt.cond, tr.CondFails, m.Warnings)
		}
		if when := tr.FailsWhen; strings.Contains(tt.cond, "&amp;") != (when != nil) || when != nil && printer.ExprString(when) != "x > 0" {
			t.Errorf("cond %q: fails when %v, want x > 0 after && and always otherwise", tt.cond, when)
		}
	}
}

// TestAssignedGlobals: assigning a name that nothing declares creates a
// global, which starts undefined; a top-level var of a piece that other
// code reads is that global too.
func TestAssignedGlobals(t *testing.T) {
	doc := head + `<state id="a"><onentry><script>var z = 'foo'; n = 1</script><assign location="z" expr="'bar'"/></onentry>
<transition event="go" cond="ghost == 1" target="b"><script>ghost = 1</script></transition>
<transition event="go" cond="z == 'bar' &amp;&amp; n == 1" target="c"/></state><state id="b"/><state id="c"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, name := range []string{"ghost", "n", "z"} {
		if v := m.Var(name); v == nil || v.Type.Kind != ast.String && name == "z" {
			t.Errorf("variable %s: %+v", name, v)
		}
		// A read before the first assignment is not modelled as ECMAScript's
		// ReferenceError: the user is told so.
		if !slices.ContainsFunc(m.Warnings, func(w *source.Error) bool {
			return strings.HasPrefix(w.Msg, name+" is assigned but declared nowhere") && strings.Contains(w.Msg, "error.execution")
		}) {
			t.Errorf("no warning that %s is made a global: %v", name, m.Warnings)
		}
	}
	for _, code := range []string{"w.f = 1", "w += 1", "w++"} {
		doc := head + `<state id="a"><onentry><script>` + code + `</script></onentry></state></scxml>`
		m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
		if len(errs) > 0 || m.Var("w") != nil || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Msg, "w is bound nowhere in the model") {
			t.Errorf("%s reads w, which nothing binds: errors %v, variable %v, warnings %v; want no global w and the warning", code, errs, m.Var("w"), m.Warnings)
		}
	}
	if m.State("a").Transitions[0].CondFails {
		t.Errorf("ghost == 1 before ghost is assigned: read as undefined, not as an unbound name")
	}
}

// TestUnboundStatements: a statement that reads a name bound nowhere
// whatever the values (the base of w.f = 1, a value, an if's condition)
// raises error.execution there and ends its block; the statements before it
// run; in a branch of an if the raise ends the branch and the block, and a
// for whose condition reads it runs its init first; a name read only on
// some values otherwise (in a loop's body, right of ||) stays an error.
func TestUnboundStatements(t *testing.T) {
	doc := head + `<datamodel><data id="n" expr="0"/></datamodel><state id="a"><onentry><script>n = 1; _data.x = n; n = 2</script><assign location="n" expr="3"/></onentry>
<transition event="e" target="b"><if cond="_data.ok"><assign location="n" expr="4"/></if><assign location="n" expr="5"/></transition></state><state id="b"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	entry := printer.BlockString(m.State("a").OnEntry[0])
	if !strings.Contains(entry, "n = 1") || strings.Contains(entry, "n = 2") || strings.Contains(entry, "n = 3") || !strings.Contains(entry, "raise platform error.execution") {
		t.Errorf("entry: %s, want n = 1 and the raise of error.execution, nothing after", entry)
	}
	body := printer.BlockString(m.State("a").Transitions[0].Body)
	if strings.Contains(body, "n = 4") || strings.Contains(body, "n = 5") || !strings.Contains(body, "raise platform error.execution") {
		t.Errorf("transition: %s, want the raise of error.execution alone", body)
	}
	if len(m.Warnings) != 2 {
		t.Errorf("warnings %v, want one per block", m.Warnings)
	}
	for _, tc := range []struct {
		code, want string
		warnings   int // one per place that raises
	}{
		{"if (n == 0) { n = 1; _data.x = 1; n = 2 } n = 3", "if (n == 0) { n = 1; raise platform error.execution(); } else { n = 3; }", 1},
		{"for (n = 5; n &lt; _data.max; n++) { n = 7 } n = 3", "n = 5; raise platform error.execution();", 1},
		// the if after one that raises may raise too
		{"if (n == 0) { _data.x = 1 } if (n == 1) { _data.y = 1 } n = 3", "if (n == 0) { raise platform error.execution(); } else { if (n == 1) { raise platform error.execution(); } else { n = 3; } }", 2},
	} {
		doc := head + `<datamodel><data id="n" expr="0"/></datamodel><state id="a"><onentry><script>` + tc.code + `</script></onentry></state></scxml>`
		m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
		if len(errs) > 0 {
			t.Errorf("%s: %v", tc.code, errs)
			continue
		}
		if got := strings.Join(strings.Fields(printer.BlockString(m.State("a").OnEntry[0])), " "); !strings.Contains(got, tc.want) || len(m.Warnings) != tc.warnings {
			t.Errorf("%s: lowered to %s, warnings %v; want %s and %d warnings", tc.code, got, m.Warnings, tc.want, tc.warnings)
		}
	}
	for _, code := range []string{"n = n || _data", "while (n &lt; 1) { n = _data }"} {
		doc := head + `<datamodel><data id="n" expr="0"/></datamodel><state id="a"><onentry><script>` + code + `</script></onentry></state></scxml>`
		if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{}); !strings.Contains(errs.Error(), "undeclared name _data") {
			t.Errorf("%s reads _data on some values only: errors %v, want undeclared name _data", code, errs)
		}
	}
}
