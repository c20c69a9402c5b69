package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/vocab"
)

// modelFile writes an SCXML model with setbot's namespace to a file.
func modelFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">` + body + `</scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDecimalVerdicts checks verdicts that ECMAScript's doubles decide: a
// literal is the double nearest its text (node prints true for
// 0.1 == 0.10000000000000001 and for 1e-400 == 0).
func TestDecimalVerdicts(t *testing.T) {
	tests := []struct {
		name, body string
		reachB     bool
	}{
		{"nearest double", `<state id="A"><transition cond="0.1 == 0.10000000000000001" target="B"/><transition target="C"/></state>
			<final id="B"/><final id="C"/>`, true},
		{"underflow to zero", `<setbot:event name="e"><setbot:param name="s" type="string"/></setbot:event>
			<state id="A"><transition event="e" cond="1e-400 == 0" target="B"/></state><state id="B"/>`, true},
		{"distinct doubles", `<state id="A"><transition cond="0.1 == 0.1000000000000001" target="B"/><transition target="C"/></state>
			<final id="B"/><final id="C"/>`, false},
	}
	for _, tt := range tests {
		set := explore(t, machine(t, modelFile(t, tt.body)), engine.Options{MaxDepth: 2})
		if got := reached(set, "B"); got != tt.reachB {
			t.Errorf("%s: B reached %v, want %v", tt.name, got, tt.reachB)
		}
	}
}

// TestDecimalInputDomain checks that a decimal input lies on the grid of
// the input domain: no double x gives x * 50 == 55 (1.1 * 50 is
// 55.00000000000001), and the grid has no 1.1; x * 4 == 5 has 1.25. Below
// 2^42 the grid's last value is 2^42 - 2^-10, the double that
// 4398046511103.999 reads as.
func TestDecimalInputDomain(t *testing.T) {
	tests := []struct {
		cond   string
		reachB bool
	}{
		{"_event.data.x * 50 == 55", false},
		{"_event.data.x * 4 == 5", true},
		{"_event.data.x &gt; 4398046511104", false}, // 2^42
		{"_event.data.x &gt; 4398046511103.999", false},
		{"_event.data.x &gt; 4398046511103.5", true},
	}
	for _, tt := range tests {
		path := modelFile(t, `<setbot:event name="e"><setbot:param name="x" type="decimal"/></setbot:event>
			<state id="A"><transition event="e" cond="`+tt.cond+`" target="B"/></state><state id="B"/>`)
		set := explore(t, machine(t, path), engine.Options{MaxDepth: 1})
		if got := reached(set, "B"); got != tt.reachB {
			t.Errorf("%s: B reached %v, want %v", tt.cond, got, tt.reachB)
		}
	}
}

// TestConversions explores the conversions feature model: the solver
// finds the string whose parseInt is 45 and the decimal whose parseInt is
// -1, and parseInt('abc') cuts every path through it with the number
// bound, reported.
func TestConversions(t *testing.T) {
	set := explore(t, machine(t, "../model/mlm/testdata/features/conversions.scxml"), engine.Options{MaxDepth: 3})
	for _, s := range []string{"Parsed", "Minus"} {
		if !reached(set, s) {
			t.Errorf("%s not reached", s)
		}
	}
	cut := false
	for _, b := range set.Bounds {
		cut = cut || b.Bound == vocab.BoundNumber && b.Count > 0
	}
	if !cut {
		t.Errorf("bounds %v: want the number bound hit", set.Bounds)
	}
	for _, n := range set.Nodes {
		if n.Parent != nil && n.Parent.State.Name == "Minus" && n.State.Name == "Idle" {
			t.Errorf("Minus fires to Idle, through parseInt('abc')")
		}
	}
}
