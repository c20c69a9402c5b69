package engine_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/engine"
)

// TestCancelRemovesPending explores the cancel feature model: Waiting sets
// a timeout with send id "to" and a tick without one; done cancels the
// timeout. So exactly one timeout is pending in Waiting and none anywhere
// else (done cancels it, timeout consumes it, and TimedOut's cancel finds
// nothing), ticks stay pending, and TimedOut is reached only on paths
// where no done came after the last start.
func TestCancelRemovesPending(t *testing.T) {
	set := explore(t, machine(t, "../model/mlm/testdata/features/cancel.scxml"), engine.Options{MaxDepth: 5})
	var sawDone, sawTimedOut bool
	for _, n := range set.Nodes {
		timeouts, ticks := 0, 0
		for _, tm := range n.Timers {
			switch {
			case tm.Event == "timeout" && tm.ID == "to":
				timeouts++
			case tm.Event == "tick" && tm.ID == "":
				ticks++
			default:
				t.Errorf("node %d: unexpected timer %s#%s", n.ID, tm.Event, tm.ID)
			}
		}
		want := 0
		if n.State.Name == "Waiting" {
			want = 1
		}
		var events []string
		for _, x := range n.Path()[1:] {
			events = append(events, x.In.Event)
		}
		if timeouts != want {
			t.Errorf("node %d in %s after %q: %d timeouts pending, want %d", n.ID, n.State.Name, events, timeouts, want)
		}
		if ticks != strings.Count(strings.Join(events, " "), "start")-strings.Count(strings.Join(events, " "), "tick") {
			t.Errorf("node %d after %q: %d ticks pending", n.ID, events, ticks)
		}
		if n.In != nil && n.In.Event == "done" {
			sawDone = true
		}
		if n.State.Name == "TimedOut" {
			sawTimedOut = true
			last := strings.LastIndex(strings.Join(events, " "), "start")
			if strings.Contains(strings.Join(events, " ")[last:], "done") {
				t.Errorf("node %d: TimedOut after %q", n.ID, events)
			}
		}
	}
	if !sawDone || !sawTimedOut {
		t.Errorf("done taken: %v, TimedOut reached: %v; want both\n%s", sawDone, sawTimedOut, set.Dump())
	}
	if d := set.Dump(); !strings.Contains(d, " timer:timeout#to") {
		t.Errorf("the dump does not show the timer's id:\n%s", d)
	}
	// The encoding keeps the ids: the decoded tree dumps the same.
	roundTrip(t, set)
}

// TestCancelInterruptsAHardQuery: an exploration stuck in a solver query
// that would not end (engine/testdata/fermat.scxml) stops when it is
// canceled, with ErrCanceled: the query is interrupted, not waited for.
// The test asserts that it stops at all (within a minute, where the query
// alone would run for ever) and logs how long stopping took.
func TestCancelInterruptsAHardQuery(t *testing.T) {
	cancelHardQuery(t, "testdata/fermat.scxml", engine.Options{MaxDepth: 1})
}

// cancelHardQuery explores the model at path, whose queries do not end,
// and checks that a cancel stops it with ErrCanceled.
func cancelHardQuery(t *testing.T, path string, opts engine.Options) {
	m := machine(t, path)
	cancel := make(chan struct{})
	opts.Cancel = cancel
	done := make(chan error, 1)
	go func() {
		_, err := engine.Explore(m, opts, newZ3)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond) // into the query
	canceled := time.Now()
	close(cancel)
	select {
	case err := <-done:
		if !errors.Is(err, engine.ErrCanceled) {
			t.Errorf("err = %v, want ErrCanceled", err)
		}
		t.Logf("stopped %s after the cancel", time.Since(canceled).Round(time.Millisecond))
	case <-time.After(time.Minute):
		t.Fatal("the exploration did not stop within a minute of its cancel")
	}
}
