package bot

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
)

// raceRepetitions is how many pull requests each race is run on.
const raceRepetitions = 50

// TestSupersedingRaces: a pull request's second event 0-10 ms after its
// first (a new head, or the same head reopened) cancels the first job while
// it opens its check run, which GitHub creates however slowly it answers.
// Every check run ends completed; none stays in progress.
func TestSupersedingRaces(t *testing.T) {
	opened, _ := fixture(t, "pull_request.opened")
	synchronize, _ := fixture(t, "pull_request.synchronize")
	reopened := bytes.Replace(opened, []byte(`"action": "opened"`), []byte(`"action": "reopened"`), 1)
	for _, tc := range []struct {
		name   string
		second []byte
	}{
		{"opened then synchronize", synchronize},
		{"opened then reopened", reopened},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.gh.createDelay = 10 * time.Millisecond // GitHub has created the run; the answer is on its way
			e.start()
			for i := range raceRepetitions {
				pr := 100 + i
				for n, body := range [][]byte{opened, tc.second} {
					body = bytes.ReplaceAll(body, []byte(`"number": 7`), []byte(fmt.Sprintf(`"number": %d`, pr)))
					if code, a := e.post("pull_request", fmt.Sprintf("race-%d-%d", i, n), body, Sign([]byte(testSecret), body)); code != http.StatusAccepted {
						t.Fatalf("pull request %d, event %d: %d %+v", pr, n, code, a)
					}
					if n == 0 {
						time.Sleep(time.Duration(rand.N(10_000)) * time.Microsecond)
					}
				}
				e.idle()
			}
			if left := e.gh.inProgress(); len(left) > 0 {
				t.Errorf("%d of %d pull requests left a check run in progress: %+v", len(left), raceRepetitions, left)
			}
			for i := range raceRepetitions {
				if n := len(e.gh.commentsOf(100 + i)); n != 1 {
					t.Errorf("pull request %d has %d comments, want 1", 100+i, n)
				}
			}
			// Every cancelled job counts as superseded, whether a worker
			// stopped it or it was cancelled while queued.
			cancelled := len(e.jobs(queue.Cancelled))
			if got := e.metric("setbot_jobs_total", "kind", queue.KindPullRequest, "outcome", "superseded"); int(got) != cancelled {
				t.Errorf("setbot_jobs_total{outcome=\"superseded\"} = %v, want the %d cancelled jobs", got, cancelled)
			}
			t.Logf("%d pull requests: %d jobs superseded, %d check runs in progress", raceRepetitions, cancelled, len(e.gh.inProgress()))
		})
	}
}

// metric is the value of the bot's metric name with the given label
// values (a counter or gauge; a histogram's sample count), 0 if none.
func (e *env) metric(name string, labels ...string) float64 {
	e.t.Helper()
	families, err := e.bot.metrics.registry.Gather()
	if err != nil {
		e.t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	samples:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for i := 0; i+1 < len(labels); i += 2 {
				if have[labels[i]] != labels[i+1] {
					continue samples
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return 0
}
