package queue

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestKey(t *testing.T) {
	tests := []struct {
		job  Job
		want string
	}{
		{prJob("octo/models", 12, "h"), "octo/models#12"},
		{branchJob(KindPush, "octo/models", "main", "h"), "octo/models@main"},
		{branchJob(KindFull, "octo/models", "release/1.x", ""), "octo/models@release/1.x"},
		{branchJob(KindMergeGroup, "octo/models", "gh-readonly-queue/main/pr-12-abc", "h"), "octo/models@gh-readonly-queue/main/pr-12-abc"},
		{commandJob("octo/models", 12, 4711), "octo/models#12/comment/4711"},
	}
	for _, tt := range tests {
		if got := tt.job.Key(); got != tt.want {
			t.Errorf("Key() of %s job = %q, want %q", tt.job.Kind, got, tt.want)
		}
	}
}

func TestLifecycle(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	c := withClock(q, time.Unix(1_700_000_000, 0))
	in := prJob("octo/models", 12, "h1")
	in.Delivery, in.Fresh, in.Requester = "d1", true, "alice"
	id := mustEnqueue(t, q, in)
	if !woken(q) {
		t.Error("Enqueue did not notify")
	}

	got := wantState(t, q, id, Queued)
	want := in
	want.ID, want.State, want.Created, want.Updated = id, Queued, c.t.UTC(), c.t.UTC()
	if *got != want {
		t.Errorf("get(%d) =\n%+v\nwant\n%+v", id, *got, want)
	}

	c.advance(time.Second)
	j := mustClaim(t, q)
	if j == nil || j.ID != id || j.State != Running || j.Attempts != 1 || !j.Updated.Equal(c.t) {
		t.Fatalf("Claim = %+v, want job %d running, attempt 1, updated now", j, id)
	}
	if !woken(q) {
		t.Error("a successful Claim did not pass the wake-up on")
	}
	if j := mustClaim(t, q); j != nil {
		t.Fatalf("Claim on an empty queue = job %d", j.ID)
	}
	if woken(q) {
		t.Error("an empty Claim notified")
	}

	if err := q.Finish(ctx, id, Failed, "model did not parse"); err != nil {
		t.Fatal(err)
	}
	if !woken(q) {
		t.Error("Finish did not notify")
	}
	if j := wantState(t, q, id, Failed); j.Error != "model did not parse" {
		t.Errorf("Error = %q", j.Error)
	}

	if err := q.Finish(ctx, id, Done, ""); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Finish of a finished job: %v, want ErrNotRunning", err)
	}
	if err := q.Finish(ctx, 999, Done, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Finish of an unknown job: %v, want ErrNotFound", err)
	}
	for _, state := range []string{"", Queued, Running, "finished"} {
		if err := q.Finish(ctx, id, state, ""); err == nil || !strings.Contains(err.Error(), "not a final state") {
			t.Errorf("Finish(%q): %v, want an error", state, err)
		}
	}
	wantState(t, q, id, Failed)
}

func TestInvalidJobs(t *testing.T) {
	s, q := openQueue(t, tempPath(t))
	tests := []struct {
		name string
		edit func(j *Job)
		want string
	}{
		{"no repo", func(j *Job) { j.Repo = "" }, "not owner/name"},
		{"repo without owner", func(j *Job) { j.Repo = "/models" }, "not owner/name"},
		{"repo with two slashes", func(j *Job) { j.Repo = "a/b/c" }, "not owner/name"},
		{"repo with a key separator", func(j *Job) { j.Repo = "a/b#1" }, "not owner/name"},
		{"no kind", func(j *Job) { j.Kind = "" }, "without a kind"},
		{"unknown kind", func(j *Job) { j.Kind = "merge" }, `unknown job kind "merge"`},
		{"pull request without number", func(j *Job) { j.PR = 0 }, "without a pull request number"},
		{"negative pull request", func(j *Job) { j.PR = -3 }, "without a pull request number"},
		{"pull request without head", func(j *Job) { j.HeadSHA = "" }, "without a head commit"},
		{"push with a pull request", func(j *Job) { j.Kind = KindPush }, "with a pull request number"},
		{"push without branch", func(j *Job) { j.Kind, j.PR, j.Branch = KindPush, 0, "" }, "without a branch"},
		{"push without head", func(j *Job) { j.Kind, j.PR, j.HeadSHA = KindPush, 0, "" }, "without a head commit"},
		{"full without branch", func(j *Job) { j.Kind, j.PR, j.Branch = KindFull, 0, "" }, "without a branch"},
		{"merge group without head", func(j *Job) { j.Kind, j.PR, j.HeadSHA = KindMergeGroup, 0, "" }, "without a head commit"},
		{"command without pull request", func(j *Job) { *j = commandJob("octo/models", 0, 1) }, "without a pull request number"},
		{"command without command", func(j *Job) { *j = commandJob("octo/models", 1, 1); j.Command = "" }, "without its command"},
		{"command without comment", func(j *Job) { *j = commandJob("octo/models", 1, 0) }, "without its command"},
		{"command without author", func(j *Job) { *j = commandJob("octo/models", 1, 1); j.Requester = "" }, "without its command"},
		{"negative installation", func(j *Job) { j.Installation = -1 }, "negative installation"},
		{"running", func(j *Job) { j.State = Running }, "not \"running\""},
		{"unknown state", func(j *Job) { j.State = "paused" }, "not \"paused\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := prJob("octo/models", 1, "h")
			j.Delivery = "d-" + tt.name
			tt.edit(&j)
			id, dup, err := q.enqueue(ctx, j)
			if !errors.Is(err, ErrInvalidJob) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Enqueue = %d, %v, %v; want ErrInvalidJob saying %q", id, dup, err, tt.want)
			}
		})
	}
	if n := count(t, s, "SELECT count(*) FROM jobs") + count(t, s, "SELECT count(*) FROM deliveries"); n != 0 {
		t.Errorf("%d rows written by refused jobs", n)
	}

	// A full job may leave the head to be resolved when it runs.
	mustEnqueue(t, q, branchJob(KindFull, "octo/models", "main", ""))

	if _, err := q.Superseded(ctx, nil); err == nil {
		t.Error("Superseded(nil): no error")
	}
	if _, err := q.Published(ctx, nil); err == nil {
		t.Error("Published(nil): no error")
	}
	if _, err := q.Published(ctx, &Job{Kind: KindPush, Repo: "octo/models", Branch: "main"}); err == nil {
		t.Error("Published of a job never stored: no error")
	}
	if _, err := q.Prune(ctx, 0); err == nil {
		t.Error("Prune(0): no error")
	}
	if _, _, err := q.EnqueueAll(ctx, nil); err == nil {
		t.Error("EnqueueAll(nil): no error")
	}
}

func TestDeduplication(t *testing.T) {
	path := tempPath(t)
	s, q := openQueue(t, path)
	j := prJob("octo/models", 1, "h1")
	j.Delivery = "72d3162e-cc78-11e3-81ab-4c9367dc0958"
	first := mustEnqueue(t, q, j)
	woken(q)

	// The redelivery even carries a newer head: it must not supersede.
	again := j
	again.HeadSHA = "h2"
	if id, dup, err := q.enqueue(ctx, again); err != nil || !dup || id != 0 {
		t.Fatalf("second Enqueue of a delivery = %d, %v, %v; want a duplicate", id, dup, err)
	}
	if woken(q) {
		t.Error("a duplicate notified")
	}
	if n := count(t, s, "SELECT count(*) FROM jobs"); n != 1 {
		t.Errorf("%d jobs after a duplicate, want 1", n)
	}
	wantState(t, q, first, Queued)

	// Jobs without a delivery are never deduplicated.
	sched := branchJob(KindFull, "octo/models", "main", "")
	a, b := mustEnqueue(t, q, sched), mustEnqueue(t, q, sched)
	if a == b {
		t.Errorf("two schedule jobs got the same id %d", a)
	}

	// Nor is a delivery forgotten by reopening the store.
	s.Close()
	s, q = openQueue(t, path)
	if id, dup, err := q.enqueue(ctx, again); err != nil || !dup {
		t.Fatalf("Enqueue of a delivery after reopening = %d, %v, %v; want a duplicate", id, dup, err)
	}
	if n := count(t, s, "SELECT count(*) FROM jobs"); n != 3 {
		t.Errorf("%d jobs after reopening and a duplicate, want 3", n)
	}
}

func TestEnqueueAll(t *testing.T) {
	s, q := openQueue(t, tempPath(t))
	jobs := []Job{prJob("octo/models", 1, "h"), prJob("octo/models", 2, "h"), prJob("octo/models", 1, "h")}
	for i := range jobs {
		jobs[i].Delivery = "suite"
	}
	ids, dup, err := q.EnqueueAll(ctx, jobs)
	if err != nil || dup || len(ids) != 3 {
		t.Fatalf("EnqueueAll = %v, %v, %v", ids, dup, err)
	}
	wantState(t, q, ids[0], Cancelled) // superseded by the third, same pull request
	wantState(t, q, ids[1], Queued)
	wantState(t, q, ids[2], Queued)
	if ids, dup, err := q.EnqueueAll(ctx, jobs[:1]); err != nil || !dup || ids != nil {
		t.Errorf("EnqueueAll of a seen delivery = %v, %v, %v; want a duplicate", ids, dup, err)
	}

	// All or nothing: one bad job, or a second delivery, refuses the lot.
	bad := []Job{prJob("octo/models", 3, "h"), prJob("octo/models", 0, "h")}
	mixed := []Job{prJob("octo/models", 3, "h"), prJob("octo/models", 4, "h")}
	mixed[1].Delivery = "other"
	for _, list := range [][]Job{bad, mixed} {
		if _, _, err := q.EnqueueAll(ctx, list); !errors.Is(err, ErrInvalidJob) {
			t.Errorf("EnqueueAll: %v, want ErrInvalidJob", err)
		}
	}
	if n := count(t, s, "SELECT count(*) FROM jobs"); n != 3 {
		t.Errorf("%d jobs, want 3", n)
	}
}

func TestSupersession(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	old := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	newer := mustEnqueue(t, q, prJob("octo/models", 1, "h2"))
	if j := wantState(t, q, old, Cancelled); !strings.Contains(j.Error, "superseded by job") {
		t.Errorf("cancelled job's error = %q", j.Error)
	}
	wantState(t, q, newer, Queued)

	// The newer job runs; a third commit arrives, and another pull request.
	running := mustClaim(t, q)
	if running == nil || running.ID != newer {
		t.Fatalf("Claim = %+v, want job %d", running, newer)
	}
	third := mustEnqueue(t, q, prJob("octo/models", 1, "h3"))
	other := mustEnqueue(t, q, prJob("octo/models", 2, "h1"))
	wantState(t, q, newer, Running) // Enqueue leaves a running job to its worker

	// The third is blocked by the running job of its key; the other is not.
	if id := claimID(t, q); id != other {
		t.Errorf("Claim = job %d, want %d (the other pull request)", id, other)
	}
	if id := claimID(t, q); id != 0 {
		t.Errorf("Claim = job %d while its pull request has a running job", id)
	}

	for _, tt := range []struct {
		id   int64
		want bool
	}{{old, true}, {newer, true}, {third, false}, {other, false}} {
		j := mustGet(t, q, tt.id)
		if got, err := q.Superseded(ctx, j); err != nil || got != tt.want {
			t.Errorf("Superseded(job %d) = %v, %v; want %v", tt.id, got, err, tt.want)
		}
	}

	if err := q.Finish(ctx, newer, Cancelled, "superseded"); err != nil {
		t.Fatal(err)
	}
	if id := claimID(t, q); id != third {
		t.Errorf("Claim after the running job ended = job %d, want %d", id, third)
	}
}

// TestCommandJobs: a `/setbot` comment's job is answered whatever the pull
// request's analysis is doing, and does not disturb it.
func TestCommandJobs(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	analysis := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	queued := mustEnqueue(t, q, prJob("octo/models", 2, "h1"))
	if id := claimID(t, q); id != analysis {
		t.Fatalf("Claim = job %d, want %d", id, analysis)
	}
	first := mustEnqueue(t, q, commandJob("octo/models", 1, 100))
	second := mustEnqueue(t, q, commandJob("octo/models", 1, 101))
	third := mustEnqueue(t, q, commandJob("octo/models", 2, 102))
	for _, want := range []int64{queued, first, second, third} {
		if id := claimID(t, q); id != want {
			t.Errorf("Claim = job %d, want %d", id, want)
		}
	}
	if j := mustGet(t, q, first); j.Command != "full" || j.CommentID != 100 || j.Requester != "alice" {
		t.Errorf("command job read back as %+v", j)
	}
	if sup, err := q.Superseded(ctx, mustGet(t, q, analysis)); err != nil || sup {
		t.Errorf("Superseded(analysis) = %v, %v after command jobs; want false", sup, err)
	}
}

// TestInheritance: a job that supersedes queued ones keeps what they asked for.
func TestInheritance(t *testing.T) {
	tests := []struct {
		name      string
		old, new  Job
		wantKind  string
		wantFresh bool
	}{
		{
			name: "`/setbot full` then a new commit",
			old:  func() Job { j := prJob("o/r", 1, "h1"); j.Fresh = true; return j }(),
			new:  prJob("o/r", 1, "h2"), wantKind: KindPullRequest, wantFresh: true,
		},
		{
			name: "scheduled full then a push",
			old:  func() Job { j := branchJob(KindFull, "o/r", "main", ""); j.Fresh = true; return j }(),
			new:  branchJob(KindPush, "o/r", "main", "h2"), wantKind: KindFull, wantFresh: true,
		},
		{
			name: "push then push",
			old:  branchJob(KindPush, "o/r", "main", "h1"),
			new:  branchJob(KindPush, "o/r", "main", "h2"), wantKind: KindPush,
		},
		{
			name:     "push then full",
			old:      branchJob(KindPush, "o/r", "main", "h1"),
			new:      func() Job { j := branchJob(KindFull, "o/r", "main", "h2"); j.Fresh = true; return j }(),
			wantKind: KindFull, wantFresh: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, q := openQueue(t, tempPath(t))
			old := mustEnqueue(t, q, tt.old)
			j := mustGet(t, q, mustEnqueue(t, q, tt.new))
			wantState(t, q, old, Cancelled)
			if j.Kind != tt.wantKind || j.Fresh != tt.wantFresh || j.HeadSHA != tt.new.HeadSHA {
				t.Errorf("new job: kind %s, fresh %v, head %s; want %s, %v, %s",
					j.Kind, j.Fresh, j.HeadSHA, tt.wantKind, tt.wantFresh, tt.new.HeadSHA)
			}
		})
	}
}

func TestPublished(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	older := mustGet(t, q, mustEnqueue(t, q, prJob("octo/models", 1, "h1")))
	newer := mustGet(t, q, mustEnqueue(t, q, prJob("octo/models", 1, "h2")))
	push := mustGet(t, q, mustEnqueue(t, q, branchJob(KindPush, "octo/models", "main", "h9")))

	steps := []struct {
		job  *Job
		want bool
	}{
		{older, true},  // nothing published yet
		{older, true},  // again, e.g. a retried post
		{newer, true},  // a newer job may publish over an older one
		{older, false}, // never the other way round
		{newer, true},
		{push, true}, // another key
	}
	for i, st := range steps {
		ok, err := q.Published(ctx, st.job)
		if err != nil || ok != st.want {
			t.Errorf("step %d: Published(job %d) = %v, %v; want %v", i, st.job.ID, ok, err, st.want)
		}
	}
}

func TestRecover(t *testing.T) {
	path := tempPath(t)
	s, q := openQueue(t, path)
	id := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	if n, err := q.Recover(ctx); err != nil || n != 0 {
		t.Errorf("Recover with nothing running = %d, %v", n, err)
	}
	wantState(t, q, id, Queued)

	// Each round: a worker claims the job and its process dies (the store is
	// closed without Finish); the next start recovers it. The first time it
	// is queued again as a suspect; the second, when it ran alone, it is
	// failed as the job that crashed the server.
	for crash := 1; crash <= MaxCrashes; crash++ {
		if got := claimID(t, q); got != id {
			t.Fatalf("attempt %d: Claim = job %d, want %d", crash, got, id)
		}
		s.Close()
		s, q = openQueue(t, path)
		wantState(t, q, id, Running)
		n, err := q.Recover(ctx)
		if err != nil {
			t.Fatal(err)
		}
		j := mustGet(t, q, id)
		if j.Attempts != crash || j.Crashes != crash {
			t.Errorf("attempts = %d, crashes = %d, want %d", j.Attempts, j.Crashes, crash)
		}
		if crash < MaxCrashes {
			if n != 1 || j.State != Queued || j.Error != suspectError || !woken(q) {
				t.Errorf("crash %d: Recover = %d, job %s (%q); want 1 requeued to run alone, with a notification", crash, n, j.State, j.Error)
			}
			continue
		}
		if n != 0 || j.State != Failed || !strings.HasPrefix(j.Error, "the analysis crashed the server twice; not retried: ") {
			t.Errorf("after %d crashes: Recover = %d, job %s (%q); want it failed", crash, n, j.State, j.Error)
		}
	}
	if d, err := q.Depth(ctx); err != nil || d != 0 {
		t.Errorf("Depth = %d, %v; want 0", d, err)
	}
}

// TestCrashIsolation: the jobs a dead process left running each run again
// alone, first; the one that kills the process again alone is failed, the
// others end as they would have, and no other job ran beside a suspect.
func TestCrashIsolation(t *testing.T) {
	path := tempPath(t)
	s, q := openQueue(t, path)
	culprit := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	innocent := mustEnqueue(t, q, prJob("octo/models", 2, "h2"))
	waiting := mustEnqueue(t, q, prJob("octo/models", 3, "h3"))
	for _, want := range []int64{culprit, innocent} {
		if got := claimID(t, q); got != want {
			t.Fatalf("Claim = %d, want %d", got, want)
		}
	}
	s.Close() // the process dies running both
	s, q = openQueue(t, path)
	if n, err := q.Recover(ctx); err != nil || n != 2 {
		t.Fatalf("Recover = %d, %v; want both running jobs queued again", n, err)
	}
	for _, id := range []int64{culprit, innocent} {
		if j := wantState(t, q, id, Queued); j.Crashes != 1 || j.Error != suspectError {
			t.Errorf("job %d: crashes %d, error %q; want a suspect", id, j.Crashes, j.Error)
		}
	}
	if j := mustGet(t, q, waiting); j.Crashes != 0 {
		t.Errorf("the job that was not running has crashes %d", j.Crashes)
	}

	// The oldest suspect runs first, alone: not the other suspect, not the
	// older-than-nothing queued job.
	if got := claimID(t, q); got != culprit {
		t.Fatalf("first claim after the crash = %d, want the oldest suspect %d", got, culprit)
	}
	if got := claimID(t, q); got != 0 {
		t.Fatalf("a claim beside a suspect took job %d", got)
	}
	s.Close() // it kills the process again, alone
	_, q = openQueue(t, path)
	if n, err := q.Recover(ctx); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v; want the culprit failed, nothing requeued", n, err)
	}
	if j := wantState(t, q, culprit, Failed); j.Crashes != MaxCrashes || j.Error != crashedError {
		t.Errorf("culprit: crashes %d, error %q", j.Crashes, j.Error)
	}

	// The other suspect runs alone, and ends well: it was innocent.
	if got := claimID(t, q); got != innocent {
		t.Fatalf("claim = %d, want the other suspect %d", got, innocent)
	}
	if got := claimID(t, q); got != 0 {
		t.Fatalf("a claim beside a suspect took job %d", got)
	}
	if err := q.Finish(ctx, innocent, Done, ""); err != nil {
		t.Fatal(err)
	}
	if j := mustGet(t, q, innocent); j.Attempts != 2 || j.Crashes != 1 {
		t.Errorf("innocent: attempts %d, crashes %d", j.Attempts, j.Crashes)
	}

	// With no suspect left, jobs run side by side again.
	more := mustEnqueue(t, q, prJob("octo/models", 4, "h4"))
	for _, want := range []int64{waiting, more} {
		if got := claimID(t, q); got != want {
			t.Errorf("Claim = %d, want %d", got, want)
		}
	}
}

// TestSuspectWaitsForTheRunningJobs: a suspect that becomes claimable
// while other jobs run waits until they end, and no new job starts
// meanwhile, so that it runs alone soon.
func TestSuspectWaitsForTheRunningJobs(t *testing.T) {
	path := tempPath(t)
	s, q := openQueue(t, path)
	start := time.Unix(1_700_000_000, 0)
	suspect := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	claimID(t, q)
	s.Close()
	_, q = openQueue(t, path)
	c := withClock(q, start)
	if _, err := q.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if got := claimID(t, q); got != suspect {
		t.Fatalf("Claim = %d, want the suspect %d", got, suspect)
	}
	// GitHub turns it away for a while: the others run meanwhile.
	if err := q.Requeue(ctx, suspect, start.Add(time.Hour), "rate limited"); err != nil {
		t.Fatal(err)
	}
	running := mustEnqueue(t, q, prJob("octo/models", 2, "h2"))
	if got := claimID(t, q); got != running {
		t.Fatalf("Claim = %d, want %d beside the waiting suspect", got, running)
	}
	c.advance(time.Hour)
	held := mustEnqueue(t, q, prJob("octo/models", 3, "h3"))
	if got := claimID(t, q); got != 0 {
		t.Errorf("Claim = %d while a suspect waits for a running job, want none", got)
	}
	if err := q.Finish(ctx, running, Done, ""); err != nil {
		t.Fatal(err)
	}
	if got := claimID(t, q); got != suspect {
		t.Fatalf("Claim = %d, want the suspect %d", got, suspect)
	}
	if j := mustGet(t, q, suspect); j.Crashes != 1 {
		t.Errorf("the suspect's crashes = %d after a retry, want 1", j.Crashes)
	}
	if err := q.Finish(ctx, suspect, Done, ""); err != nil {
		t.Fatal(err)
	}
	if got := claimID(t, q); got != held {
		t.Errorf("Claim = %d, want %d", got, held)
	}
}

// TestRelease: a run a shutdown interrupted is queued again as it was: no
// retry, no crash, the check kept, a suspect still one.
func TestRelease(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	id := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	claimID(t, q)
	if err := q.SetCheck(ctx, id, 99, true); err != nil {
		t.Fatal(err)
	}
	woken(q)
	if err := q.Release(ctx, id, "the server shut down"); err != nil {
		t.Fatal(err)
	}
	j := wantState(t, q, id, Queued)
	if j.Attempts != 1 || j.Retries != 0 || j.Crashes != 0 || j.CheckRun != 99 || !j.CheckOpen || j.Error != "the server shut down" || !woken(q) {
		t.Errorf("released job = %+v", j)
	}
	if err := q.Release(ctx, id, "again"); !errors.Is(err, ErrNotRunning) {
		t.Errorf("releasing a queued job: %v", err)
	}
	if err := q.Release(ctx, 4242, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("releasing an unknown job: %v", err)
	}
	if got := claimID(t, q); got != id {
		t.Errorf("Claim = %d, want the released job at once", got)
	}
}

// TestRecoverSuperseded: a job interrupted while a newer one of its key
// waited is not run again.
func TestRecoverSuperseded(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	old := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	claimID(t, q)
	newer := mustEnqueue(t, q, prJob("octo/models", 1, "h2"))
	if n, err := q.Recover(ctx); err != nil || n != 0 {
		t.Errorf("Recover = %d, %v; want 0 requeued", n, err)
	}
	wantState(t, q, old, Cancelled)
	if id := claimID(t, q); id != newer {
		t.Errorf("Claim = job %d, want %d", id, newer)
	}
}

func TestConcurrentClaim(t *testing.T) {
	const jobs, workers = 200, 8
	s, q := openQueue(t, tempPath(t))
	for i := 1; i <= jobs; i++ {
		mustEnqueue(t, q, prJob("octo/models", i, "h"))
	}
	var (
		mu      sync.Mutex
		claimed = map[int64]int{}
		wg      sync.WaitGroup
		errs    = make(chan error, workers)
	)
	for range workers {
		wg.Go(func() {
			for {
				j, err := q.Claim(ctx)
				if err != nil {
					errs <- err
					return
				}
				if j == nil {
					return
				}
				mu.Lock()
				claimed[j.ID]++
				mu.Unlock()
				if err := q.Finish(ctx, j.ID, Done, ""); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(claimed) != jobs {
		t.Errorf("%d jobs claimed, want %d", len(claimed), jobs)
	}
	for id, n := range claimed {
		if n != 1 {
			t.Errorf("job %d claimed %d times", id, n)
		}
	}
	if done := count(t, s, "SELECT count(*) FROM jobs WHERE state = 'done'"); done != jobs {
		t.Errorf("%d jobs done, want %d", done, jobs)
	}
}

func TestDepthAndAge(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	c := withClock(q, time.Unix(1_700_000_000, 0))
	check := func(wantDepth int, wantAge time.Duration) {
		t.Helper()
		d, err := q.Depth(ctx)
		if err != nil || d != wantDepth {
			t.Errorf("Depth = %d, %v; want %d", d, err, wantDepth)
		}
		age, err := q.OldestQueued(ctx)
		if err != nil || age != wantAge {
			t.Errorf("OldestQueued = %v, %v; want %v", age, err, wantAge)
		}
	}
	check(0, 0)
	mustEnqueue(t, q, prJob("octo/models", 1, "h"))
	c.advance(time.Minute)
	mustEnqueue(t, q, prJob("octo/models", 2, "h"))
	c.advance(time.Minute)
	check(2, 2*time.Minute)
	claimID(t, q)
	check(1, time.Minute)
	mustEnqueue(t, q, prJob("octo/models", 2, "h2")) // supersedes, so the age restarts
	check(1, 0)
	c.t = c.t.Add(-time.Hour) // a clock set back gives no negative age
	check(1, 0)
}

func TestPrune(t *testing.T) {
	s, q := openQueue(t, tempPath(t))
	c := withClock(q, time.Unix(1_700_000_000, 0))
	enqueue := func(pr int, delivery string) int64 {
		j := prJob("octo/models", pr, "h")
		j.Delivery = delivery
		return mustEnqueue(t, q, j)
	}
	finish := func(id int64, state string) {
		t.Helper()
		if got := claimID(t, q); got != id {
			t.Fatalf("Claim = job %d, want %d", got, id)
		}
		if state != Running {
			if err := q.Finish(ctx, id, state, ""); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Old: one job of each end state, one running, one queued.
	done := enqueue(1, "d1")
	finish(done, Done)
	failed := enqueue(2, "d2")
	finish(failed, Failed)
	cancelled := enqueue(3, "d3")
	finish(cancelled, Cancelled)
	running := enqueue(4, "d4")
	finish(running, Running)
	// A failed job whose check is still open on GitHub stays until it is closed.
	open := enqueue(5, "d7")
	finish(open, Running)
	if err := q.SetCheck(ctx, open, 42, true); err != nil {
		t.Fatal(err)
	}
	if err := q.Finish(ctx, open, Failed, "abandoned"); err != nil {
		t.Fatal(err)
	}
	published := mustGet(t, q, done)
	if ok, err := q.Published(ctx, published); err != nil || !ok {
		t.Fatal(ok, err)
	}
	queued := enqueue(4, "d5") // blocked by the running job of its pull request

	c.advance(2 * time.Hour)
	recent := enqueue(6, "d6")
	finish(recent, Done)

	n, err := q.Prune(ctx, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// Three old finished jobs, six old deliveries, one publication.
	if n != 3+6+1 {
		t.Errorf("Prune = %d, want 10", n)
	}
	if j := mustGet(t, q, open); !j.CheckOpen || j.CheckRun != 42 {
		t.Errorf("the job with an open check: %+v", j)
	}
	if js, err := q.OpenChecks(ctx); err != nil || len(js) != 1 || js[0].ID != open {
		t.Errorf("OpenChecks = %v, %v; want the failed job with its check open", js, err)
	}
	for _, id := range []int64{done, failed, cancelled} {
		if _, err := q.get(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("get(%d) after Prune: %v, want ErrNotFound", id, err)
		}
	}
	wantState(t, q, running, Running)
	wantState(t, q, queued, Queued)
	wantState(t, q, recent, Done)
	if n := count(t, s, "SELECT count(*) FROM deliveries"); n != 1 {
		t.Errorf("%d deliveries left, want 1", n)
	}
	if n := count(t, s, "SELECT count(*) FROM published"); n != 0 {
		t.Errorf("%d publications left, want 0", n)
	}

	// A pruned delivery is accepted again; a recent one is still a duplicate.
	if _, dup, err := q.enqueue(ctx, prJob("octo/models", 7, "h")); err != nil || dup {
		t.Errorf("Enqueue without a delivery: %v, %v", dup, err)
	}
	j := prJob("octo/models", 8, "h")
	j.Delivery = "d1"
	if _, dup, err := q.enqueue(ctx, j); err != nil || dup {
		t.Errorf("Enqueue of a pruned delivery: duplicate %v, %v", dup, err)
	}
	j.Delivery = "d6"
	if _, dup, err := q.enqueue(ctx, j); err != nil || !dup {
		t.Errorf("Enqueue of a recent delivery: duplicate %v, %v; want a duplicate", dup, err)
	}

}

// TestIDsNotReused: ids keep growing after the newest job is pruned, so "a
// higher id is a newer job" holds.
func TestIDsNotReused(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	c := withClock(q, time.Unix(1_700_000_000, 0))
	last := mustEnqueue(t, q, prJob("octo/models", 1, "h"))
	claimID(t, q)
	if err := q.Finish(ctx, last, Done, ""); err != nil {
		t.Fatal(err)
	}
	c.advance(2 * time.Hour)
	if n, err := q.Prune(ctx, time.Hour); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1", n, err)
	}
	if id := mustEnqueue(t, q, prJob("octo/models", 1, "h")); id <= last {
		t.Errorf("id %d after pruning job %d", id, last)
	}
}
