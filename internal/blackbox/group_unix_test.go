//go:build unix

package blackbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
)

// gone waits a little for the process whose pid the command wrote to
// file to be gone (or a zombie its new parent has yet to reap), and
// reports whether it went.
func gone(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the command wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || err == nil && strings.Contains(string(stat), ") Z ") {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL) // leave nothing behind
	return false
}

func TestCancelledRunKillsTheCommand(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "slow", "sleep 60 &\necho $! > pid\nwait\necho 1\n")
	f := &model.Function{Name: "slow", Result: ast.IntType, Command: "slow"}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(dir, "pid")); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := Command(ctx, dir, 5*time.Minute)(f, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the run's cancellation", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the cancelled command ran for %v", d)
	}
	if !gone(t, filepath.Join(dir, "pid")) {
		t.Error("the command's child still runs after the run was cancelled")
	}
	// A run after the cancellation does not start the command.
	if _, err := Command(ctx, dir, 0)(f, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a run after the cancellation: error %v", err)
	}
}

func TestNormalExitKillsTheChildren(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "bg", "sleep 120 >/dev/null 2>&1 &\necho $! > pid\necho 1\n")
	f := &model.Function{Name: "bg", Result: ast.IntType, Command: "bg"}
	got, err := Command(context.Background(), dir, 0)(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := printer.ExprString(got); s != "1" {
		t.Errorf("bg() = %s, want 1", s)
	}
	if !gone(t, filepath.Join(dir, "pid")) {
		t.Error("the command's background child outlived it")
	}
}

func TestChildHoldingTheOutputDoesNotFailTheRun(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "bg", "sleep 120 &\necho $! > pid\necho 1\n")
	f := &model.Function{Name: "bg", Result: ast.IntType, Command: "bg"}
	if _, err := Command(context.Background(), dir, 0)(f, nil); err != nil {
		t.Errorf("error %v: the child holding the output was waited for", err)
	}
	if !gone(t, filepath.Join(dir, "pid")) {
		t.Error("the command's background child outlived it")
	}
}
