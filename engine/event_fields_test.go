package engine_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
)

// TestEventFieldsTravelWithEvents explores the event_fields feature model:
// go raises ping, sends it to the machine with id s1, sets a ping timer
// with id t1 and raises error.execution for the send to "nowhere". The
// flattener cannot fold _event.sendid of ping, so each ping is told apart
// by how it was queued: the raised one counts as plain, the sent one as
// sent, and the timer's, when it fires, as sent too; an input ping has no
// sendid and counts as plain.
func TestEventFieldsTravelWithEvents(t *testing.T) {
	set := explore(t, machine(t, "../model/mlm/testdata/features/event_fields.scxml"), engine.Options{MaxDepth: 2})
	idx := map[string]int{}
	for i, v := range set.Machine.Vars {
		idx[v.Name] = i
	}
	got := map[string]string{}
	for _, n := range set.Nodes {
		var path []string
		for _, x := range n.Path()[1:] {
			e := x.In.Event
			if x.In.Timer {
				e += "(timer)"
			}
			path = append(path, e)
		}
		var vals []string
		for _, name := range []string{"plain", "sent", "errors", "bound", "done"} {
			vals = append(vals, name+"="+set.Terms.String(n.Vals[idx[name]]))
		}
		got[strings.Join(path, " ")] = strings.Join(vals, " ")
	}
	for path, want := range map[string]string{
		"":               "plain=0 sent=0 errors=0 bound=false done=false",
		"go":             "plain=1 sent=1 errors=1 bound=false done=false",
		"go ping":        "plain=2 sent=1 errors=1 bound=false done=false",
		"go ping(timer)": "plain=1 sent=2 errors=1 bound=false done=false",
		"go finish":      "plain=1 sent=1 errors=1 bound=true done=true",
	} {
		if got[path] != want {
			t.Errorf("after [%s]: %s, want %s", path, got[path], want)
		}
	}
}
