package bot

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// waitNoneInProgress waits (a bounded while) for the sweep to leave no
// check run in progress, and returns what is left.
func (e *env) waitNoneInProgress() []fakeCheckRun {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := e.gh.inProgress()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLostCreateAnswerIsSwept: GitHub creates a check run but its answer is
// lost (a 502 on the way back), so the client creates another: the first
// is known to no job, and the sweep closes it once the commit's analysis
// has ended.
func TestLostCreateAnswerIsSwept(t *testing.T) {
	e := newEnv(t)
	e.gh.lostCreates = 1
	e.sweep = 20 * time.Millisecond
	e.start()
	e.send("pull_request.opened", "d-lost")
	e.idle()
	if left := e.waitNoneInProgress(); len(left) > 0 {
		t.Fatalf("check runs left in progress: %+v", left)
	}
	runs := e.gh.runsFor(c2)
	if len(runs) != 2 || runs[0].Conclusion != "neutral" || runs[0].Title != "Superseded" || runs[1].Conclusion != "success" {
		t.Errorf("check runs on the head: %+v; want the orphan neutral and superseded, the job's own a success", runs)
	}
}

// TestLostDatabase: the database is lost while a job's check run is in
// progress, beside another run an earlier answer lost. At the next start
// setbot finds them on the open pull request, queues its analysis again,
// which completes the newest of them, and the sweep closes the other.
func TestLostDatabase(t *testing.T) {
	e := newEnv(t)
	interrupt(t, e)
	orphan := e.gh.addCheckRun(c2)
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(e.dbPath + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	e.gh.installations[77] = []string{"octo/triangle"}
	e.gh.cloneURLs["octo/triangle"] = cloneURL
	e.sweep = 20 * time.Millisecond
	creates := len(e.gh.callsMatching("POST /repos/octo/triangle/check-runs"))
	e.start()
	if left := e.waitNoneInProgress(); len(left) > 0 {
		t.Fatalf("check runs left in progress after the restart: %+v", left)
	}
	e.idle()
	runs := e.gh.runsFor(c2)
	if len(runs) != 2 || runs[0].Conclusion != "neutral" || runs[1].ID != orphan || runs[1].Conclusion != "success" {
		t.Errorf("check runs on the head: %+v; want the newest (%d) taken over and completed, the older one closed", runs, orphan)
	}
	if n := len(e.gh.callsMatching("POST /repos/octo/triangle/check-runs")); n != creates {
		t.Errorf("%d check runs created after the restart, want none", n-creates)
	}
	if cs := e.gh.commentsOf(7); len(cs) != 1 {
		t.Errorf("%d comments, want the analysis's one", len(cs))
	}
	if !strings.Contains(e.logs.String(), "left in progress by a lost database") {
		t.Error("no log line says why the pull request was queued again")
	}
}

// TestSweepGivesUpOnRefusal: a commit whose check runs GitHub refuses to
// list for good is not asked about again (nor holds up the others).
func TestSweepGivesUpOnRefusal(t *testing.T) {
	e := newEnv(t)
	e.gh.forbid["GET /repos/octo/triangle/commits/"] = true
	e.sweep = 20 * time.Millisecond
	e.start()
	e.send("pull_request.opened", "d-refused")
	e.idle()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(e.logs.String(), "given up"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the sweep did not give up on the refused commit")
		}
	}
	// The sweep logs that it gives up before it records the head as swept.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		heads, err := e.bot.queue.EndedHeads(context.Background(), 10)
		if err == nil && len(heads) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("heads still to sweep: %+v, %v", heads, err)
		}
	}
}

// TestAbandonedCheckGivesUpOnRefusal: a check run GitHub refuses for good
// to close (403) is given up by the sweep, not asked again at every sweep.
func TestAbandonedCheckGivesUpOnRefusal(t *testing.T) {
	e := newEnv(t)
	e.gh.forbid["PATCH /repos/octo/triangle/check-runs/"] = true
	e.sweep = 20 * time.Millisecond
	e.start()
	e.send("pull_request.opened", "d-unclosable")
	e.idle()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(e.logs.String(), "closing an abandoned check; given up"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the sweep did not give up on the check it cannot close:\n%s", e.logs.String())
		}
	}
	if open, err := e.bot.queue.OpenChecks(context.Background()); err != nil || len(open) != 0 {
		t.Errorf("checks still to close: %d, %v", len(open), err)
	}
}
