package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// TestInvoke explores a parent and the counter it invokes as one system:
// the param sets the child's limit, autoforward gives the child the
// parent's inputs, finalize copies the child's count before the parent
// selects a transition, and done.invoke ends the parent. The child's states
// are reached under their scoped ids (counter.over).
func TestInvoke(t *testing.T) {
	set := explore(t, machine(t, "testdata/invoke.scxml"), engine.Options{MaxDepth: 6})
	r := set.Reachability()
	path := func(n *engine.Node) string {
		if n == nil {
			return "never"
		}
		var events []string
		for _, x := range n.Path()[1:] {
			events = append(events, x.In.Event)
		}
		return strings.Join(events, " ")
	}
	for _, tc := range []struct{ state, want string }{
		{"low", "start"},
		{"counter.counting", "start"},
		{"enough", "start go go"},
		{"counter.over", "start go go go"},
		{"finished", "start go go go"},
	} {
		if got := path(r.Entered[tc.state]); got != tc.want {
			t.Errorf("%s first entered after %q, want %q", tc.state, got, tc.want)
		}
	}
	if n := r.Stable["counter.counting"]; n == nil {
		t.Error("the child's counting state is never stable")
	}
	if n := r.Stable["counter.over"]; n != nil {
		t.Errorf("the child's final state is stable after %q: the child ends there", path(n))
	}
	// The child's donedata reaches the parent with done.invoke.
	dd := explore(t, machine(t, "testdata/donedata.scxml"), engine.Options{}).Reachability()
	if dd.Entered["pass"] == nil || dd.Entered["fail"] != nil {
		t.Errorf("donedata: pass entered %v, fail entered %v; want the child's answer 42 in done.invoke.kid", dd.Entered["pass"] != nil, dd.Entered["fail"] != nil)
	}
	// A machine the child invokes runs as well, two deep.
	nested := explore(t, machine(t, "testdata/nested_invoke.scxml"), engine.Options{}).Reachability()
	for _, id := range []string{"mid.leaf.lf", "mid.mf", "pass"} {
		if nested.Entered[id] == nil {
			t.Errorf("nested invokes: %s never entered", id)
		}
	}
	// Cancelling the child runs its exit actions (their outputs happen),
	// and no session takes the events queued for another: the poke sent
	// as the parent leaves the invoking state, and the late one sent after
	// the cancel (error.communication), never reach a child.
	cancel := explore(t, machine(t, "testdata/cancel_invoke.scxml"), engine.Options{MaxDepth: 3})
	cr := cancel.Reachability()
	if cr.Entered["kid.poked"] != nil {
		t.Errorf("cancel_invoke: kid.poked entered after %q; poke and late reach no session", path(cr.Entered["kid.poked"]))
	}
	if cr.Entered["kid.gone"] == nil || cr.Entered["rest"] == nil {
		t.Error("cancel_invoke: kid.gone or rest never entered")
	}
	byes := 0
	for _, n := range cancel.Nodes {
		if n.In != nil && n.In.Event == "stop" {
			for _, o := range n.In.Outputs {
				if o.Event == "innerbye" || o.Event == "outerbye" {
					byes++
				}
			}
		}
	}
	if byes == 0 {
		t.Error("cancel_invoke: stop cancels the child without its exit actions' outputs")
	}
	// Read on its own, a machine's delayed send to its parent is an
	// output, whose delay it does not observe.
	alone, err := load.Bytes(context.Background(), "child.scxml", []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">`+
		`<state id="a"><onentry><send target="#_parent" event="later" delay="1s"/></onentry></state></scxml>`), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out := explore(t, alone, engine.Options{}).Start.Outputs; len(out) != 1 || out[0].Event != "later" || out[0].Target != "#_parent" {
		t.Errorf("standalone delayed send to #_parent: outputs %+v, want later to #_parent", out)
	}
	// Before the parent started it, the child is not running: a go is
	// nobody's input.
	for _, n := range set.Nodes {
		if n.Depth == 1 && n.In.Event == "go" {
			t.Errorf("go is taken in %s before the child runs", n.Parent.State.Name)
		}
	}
}

// TestSessionsBound: the composed machine tells apart the events of three
// sessions of one invoke that end within a step. In many_sessions.scxml
// one input ends four (the reference interpreter reaches done, W3C-style):
// the step is cut by the sessions bound and done is reported not reached,
// qualified by that bound, where ending the sessions' events silently would
// have let a later session take an earlier one's.
func TestSessionsBound(t *testing.T) {
	set := explore(t, machine(t, "testdata/many_sessions.scxml"), engine.Options{MaxDepth: 3})
	hit := false
	for _, b := range set.Bounds {
		hit = hit || b.Bound == vocab.BoundSessions && b.Limit == 3 && b.Count > 0
	}
	if !hit {
		t.Fatalf("bounds hit %+v, want the sessions bound", set.Bounds)
	}
	if reached(set, "done") {
		t.Error("done reached past the sessions bound")
	}
}
