package incremental_test

import (
	"context"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/vocab"
)

// TestEqualMachinesReadTheHead: a change that leaves the machine equal
// (three comment lines on top, and a transition that document order
// shadows) reuses the base tree, but what the analysis reads on it comes
// from the head: the new conflict, the old one at its new line, the
// witnesses; and the delta, made without replaying the tests, is the one a
// full run computes. With the base's tree and suite at hand (a cache) as
// without.
func TestEqualMachinesReadTheHead(t *testing.T) {
	base := loadBytes(t, "base.scxml", []byte(conflictsBase))
	headSrc := strings.Replace(conflictsBase, `datamodel="ecmascript">`, "datamodel=\"ecmascript\">\n<!-- 1 -->\n<!-- 2 -->\n<!-- 3 -->", 1)
	headSrc = strings.Replace(headSrc, `<transition event="back" target="a"/>`, `<transition event="back" target="a"/><transition event="back" target="b"/>`, 1)
	head := loadBytes(t, "moved/head.scxml", []byte(headSrc))
	if base.Hash != head.Hash {
		t.Fatal("the change is not a no-op of the machine")
	}
	req := func(s vocab.Strategy, trees incremental.Trees) incremental.Request {
		return incremental.Request{Strategy: s, Solver: newZ3, Analyses: incremental.AllAnalyses, Engine: engine.Options{MaxDepth: 4}, Trees: trees}
	}
	full, err := incremental.Analyze(context.Background(), base, head, req(vocab.StrategyFull, nil))
	if err != nil {
		t.Fatal(err)
	}
	var conflicts []string
	for _, c := range full.Nondeterminism {
		conflicts = append(conflicts, c.Event+":"+c.Taken+"/"+c.Shadows+":"+mustJSON(t, c.AtBase)+":"+mustJSON(t, c.Line))
	}
	if got, want := strings.Join(conflicts, " "), "old:a:old>b/a:old>a:true:9 back:b:back>a/b:back>b:false:12"; got != want {
		t.Fatalf("full: conflicts %s, want %s", got, want)
	}
	if full.Tests.Retained == 0 || full.Tests.Retained != len(full.BaseTests) {
		t.Fatalf("full: tests %+v of %d", full.Tests, len(full.BaseTests))
	}
	// A cache that holds the base's tree and suite, as a run that
	// analysed the base before leaves it.
	cached := memTrees{}
	if _, err := incremental.Analyze(context.Background(), nil, base, req(vocab.StrategyAuto, cached)); err != nil {
		t.Fatal(err)
	}
	if cached[base.Hash].tests == nil {
		t.Fatal("the base's suite was not kept")
	}
	for _, tc := range []struct {
		name  string
		trees incremental.Trees
	}{{"no cache", nil}, {"cache", cached}} {
		auto, err := incremental.Analyze(context.Background(), base, head, req(vocab.StrategyAuto, tc.trees))
		if err != nil {
			t.Fatal(err)
		}
		if auto.Strategy != vocab.StrategyReuse {
			t.Errorf("%s: strategy %s, want reuse", tc.name, auto.Strategy)
		}
		if auto.HeadSet.Machine != head || auto.HeadSet == auto.BaseSet {
			t.Errorf("%s: the head tree is not bound to the head machine", tc.name)
		}
		for _, f := range []struct {
			what string
			of   func(r *incremental.Result) any
		}{
			{"nondeterminism", func(r *incremental.Result) any { return r.Nondeterminism }},
			{"tests", func(r *incremental.Result) any { return r.Tests }},
			{"delta", func(r *incremental.Result) any { return r.TestDelta }},
			{"head tests", func(r *incremental.Result) any { return r.HeadTests }},
			{"invariants", func(r *incremental.Result) any { return r.Invariants }},
			{"reachability", func(r *incremental.Result) any {
				return []any{r.NewlyUnreachable, r.NewlyReachable, r.NewlyTransient, r.OutputsLost}
			}},
		} {
			if a, b := mustJSON(t, f.of(auto)), mustJSON(t, f.of(full)); a != b {
				t.Errorf("%s: %s:\n%s\nfull:\n%s", tc.name, f.what, a, b)
			}
		}
		for i, d := range auto.TestDelta.Retained {
			if d.Leaf == nil || auto.HeadSet.Nodes[d.Leaf.ID] != d.Leaf || auto.HeadTests[i].Leaf != d.Leaf {
				t.Fatalf("%s: retained test %s does not end at its node of the head tree", tc.name, d.ID)
			}
		}
	}
}

// gauge reads a sensor through a black box whose table is a file.
const gauge = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="Idle">
  <setbot:event name="read"><setbot:param name="v" type="int[0..3]"/></setbot:event>
  <setbot:function name="SCALE" params="int" returns="int" table="scale.csv"/>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="Idle"><transition event="read" target="Check"><assign location="x" expr="SCALE(_event.data.v)"/></transition></state>
  <state id="Check"><transition cond="x &gt; 4" target="High"/><transition cond="x &lt;= 4" target="Low"/></state>
  <state id="High"/><state id="Low"/>
</scxml>`

// TestEqualMachinesRowsAtOtherLines: a comment line in a black box's table
// leaves the machine equal, but the tests name its rows at their new
// lines, as a full run does.
func TestEqualMachinesRowsAtOtherLines(t *testing.T) {
	version := func(table string) *mlm.Machine {
		m, err := load.Bytes(context.Background(), "gauge.scxml", []byte(gauge), load.Options{Read: scxml.Options{ReadFile: func(string) ([]byte, error) { return []byte(table), nil }}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	base, head := version("0,0\n1,5\n"), version("# v, SCALE(v)\n0,0\n1,5\n")
	if base.Hash != head.Hash {
		t.Fatal("the change is not a no-op of the machine")
	}
	req := incremental.Request{Solver: newZ3}
	auto, err := incremental.Analyze(context.Background(), base, head, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Strategy = vocab.StrategyFull
	full, err := incremental.Analyze(context.Background(), base, head, req)
	if err != nil {
		t.Fatal(err)
	}
	if auto.Strategy != vocab.StrategyReuse {
		t.Errorf("strategy %s, want reuse", auto.Strategy)
	}
	if a, b := mustJSON(t, auto.HeadTests), mustJSON(t, full.HeadTests); a != b || !strings.Contains(a, "scale.csv:3:1") {
		t.Errorf("head tests:\n%s\nfull:\n%s", a, b)
	}
	if a, b := mustJSON(t, auto.TestDelta), mustJSON(t, full.TestDelta); a != b || !strings.Contains(a, "scale.csv:2:1") {
		t.Errorf("delta:\n%s\nfull:\n%s", a, b)
	}
}
