package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAnalyzeInChild weighs running an analysis in a child process of
// the server (the binary re-executed, the report back over a pipe) against
// running it in the server's own process: the same `analyze` of the same
// change, in this process and in a re-executed test binary, in one run so
// that the ratio is measured on the same machine at the same time. "fresh"
// analyses with no cache; "cached" with a warm cache file, where the child
// also pays for opening it.
func BenchmarkAnalyzeInChild(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return string(data)
	}
	triangle := read("../../examples/triangle.scxml")
	changed := strings.Replace(triangle, `<data id="a" expr="0"/>`, `<data id="a" expr="1"/>`, 1)
	for _, model := range []struct{ name, base, head string }{
		{"triangle", triangle, changed},
		{"aqs", read("../../testdata/bench/aqs.scxml"), read("../../testdata/versions/aqs/v02.scxml")},
	} {
		repo := changeRepo(b, model.base, model.head)
		cacheFile := filepath.Join(b.TempDir(), "cache.db")
		for _, mode := range []struct {
			name  string
			cache []string
		}{{"fresh", []string{"--no-cache"}}, {"cached", []string{"--cache", cacheFile}}} {
			args := append([]string{"analyze", "--repo", repo, "--base", "HEAD^", "--format", "json", "--quiet"}, mode.cache...)
			if code := run(args, io.Discard, io.Discard); code != 0 {
				b.Fatalf("analyze %s: exit %d", model.name, code)
			}
			b.Run(model.name+"/"+mode.name+"/in-process", func(b *testing.B) {
				for range b.N {
					if code := run(args, io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
			})
			b.Run(model.name+"/"+mode.name+"/child", func(b *testing.B) {
				for range b.N {
					cmd := exec.Command(exe, args...)
					cmd.Env = append(os.Environ(), "SETBOT_TEST_MAIN=1")
					var out bytes.Buffer
					cmd.Stdout = &out
					if err := cmd.Run(); err != nil || out.Len() == 0 {
						b.Fatalf("child: %v, %d bytes", err, out.Len())
					}
				}
			})
		}
	}
}

// changeRepo makes a git repository of two commits: models/m.scxml as base,
// then as head.
func changeRepo(b testing.TB, base, head string) string {
	repo := b.TempDir()
	git := func(args ...string) {
		if out, err := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput(); err != nil {
			b.Skipf("git: %v\n%s", err, out)
		}
	}
	git("init", "-q")
	if err := os.MkdirAll(filepath.Join(repo, "models"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i, text := range []string{base, head} {
		if err := os.WriteFile(filepath.Join(repo, "models", "m.scxml"), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprint("version ", i))
	}
	return repo
}
