package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
