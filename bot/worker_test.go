package bot

import (
	"runtime"
	"testing"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/config"
)

// TestJobsShareTheCPUs: each analysis explores with the CPUs the runtime
// may use shared among the workers (at least one each), so that unset or
// no larger than the CPUs, workers × jobs fits them.
func TestJobsShareTheCPUs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range []struct{ workers, jobs int }{{0, 2}, {1, 4}, {2, 2}, {3, 1}, {8, 1}} {
		b := &Bot{cfg: &config.Server{Workers: c.workers}}
		if got := b.request(analysis.Change, &queue.Job{Repo: "octo/r"}).Jobs; got != c.jobs {
			t.Errorf("workers %d on 4 CPUs: --jobs %d per analysis, want %d", c.workers, got, c.jobs)
		}
	}
}
