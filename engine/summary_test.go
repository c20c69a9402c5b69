package engine_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/solver"
)

// TestBlackBoxSubsumption: subsumption renames the results of black-box
// calls as it renames any variable, their rows staying in the renamed path
// condition. The tree of a loop over calls reaches exactly the MLM states
// that running every input sequence up to its depth on the simulator does,
// the simulator answering each call from the table.
func TestBlackBoxSubsumption(t *testing.T) {
	const depth = 4
	m := machine(t, "testdata/bbloop/bbloop.scxml")
	set := explore(t, m, engine.Options{MaxDepth: depth})
	if set.Stats.Subsumed == 0 {
		t.Fatal("no state subsumed: the test tests nothing")
	}
	inTree := map[string]bool{}
	for _, n := range set.Nodes {
		inTree[n.State.Name] = true
	}
	concrete := map[string]bool{}
	var run func(seq []int64)
	run = func(seq []int64) {
		s, start, err := sim.New(m, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		concrete[start.State] = true
		for _, k := range seq {
			step, err := s.StepAt(sim.Event{Name: "read", Args: map[string]sim.Value{"k": sim.IntValue(k)}}, nil)
			if err != nil {
				return // a read no row answers: the tree stops there too (the table bound)
			}
			concrete[step.State] = true
		}
		if len(seq) < depth {
			for k := int64(0); k <= 3; k++ {
				run(append(slices.Clone(seq), k))
			}
		}
	}
	run(nil)
	if !maps.Equal(inTree, concrete) {
		t.Errorf("the tree reaches %v, the simulator %v", slices.Sorted(maps.Keys(inTree)), slices.Sorted(maps.Keys(concrete)))
	}
	if !concrete["goal"] || !concrete["low"] {
		t.Errorf("the simulator reaches %v: the model does not test what it says", slices.Sorted(maps.Keys(concrete)))
	}
}

// TestBlackBoxArgumentConversionCut: a conversion in a black-box call's
// argument, in a guard, cuts the path where it is not exact, as one outside
// the call does. The node where no transition takes chk (B) must leave out
// the strings whose parseInt is NaN or beyond the exact range: the
// simulator stops there, so a test from such a path would not replay.
func TestBlackBoxArgumentConversionCut(t *testing.T) {
	for _, guard := range []string{"g(parseInt(v)) > 0", "parseInt(v) > 0"} {
		path := modelFile(t, `<setbot:event name="e"><setbot:param name="s" type="string"/></setbot:event>
			<setbot:function name="g" params="int" returns="int"/>
			<datamodel><data id="v" expr="''"/></datamodel>
			<state id="A"><transition event="e" target="B"><assign location="v" expr="_event.data.s"/><raise event="chk"/></transition></state>
			<state id="B"><transition event="chk" cond="`+strings.ReplaceAll(guard, ">", "&gt;")+`" target="C"/></state>
			<state id="C"/>`)
		set := explore(t, machine(t, path), engine.Options{MaxDepth: 1})
		vi := slices.IndexFunc(set.Machine.Vars, func(v *model.Var) bool { return v.Name == "v" })
		if vi < 0 {
			t.Fatalf("%s: no variable v in %v", guard, set.Machine.Vars)
		}
		s, err := newZ3(set.Terms)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, n := range set.Nodes {
			if n.Parent == nil || n.State.Name != "B" {
				continue
			}
			found = true
			_, exact := set.Terms.ParseInt(n.Vals[vi], false)
			r, err := s.Check(append(slices.Clone(n.PC), set.Terms.Not(exact)))
			if err != nil {
				t.Fatal(err)
			}
			if r != solver.Unsat {
				t.Errorf("%s: the node where chk is discarded allows parseInt(v) not exact (%v): a path the simulator cannot replay", guard, r)
			}
		}
		if !found {
			t.Errorf("%s: no node where chk is discarded", guard)
		}
	}
}
