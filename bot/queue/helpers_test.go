package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/setbot/setbot/cache"
)

// helperEnv selects the role of a re-executed test binary (see TestMain).
const (
	helperEnv     = "SETBOT_QUEUE_TEST_HELPER"
	helperPathEnv = "SETBOT_QUEUE_TEST_PATH"
)

func TestMain(m *testing.M) {
	switch role := os.Getenv(helperEnv); role {
	case "":
		os.Exit(m.Run())
	case "enqueuer":
		os.Exit(helperEnqueuer())
	default:
		fmt.Fprintf(os.Stderr, "unknown helper role %q\n", role)
		os.Exit(2)
	}
}

var ctx = context.Background()

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func tempPath(t *testing.T) string { return filepath.Join(t.TempDir(), "cache.db") }

// openQueue opens the store at path and its queue; both close when the test
// ends.
func openQueue(t *testing.T, path string) (*cache.Store, *Queue) {
	t.Helper()
	s, err := cache.Open(path, cache.Options{Logger: quiet()})
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	q, err := Open(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	return s, q
}

// clock is a settable time for the queue's now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func withClock(q *Queue, start time.Time) *clock {
	c := &clock{t: start}
	q.now = c.now
	return c
}

func prJob(repo string, pr int, head string) Job {
	return Job{Kind: KindPullRequest, Repo: repo, CloneURL: "https://github.com/" + repo + ".git",
		PR: pr, Branch: "main", BaseSHA: "base", HeadSHA: head, Installation: 7}
}

func branchJob(kind, repo, branch, head string) Job {
	return Job{Kind: kind, Repo: repo, CloneURL: "https://github.com/" + repo + ".git", Branch: branch, HeadSHA: head}
}

func commandJob(repo string, pr int, comment int64) Job {
	return Job{Kind: KindCommand, Repo: repo, CloneURL: "https://github.com/" + repo + ".git",
		PR: pr, Command: "full", CommentID: comment, Requester: "alice"}
}

// enqueue is EnqueueAll for one job, as most tests enqueue.
func (q *Queue) enqueue(ctx context.Context, j Job) (id int64, duplicate bool, err error) {
	ids, duplicate, err := q.EnqueueAll(ctx, []Job{j})
	if err != nil || duplicate {
		return 0, duplicate, err
	}
	return ids[0], false, nil
}

// get reads the job with the given id as Claim would return it; an unknown
// id is an error wrapping ErrNotFound.
func (q *Queue) get(ctx context.Context, id int64) (*Job, error) {
	j, err := scanJob(q.b.(*sqlQueue).db.QueryRow(ctx, "SELECT "+jobColumns+" FROM jobs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading job %d: %w", id, err)
	}
	return j, nil
}

func mustEnqueue(t *testing.T, q *Queue, j Job) int64 {
	t.Helper()
	id, dup, err := q.enqueue(ctx, j)
	if err != nil || dup {
		t.Fatalf("enqueue(%s %s): id %d, duplicate %v, err %v", j.Kind, j.Key(), id, dup, err)
	}
	return id
}

func mustClaim(t *testing.T, q *Queue) *Job {
	t.Helper()
	j, err := q.Claim(ctx)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	return j
}

// claimID claims a job and returns its id, 0 for none.
func claimID(t *testing.T, q *Queue) int64 {
	t.Helper()
	if j := mustClaim(t, q); j != nil {
		return j.ID
	}
	return 0
}

func mustGet(t *testing.T, q *Queue, id int64) *Job {
	t.Helper()
	j, err := q.get(ctx, id)
	if err != nil {
		t.Fatalf("get(%d): %v", id, err)
	}
	return j
}

func wantState(t *testing.T, q *Queue, id int64, state string) *Job {
	t.Helper()
	j := mustGet(t, q, id)
	if j.State != state {
		t.Errorf("job %d is %s, want %s (error %q)", id, j.State, state, j.Error)
	}
	return j
}

func count(t *testing.T, s *cache.Store, query string) int {
	t.Helper()
	var n int
	if err := s.QueryRow(ctx, query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// woken tells whether a notification is pending, and consumes it.
func woken(q *Queue) bool {
	select {
	case <-q.Notify():
		return true
	default:
		return false
	}
}
