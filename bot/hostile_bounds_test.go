package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/vocab"
)

// TestGreedyBoundsCapped: a pull request whose .setbot.yml asks for 10^12
// states and paths of 10^9 events, on a model whose tree grows without
// end, gets the server's ceilings and its memory budget: its check run
// completes with a bounded result, qualified by the bound that cut it, and
// its comment says which settings were capped; the pull request analysed
// beside it completes as it would alone.
func TestGreedyBoundsCapped(t *testing.T) {
	e := newEnv(t)
	e.cfg.Ceilings = config.Ceilings{
		Bounds:         vocab.Limits{vocab.BoundDepth: 60, vocab.BoundStates: 20_000, vocab.BoundLoop: 10, vocab.BoundMicrosteps: 100, vocab.BoundMLMStates: 1000, vocab.BoundTime: int64(time.Minute)},
		CommandTimeout: 10 * time.Second,
	}
	e.cfg.JobMemory = 256 << 20
	greedy := e.commitFiles(c1, "greedy", map[string]string{
		".setbot.yml": string(hostile.GreedyConfig()), "models/counter.scxml": string(hostile.Counter()),
	})
	e.start()

	// The greedy pull request (8) and the demo's (7, c1 to c2) at once:
	// the bot runs two jobs side by side.
	e.sendPR("pull_request.opened", 8, "d-greedy", greedy)
	if code, a := e.send("pull_request.opened", "d-beside"); code != 202 {
		t.Fatalf("beside opened: %d %+v", code, a)
	}
	e.idle()

	runs := e.gh.runsFor(greedy)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "neutral" {
		t.Fatalf("check runs on the greedy head: %+v; want one, completed, neutral (a bound hit warns)", runs)
	}
	comments := e.gh.commentsOf(8)
	if len(comments) != 1 {
		t.Fatalf("%d comments on the greedy pull request", len(comments))
	}
	for name, body := range map[string]string{"comment": comments[0].Body, "check run": runs[0].Summary} {
		for _, want := range []string{
			"`bounds.max_states`: `.setbot.yml` asks for 1000000000000; the server's ceiling, 20000, applies",
			"`bounds.depth`: `.setbot.yml` asks for 1000000000; the server's ceiling, 60, applies",
			"`bounds.max_mlm_states`: `.setbot.yml` asks for 1000000000000; the server's ceiling, 1000, applies",
			"`bounds.loop_bound`: `.setbot.yml` asks for 1000000000; the server's ceiling, 10, applies",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("the %s lacks %q:\n%s", name, want, body)
			}
		}
		if !strings.Contains(body, "the `states` bound (20000) cut") && !strings.Contains(body, "the `memory` bound (256MiB) cut") {
			t.Errorf("the %s does not qualify the result by the states ceiling or the memory budget:\n%s", name, body)
		}
	}

	beside := e.gh.runsFor(c2)
	if len(beside) != 1 || beside[0].Status != "completed" || beside[0].Conclusion != "success" {
		t.Errorf("check runs on the pull request beside: %+v; want one, completed, success", beside)
	}
	if c := e.gh.commentsOf(7); len(c) != 1 || !strings.Contains(c[0].Body, "no regressions") || strings.Contains(c[0].Body, "Ceilings") {
		t.Errorf("comments on the pull request beside: %+v", c)
	}
	if failed := e.jobs("failed"); len(failed) > 0 {
		t.Errorf("failed jobs: %+v", failed)
	}
}
