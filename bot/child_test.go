package bot

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/solver"
)

// The bot's analyses run in child processes, as `setbot serve` runs them;
// here the child is this test binary run again with childMark set, which
// TestMain sends to analysis.Main.
const (
	childMark = "BOT_TEST_CHILD"
	// childFault makes a child die or hang at its first solver, as
	// "MODE:SHA" when the commit it analyses begins with SHA's first 12
	// digits: MODE is stack (a runtime fatal error: the stack overflows),
	// kill (SIGKILL, as the out-of-memory killer sends) or hang.
	childFault = "BOT_TEST_CHILD_FAULT"
	// childBeside, as "DIR:SHA:OTHER", makes the children analysing SHA
	// and OTHER meet at their first solver, through files in DIR: OTHER's
	// (which childFault then ends) goes on once SHA's is there, and SHA's
	// goes on once OTHER's has been there and is gone. So SHA's analysis
	// runs when OTHER's dies, and ends after it.
	childBeside = "BOT_TEST_CHILD_BESIDE"
)

func TestMain(m *testing.M) {
	if os.Getenv(childMark) != "" {
		os.Exit(analysis.Main(childSolver, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// childAnalyzer is the command that runs a test's analyses in children.
func childAnalyzer(t testing.TB, env ...string) *analysis.Command {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &analysis.Command{Path: exe, Env: append([]string{childMark + "=1"}, env...)}
}

// childSolver is Z3, unless childFault names the commit this child
// analyses (its label, the last argument, is repo@sha).
func childSolver(tab *solver.Table) (solver.Solver, error) {
	label := os.Args[len(os.Args)-1]
	if parts := strings.Split(os.Getenv(childBeside), ":"); len(parts) == 3 {
		besideOnce.Do(func() { meet(parts[0], parts[1][:12], parts[2][:12], label[strings.LastIndex(label, "@")+1:]) })
	}
	mode, sha, _ := strings.Cut(os.Getenv(childFault), ":")
	if sha != "" && strings.HasSuffix(label, "@"+sha[:12]) {
		switch mode {
		case "stack":
			debug.SetMaxStack(1 << 20)
			overflow(0)
		case "kill":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		case "hang":
			time.Sleep(time.Hour) // not select{}: the runtime would call that a deadlock
		}
	}
	return newZ3(tab)
}

// besideOnce makes childBeside's meeting once.
var besideOnce sync.Once

// meet is childBeside's meeting of the children analysing sha and other
// (the one analysing self is one of them), each bounded to a minute.
func meet(dir, sha, other, self string) {
	until := func(done func() bool) {
		for deadline := time.Now().Add(time.Minute); !done() && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	there := func(name string) func() bool {
		return func() bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	}
	switch self {
	case sha:
		os.WriteFile(filepath.Join(dir, sha), nil, 0o644)
		until(there(other))
		until(func() bool { return !processRuns("@" + other + "\x00") })
	case other:
		os.WriteFile(filepath.Join(dir, other), nil, 0o644)
		until(there(sha))
	}
}

// overflow recurses until the stack is exhausted: a fatal error, which no
// recover catches.
func overflow(n int) int {
	if n < 0 { // never: the stack runs out first
		return 0
	}
	var pad [256]byte
	pad[n%256] = byte(n)
	return overflow(n+1) + int(pad[0])
}

// TestChildCrash: the analysis of one pull request dies in its child
// process, of a runtime fatal error (its stack overflows) or of SIGKILL (as
// the kernel's out-of-memory killer sends). Its check run says so and its
// job fails at once, not retried; the pull request analysed beside it (its
// child runs when the other dies: childBeside) gets its normal result, and
// the server goes on to analyse the next one.
func TestChildCrash(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"stack", "the analysis crashed (exit status 2): fatal error: stack overflow"},
		{"kill", "the analysis was killed (signal 9, SIGKILL): most likely out of memory"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			e := newEnv(t)
			e.childEnv = []string{childFault + "=" + tt.mode + ":" + c3, childBeside + "=" + t.TempDir() + ":" + c2 + ":" + c3}
			e.start()
			e.sendPR("pull_request.opened", 8, "d-8", "")      // head c2: innocent
			e.sendPR("pull_request.synchronize", 9, "d-9", "") // head c3: its child dies
			e.idle()
			crashed := e.gh.runsFor(c3)
			if len(crashed) != 1 || crashed[0].Conclusion != "failure" || crashed[0].Title != "The analysis crashed" ||
				!strings.Contains(crashed[0].Summary, tt.want) {
				t.Errorf("the crashed analysis's check run: %+v, want a failure saying %q", crashed, tt.want)
			}
			if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "success" {
				t.Errorf("the pull request beside it: %+v, want its normal result", runs)
			}
			failed := e.jobs(queue.Failed)
			if len(failed) != 1 || !strings.Contains(failed[0].Error, tt.want) {
				t.Errorf("failed jobs %+v, want the crashed one, saying %q", failed, tt.want)
			}
			if got := e.crashJob(failed[0].ID); got.Attempts != 1 || got.Crashes != 0 {
				t.Errorf("the crashed job: %+v, want one attempt, not counted as a crash of the server", got)
			}
			// The server lives on.
			e.sendPR("pull_request.opened", 10, "d-10", "")
			e.idle()
			if cs := e.gh.commentsOf(10); len(cs) != 1 {
				t.Errorf("the next pull request's comments: %+v, want one", cs)
			}
		})
	}
}

// TestChildKilledOnCancel: a child that would never end (it hangs in its
// analysis) is killed when a newer head supersedes its job and when the
// job timeout ends it: the job ends, and no process of it is left.
func TestChildKilledOnCancel(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc to look for the child in")
	}
	t.Run("newer head", func(t *testing.T) {
		e := newEnv(t)
		e.childEnv = []string{childFault + "=hang:" + c2}
		e.start()
		e.send("pull_request.opened", "d-h1")
		waitChild(t, c2, true)
		start := time.Now()
		e.send("pull_request.synchronize", "d-h2")
		waitChild(t, c2, false)
		t.Logf("the child ended %v after the newer head's delivery", time.Since(start).Round(time.Millisecond))
		e.idle()
		if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "cancelled" {
			t.Errorf("the older head's check run: %+v, want cancelled", runs)
		}
		if runs := e.gh.runsFor(c3); len(runs) != 1 || runs[0].Conclusion != "failure" {
			t.Errorf("the newer head's check run: %+v, want its result", runs)
		}
	})
	t.Run("job timeout", func(t *testing.T) {
		e := newEnv(t)
		e.cfg.JobTimeout = 2 * time.Second
		e.childEnv = []string{childFault + "=hang:" + c2}
		e.start()
		e.send("pull_request.opened", "d-t1")
		waitChild(t, c2, true)
		e.idle()
		waitChild(t, c2, false)
		if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "timed_out" {
			t.Errorf("the check run: %+v, want timed_out", runs)
		}
	})
}

// waitChild waits (a bounded while) until a child analysing sha runs, or
// until none does.
func waitChild(t *testing.T, sha string, running bool) {
	t.Helper()
	waitProcess(t, "@"+sha[:12]+"\x00", running)
}

// waitProcess waits (a bounded while) until a process whose command line
// holds args runs, or until none does.
func waitProcess(t *testing.T, args string, running bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if processRuns(args) == running {
			return
		}
	}
	t.Fatalf("a process with the arguments %q: running is not %v after 60 s", args, running)
}

// processRuns tells whether a process whose command line holds args runs.
func processRuns(args string) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		if b, err := os.ReadFile(d); err == nil && bytes.Contains(b, []byte(args)) && !isZombie(filepath.Dir(d)) {
			return true
		}
	}
	return false
}

// isZombie tells whether the process of a /proc directory has exited and
// waits to be reaped.
func isZombie(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return true
	}
	_, rest, _ := bytes.Cut(b, []byte(") "))
	return len(rest) > 0 && rest[0] == 'Z'
}

// TestChildStopEndsItsCommand: a job whose child runs a black-box command
// that would run for a minute reaches its job timeout; the command, in a
// session of its own, ends with the child.
func TestChildStopEndsItsCommand(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc to look for the command in")
	}
	e := newEnv(t)
	e.cfg.JobTimeout = 2 * time.Second
	// The command is found by its arguments: a sleep of a length no other
	// process asks for.
	long := fmt.Sprintf("%d.%06d", 60+os.Getpid()%60, time.Now().Nanosecond()/1000)
	base := e.commitFiles(c1, "master", map[string]string{".setbot.yml": "functions:\n  run_commands: true\n"})
	head := e.commitFiles(base, "gauge", map[string]string{
		"models/gauge/gauge.scxml": gaugeModel, "models/gauge/scale.csv": "0,0\n1,5\n",
		"bin/scale": "#!/bin/sh\nexec sleep " + long + "\n",
	})
	e.start()
	body, _ := fixture(t, "pull_request.opened")
	body = []byte(strings.NewReplacer(`"sha": "`+c1+`"`, `"sha": "`+base+`"`, `"sha": "`+c2+`"`, `"sha": "`+head+`"`).Replace(string(body)))
	if code, a := e.post("pull_request", "d-sleep", body, Sign([]byte(testSecret), body)); code != 202 {
		t.Fatalf("opened: %d %+v", code, a)
	}
	waitProcess(t, "sleep\x00"+long+"\x00", true)
	e.idle()
	if runs := e.gh.runsFor(head); len(runs) != 1 || runs[0].Conclusion != "timed_out" {
		t.Errorf("the check run: %+v, want timed_out", runs)
	}
	waitProcess(t, "sleep\x00"+long+"\x00", false)
}
