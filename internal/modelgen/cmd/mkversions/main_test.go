package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestVersionsUpToDate checks that testdata/versions holds what the command
// writes from the benchmark models as they are now.
func TestVersionsUpToDate(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..", "testdata")
	for _, m := range models {
		src, err := os.ReadFile(filepath.Join(root, "bench", m.name+".scxml"))
		if err != nil {
			t.Fatal(err)
		}
		files, _, err := build(m.name, src, m.versions)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, "versions", m.name)
		for _, f := range files {
			got, err := os.ReadFile(filepath.Join(dir, f.name))
			if err != nil || !bytes.Equal(got, f.data) {
				t.Errorf("%s/%s is out of date: run go run ./internal/modelgen/cmd/mkversions", m.name, f.name)
			}
		}
		v, _ := filepath.Glob(filepath.Join(dir, "v*.scxml"))
		k, _ := filepath.Glob(filepath.Join(dir, "k_*.scxml"))
		if len(v) != m.versions || len(v)+len(k) != len(files)-1 {
			t.Errorf("%s: %d numbered and %d per-kind versions on disk, want %d of %d", m.name, len(v), len(k), m.versions, len(files)-1)
		}
	}
}
