package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheEntriesBelongToTheirBuild builds setbot twice, the second time
// with one constant of the analysis changed (its strategy threshold) and
// nothing else, the way a change of semantics without a version bump
// looks, and runs both on one cache: neither finds a tree, suite or result
// the other stored, while each finds its own.
func TestCacheEntriesBelongToTheirBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds setbot twice")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build setbot with")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const file, old, changed = "engine/incremental/incremental.go", "const MinSurvival = 0.30", "const MinSurvival = 0.31"
	src := string(readFile(t, filepath.Join(root, file)))
	if !strings.Contains(src, old) {
		t.Fatalf("%s no longer says %q: choose another constant", file, old)
	}
	patched := filepath.Join(dir, "incremental.go")
	if err := os.WriteFile(patched, []byte(strings.Replace(src, old, changed, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, file): patched}})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(name string, extra ...string) string {
		exe := filepath.Join(dir, name)
		// No VCS stamp, as in a build from a source archive: the
		// content hash in the Go build ID (pipeline.goBuildID) is what
		// tells the builds apart.
		args := append([]string{"build", "-buildvcs=false", "-o", exe}, extra...)
		cmd := exec.Command(goTool, append(args, "./cmd/setbot")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return exe
	}
	a, b := build("setbot-a"), build("setbot-b", "-overlay", overlayFile)

	r := newTestRepo(t)
	tri := readFile(t, "../../examples/triangle.scxml")
	r.commit("base", map[string][]byte{"m.scxml": tri})
	r.commit("head", map[string][]byte{"m.scxml": bytes.Replace(tri, []byte("a == b &amp;&amp; b == c"), []byte("a == b"), 1)})
	cache := filepath.Join(dir, "cache.db")
	analyze := func(exe string) (base, head, result bool) {
		t.Helper()
		cmd := exec.Command(exe, "analyze", "--repo", r.dir, "--base", "HEAD^", "--head", "HEAD", "--cache", cache, "--format", "json")
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		if err := cmd.Run(); err != nil {
			if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
				t.Fatalf("%s analyze: %v\n%s", filepath.Base(exe), err, errs.String())
			}
		}
		var got analyzeJSON
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Models) != 1 {
			t.Fatalf("%s analyze: not one model's JSON (%v):\n%s", filepath.Base(exe), err, out.String())
		}
		m := got.Models[0]
		return m.BaseCached, m.HeadCached, m.Result
	}
	if base, head, result := analyze(a); base || head || result {
		t.Fatalf("first run found entries in an empty cache: base %v, head %v, result %v", base, head, result)
	}
	if _, _, result := analyze(a); !result {
		t.Fatal("the same build does not find its own result")
	}
	if base, head, result := analyze(b); base || head || result {
		t.Errorf("a build with another constant used the first build's entries: base tree %v, head tree %v, result %v", base, head, result)
	}
	if _, _, result := analyze(b); !result {
		t.Error("the second build does not find its own result")
	}
}
