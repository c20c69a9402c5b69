// Package queuetest is the contract of the job queue's stores: what the
// bot relies on, the same in SQLite and in PostgreSQL. As river keeps its
// driver tests beside the driver interface (riverdriver/riverdrivertest),
// the suite is here, beside queue.Backend, and the tests of each database
// run it: bot/queue's on SQLite, always; bot/server's on PostgreSQL, where
// they find one.
package queuetest

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/cache"
)

// Store is what a server opens of a database: the queue, and the database
// under it for the tests to reach into.
type Store struct {
	Queue *queue.Queue
	DB    *cache.DB
}

// Opener opens a Store of one database; every call opens the same
// database, as another server or a restart does, and the Store closes when
// the test ends. Its PostgreSQL queues have leases of Lease.
type Opener func(t *testing.T) *Store

// Lease is the lease of the PostgreSQL queues an Opener opens: short, so
// that a takeover is seen within the test.
const Lease = time.Second

var ctx = context.Background()

// Run runs the contract, each part on a new database of newDB.
func Run(t *testing.T, newDB func(t *testing.T) Opener) {
	for _, c := range []struct {
		name string
		test func(*testing.T, Opener)
	}{
		{"Lifecycle", testQueueLifecycle},
		{"Deduplication", testQueueDeduplication},
		{"Supersession", testQueueSupersession},
		{"Inheritance", testQueueInheritance},
		{"RequeueLater", testQueueRequeueLater},
		{"Release", testQueueRelease},
		{"Recover", testQueueRecover},
		{"Checks", testQueueChecks},
		{"Prune", testQueuePrune},
		{"ConcurrentClaims", testQueueConcurrentClaims},
		{"SuspectRunsAlone", testSuspectRunsAlone},
		{"LeaseTakeover", testLeaseTakeover},
		{"WatchReconnects", testWatchReconnects},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, newDB(t)) })
	}
}

// queryRow reads one row of SQL written for SQLite.
func queryRow(t *testing.T, s *Store, query string, args []any, dst ...any) {
	t.Helper()
	if err := s.DB.QueryRow(ctx, query, args...).Scan(dst...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func jobState(t *testing.T, s *Store, id int64) string {
	t.Helper()
	var state string
	queryRow(t, s, "SELECT state FROM jobs WHERE id = ?", []any{id}, &state)
	return state
}

func prJob(pr int, head, delivery string) queue.Job {
	return queue.Job{Delivery: delivery, Kind: queue.KindPullRequest, Repo: "octo/models", CloneURL: "https://github.com/octo/models.git",
		PR: pr, Branch: "main", BaseSHA: "base", HeadSHA: head, Installation: 7}
}

func enqueue(t *testing.T, q *queue.Queue, j queue.Job) int64 {
	t.Helper()
	ids, dup, err := q.EnqueueAll(ctx, []queue.Job{j})
	if err != nil || dup {
		t.Fatalf("enqueueing %s at %s: duplicate %v, %v", j.Key(), j.HeadSHA, dup, err)
	}
	return ids[0]
}

func claim(t *testing.T, q *queue.Queue) *queue.Job {
	t.Helper()
	j, err := q.Claim(ctx)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	return j
}

func testQueueLifecycle(t *testing.T, b Opener) {
	s := b(t)
	q := s.Queue
	if !q.Fresh() {
		t.Error("a new database's queue is not fresh")
	}
	id := enqueue(t, q, prJob(1, "h1", "d-1"))
	if n, err := q.Depth(ctx); err != nil || n != 1 {
		t.Errorf("Depth = %d, %v; want 1", n, err)
	}
	j := claim(t, q)
	if j == nil || j.ID != id || j.State != queue.Running || j.Attempts != 1 || j.HeadSHA != "h1" || j.Installation != 7 || j.Created.IsZero() {
		t.Fatalf("claimed %+v; want job %d running, attempt 1", j, id)
	}
	if again := claim(t, q); again != nil {
		t.Errorf("claimed job %d twice", again.ID)
	}
	if err := q.Finish(ctx, id, queue.Done, ""); err != nil {
		t.Fatal(err)
	}
	if got := jobState(t, s, id); got != queue.Done {
		t.Errorf("job is %s, want done", got)
	}
	if err := q.Finish(ctx, id, queue.Done, ""); !errors.Is(err, queue.ErrNotRunning) {
		t.Errorf("finishing a finished job: %v; want ErrNotRunning", err)
	}
	if err := q.Finish(ctx, 9999, queue.Done, ""); !errors.Is(err, queue.ErrNotFound) {
		t.Errorf("finishing an unknown job: %v; want ErrNotFound", err)
	}
	if n, err := q.Depth(ctx); err != nil || n != 0 {
		t.Errorf("Depth = %d, %v; want 0", n, err)
	}
	// Reopened, the queue is not fresh and its jobs are there.
	if again := b(t); again.Queue.Fresh() || jobState(t, again, id) != queue.Done {
		t.Error("the reopened queue is fresh or lost its job")
	}
}

func testQueueDeduplication(t *testing.T, b Opener) {
	q := b(t).Queue
	other := b(t).Queue // another server on the same database
	enqueue(t, q, prJob(1, "h1", "d-1"))
	for _, qq := range []*queue.Queue{q, other} {
		if ids, dup, err := qq.EnqueueAll(ctx, []queue.Job{prJob(1, "h2", "d-1")}); err != nil || !dup || ids != nil {
			t.Errorf("a delivery seen before: ids %v, duplicate %v, %v", ids, dup, err)
		}
	}
	// Jobs born of no webhook are never duplicates.
	enqueue(t, q, prJob(2, "h1", ""))
	enqueue(t, other, prJob(3, "h1", ""))
	if n, _ := q.Depth(ctx); n != 3 {
		t.Errorf("Depth = %d, want 3", n)
	}
}

func testQueueSupersession(t *testing.T, b Opener) {
	s := b(t)
	q := s.Queue
	var cancelled []string
	q.OnCancel(func(kind string) { cancelled = append(cancelled, kind) })
	first := enqueue(t, q, prJob(1, "h1", "d-1"))
	second := enqueue(t, q, prJob(1, "h2", "d-2"))
	if got := jobState(t, s, first); got != queue.Cancelled || !slices.Equal(cancelled, []string{queue.KindPullRequest}) {
		t.Errorf("the superseded queued job is %s, cancellations %v", got, cancelled)
	}
	j := claim(t, q)
	if j == nil || j.ID != second {
		t.Fatalf("claimed %+v, want job %d", j, second)
	}
	// A newer head while the job runs: it waits, and the running one
	// learns it is superseded.
	third := enqueue(t, q, prJob(1, "h3", "d-3"))
	if sup, err := q.Superseded(ctx, j); err != nil || !sup {
		t.Errorf("Superseded = %v, %v; want true", sup, err)
	}
	other := enqueue(t, q, prJob(2, "h1", "d-4"))
	if k := claim(t, q); k == nil || k.ID != other {
		t.Errorf("claimed %+v while #1 runs; want job %d of #2", k, other)
	}
	if k := claim(t, q); k != nil {
		t.Errorf("claimed job %d of %s while a job of its pull request runs", k.ID, k.Key())
	}
	if err := q.Finish(ctx, second, queue.Cancelled, "superseded"); err != nil {
		t.Fatal(err)
	}
	if k := claim(t, q); k == nil || k.ID != third {
		t.Errorf("claimed %+v, want job %d", k, third)
	}
	// An older commit never overwrites a newer result.
	if ok, err := q.Published(ctx, &queue.Job{ID: third, Kind: queue.KindPullRequest, Repo: "octo/models", PR: 1, HeadSHA: "h3"}); err != nil || !ok {
		t.Errorf("Published(newest) = %v, %v", ok, err)
	}
	if ok, err := q.Published(ctx, j); err != nil || ok {
		t.Errorf("Published(older) = %v, %v; want false", ok, err)
	}
}

func testQueueInheritance(t *testing.T, b Opener) {
	q := b(t).Queue
	full := queue.Job{Kind: queue.KindFull, Repo: "octo/models", CloneURL: "u", Branch: "main", Fresh: true, Requester: "schedule"}
	push := queue.Job{Kind: queue.KindPush, Repo: "octo/models", CloneURL: "u", Branch: "main", HeadSHA: "h9"}
	enqueue(t, q, full)
	enqueue(t, q, push)
	j := claim(t, q)
	if j == nil || j.Kind != queue.KindFull || !j.Fresh || j.HeadSHA != "h9" {
		t.Errorf("claimed %+v; want the push's head as a fresh full job", j)
	}
}

// clocked opens a queue whose clock reads *now, and queues and claims a
// pull request's job, whose id it returns.
func clocked(t *testing.T, b Opener, now *time.Time) (*queue.Queue, int64) {
	q := b(t).Queue
	q.SetClock(func() time.Time { return *now })
	id := enqueue(t, q, prJob(1, "h1", "d-1"))
	claim(t, q)
	return q, id
}

func testQueueRequeueLater(t *testing.T, b Opener) {
	now := time.Now()
	q, id := clocked(t, b, &now)
	if err := q.Requeue(ctx, id, now.Add(time.Hour), "rate limited"); err != nil {
		t.Fatal(err)
	}
	if j := claim(t, q); j != nil {
		t.Errorf("claimed job %d before its time", j.ID)
	}
	if age, err := q.OldestQueued(ctx); err != nil || age != 0 {
		t.Errorf("OldestQueued = %v, %v; want 0 (created now)", age, err)
	}
	now = now.Add(time.Hour)
	j := claim(t, q)
	if j == nil || j.ID != id || j.Retries != 1 || j.Attempts != 2 || j.Error != "rate limited" || !j.NotBefore.Equal(now.Truncate(0).UTC()) {
		t.Errorf("claimed %+v; want job %d, retry 1, attempt 2", j, id)
	}
	if age, err := q.OldestQueued(ctx); err != nil || age != 0 {
		t.Errorf("OldestQueued = %v, %v with nothing queued", age, err)
	}
	if err := q.Requeue(ctx, 4242, now, "x"); !errors.Is(err, queue.ErrNotFound) {
		t.Errorf("requeueing an unknown job: %v", err)
	}
}

// TestQueueRelease: a run a shutdown interrupted is queued again as it
// was: no retry and no crash counted, its check kept for the next attempt.
func testQueueRelease(t *testing.T, b Opener) {
	s := b(t)
	id := enqueue(t, s.Queue, prJob(1, "h1", "d-1"))
	claim(t, s.Queue)
	if err := s.Queue.SetCheck(ctx, id, 77, true); err != nil {
		t.Fatal(err)
	}
	if err := s.Queue.Release(ctx, id, "the server shut down"); err != nil {
		t.Fatal(err)
	}
	if err := s.Queue.Release(ctx, id, "again"); !errors.Is(err, queue.ErrNotRunning) {
		t.Errorf("releasing a queued job: %v", err)
	}
	j := claim(t, s.Queue)
	if j == nil || j.ID != id || j.Attempts != 2 || j.Retries != 0 || j.Crashes != 0 || j.CheckRun != 77 || !j.CheckOpen {
		t.Errorf("the released job claimed again: %+v", j)
	}
}

// TestQueueRecover: the jobs of a server that stopped are dealt with by
// the next one (SQLite: at its start; PostgreSQL: once their lease
// expired): cancelled if superseded, queued again otherwise as suspects,
// which go first and run alone, and failed if the server stops again while
// one runs alone. The jobs that did not run lose nothing.
func testQueueRecover(t *testing.T, b Opener) {
	dead := b(t)
	var cancelled []string
	kept := enqueue(t, dead.Queue, prJob(1, "h1", "d-1"))
	gone := enqueue(t, dead.Queue, prJob(2, "h1", "d-2"))
	for range 2 {
		claim(t, dead.Queue)
	}
	newer := enqueue(t, dead.Queue, prJob(2, "h2", "d-3")) // supersedes the running job of #2
	other := enqueue(t, dead.Queue, prJob(3, "h1", "d-4"))
	time.Sleep(Lease + 200*time.Millisecond)

	next := b(t)
	next.Queue.OnCancel(func(kind string) { cancelled = append(cancelled, kind) })
	n, err := next.Queue.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1 job queued again", n, err)
	}
	if got := jobState(t, next, gone); got != queue.Cancelled || !slices.Equal(cancelled, []string{queue.KindPullRequest}) {
		t.Errorf("the superseded running job is %s, cancellations %v", got, cancelled)
	}
	j := claim(t, next.Queue)
	if j == nil || j.ID != kept || j.Crashes != 1 || j.Attempts != 2 {
		t.Fatalf("first claim after the crash: %+v, want the suspect %d at its second attempt", j, kept)
	}
	if j := claim(t, next.Queue); j != nil {
		t.Fatalf("job %d claimed beside a suspect on its server", j.ID)
	}
	// The server dies again while the suspect runs alone.
	time.Sleep(Lease + 200*time.Millisecond)
	last := b(t)
	if n, err := last.Queue.Recover(ctx); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v; want the suspect failed", n, err)
	}
	var (
		state, text string
		crashes     int
	)
	queryRow(t, last, "SELECT state, error, crashes FROM jobs WHERE id = ?", []any{kept}, &state, &text, &crashes)
	if state != queue.Failed || crashes != queue.MaxCrashes || !strings.HasPrefix(text, "the analysis crashed the server twice; not retried") {
		t.Errorf("the suspect that crashed alone is %s after %d crashes (%q), want failed", state, crashes, text)
	}
	// No suspect left: the jobs that waited run side by side.
	var got []int64
	for range 2 {
		if j := claim(t, last.Queue); j != nil {
			got = append(got, j.ID)
			if j.Crashes != 0 || j.Attempts != 1 {
				t.Errorf("job %d: crashes %d, attempts %d", j.ID, j.Crashes, j.Attempts)
			}
		}
	}
	if !slices.Equal(got, []int64{newer, other}) {
		t.Errorf("claimed %v after the culprit failed, want %v", got, []int64{newer, other})
	}
}

// TestQueueChecks: the bookkeeping of the checks jobs open on GitHub.
func testQueueChecks(t *testing.T, b Opener) {
	q := b(t).Queue
	id := enqueue(t, q, prJob(1, "h1", "d-1"))
	j := claim(t, q)
	if busy, err := q.Analyzing(ctx, "octo/models", "h1"); err != nil || !busy {
		t.Errorf("Analyzing = %v, %v while the job runs", busy, err)
	}
	if err := q.SetCheck(ctx, id, 555, true); err != nil {
		t.Fatal(err)
	}
	if known, err := q.KnowsCheckRun(ctx, "octo/models", 555); err != nil || !known {
		t.Errorf("KnowsCheckRun = %v, %v", known, err)
	}
	if heads, err := q.EndedHeads(ctx, 10); err != nil || len(heads) != 0 {
		t.Errorf("EndedHeads while the job runs = %+v, %v", heads, err)
	}
	if err := q.Finish(ctx, id, queue.Failed, "boom"); err != nil {
		t.Fatal(err)
	}
	open, err := q.OpenChecks(ctx)
	if err != nil || len(open) != 1 || open[0].ID != id || open[0].CheckRun != 555 || !open[0].CheckOpen || open[0].Error != "boom" {
		t.Fatalf("OpenChecks = %+v, %v", open, err)
	}
	if newer, err := q.NewerOnSameCommit(ctx, j); err != nil || newer {
		t.Errorf("NewerOnSameCommit = %v, %v", newer, err)
	}
	enqueue(t, q, prJob(1, "h1", "d-2"))
	if newer, err := q.NewerOnSameCommit(ctx, j); err != nil || !newer {
		t.Errorf("NewerOnSameCommit = %v, %v after a rerun", newer, err)
	}
	if err := q.SetCheck(ctx, id, 555, false); err != nil {
		t.Fatal(err)
	}
	if open, err := q.OpenChecks(ctx); err != nil || len(open) != 0 {
		t.Errorf("OpenChecks after closing = %+v, %v", open, err)
	}
	rerun := claim(t, q)
	if err := q.Finish(ctx, rerun.ID, queue.Done, ""); err != nil {
		t.Fatal(err)
	}
	heads, err := q.EndedHeads(ctx, 10)
	want := []queue.Head{{Installation: 7, Repo: "octo/models", SHA: "h1", Until: rerun.ID}}
	if err != nil || !slices.Equal(heads, want) {
		t.Fatalf("EndedHeads = %+v, %v; want %+v", heads, err, want)
	}
	if err := q.MarkSwept(ctx, heads[0]); err != nil {
		t.Fatal(err)
	}
	if heads, err := q.EndedHeads(ctx, 10); err != nil || len(heads) != 0 {
		t.Errorf("EndedHeads after the sweep = %+v, %v", heads, err)
	}
}

func testQueuePrune(t *testing.T, b Opener) {
	now := time.Now()
	q, old := clocked(t, b, &now)
	if err := q.Finish(ctx, old, queue.Done, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Published(ctx, &queue.Job{ID: old, Kind: queue.KindPullRequest, Repo: "octo/models", PR: 1, HeadSHA: "h1"}); err != nil {
		t.Fatal(err)
	}
	queued := enqueue(t, q, prJob(2, "h1", "d-2"))
	now = now.Add(queue.DefaultRetention + time.Hour)
	n, err := q.Prune(ctx, queue.DefaultRetention)
	if err != nil || n != 4 { // job 1, both deliveries, the publication
		t.Errorf("Prune = %d, %v; want 4 records", n, err)
	}
	if _, dup, err := q.EnqueueAll(ctx, []queue.Job{prJob(1, "h1", "d-1")}); err != nil || dup {
		t.Errorf("a pruned delivery again: duplicate %v, %v", dup, err)
	}
	if j := claim(t, q); j == nil || j.ID != queued {
		t.Errorf("the queued job did not survive the prune: claimed %+v", j)
	}
}

// TestQueueConcurrentClaims: servers claiming at once from one database
// take each job once, and never two jobs of one pull request together.
func testQueueConcurrentClaims(t *testing.T, b Opener) {
	const servers, prs = 3, 12
	var qs []*queue.Queue
	for range servers {
		qs = append(qs, b(t).Queue)
	}
	for pr := 1; pr <= prs; pr++ {
		enqueue(t, qs[pr%servers], prJob(pr, "h1", ""))
		enqueue(t, qs[(pr+1)%servers], prJob(pr, "h2", "")) // supersedes h1
	}
	var (
		mu      sync.Mutex
		claimed = map[int64]int{}
		running = map[string]bool{}
		wg      sync.WaitGroup
	)
	for i := range servers * 2 {
		q := qs[i%servers]
		wg.Go(func() {
			for {
				j, err := q.Claim(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if j == nil {
					return
				}
				mu.Lock()
				claimed[j.ID]++
				if running[j.Key()] {
					t.Errorf("two jobs of %s running at once", j.Key())
				}
				running[j.Key()] = true
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				running[j.Key()] = false
				mu.Unlock()
				if err := q.Finish(ctx, j.ID, queue.Done, ""); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if len(claimed) != prs {
		t.Errorf("%d jobs claimed, want %d (the newest of each pull request)", len(claimed), prs)
	}
	for id, n := range claimed {
		if n != 1 {
			t.Errorf("job %d claimed %d times", id, n)
		}
	}
}

// testSuspectRunsAlone: workers claiming at once after a crash start the
// suspect and nothing beside it on its server; with PostgreSQL another
// replica goes on with the other jobs, since a crash there would not end
// the suspect's process.
func testSuspectRunsAlone(t *testing.T, b Opener) {
	dead := b(t)
	suspect := enqueue(t, dead.Queue, prJob(1, "h1", "d-1"))
	claim(t, dead.Queue)
	for pr := 2; pr <= 9; pr++ {
		enqueue(t, dead.Queue, prJob(pr, "h1", "d-"+strconv.Itoa(pr)))
	}
	time.Sleep(Lease + 200*time.Millisecond)
	s := b(t)
	if _, err := s.Queue.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		claimed []int64
	)
	for range 8 {
		wg.Go(func() {
			if j := claim(t, s.Queue); j != nil {
				mu.Lock()
				claimed = append(claimed, j.ID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if !slices.Equal(claimed, []int64{suspect}) {
		t.Fatalf("8 workers claiming at once took %v, want the suspect %d alone", claimed, suspect)
	}
	j := claim(t, b(t).Queue)
	switch {
	case !s.DB.Postgres() && j != nil:
		t.Errorf("job %d claimed beside the suspect of the only server", j.ID)
	case s.DB.Postgres() && j == nil:
		t.Errorf("another replica claimed nothing while the suspect ran alone in its own")
	}
}

// testLeaseTakeover: a PostgreSQL replica that stops renewing its lease
// loses the job to the next claim elsewhere, cannot finish it any more,
// and hears that it lost it once it watches again.
func testLeaseTakeover(t *testing.T, b Opener) {
	first := b(t)
	if !first.DB.Postgres() {
		t.Skip("one server uses a SQLite store: no leases")
	}
	a, other := first.Queue, b(t).Queue
	id := enqueue(t, a, prJob(1, "h1", "d-1"))
	if j := claim(t, a); j == nil || j.ID != id {
		t.Fatalf("claimed %+v", j)
	}
	// While a watches, it renews its lease: nobody takes the job.
	events := make(chan queue.Event, 16)
	watchCtx, stopWatch := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); a.Watch(watchCtx, func(e queue.Event) { events <- e }) }()
	time.Sleep(2 * Lease)
	if j := claim(t, other); j != nil {
		t.Fatalf("job %d taken over while its lease was renewed", j.ID)
	}
	// A newer head queued by the other replica reaches a's watch.
	newer := enqueue(t, other, prJob(1, "h2", "d-2"))
	if !waitEvent(events, func(e queue.Event) bool { return e.ID == newer && e.Key == "octo/models#1" }) {
		t.Errorf("a did not hear of job %d", newer)
	}
	stopWatch()
	<-done

	// a stalls past its lease: the next claim cancels its superseded job and
	// runs the newer one.
	time.Sleep(Lease + 200*time.Millisecond)
	if j := claim(t, other); j == nil || j.ID != newer {
		t.Fatalf("claimed %+v after the lease expired; want job %d", j, newer)
	}
	if err := a.Finish(ctx, id, queue.Done, ""); !errors.Is(err, queue.ErrNotRunning) {
		t.Errorf("the stalled replica finished a job it lost: %v", err)
	}
	if err := other.Finish(ctx, newer, queue.Done, ""); err != nil {
		t.Fatal(err)
	}

	// A running job taken over while its replica still runs it: the
	// replica hears it lost it when it next renews.
	id3 := enqueue(t, a, prJob(3, "h1", "d-3"))
	if j := claim(t, a); j == nil || j.ID != id3 {
		t.Fatalf("claimed %+v", j)
	}
	time.Sleep(Lease + 200*time.Millisecond)
	if j := claim(t, other); j == nil || j.ID != id3 || j.Attempts != 2 {
		t.Fatalf("claimed %+v; want job %d taken over, attempt 2", j, id3)
	}
	watchCtx, stopWatch = context.WithCancel(ctx)
	done = make(chan struct{})
	go func() { defer close(done); a.Watch(watchCtx, func(e queue.Event) { events <- e }) }()
	if !waitEvent(events, func(e queue.Event) bool { return e.Lost == id3 }) {
		t.Errorf("a did not hear that it lost job %d", id3)
	}
	if err := a.SetCheck(ctx, id3, 77, true); err != nil {
		t.Fatal(err)
	}
	if known, _ := other.KnowsCheckRun(ctx, "octo/models", 77); known {
		t.Error("the replica that lost the job recorded its check")
	}
	stopWatch()
	<-done
}

func waitEvent(events <-chan queue.Event, ok func(queue.Event) bool) bool {
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-events:
			if ok(e) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// testWatchReconnects: a replica whose listening connection dies listens
// again, wakes its workers (it may have missed news), and hears the next
// job queued elsewhere.
func testWatchReconnects(t *testing.T, b Opener) {
	s := b(t)
	if !s.DB.Postgres() {
		t.Skip("one server uses a SQLite store: nothing to watch")
	}
	other := b(t).Queue
	events := make(chan queue.Event, 16)
	watchCtx, stopWatch := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Queue.Watch(watchCtx, func(e queue.Event) { events <- e }) }()
	defer func() { stopWatch(); <-done }()
	zero := func(e queue.Event) bool { return e == queue.Event{} }
	if !waitEvent(events, zero) {
		t.Fatal("no wake-up when the watch started listening")
	}
	var killed int
	queryRow(t, s, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN setbot_queue'", nil, &killed)
	if killed != 1 {
		t.Fatalf("%d listening connections terminated, want 1", killed)
	}
	if !waitEvent(events, zero) {
		t.Fatal("no wake-up after listening again")
	}
	id := enqueue(t, other, prJob(5, "h1", "d-5"))
	if !waitEvent(events, func(e queue.Event) bool { return e.ID == id }) {
		t.Errorf("job %d queued elsewhere was not heard after the reconnection", id)
	}
}
