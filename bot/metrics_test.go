package bot

import (
	"net/http"
	"testing"

	"github.com/setbot/setbot/bot/queue"
)

// TestJobMetrics: a job cancelled while queued counts as superseded like
// one a worker stops, and every run of a job is timed by outcome.
func TestJobMetrics(t *testing.T) {
	e := newEnv(t)
	e.open() // no workers: the first job waits in the queue
	if code, _ := e.send("pull_request.opened", "d-q1"); code != http.StatusAccepted {
		t.Fatalf("opened: %d", code)
	}
	if code, _ := e.send("pull_request.synchronize", "d-q2"); code != http.StatusAccepted {
		t.Fatalf("synchronize: %d", code)
	}
	if got := e.metric("setbot_jobs_total", "kind", queue.KindPullRequest, "outcome", "superseded"); got != 1 {
		t.Errorf("superseded = %v, want the job cancelled while queued", got)
	}
	e.close()
	e.start()
	e.idle()
	if got := e.metric("setbot_job_duration_seconds", "kind", queue.KindPullRequest, "outcome", "done"); got != 1 {
		t.Errorf("setbot_job_duration_seconds_count{outcome=done} = %v, want 1", got)
	}
}

func TestDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{`{"msg":"x","sha":"","delivery":"","sha":"abc"}`, 1},
		{`{"msg":"x","sha":"abc","g":{"sha":"def"}}`, 0},
		{`not json`, 0},
	} {
		if got := duplicateKeys(tc.line); len(got) != tc.want {
			t.Errorf("duplicateKeys(%s) = %q, want %d", tc.line, got, tc.want)
		}
	}
}
