package bot

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/vcs"
)

// BenchmarkJobLatency weighs the bot's two ways to run an analysis, in a
// child process (the default) and in the server's process, as a job runs
// them (Bot.analyse: from the fetched clone to what the job posts), in one
// run so that they are compared on the same machine at the same time.
// "fresh" analyses with a new, empty cache; "cached" analyses a change the
// cache already holds, where the child's start and its opening of the
// store are all there is to the job.
func BenchmarkJobLatency(b *testing.B) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return string(data)
	}
	triangle := read("../examples/triangle.scxml")
	for _, model := range []struct{ name, base, head string }{
		{"triangle", triangle, strings.Replace(triangle, `<data id="a" expr="0"/>`, `<data id="a" expr="1"/>`, 1)},
		{"aqs", read("../testdata/bench/aqs.scxml"), read("../testdata/versions/aqs/v02.scxml")},
	} {
		dir := benchRepo(b, model.base, model.head)
		repo, err := vcs.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"fresh", "cached"} {
			for _, where := range []string{"inline", "child"} {
				b.Run(model.name+"/"+mode+"/"+where, func(b *testing.B) {
					bot := benchBot(b, where == "child")
					for range b.N {
						if mode == "fresh" {
							b.StopTimer()
							bot.store.Close()
							bot = benchBot(b, where == "child")
							b.StartTimer()
						}
						req := bot.request(analysis.Change, &queue.Job{Repo: "octo/bench"})
						req.Base, req.Head = "HEAD^", "HEAD"
						res, err := bot.analyze(context.Background(), slog.New(slog.DiscardHandler), &queue.Job{Repo: "octo/bench"}, repo, req, nil)
						if err != nil || res.Err != "" || res.Change == nil {
							b.Fatalf("analysis: %v %+v", err, res)
						}
					}
					bot.store.Close()
				})
			}
		}
		repo.Close()
	}
}

// benchBot is a bot with a new store, whose analyses run in children or
// in its own process.
func benchBot(b *testing.B, child bool) *Bot {
	path := filepath.Join(b.TempDir(), "setbot.db")
	store, err := cache.Open(path, cache.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	bot := &Bot{cfg: &config.Server{Database: path, Workers: 1, Ceilings: config.DefaultCeilings()}, store: store, solver: newZ3}
	if child {
		bot.analyzer = childAnalyzer(b)
	}
	return bot
}

// benchRepo makes a git repository of two commits: models/m.scxml as
// base, then as head.
func benchRepo(b *testing.B, base, head string) string {
	dir := b.TempDir()
	git := func(args ...string) {
		if out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput(); err != nil {
			b.Skipf("git: %v\n%s", err, out)
		}
	}
	git("init", "-q")
	if err := os.MkdirAll(filepath.Join(dir, "models"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, text := range []string{base, head} {
		if err := os.WriteFile(filepath.Join(dir, "models", "m.scxml"), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", "version")
	}
	return dir
}
