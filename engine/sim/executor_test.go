package sim_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/sim"
)

// TestExecutorHooks runs code on the executor alone, as the reference
// interpreter does: In() asks the hook, raises and sends reach Emit in
// the order they run with their routes, and variables change in place.
func TestExecutorHooks(t *testing.T) {
	tests := []struct {
		name   string
		code   string
		active string // In() answers true for this state only
		event  *sim.Event
		vars   string // x after the code
		emits  string
		path   string
		err    string
	}{
		{name: "routes in order", code: `send a(v: 1) to "#_parent"; raise b(); send c() after "1s"; send d(w: x)`,
			vars: "x=0", emits: "output a(v=1) #_parent; internal b(); timer c(); self d(w=0)"},
		{name: "send ids and cancels", code: `send a() after "1s" id "t"; cancel "t"; send b() to "o"`,
			vars: "x=0", emits: "timer a() #t; cancel t; output b() o"},
		{name: "In asks the hook", code: `if (In('S1')) { x = 1 } else { x = 2 }`, active: "S1", vars: "x=1", path: "t"},
		{name: "In of an inactive state", code: `x = In('S2') ? 3 : 4`, active: "S1", vars: "x=4", path: "f"},
		{name: "a comparison's operand branches once", code: `x = (In('S1') ? 1 : 2) > 1 ? 7 : 8`, active: "S1", vars: "x=8", path: "tf"},
		{name: "a negation's operand branches once", code: `x = -(In('S1') ? 1 : 2)`, active: "S1", vars: "x=-1", path: "t"},
		{name: "bitwise not", code: `x = ~(1 << 31)`, active: "S1", vars: "x=2147483647"},
		{name: "In error", code: `x = In('nowhere') ? 3 : 4`, active: "S1", err: "no state nowhere"},
		{name: "event data", code: `x = _event.data.p * 2`, event: &sim.Event{Name: "e", Args: map[string]sim.Value{"p": sim.IntValue(21)}},
			vars: "x=42"},
		{name: "no event", code: `x = _event.data.p`, err: "_event.data.p read where no event is being processed"},
		{name: "assume cuts", code: `x = 5; assume(x > 9)`, err: sim.ErrAssumeFailed.Error(), path: "f"},
		{name: "loop limit", code: `while (true) { x++ }`, err: "ran more than 3 iterations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var emits []string
			x := &sim.Executor{
				Vars:  map[string]sim.Value{"x": sim.IntValue(0)},
				Event: tt.event,
				In: func(state string) (bool, error) {
					if state == "nowhere" {
						return false, errors.New("no state nowhere")
					}
					return state == tt.active, nil
				},
				Emit: func(r sim.Route, ev sim.Event, target, sendID string, _ int64) {
					route := map[sim.Route]string{sim.ToInternal: "internal", sim.ToSelf: "self", sim.ToTimer: "timer", sim.ToOutput: "output"}[r]
					if sendID != "" {
						target += "#" + sendID
					}
					emits = append(emits, strings.TrimSpace(fmt.Sprintf("%s %s %s", route, ev, target)))
				},
				Cancel:    func(sendID string, _ bool) { emits = append(emits, "cancel "+sendID) },
				LoopLimit: 3,
			}
			err := x.Run(parseStmts(t, tt.code))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := "x=" + x.Vars["x"].String(); tt.vars != "" && got != tt.vars {
				t.Errorf("%s, want %s", got, tt.vars)
			}
			if got := strings.Join(emits, "; "); got != tt.emits {
				t.Errorf("emitted %q, want %q", got, tt.emits)
			}
			if tt.path != "" && x.Path() != tt.path {
				t.Errorf("path %q, want %q", x.Path(), tt.path)
			}
		})
	}
}
