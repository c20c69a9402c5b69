package queue

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestRequeue: a job GitHub turned away waits for its time, even across a
// restart, and its retries do not count as crashes.
func TestRequeue(t *testing.T) {
	path := tempPath(t)
	s, q := openQueue(t, path)
	start := time.Unix(1_700_000_000, 0)
	c := withClock(q, start)
	id := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	other := mustEnqueue(t, q, prJob("octo/models", 2, "h2"))
	if got := claimID(t, q); got != id {
		t.Fatalf("Claim = %d, want %d", got, id)
	}
	later := start.Add(20 * time.Minute)
	if err := q.Requeue(ctx, id, later, "rate limited until the reset"); err != nil {
		t.Fatal(err)
	}
	j := wantState(t, q, id, Queued)
	if !j.NotBefore.Equal(later) || j.Retries != 1 || j.Attempts != 1 || j.Error != "rate limited until the reset" {
		t.Errorf("requeued job = %+v", j)
	}
	// The waiting job does not hold up the others.
	if got := claimID(t, q); got != other {
		t.Errorf("Claim = %d, want the other job %d", got, other)
	}
	if err := q.Finish(ctx, other, Done, ""); err != nil {
		t.Fatal(err)
	}

	s.Close()
	s, q = openQueue(t, path)
	c = withClock(q, c.t.Add(19*time.Minute))
	if _, err := q.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if got := claimID(t, q); got != 0 {
		t.Fatalf("Claim before the time = job %d", got)
	}
	c.t = later
	if got := claimID(t, q); got != id {
		t.Fatalf("Claim at the time = job %d, want %d", got, id)
	}

	// Retries are not crashes: the job requeued twice, then its process
	// dies once, is a suspect, not the culprit.
	if err := q.Requeue(ctx, id, c.t, "server error"); err != nil {
		t.Fatal(err)
	}
	claimID(t, q)
	s.Close()
	_, q = openQueue(t, path)
	withClock(q, c.t)
	if _, err := q.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	j = wantState(t, q, id, Queued)
	if j.Attempts != 3 || j.Retries != 2 || j.Crashes != 1 {
		t.Errorf("attempts %d, retries %d, crashes %d", j.Attempts, j.Retries, j.Crashes)
	}
}

// TestOnCancel: every job the queue cancels by itself is reported, whether
// superseded while queued (also while waiting to be retried) or found
// superseded by Recover.
func TestOnCancel(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	var kinds []string
	q.OnCancel(func(kind string) { kinds = append(kinds, kind) })
	mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	mustEnqueue(t, q, prJob("octo/models", 1, "h2"))
	mustEnqueue(t, q, branchJob(KindPush, "octo/models", "main", "m1"))
	mustEnqueue(t, q, branchJob(KindPush, "octo/models", "main", "m2"))
	if !slices.Equal(kinds, []string{KindPullRequest, KindPush}) {
		t.Errorf("cancelled while queued: %q", kinds)
	}
	kinds = nil
	running := mustClaim(t, q) // h2
	push := mustClaim(t, q)    // m2
	if err := q.Finish(ctx, push.ID, Done, ""); err != nil {
		t.Fatal(err)
	}
	if err := q.Requeue(ctx, running.ID, time.Now().Add(time.Hour), "rate limited"); err != nil {
		t.Fatal(err)
	}
	mustEnqueue(t, q, prJob("octo/models", 1, "h3"))
	if !slices.Equal(kinds, []string{KindPullRequest}) {
		t.Errorf("a waiting retry superseded: %q", kinds)
	}
	kinds = nil
	claimed := mustClaim(t, q) // h3
	if claimed.HeadSHA != "h3" {
		t.Fatalf("claimed %+v", claimed)
	}
	mustEnqueue(t, q, prJob("octo/models", 1, "h4"))
	if len(kinds) != 0 {
		t.Errorf("a running job reported as cancelled: %q", kinds)
	}
	if _, err := q.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kinds, []string{KindPullRequest}) {
		t.Errorf("cancelled by Recover: %q", kinds)
	}
}

// TestFresh: the queue knows when its tables are new, i.e. the jobs of an
// earlier process are unknown.
func TestFresh(t *testing.T) {
	path := tempPath(t)
	s, q := openQueue(t, path)
	if !q.Fresh() {
		t.Error("a new store's queue is not fresh")
	}
	s.Close()
	if _, q := openQueue(t, path); q.Fresh() {
		t.Error("a reopened queue is fresh")
	}
}

// TestHeads: the heads of ended jobs are listed for the sweep once no job
// on them is queued or running, until marked swept; check runs jobs recorded
// are known.
func TestHeads(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	a := mustEnqueue(t, q, prJob("octo/models", 1, "h1"))
	mustEnqueue(t, q, branchJob(KindPush, "octo/models", "main", "m1"))
	if hs, err := q.EndedHeads(ctx, 10); err != nil || len(hs) != 0 {
		t.Fatalf("EndedHeads with nothing ended = %+v, %v", hs, err)
	}
	claimID(t, q)
	if err := q.SetCheck(ctx, a, 42, true); err != nil {
		t.Fatal(err)
	}
	if ok, err := q.Analyzing(ctx, "octo/models", "h1"); err != nil || !ok {
		t.Errorf("Analyzing(h1) while it runs = %v, %v", ok, err)
	}
	if err := q.Finish(ctx, a, Done, ""); err != nil {
		t.Fatal(err)
	}
	claimID(t, q)
	if err := q.Finish(ctx, a+1, Done, ""); err != nil {
		t.Fatal(err)
	}
	// Another pull request on the same commit is still being analysed.
	b := mustEnqueue(t, q, prJob("octo/models", 2, "h1"))
	if hs, err := q.EndedHeads(ctx, 10); err != nil || len(hs) != 0 {
		t.Errorf("EndedHeads while h1 is queued = %+v, %v", hs, err)
	}
	claimID(t, q)
	if err := q.Finish(ctx, b, Cancelled, "superseded"); err != nil {
		t.Fatal(err)
	}
	want := []Head{{Installation: 7, Repo: "octo/models", SHA: "h1", Until: b}}
	hs, err := q.EndedHeads(ctx, 10)
	if err != nil || !slices.Equal(hs, want) {
		t.Errorf("EndedHeads = %+v, %v; want %+v (push jobs open no check)", hs, err, want)
	}
	if ok, err := q.KnowsCheckRun(ctx, "octo/models", 42); err != nil || !ok {
		t.Errorf("KnowsCheckRun(42) = %v, %v", ok, err)
	}
	if ok, err := q.KnowsCheckRun(ctx, "octo/models", 43); err != nil || ok {
		t.Errorf("KnowsCheckRun(43) = %v, %v", ok, err)
	}
	// A job that ends on the commit after the listing was not seen by the
	// sweep: it is swept again.
	c := mustEnqueue(t, q, prJob("octo/models", 3, "h1"))
	claimID(t, q)
	if err := q.Finish(ctx, c, Done, ""); err != nil {
		t.Fatal(err)
	}
	if err := q.MarkSwept(ctx, hs[0]); err != nil {
		t.Fatal(err)
	}
	hs, err = q.EndedHeads(ctx, 10)
	if err != nil || len(hs) != 1 || hs[0].Until != c {
		t.Fatalf("EndedHeads after a sweep that did not see job %d = %+v, %v", c, hs, err)
	}
	if err := q.MarkSwept(ctx, hs[0]); err != nil {
		t.Fatal(err)
	}
	if hs, err := q.EndedHeads(ctx, 10); err != nil || len(hs) != 0 {
		t.Errorf("EndedHeads after the sweep = %+v, %v", hs, err)
	}
}

// TestTakeOverCheckRun: a job may be enqueued with a check run to complete.
func TestTakeOverCheckRun(t *testing.T) {
	_, q := openQueue(t, tempPath(t))
	in := prJob("octo/models", 1, "h1")
	in.CheckRun = 77
	j := mustGet(t, q, mustEnqueue(t, q, in))
	if j.CheckRun != 77 || !j.CheckOpen {
		t.Errorf("job %+v, want check run 77 open", j)
	}
	if ok, err := q.KnowsCheckRun(ctx, "octo/models", 77); err != nil || !ok {
		t.Errorf("KnowsCheckRun(77) = %v, %v", ok, err)
	}
	push := branchJob(KindPush, "octo/models", "main", "m1")
	push.CheckRun = 5
	if _, _, err := q.EnqueueAll(ctx, []Job{push}); !errors.Is(err, ErrInvalidJob) {
		t.Errorf("a push job with a check run: %v, want ErrInvalidJob", err)
	}
}
