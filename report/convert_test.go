package report

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
)

// TestNewChangeAnalysisNeverNull: lists the core leaves nil, as a result
// decoded from the cache does and as a witness of the empty input sequence
// has, are [] in the document, never null.
func TestNewChangeAnalysisNeverNull(t *testing.T) {
	empty := &testgen.Test{ID: "te3b0c44298fc", Final: []string{"off"}}
	r := &incremental.Result{
		TestDelta: &testgen.Delta{New: []*testgen.Test{{ID: "t1", Steps: []testgen.Step{{Event: "go"}}}}},
		Nondeterminism: []incremental.Conflict{{Conflict: analysis.Conflict{State: "off", Event: "e", Taken: "a", Shadows: "b",
			Witness: empty}}},
	}
	data, err := json.Marshal(NewChangeAnalysis(r))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "null") {
		t.Errorf("the document has a null:\n%s", data)
	}
	for _, want := range []string{`"witness":{"id":"te3b0c44298fc","identity":[],"steps":[],"final":["off"]}`,
		`"steps":[{"event":"go","args":{},"outputs":[],"fired":[],"configuration":[]}]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the document lacks %s:\n%s", want, data)
		}
	}
}

// TestNewChangeAnalysisTests: the tests of the delta and the witnesses get
// their own steps, outputs and fired transitions, though they come from
// one allocation.
func TestNewChangeAnalysisTests(t *testing.T) {
	r, _ := analyze(t, radio, radioHead, 4)
	a := NewChangeAnalysis(r)
	d, got := r.TestDelta, a.TestDelta
	n := 0
	for i, pair := range []struct {
		core []*testgen.Test
		rep  []Test
	}{{d.Retained, got.Retained}, {d.Changed, got.Changed}, {d.Obsolete, got.Obsolete}, {d.New, got.New}} {
		if len(pair.rep) != len(pair.core) {
			t.Fatalf("list %d: %d tests, want %d", i, len(pair.rep), len(pair.core))
		}
		for j, h := range pair.core {
			g := pair.rep[j]
			if g.ID != h.ID || len(g.Steps) != len(h.Steps) || cap(g.Steps) != len(h.Steps) {
				t.Fatalf("test %s: %d steps (capacity %d), want %d", h.ID, len(g.Steps), cap(g.Steps), len(h.Steps))
			}
			for k, s := range h.Steps {
				n++
				gs := g.Steps[k]
				if gs.Event != s.Event || len(gs.Fired) != len(s.Fired) || cap(gs.Fired) != len(s.Fired) ||
					len(gs.Outputs) != len(s.Outputs) || cap(gs.Outputs) != len(s.Outputs) {
					t.Fatalf("test %s step %d: %+v, want %+v", h.ID, k, gs, s)
				}
				for m, f := range s.Fired {
					if gs.Fired[m].Key != f.Key || gs.Fired[m].Path != f.Path {
						t.Errorf("test %s step %d fires %+v, want %+v", h.ID, k, gs.Fired[m], f)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the change has no test with a step")
	}
}

// TestWriteChangeJSON: the streamed document is, byte for byte, the one
// the whole object encodes to, for a delta with tests in several lists,
// an empty one, and none at all.
func TestWriteChangeJSON(t *testing.T) {
	r, _ := analyze(t, radio, radioHead, 4)
	if r.TestDelta == nil || len(r.TestDelta.Retained)+len(r.TestDelta.New)+len(r.TestDelta.Obsolete) == 0 {
		t.Fatalf("the fixture has no tests to stream: %+v", r.Tests)
	}
	noDelta := *r
	noDelta.TestDelta = nil
	empty := *r
	empty.TestDelta = &testgen.Delta{}
	for name, res := range map[string]*incremental.Result{"delta": r, "no delta": &noDelta, "empty delta": &empty} {
		var want, got strings.Builder
		if err := encodeJSON(&want, NewChangeAnalysis(res)); err != nil {
			t.Fatal(err)
		}
		if err := WriteChangeJSON(&got, res); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: streamed JSON differs from the encoded object: %s", name, firstDiff(want.String(), got.String()))
		}
	}
}

// TestWriteJSONStreams: the analysis document written a test at a time is,
// byte for byte, the one the whole object encodes to: for the fixture's
// six models (deltas of several sizes, models without an analysis), for
// models whose delta is empty or absent, and for one whose strings read
// like the member the deltas replace.
func TestWriteJSONStreams(t *testing.T) {
	a := fixtureAnalysis(t)
	odd := *a.Models[0]
	odd.Path = "models/\n      \"test_delta\": null.scxml"
	ca := *odd.ChangeAnalysis
	ca.StrategyReason = "\n      \"test_delta\": null"
	ca.TestDelta = nil
	odd.ChangeAnalysis = &ca
	empty := *a.Models[1]
	emptyCA := *empty.ChangeAnalysis
	emptyCA.TestDelta = &TestDelta{}
	empty.ChangeAnalysis, empty.Path = &emptyCA, "models/empty.scxml"
	more := *a
	more.Models = append(slices.Clone(a.Models), &odd, &empty)
	for name, doc := range map[string]*Analysis{"fixture": a, "odd and empty": &more, "no models": {Base: baseSHA, Head: headSHA}} {
		var want, got strings.Builder
		if err := encodeJSON(&want, normalized(doc)); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&got, doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: streamed JSON differs from the encoded document: %s", name, firstDiff(want.String(), got.String()))
		}
		if !strings.Contains(got.String(), `"steps"`) && name == "fixture" {
			t.Errorf("%s: the document holds no test", name)
		}
	}
	if a.Models[0].ChangeAnalysis.TestDelta == nil {
		t.Error("writing the document changed the analysis")
	}
}
