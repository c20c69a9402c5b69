package diffmap_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model/mlm"
)

// line prints a position's line, or "-" for none.
func line(p *diffmap.Position) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(p.Line)
}

// placed prints changes with their lines in the old and the new file, and
// for a priority change the lines of both transitions.
func placed(d *diffmap.Diff) string {
	var parts []string
	for _, c := range d.Changes {
		s := fmt.Sprintf("%s %s %s>%s", c.Kind, c.Subject, line(c.Old), line(c.New))
		if len(c.Transitions) > 0 {
			var ts []string
			for _, t := range c.Transitions {
				ts = append(ts, fmt.Sprintf("%s %s>%s", t.ID, line(t.Old), line(t.New)))
			}
			s += " [" + strings.Join(ts, ", ") + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// TestPriority changes the order in which transitions are tried, and
// the order of transitions that never compete, in testdata/priority.scxml.
// Each edit is a list of replacements; updated lists the flattened
// transitions whose behaviour changes.
func TestPriority(t *testing.T) {
	src, err := os.ReadFile("testdata/priority.scxml")
	if err != nil {
		t.Fatal(err)
	}
	base := string(src)
	const (
		cA  = `    <transition event="e" cond="x &gt; 0" target="A"/>` + "\n"
		cB  = `    <transition event="e" cond="x &gt; 2" target="B"/>` + "\n"
		cG  = `    <transition event="g" target="D"/>` + "\n"
		pB  = `  <transition event="e" cond="x &gt; 5" target="B"/>` + "\n"
		pF  = `  <transition event="f" target="E"/>` + "\n"
		dC  = `<transition event="e" target="C"/>`
		aX  = `  <transition event="e.x" target="B"/>` + "\n"
		aY  = `  <transition event="e.y" target="D"/>` + "\n"
		aE  = `  <transition event="e" target="C"/>` + "\n"
		aS  = `  <transition event="*" target="P"/>` + "\n"
		e3  = `  <transition cond="x &gt; 3" target="A"/>` + "\n"
		e1  = `  <transition cond="x &gt; 1" target="B"/>` + "\n"
		bH1 = `  <transition event="h" cond="x &gt; 1" target="A"/>` + "\n"
		bH4 = `  <transition event="h" cond="x &gt; 4" target="A"/>` + "\n"
		cSt = `  <state id="C">` + "\n"
	)
	// onE lists the flattened transitions of configuration C on e and
	// on e.x and e.y, which e's descriptor matches, by the identity of the
	// transition taken.
	onE := func(origins ...string) []string {
		var out []string
		for _, ev := range []string{"e", "e.x", "e.y"} {
			for _, o := range origins {
				target, _, _ := strings.Cut(o[strings.LastIndex(o, ">")+1:], "#")
				out = append(out, fmt.Sprintf("C %s [%s] %s", ev, o, target))
			}
		}
		return out
	}
	tests := []struct {
		name    string
		edits   []string // old, new, old, new...
		want    string
		updated []string
	}{
		{"swap in one state", []string{cA + cB, cB + cA},
			"priority_changed C:e>B before C:e>A 9>8 [C:e>B 9>8, C:e>A 8>9]",
			// The guards of C:e>A and C:e>B change; that of P:e>B only in
			// the order of its literals.
			onE("C:e>A", "C:e>B", "P:e>B")},
		{"swap of different events", []string{cB + cG, cG + cB}, "", nil},
		{"swap in the parent of different events", []string{pB + pF, pF + pB}, "", nil},
		{"swap of disjoint prefixes", []string{aX + aY, aY + aX}, "", nil},
		{"swap of an event and its prefix", []string{aY + aE, aE + aY},
			"priority_changed A:e>C before A:e.y>D 17>16 [A:e>C 17>16, A:e.y>D 16>17]",
			[]string{"A e.y [A:e.y>D] D", "A e.y [A:e>C] C"}},
		{"swap of an event and *", []string{aE + aS, aS + aE},
			"priority_changed A:*>P before A:e>C 18>17 [A:*>P 18>17, A:e>C 17>18]",
			[]string{"A e [A:*>P] C", "A e [A:e>C] C"}},
		{"swap of eventless transitions", []string{e3 + e1, e1 + e3},
			"priority_changed E:>B before E:>A 26>25 [E:>B 26>25, E:>A 25>26]",
			// E is left at once: f from C and from D is what changes.
			[]string{"C f [P:f>E ; E:>A] A", "C f [P:f>E ; E:>B] B", "C f [P:f>E] E",
				"D f [P:f>E ; E:>A] A", "D f [P:f>E ; E:>B] B", "D f [P:f>E] E"}},
		{"swap of transitions with one identity but for the ordinal", []string{bH1 + bH4, bH4 + bH1},
			// The ordinals follow the document: B:h>A is now x > 4.
			"priority_changed B:h>A before B:h>A#2 22>21 [B:h>A 22>21, B:h>A#2 21>22]",
			[]string{"B h [B:h>A#2] A", "B h [B:h>A] A"}},
		{"swap and retarget", []string{cA + cB, cB + strings.Replace(cA, `"A"`, `"B"`, 1)},
			"priority_changed C:e>B before C:e>B#2 9>8 [C:e>B 9>8, C:e>B#2 8>9]; transition_retargeted C:e>B#2 8>9",
			onE("C:e>A", "C:e>B", "C:e>B#2", "P:e>B")},
		{"move from a child to its parent, past a competitor", []string{cB, "", pB, pB + strings.Replace(cB, "    ", "  ", 1)},
			"priority_changed P:e>B before P:e>B#2 5>5 [P:e>B 5>5, P:e>B#2 9>6]; " +
				"transition_added P:e>B#2 ->6; transition_removed C:e>B 9>-",
			onE("C:e>B", "P:e>B", "P:e>B#2")},
		{"move from a child to its parent, before its competitors", []string{cB, "", pB, strings.Replace(cB, "    ", "  ", 1) + pB},
			// The same priorities; the parent's identities change.
			"transition_added P:e>B ->5; transition_removed C:e>B 9>-",
			onE("C:e>B", "P:e>B", "P:e>B#2")},
		{"move from a parent into a child, past a competitor", []string{pB, "", dC, strings.TrimSpace(pB) + dC},
			"priority_changed D:e>B before D:e>C 5>11 [D:e>B 5>11, D:e>C 12>11]; " +
				"transition_added D:e>B ->11; transition_removed P:e>B 5>-",
			append(onE("P:e>B")[:1:1], "C e.x [P:e>B] B", "C e.y [P:e>B] B",
				"D e [D:e>B] B", "D e [D:e>C] C", "D e.x [D:e>B] B", "D e.x [D:e>C] C", "D e.y [D:e>B] B", "D e.y [D:e>C] C")},
		{"move to a sibling", []string{cA, "", dC, dC + strings.TrimSpace(cA)},
			// D:e>A is never taken: D:e>C, unguarded, comes first.
			"transition_added D:e>A ->11; transition_removed C:e>A 8>-",
			onE("C:e>A", "C:e>B", "P:e>B")},
		{"sibling states swapped", []string{cSt + cA + cB + cG + "  </state>\n" + `  <state id="D">` + dC + "</state>\n",
			`  <state id="D">` + dC + "</state>\n" + cSt + cA + cB + cG + "  </state>\n"}, "", nil},
		{"reformatted", []string{cA, `<!-- first -->` + "\n" + `<transition target="A"  cond="x&gt;0" event="e" />`, "<datamodel>", "<datamodel>\n"}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			to := base
			for i := 0; i < len(tc.edits); i += 2 {
				next := strings.Replace(to, tc.edits[i], tc.edits[i+1], 1)
				if next == to {
					t.Fatalf("replacement %d did not apply", i/2)
				}
				to = next
			}
			o, n := machine(t, base), machine(t, to)
			d := diffmap.Compute(o.Source, n.Source, o, n)
			if got := placed(d); got != tc.want {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			var got []string
			for k := range d.Updated {
				got = append(got, k)
			}
			sort.Strings(got)
			want := slices.Sorted(slices.Values(tc.updated))
			if !slices.Equal(got, want) {
				t.Errorf("updated %q, want %q", got, want)
			}
		})
	}
}

// TestTwins retargets a transition onto the target of another with the
// same event: the two share events and targets then, and their ordinal
// identities follow the document, but each keeps its partner.
func TestTwins(t *testing.T) {
	src, err := os.ReadFile("testdata/priority.scxml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, from, to, want string }{
		{"retarget onto a later twin", `cond="x &gt; 0" target="A"`, `cond="x &gt; 0" target="B"`,
			"transition_retargeted C:e>B @8"},
		{"retarget onto an earlier twin", `cond="x &gt; 2" target="B"`, `cond="x &gt; 2" target="A"`,
			"transition_retargeted C:e>A#2 @9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := string(src)
			to := strings.Replace(base, tc.from, tc.to, 1)
			if to == base {
				t.Fatal("the test's replacement did not apply")
			}
			o, n := machine(t, base), machine(t, to)
			if got := changes(diffmap.Compute(o.Source, n.Source, o, n)); got != tc.want {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPriorityGenerated swaps two competing transitions of generated
// models, the benchmark models and the examples (modelgen's
// PriorityChanged): the swap is classified as such, with the subject
// modelgen gives it, and T_updated is empty exactly when the flattened
// machine is the same.
func TestPriorityGenerated(t *testing.T) {
	type doc struct {
		name string
		src  []byte
	}
	var docs []doc
	for seed := int64(1); seed <= 100; seed++ {
		opts := modelgen.Options{Parallel: seed%3 == 0, History: seed%4 == 1, Internal: seed%2 == 0, Loops: seed%3 == 1}
		docs = append(docs, doc{fmt.Sprint("seed ", seed), modelgen.Generate(seed, opts)})
	}
	files, _ := filepath.Glob("../testdata/bench/*.scxml")
	examples, _ := filepath.Glob("../examples/*.scxml")
	for _, f := range append(files, examples...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{filepath.Base(f), src})
	}
	applied := 0
	for i, d := range docs {
		out, ch, ok := modelgen.Mutate(d.src, modelgen.PriorityChanged, int64(i+1))
		if !ok {
			continue
		}
		applied++
		o, n := machine(t, string(d.src)), machine(t, string(out))
		diff := diffmap.Compute(o.Source, n.Source, o, n)
		if len(diff.Changes) != 1 || diff.Changes[0].Kind != ch.Kind || diff.Changes[0].Subject != ch.Subject {
			t.Errorf("%s: %v gives %s", d.name, ch, placed(diff))
		}
		if same := mlm.Hash(o) == mlm.Hash(n); same != (len(diff.Updated) == 0) {
			t.Errorf("%s: %v: same machine %v, updated %v", d.name, ch, same, diff.Updated)
		}
	}
	if applied < len(docs)/2 {
		t.Errorf("the swap applies to %d of %d models", applied, len(docs))
	}
	t.Logf("the swap applies to %d of %d models", applied, len(docs))
}
