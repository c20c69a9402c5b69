package blackbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
)

// root is the repository root, which the commands are relative to.
const root = "../.."

func TestCommandComputesARow(t *testing.T) {
	run := Command(context.Background(), root, 0)
	f := &model.Function{Name: "RISE", Params: []ast.Type{ast.IntType}, Result: ast.DecimalType, Command: "engine/testdata/microgrid/rise"}
	got, err := run(f, []ast.Expr{&ast.IntLit{Value: 228}})
	if err != nil {
		t.Fatal(err)
	}
	if s := printer.ExprString(got); s != "0.97" {
		t.Errorf("RISE(228) = %s, want 0.97", s)
	}
}

func TestCommandOutsideTheRepository(t *testing.T) {
	run := Command(context.Background(), root, 0)
	for _, cmd := range []string{"../x", "/bin/echo", "engine/../../x"} {
		f := &model.Function{Name: "f", Result: ast.IntType, Command: cmd}
		if _, err := run(f, nil); err == nil || !strings.Contains(err.Error(), "outside the repository") {
			t.Errorf("command %s: error %v, want one that refuses it", cmd, err)
		}
	}
}

func TestCommandOutputOfTheWrongType(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := &model.Function{Name: "f", Result: ast.IntType, Command: "f"}
	if _, err := Command(context.Background(), dir, 0)(f, nil); err == nil || !strings.Contains(err.Error(), `output "hello"`) {
		t.Errorf("error %v", err)
	}
}

func TestSaveRows(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte("# in, out\n1,2"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &model.Function{Name: "f", Table: "t.csv", Rows: []*model.Row{
		{In: []ast.Expr{&ast.IntLit{Value: 1}}, Out: &ast.IntLit{Value: 2}},
		{In: []ast.Expr{&ast.IntLit{Value: 5}}, Out: &ast.StrLit{Value: "a,b"}, Grown: true},
	}}
	n, err := SaveRows(dir, []*model.Function{f})
	if err != nil || n != 1 {
		t.Fatalf("SaveRows = %d, %v", n, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "t.csv"))
	if want := "# in, out\n1,2\n5,\"a,b\"\n"; string(got) != want {
		t.Errorf("table %q, want %q", got, want)
	}
}

// script writes an executable script named name into dir.
func script(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// commandDir is a directory for confined commands that every user can
// reach (t.TempDir's parent lets in no one but its owner).
func commandDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "setbot-blackbox-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestCommandTimeoutKillsItsChildren(t *testing.T) {
	dir := t.TempDir()
	// The child keeps the standard output open after the script is killed.
	script(t, dir, "slow", "sleep 30\necho 1\n")
	f := &model.Function{Name: "slow", Result: ast.IntType, Command: "slow"}
	start := time.Now()
	_, err := Command(context.Background(), dir, 200*time.Millisecond)(f, nil)
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Errorf("error %v, want a timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout took %v: the command's child was waited for", d)
	}
}

func TestConfinedHidesTheEnvironment(t *testing.T) {
	t.Setenv("SETBOT_TEST_SECRET", "hunter2")
	dir := commandDir(t)
	// The length of the variable, then whether HOME is the root.
	script(t, dir, "env", `if [ "$HOME" = "$PWD" ]; then h=1; else h=0; fi; echo "${#SETBOT_TEST_SECRET}$h"`+"\n")
	if err := Prepare(dir); err != nil {
		t.Fatal(err)
	}
	f := &model.Function{Name: "env", Result: ast.IntType, Command: "env"}
	for _, tt := range []struct {
		name string
		run  func(context.Context, string, time.Duration) engine.Runner
		want string
	}{{"Command", Command, "70"}, {"Confined", Confined, "1"}} {
		got, err := tt.run(context.Background(), dir, 0)(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if s := printer.ExprString(got); s != tt.want {
			t.Errorf("%s: the command printed %s, want %s", tt.name, s, tt.want)
		}
	}
}

func TestCommandOutputIsBounded(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "chatty", "echo 1\nhead -c 100000 /dev/zero | tr '\\0' x\n")
	f := &model.Function{Name: "chatty", Result: ast.IntType, Command: "chatty"}
	if _, err := Command(context.Background(), dir, 0)(f, nil); err == nil || !strings.Contains(err.Error(), "more than 65536 bytes of output") {
		t.Errorf("error %v, want one about the output's size", err)
	}
}

func TestCommandStderrIsCut(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "noisy", "head -c 100000 /dev/zero | tr '\\0' e >&2\nexit 3\n")
	f := &model.Function{Name: "noisy", Result: ast.IntType, Command: "noisy"}
	_, err := Command(context.Background(), dir, 0)(f, nil)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "cut at 2048 bytes") {
		t.Fatalf("error %v", err)
	}
	if n := len(err.Error()); n > MaxStderr+200 {
		t.Errorf("the error has %d bytes, want the standard error cut to %d", n, MaxStderr)
	}
}
