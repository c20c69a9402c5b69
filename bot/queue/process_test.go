package queue

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/setbot/setbot/cache"
)

const (
	// enqueuerJobs is how many jobs the child process sets out to enqueue.
	enqueuerJobs = 200
	// killAfter is how many committed jobs the parent reads before the SIGKILL.
	killAfter = 60
)

// helperEnqueuer enqueues enqueuerJobs jobs of distinct pull requests,
// printing each id once its transaction has committed.
func helperEnqueuer() int {
	s, err := cache.Open(os.Getenv(helperPathEnv), cache.Options{Logger: quiet()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	q, err := Open(ctx, s)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 1; i <= enqueuerJobs; i++ {
		id, dup, err := q.enqueue(ctx, processJob(i))
		if err != nil || dup {
			fmt.Fprintln(os.Stderr, "enqueueing", i, dup, err)
			return 1
		}
		fmt.Printf("%d %d\n", i, id)
	}
	return 0
}

// processJob is the i-th job of the child process.
func processJob(i int) Job {
	j := prJob("octo/models", i, fmt.Sprintf("head%03d", i))
	j.Delivery = fmt.Sprintf("delivery-%03d", i)
	return j
}

// TestSIGKILL kills a process in the middle of enqueueing; every job it
// reported as committed must be queued when the store is opened again.
func TestSIGKILL(t *testing.T) {
	t.Parallel()
	path := tempPath(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=enqueuer", helperPathEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reported := map[int]int64{} // job number -> id
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		var i int
		var id int64
		if _, err := fmt.Sscan(lines.Text(), &i, &id); err != nil {
			t.Fatalf("child printed %q: %v", lines.Text(), err)
		}
		reported[i] = id
		if len(reported) == killAfter {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Lines written before the kill and still in the pipe count too.
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v after %d jobs, want SIGKILL; stderr:\n%s", err, len(reported), stderr.String())
	}
	if len(reported) >= enqueuerJobs {
		t.Fatalf("child enqueued all %d jobs before the kill", enqueuerJobs)
	}

	s, q := openQueue(t, path)
	if s.Rebuilt() != "" {
		t.Fatalf("store rebuilt after SIGKILL: %s", s.Rebuilt())
	}
	for i, id := range reported {
		j := wantState(t, q, id, Queued)
		if want := processJob(i); j.PR != want.PR || j.HeadSHA != want.HeadSHA || j.Delivery != want.Delivery {
			t.Errorf("job %d is %s %s %s, want %s", id, j.Key(), j.HeadSHA, j.Delivery, want.Key())
		}
	}
	// At most the one job being committed at the kill is there unreported,
	// and the queue is whole: one job per delivery recorded.
	depth, err := q.Depth(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if depth < len(reported) || depth > len(reported)+1 {
		t.Errorf("%d jobs queued, %d reported", depth, len(reported))
	}
	if n := count(t, s, "SELECT count(*) FROM deliveries"); n != depth {
		t.Errorf("%d deliveries recorded for %d jobs", n, depth)
	}
	// And the child's deliveries are still recognised.
	for i := range reported {
		if _, dup, err := q.enqueue(ctx, processJob(i)); err != nil || !dup {
			t.Errorf("redelivery %s: duplicate %v, %v", processJob(i).Delivery, dup, err)
		}
	}
	t.Logf("%d jobs reported before the kill, all queued", len(reported))
}
