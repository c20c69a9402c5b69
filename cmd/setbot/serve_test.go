package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/bot/analysis"
)

func TestServeRefusesBadConfig(t *testing.T) {
	t.Setenv("SETBOT_WEBHOOK_SECRET", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "setbot.yml")
	if err := os.WriteFile(cfg, []byte("listen: \":8080\"\nworkrs: 3\ngithub:\n  token: t\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "serve", "--config", cfg)
	if code != exitUsage || !strings.Contains(errs, "setbot.yml:2:1") || !strings.Contains(errs, "workrs") || !strings.Contains(errs, "webhook secret") {
		t.Errorf("serve with a bad config: exit %d\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "serve", "--config", filepath.Join(dir, "missing.yml"))
	if code != exitUsage || !strings.Contains(errs, "missing.yml") {
		t.Errorf("serve with a missing config: exit %d\n%s", code, errs)
	}
}

func TestHealthcheck(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) }))
	defer srv.Close()
	if code, _, errs := runCLI(t, "healthcheck", "--url", srv.URL+"/healthz"); code != 0 {
		t.Errorf("healthy server: exit %d\n%s", code, errs)
	}
	status = http.StatusServiceUnavailable
	if code, _, errs := runCLI(t, "healthcheck", "--url", srv.URL+"/healthz"); code != exitFindings || !strings.Contains(errs, "503") {
		t.Errorf("unhealthy server: exit %d\n%s", code, errs)
	}
	srv.Close()
	if code, _, _ := runCLI(t, "healthcheck", "--url", srv.URL+"/healthz", "--timeout", "1s"); code != exitFindings {
		t.Errorf("no server: exit %d", code)
	}
}

// TestInternalAnalyze: the hidden subcommand the server runs each analysis
// with answers a request on its standard input with the analysis of the
// change, as the server reads it, and is not listed in --help.
func TestInternalAnalyze(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	triangle := string(data)
	repo := changeRepo(t, triangle, strings.Replace(triangle, `<data id="a" expr="0"/>`, `<data id="a" expr="1"/>`, 1))
	cmd := analysis.Command{Path: exe, Args: []string{internalAnalyze}, Env: []string{"SETBOT_TEST_MAIN=1"}}
	req := &analysis.Request{Pass: analysis.Change, Dir: repo, Base: "HEAD^", Head: "HEAD", Repo: "octo/triangle",
		Store: analysis.Store{Path: filepath.Join(t.TempDir(), "setbot.db")}}
	res, err := analysis.InChild(context.Background(), cmd, "octo/triangle@HEAD", req, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != "" || res.Change == nil || res.Change.Conclusion == "" || !strings.Contains(res.Change.Comment, "models/m.scxml") {
		t.Errorf("the child's result: %+v", res)
	}
	if _, out, _ := runCLI(t, "--help"); strings.Contains(out, internalAnalyze) {
		t.Errorf("--help lists %s:\n%s", internalAnalyze, out)
	}
}
