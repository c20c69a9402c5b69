package server

import (
	"log/slog"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestForgetSecrets: once the server has its configuration, no SETBOT_*
// variable is left for a child to inherit, and the process is not
// dumpable, so that its /proc entries are root's.
func TestForgetSecrets(t *testing.T) {
	t.Setenv("SETBOT_WEBHOOK_SECRET", "s3cret")
	t.Setenv("setbot_github_token", "t0ken")
	t.Setenv("SETBOTISH", "kept")
	forgetSecrets(slog.New(slog.DiscardHandler))
	for _, name := range []string{"SETBOT_WEBHOOK_SECRET", "setbot_github_token"} {
		if _, ok := os.LookupEnv(name); ok {
			t.Errorf("%s is still in the environment", name)
		}
	}
	if os.Getenv("SETBOTISH") != "kept" {
		t.Error("a variable that is not setbot's was removed")
	}
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err != nil || d != 0 {
		t.Errorf("PR_GET_DUMPABLE: %d %v, want 0", d, err)
	}
}
