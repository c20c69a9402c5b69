package analysis

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// TestChildEnv: the child gets the server's environment without a secret
// the operator may have left in it, and the job's memory budget as
// GOMEMLIMIT.
func TestChildEnv(t *testing.T) {
	env := []string{"PATH=/usr/bin", "HOME=/home/setbot", "SETBOT_WEBHOOK_SECRET=s", "setbot_github_token=t",
		"GITHUB_TOKEN=ghp", "GH_TOKEN=gho", "GOMEMLIMIT=1", "LANG=C"}
	got := childEnv(env, 6<<30)
	want := []string{"PATH=/usr/bin", "HOME=/home/setbot", "LANG=C", "GOMEMLIMIT=6442450944"}
	if !slices.Equal(got, want) {
		t.Errorf("childEnv = %q, want %q", got, want)
	}
	if got := childEnv(env, 0); slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, "GOMEMLIMIT=") }) {
		t.Errorf("childEnv without a budget = %q, want no GOMEMLIMIT", got)
	}
}

// TestFirstCause: of what a dead child wrote, the line that says why.
func TestFirstCause(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"runtime: goroutine stack exceeds 1000000000-byte limit\nruntime: sp=0xc0200e0390\nfatal error: stack overflow\n\nruntime stack:\n", "fatal error: stack overflow"},
		{"panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\n", "panic: assignment to entry in nil map"},
		{"fatal error: concurrent map writes\n", "fatal error: concurrent map writes"},
		{"setbot: reading the analysis request: EOF\n", "setbot: reading the analysis request: EOF"},
		{"", ""},
	} {
		if got := firstCause(tt.text); got != tt.want {
			t.Errorf("firstCause(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestRelay: the child's records reach the job's logger with their level,
// message and attributes (the child's own time dropped); other lines are
// kept, to say why a child died, and logged once.
func TestRelay(t *testing.T) {
	var child, server bytes.Buffer
	clog := slog.New(slog.NewJSONHandler(&child, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clog.Debug("tree explored", "model", "models/m.scxml", "states", 12)
	clog.Warn("cache miss", "key", "k")
	child.WriteString("fatal error: stack overflow\n")
	log := slog.New(slog.NewJSONHandler(&server, &slog.HandlerOptions{Level: slog.LevelDebug})).With("job", 7)
	rest := relay(context.Background(), &child, log)
	if rest != "fatal error: stack overflow\n" {
		t.Errorf("kept %q, want the fatal error's line", rest)
	}
	lines := strings.Split(strings.TrimSpace(server.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("server log:\n%s\nwant three records", server.String())
	}
	for i, want := range []string{
		`"level":"DEBUG","msg":"tree explored","job":7,"model":"models/m.scxml","states":12}`,
		`"level":"WARN","msg":"cache miss","job":7,"key":"k"}`,
		`"level":"WARN","msg":"the analysis process wrote","job":7,"stderr":"fatal error: stack overflow\n"}`,
	} {
		if !strings.HasSuffix(lines[i], want) || strings.Count(lines[i], `"time"`) != 1 {
			t.Errorf("record %d: %s\nwant it to end with %s and carry one time", i, lines[i], want)
		}
	}
}
