package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestMain lets a test run this binary as setbot itself (SETBOT_TEST_MAIN=1),
// as a user's terminal runs it.
func TestMain(m *testing.M) {
	if os.Getenv("SETBOT_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestExploreInterruptOnATerminal: explore on a terminal shows its
// progress, and Ctrl-C (SIGINT) stops it with what it found, cut by the
// interrupt, and exit status 130.
func TestExploreInterruptOnATerminal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "explore", "--depth", "13", "../../testdata/bench/accs.scxml")
	cmd.Env = append(os.Environ(), "SETBOT_TEST_MAIN=1")
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	text := func() string {
		mu.Lock()
		defer mu.Unlock()
		return out.String()
	}
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(text(), "setbot: exploring:") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no progress shown within a minute:\n%s", text())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want status %d", err, exitInterrupted)
	}
	time.Sleep(100 * time.Millisecond) // the rest of the output
	got := text()
	for _, want := range []string{"symbolic states", "bound hit: interrupt"} {
		if !strings.Contains(got, want) {
			t.Errorf("the output does not say %q:\n%s", want, got)
		}
	}
}

// TestAnalyzeInterrupt: Ctrl-C (SIGINT) stops analyze in the middle of a
// solver query with exit status 130 and says so.
func TestAnalyzeInterrupt(t *testing.T) {
	repo, commits, env := ciEnv(t)
	hard, err := os.ReadFile("../../engine/testdata/fermat.scxml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "models", "hard.scxml"), hard, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "models/hard.scxml"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "hard"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git: %v\n%s", err, out)
		}
	}
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "analyze", "--repo", repo, "--no-cache", "--base", commits[3].SHA, "--head", "HEAD")
	cmd.Env = append(env, "SETBOT_TEST_MAIN=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Once it says it explores the hard model, it is in (or near) the
	// query that does not end.
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stderr.String(), "hard.scxml: exploring") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("analyze did not start on the model within a minute:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit: %v, want status %d with a message; stderr:\n%s", err, exitInterrupted, stderr.String())
	}
}

// TestAnalyzeInterruptInTheDelta: Ctrl-C while analyze replays the base
// tests on the head (a loop with no solver to stop) ends it in that step:
// exit status 130, no report, and a message that names the model and the
// step it stopped in. The delta of the thousands of tests of a path-
// coverage suite takes far longer than hearing the signal; the limit on
// the wait only keeps a broken build from hanging the test.
func TestAnalyzeInterruptInTheDelta(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git: %v\n%s", err, out)
		}
	}
	git("init", "-q")
	for i, version := range []string{"../../testdata/bench/aqs.scxml", "../../testdata/versions/aqs/v02.scxml"} {
		data, err := os.ReadFile(version)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(repo, "models"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "models", "aqs.scxml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprint("version ", i))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "analyze", "--repo", repo, "--no-cache", "--base", "HEAD^", "--coverage", "path", "--format", "json")
	cmd.Env = append(os.Environ(), "SETBOT_TEST_MAIN=1")
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(stderr.String(), "replaying the") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the delta did not start within two minutes:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-exited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 20 s after Ctrl-C:\n%s", stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want status %d", err, exitInterrupted)
	}
	got := stderr.String()
	// Had the delta gone on to the end, it would have said what came of
	// it.
	if want := "setbot: interrupted while analysing models/aqs.scxml (last step: replaying the "; !strings.Contains(got, want) || strings.Contains(got, "test delta:") {
		t.Errorf("stderr does not say it stopped in the delta (%q):\n%s", want, got)
	}
	if stdout.String() != "" {
		t.Errorf("a report was printed:\n%.300s", stdout.String())
	}
}

// syncBuffer is a buffer a process writes to while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
