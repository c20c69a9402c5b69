package analysis

import (
	"context"
	"encoding/gob"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/internal/blackbox"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vcs"
)

// Command is how the server starts the child of an analysis: the server's
// own binary and the hidden subcommand that calls Main.
type Command struct {
	Path string
	Args []string
	// Env is added to the child's environment (tests mark their children
	// so; the server adds nothing).
	Env []string
}

// message is what the child writes on its standard output: a question for
// the server (may commands run?) or, last, the result.
type message struct {
	AskRefusal bool
	Result     *Result
}

// CrashError is an analysis whose child process ended without a result: a
// runtime fatal error, a signal (the kernel's out-of-memory killer sends
// SIGKILL), or an exit before it answered.
type CrashError struct {
	What string // what happened, in plain words
}

func (e *CrashError) Error() string { return e.What }

// stderrKept bounds what the server keeps of a child's standard error that
// is not a log record (a fatal error's goroutine dump can be megabytes).
const stderrKept = 8 << 10

// termGrace is how long a child has, once told to stop, to stop the
// command it runs and exit, before it is killed.
const termGrace = 300 * time.Millisecond

// InChild runs req in a child process started by cmd: the child's log
// records go to log, a question whether commands may run is answered by
// refuse (nil: never asked), and when ctx ends the child is stopped: told
// at once, killed termGrace later if it has not exited. label names the
// analysis in the child's arguments, for ps and the kernel's log. The
// error is a *CrashError when the child ended without a result, ctx's
// cause when ctx ended first.
func InChild(ctx context.Context, cmd Command, label string, req *Request, log *slog.Logger, refuse func(context.Context) string) (*Result, error) {
	c := exec.CommandContext(ctx, cmd.Path, append(append([]string{}, cmd.Args...), label)...)
	c.Env = append(childEnv(os.Environ(), req.MaxMemory), cmd.Env...)
	ownGroup(c)
	stdin, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	// When ctx ends, the child's standard input closes: it cancels its
	// analysis, which kills the black-box command it may be running (in a
	// session of its own, out of reach of any signal to the child), and
	// exits. If it is still there after termGrace, it is killed.
	c.Cancel, c.WaitDelay = stdin.Close, termGrace
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := c.StderrPipe()
	if err != nil {
		return nil, err
	}
	req.Debug = log.Enabled(ctx, slog.LevelDebug)
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("starting the analysis: %w", err)
	}
	relayed := make(chan string, 1)
	go func() { relayed <- relay(ctx, stderr, log) }()
	res := converse(ctx, gob.NewEncoder(stdin), gob.NewDecoder(stdout), req, refuse)
	stdin.Close()
	io.Copy(io.Discard, stdout) // so that Wait does not wait on a child still writing
	rest := <-relayed
	werr := c.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case res != nil:
		return res, nil
	}
	return nil, &CrashError{What: crashText(c.ProcessState, werr, rest)}
}

// converse sends req and answers the child's questions until it sends its
// result; nil when the child ended without one.
func converse(ctx context.Context, enc *gob.Encoder, dec *gob.Decoder, req *Request, refuse func(context.Context) string) *Result {
	req.AskRefusal = refuse != nil
	if enc.Encode(req) != nil {
		return nil
	}
	for {
		var m message
		if dec.Decode(&m) != nil {
			return nil
		}
		if m.Result != nil {
			return m.Result
		}
		if m.AskRefusal {
			if enc.Encode(refuse(ctx)) != nil {
				return nil
			}
		}
	}
}

// childEnv is the server's environment without its secrets (SETBOT_*,
// GITHUB_*, GH_*: a token the operator left in the environment) and with
// GOMEMLIMIT set to the job's memory budget, so that the child's collector
// works harder as it nears it.
func childEnv(env []string, memory int64) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch up := strings.ToUpper(name); {
		case strings.HasPrefix(up, "SETBOT_"), strings.HasPrefix(up, "GITHUB_"), strings.HasPrefix(up, "GH_"), up == "GOMEMLIMIT":
			continue
		}
		out = append(out, kv)
	}
	if memory > 0 {
		out = append(out, "GOMEMLIMIT="+strconv.FormatInt(memory, 10))
	}
	return out
}

// crashText says how a child that sent no result ended, with the line of
// its standard error that says why (rest is what it wrote that was not a
// log record).
func crashText(st *os.ProcessState, werr error, rest string) string {
	why := firstCause(rest)
	var what string
	switch {
	case st == nil:
		what = fmt.Sprintf("the analysis could not be waited for: %v", werr)
	case signalOf(st) == "SIGKILL":
		what = "the analysis was killed (signal 9, SIGKILL): most likely out of memory, by the kernel's out-of-memory killer or the container's memory limit"
	case signalOf(st) != "":
		what = fmt.Sprintf("the analysis was killed by signal %s", signalOf(st))
	case st.ExitCode() == 0:
		what = "the analysis ended without a result"
	default:
		what = fmt.Sprintf("the analysis crashed (exit status %d)", st.ExitCode())
	}
	if why != "" {
		what += ": " + why
	}
	return what
}

// firstCause picks the line of a dead child's standard error that says why
// it died: Go's "fatal error: ..." or "panic: ...", else the first line.
func firstCause(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "panic: ") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[0])
}

// Main is the child: it reads one Request on in, runs it, and writes the
// result on out; its log records go to errw as JSON lines, which the
// server relays. newSolver is the decision procedure. The exit code is 0
// when a result was written. When in closes before the result is written
// (the server stopped the job, or died), the child cancels its analysis,
// which kills the black-box command it may be running, and exits within
// termGrace. It ignores SIGTERM and SIGINT: the server decides when its
// analyses stop (a service manager that signals every process of the
// service would otherwise end them at the start of the server's drain).
func Main(newSolver solver.Factory, in io.Reader, out, errw io.Writer) int {
	// The store's URL may hold a password: no command the analysis runs
	// reads this process's memory or first environment.
	protectErr := blackbox.Protect()
	dec, enc := gob.NewDecoder(in), gob.NewEncoder(out)
	var req Request
	if err := dec.Decode(&req); err != nil {
		fmt.Fprintf(errw, "setbot: reading the analysis request: %v\n", err)
		return 2
	}
	level := slog.LevelInfo
	if req.Debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewJSONHandler(errw, &slog.HandlerOptions{Level: level}))
	if protectErr != nil {
		log.Warn("the analysis process stays dumpable", "err", protectErr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stop := func() {
		cancel()
		time.AfterFunc(termGrace, func() { os.Exit(exitStopped) })
	}
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	answers := make(chan string)
	go func() {
		for {
			var why string
			if dec.Decode(&why) != nil {
				stop() // no one waits for the result
				return
			}
			answers <- why
		}
	}()
	res := serve(ctx, &req, newSolver, log, enc, answers)
	if err := enc.Encode(message{Result: res}); err != nil {
		fmt.Fprintf(errw, "setbot: writing the analysis result: %v\n", err)
		return 2
	}
	return 0
}

// exitStopped is the exit code of a child stopped before its result.
const exitStopped = 3

// serve opens what req names and runs it; a question whether commands may
// run goes to the server through enc and its answer comes on answers.
func serve(ctx context.Context, req *Request, newSolver solver.Factory, log *slog.Logger, enc *gob.Encoder, answers <-chan string) *Result {
	store, err := req.Store.open(ctx, cache.Options{Logger: log})
	if err != nil {
		return &Result{Err: err.Error()}
	}
	if store != nil {
		defer store.Close()
	}
	repo, err := vcs.Open(req.Dir)
	if err != nil {
		return &Result{Err: err.Error()}
	}
	defer repo.Close()
	opts := pipeline.Options{Cache: store, Solver: newSolver, Logger: log}
	if req.AskRefusal {
		var mu sync.Mutex
		opts.RefuseCommands = func(ctx context.Context) string {
			mu.Lock()
			defer mu.Unlock()
			if err := enc.Encode(message{AskRefusal: true}); err != nil {
				return "the server did not answer whether commands may run: " + err.Error()
			}
			select {
			case why := <-answers:
				return why
			case <-ctx.Done():
				return "the analysis was stopped"
			}
		}
	}
	return Run(ctx, repo, req, opts)
}
