package incremental_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/vocab"
)

// TestOutputsLostByEveryStrategy: the outputs a change stops sending are
// the same whatever strategy built the head tree; DSE confirms its
// candidates on the whole tree, which is kept, and its tests are those of
// the whole tree.
func TestOutputsLostByEveryStrategy(t *testing.T) {
	base := loadFile(t, "../../examples/triangle.scxml")
	head := loadFile(t, "testdata/triangle_s2_off.scxml")
	var want string
	for _, s := range []vocab.Strategy{vocab.StrategyFull, vocab.StrategyMSE, vocab.StrategyDSE, vocab.StrategyAuto} {
		trees := memTrees{}
		r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{
			Strategy: s, Solver: newZ3, Trees: trees, Analyses: incremental.AllAnalyses})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, o := range r.OutputsLost {
			if o.BaseWitness == nil || len(o.BaseWitness.Steps) == 0 {
				t.Errorf("%s: %s lost with no witness at base", s, o.Output)
			}
			names = append(names, o.Output)
		}
		got := strings.Join(names, ", ")
		if want == "" {
			want = got
		}
		if got != want || !strings.Contains(got, "evEquilateral to #_parent") {
			t.Errorf("%s: outputs lost %q, want %q (with evEquilateral)", s, got, want)
		}
		kept := trees[head.Hash]
		if kept.set == nil || len(kept.set.Nodes) != r.Head.States && r.WholeSet == nil {
			t.Errorf("%s: the whole head tree was not kept", s)
		}
		if s == vocab.StrategyDSE {
			if r.ConfirmedBy == "" || r.WholeSet == nil || r.TestsPartial {
				t.Errorf("DSE: confirmed by %q, whole tree %v, tests partial %v; want confirmed on the whole tree", r.ConfirmedBy, r.WholeSet != nil, r.TestsPartial)
			}
			if kept.set != r.WholeSet || len(kept.tests) != len(r.HeadTests) {
				t.Errorf("DSE: kept %p with %d tests, want the whole tree %p with its %d tests", kept.set, len(kept.tests), r.WholeSet, len(r.HeadTests))
			}
		}
	}
}

const conflictsBase = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a" datamodel="ecmascript">
<datamodel><data id="n" expr="0"/></datamodel>
<state id="a">
  <transition event="e" cond="n &lt; 2" target="b"><assign location="n" expr="n + 1"/></transition>
  <transition event="old" target="b"/>
  <transition event="old" target="a"/>
  <transition event="e" cond="n &gt; 5" target="a"/>
</state>
<state id="b"><transition event="back" target="a"/></state>
</scxml>`

// TestNondeterminismNewAndOld: a conflict the base has too is marked, one
// the change makes is not; a pair whose conditions cannot hold together is
// none; and nothing is looked for unless asked.
func TestNondeterminismNewAndOld(t *testing.T) {
	base := loadBytes(t, "base.scxml", []byte(conflictsBase))
	headSrc := strings.Replace(conflictsBase, `cond="n &gt; 5"`, `cond="n &gt; 0"`, 1)
	head := loadBytes(t, "head.scxml", []byte(headSrc))
	for _, s := range []vocab.Strategy{vocab.StrategyFull, vocab.StrategyMSE, vocab.StrategyDSE} {
		r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{
			Strategy: s, Solver: newZ3, Analyses: incremental.CheckNondeterminism, Engine: engine.Options{MaxDepth: 4}})
		if err != nil {
			t.Fatal(err)
		}
		got := make(map[string]bool)
		for _, c := range r.Nondeterminism {
			got[c.Event+":"+c.Taken+"/"+c.Shadows] = c.AtBase
			if c.Witness == nil {
				t.Errorf("%s: conflict %+v has no witness", s, c)
			}
		}
		want := map[string]bool{"old:a:old>b/a:old>a": true, "e:a:e>b/a:e>a": false}
		if b, _ := json.Marshal(got); string(b) != mustJSON(t, want) {
			t.Errorf("%s: conflicts (pair: at base) %s, want %s", s, b, mustJSON(t, want))
		}
		if s == vocab.StrategyDSE != r.NondeterminismPartial {
			t.Errorf("%s: nondeterminism_partial %v", s, r.NondeterminismPartial)
		}
	}
	r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Nondeterminism) != 0 || len(r.OutputsLost) != 0 || r.Invariants != nil {
		t.Errorf("analyses not asked for were run: %+v %+v %+v", r.Nondeterminism, r.OutputsLost, r.Invariants)
	}
	fresh, err := incremental.Analyze(context.Background(), nil, head, incremental.Request{Solver: newZ3, Analyses: incremental.AllAnalyses})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range fresh.Nondeterminism {
		if c.AtBase {
			t.Errorf("a model with no base marks conflict %+v as at base", c)
		}
	}
	if len(fresh.Nondeterminism) != 2 {
		t.Errorf("new model: %d conflicts, want 2", len(fresh.Nondeterminism))
	}
}

// TestInvariantsOnTheWholeTree: DSE's tree is partial, so the invariants
// are checked on a whole one, with the same verdict as a full run.
func TestInvariantsOnTheWholeTree(t *testing.T) {
	base := loadBytes(t, "base.scxml", []byte(conflictsBase))
	head := loadBytes(t, "head.scxml", []byte(strings.Replace(conflictsBase, `n &lt; 2`, `n &lt; 4`, 1)))
	inv, err := analysis.ParseInvariant(head, "n <= 2")
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for _, s := range []vocab.Strategy{vocab.StrategyFull, vocab.StrategyDSE} {
		r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{
			Strategy: s, Solver: newZ3, Analyses: incremental.CheckInvariants, Invariants: []analysis.Invariant{inv},
			Engine: engine.Options{MaxDepth: 8}})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Invariants) != 1 {
			t.Fatalf("%s: invariants %+v", s, r.Invariants)
		}
		c := r.Invariants[0]
		verdicts = append(verdicts, mustJSON(t, []any{c.Holds, c.State}))
		if s == vocab.StrategyDSE && r.WholeSet == nil {
			t.Error("DSE: the invariants were not checked on a whole tree")
		}
	}
	if verdicts[0] != verdicts[1] || !strings.HasPrefix(verdicts[0], "[false") {
		t.Errorf("verdicts full %s, DSE %s; want the same violation", verdicts[0], verdicts[1])
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNondeterminismOnTheWholeTreeWhenThereIsOne: when DSE's whole tree is
// built anyway (here for an invariant), the conflicts are looked for on it,
// as a full run finds them, and are not marked partial.
func TestNondeterminismOnTheWholeTreeWhenThereIsOne(t *testing.T) {
	base := loadBytes(t, "base.scxml", []byte(conflictsBase))
	head := loadBytes(t, "head.scxml", []byte(strings.Replace(conflictsBase, `cond="n &gt; 5"`, `cond="n &gt; 0"`, 1)))
	inv, err := analysis.ParseInvariant(head, "n >= 0")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range []vocab.Strategy{vocab.StrategyFull, vocab.StrategyDSE} {
		r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{
			Strategy: s, Solver: newZ3, Analyses: incremental.CheckInvariants | incremental.CheckNondeterminism,
			Invariants: []analysis.Invariant{inv}, Engine: engine.Options{MaxDepth: 4}})
		if err != nil {
			t.Fatal(err)
		}
		if r.NondeterminismPartial {
			t.Errorf("%s: conflicts marked partial though the whole tree was built", s)
		}
		got = append(got, mustJSON(t, r.Nondeterminism))
	}
	if got[0] != got[1] {
		t.Errorf("conflicts: full %s, DSE %s", got[0], got[1])
	}
}

// TestConflictThroughARename: a conflict the base has is not new because
// the change renamed the state its transitions leave.
func TestConflictThroughARename(t *testing.T) {
	base := loadBytes(t, "base.scxml", []byte(conflictsBase))
	renamed := strings.NewReplacer(`initial="a"`, `initial="start"`, `<state id="a">`, `<state id="start">`,
		`target="a"`, `target="start"`).Replace(conflictsBase)
	head := loadBytes(t, "head.scxml", []byte(renamed))
	r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{
		Solver: newZ3, Analyses: incremental.CheckNondeterminism, Engine: engine.Options{MaxDepth: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if to := r.Diff.Renamed["a"]; to != "start" {
		t.Fatalf("diffmap does not see the rename: %v", r.Diff.Renamed)
	}
	if len(r.Nondeterminism) == 0 {
		t.Fatal("no conflict found at head")
	}
	for _, c := range r.Nondeterminism {
		if !c.AtBase {
			t.Errorf("conflict %s / %s on %s reported new, though the base has it under the old name", c.Taken, c.Shadows, c.Event)
		}
	}
}
