package engine_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
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
	// Before the parent started it, the child is not running: a go is
	// nobody's input.
	for _, n := range set.Nodes {
		if n.Depth == 1 && n.In.Event == "go" {
			t.Errorf("go is taken in %s before the child runs", n.Parent.State.Name)
		}
	}
}
