package bot

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/internal/hostile"
)

// A model whose flattening would run for hours within every bound:
// 9,000 states tried on 20,001 events each (hostile.Busy).
const (
	idleStates = 9000
	idleEvents = 20000
	idlePath   = "models/idle.scxml"
	idlePR     = 8
)

// openIdlePR commits the long-flattening model on a branch from master
// (the pull request's head) and opens pull request 8 from master to it,
// beside pull request 7 of the fixtures (master to c2), which is analysed
// as usual. It returns the head.
func (e *env) openIdlePR() string {
	e.t.Helper()
	head := e.commitFiles(c1, "idle", map[string]string{idlePath: string(hostile.Busy(idleStates, idleEvents))})
	e.sendPR("pull_request.opened", idlePR, "d-idle", head)
	e.send("pull_request.opened", "d-beside")
	e.waitModel()
	return head
}

// waitModel waits until the job of pull request 8 is analysing the
// model (the pipeline's progress names it in the logs): reading it, then
// flattening it.
func (e *env) waitModel() {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(e.logs.String(), `"model":"`+idlePath+`"`) {
		if time.Now().After(deadline) {
			e.t.Fatalf("the analysis of %s did not start\n%s", idlePath, e.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// logged returns when the bot logged msg for the delivery, waiting for
// the line a while: the queue records a job's end before the worker logs
// it, so idle can return before the line is written.
func (e *env) logged(msg, delivery string) time.Time {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, line := range strings.Split(e.logs.String(), "\n") {
			var l struct {
				Time     time.Time
				Msg      string
				Delivery string
			}
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == msg && l.Delivery == delivery {
				return l.Time
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no %q for delivery %s in the logs", msg, delivery)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// besideCompletes checks that pull request 7, analysed beside the long
// flattening, got its result.
func (e *env) besideCompletes() {
	e.t.Helper()
	runs := e.gh.runsFor(c2)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "success" {
		e.t.Errorf("pull request 7's check runs: %+v; want one, completed, success", runs)
	}
	if comments := e.gh.commentsOf(7); len(comments) != 1 || !strings.Contains(comments[0].Body, "no regressions") {
		e.t.Errorf("pull request 7's comments: %+v; want its report", comments)
	}
}

// TestFlatteningEndsOnJobTimeout: a pull request whose model takes
// minutes to flatten is ended by job_timeout, with a timed-out check run
// that says so, and a pull request analysed beside it gets its result.
func TestFlatteningEndsOnJobTimeout(t *testing.T) {
	e := newEnv(t)
	e.cfg.JobTimeout = 3 * time.Second
	e.start()
	head := e.openIdlePR()
	e.idle()
	runs := e.gh.runsFor(head)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "timed_out" ||
		!strings.Contains(runs[0].Title, "longer than the job timeout") || !strings.Contains(runs[0].Summary, "job_timeout") {
		t.Errorf("check runs of the long flattening: %+v; want one, timed out, saying so", runs)
	}
	if n := len(e.jobs(queue.Failed)); n != 1 {
		t.Errorf("%d jobs failed, want the timed-out one", n)
	}
	e.besideCompletes()
	timeout := e.logged("job started", "d-idle").Add(e.cfg.JobTimeout)
	t.Logf("job_timeout %v: the job ended %v after it", e.cfg.JobTimeout, e.logged("job failed", "d-idle").Sub(timeout))
}

// TestFlatteningEndsOnNewerHead: a newer head of the pull request stops
// the long flattening of the older one, whose check run is cancelled as
// superseded; the newer head, whose model is small, is analysed, and so
// is the pull request beside them.
func TestFlatteningEndsOnNewerHead(t *testing.T) {
	e := newEnv(t)
	e.start()
	older := e.openIdlePR()
	newer := e.commitFiles(older, "idle", map[string]string{idlePath: `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s0"><state id="s0"/></scxml>`})
	e.sendPR("pull_request.synchronize", idlePR, "d-idle-2", newer)
	e.idle()
	runs := e.gh.runsFor(older)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "cancelled" || runs[0].Title != "Superseded" {
		t.Errorf("check runs of the older head: %+v; want one, cancelled as superseded", runs)
	}
	if runs := e.gh.runsFor(newer); len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion == "cancelled" || runs[0].Conclusion == "timed_out" {
		t.Errorf("check runs of the newer head: %+v; want its result", runs)
	}
	if n := len(e.jobs(queue.Cancelled)); n != 1 {
		t.Errorf("%d jobs cancelled, want the older head's", n)
	}
	if comments := e.gh.commentsOf(idlePR); len(comments) != 1 {
		t.Errorf("pull request %d's comments: %+v; want the newer head's report", idlePR, comments)
	}
	e.besideCompletes()
	// The newer job's queueing cancels the older one.
	t.Logf("newer head: the older head's job ended %v after it was superseded", e.logged("job ended", "d-idle").Sub(e.logged("job queued", "d-idle-2")))
}
