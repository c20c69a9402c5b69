package vcs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteTree(t *testing.T) {
	f := newFixture(t)
	// The fixture's commit keeps an existing file's mode: the script is
	// made executable before it is committed.
	script := filepath.Join(f.dir, "bin", "tool")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bin/tool", filepath.Join(f.dir, "tool-link")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.wt.Add("tool-link"); err != nil {
		t.Fatal(err)
	}
	old := f.commit("first", map[string]string{"bin/tool": "#!/bin/sh\necho 1\n", "m/a.scxml": "<scxml/>", "gone.txt": "x"})
	f.commit("second", map[string]string{"gone.txt": "", "m/deep/t.csv": "1,2\n"})
	r := f.open()
	defer r.Close()

	dir := t.TempDir()
	if err := r.WriteTree("main", dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"bin/tool": "#!/bin/sh\necho 1\n", "m/a.scxml": "<scxml/>", "m/deep/t.csv": "1,2\n"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "bin", "tool")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("bin/tool: %v, %v; want it executable", fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "m", "a.scxml")); err != nil || fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("m/a.scxml: %v, %v; want it not executable", fi.Mode(), err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "tool-link")); err != nil || target != "bin/tool" {
		t.Errorf("tool-link -> %q, %v; want a link to bin/tool", target, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt, deleted at main, was written: %v", err)
	}

	// An older commit has its own files; a non-empty directory is refused
	// rather than mixed.
	older := t.TempDir()
	if err := r.WriteTree(old, older); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(older, "gone.txt")); err != nil {
		t.Errorf("gone.txt at %s: %v", old, err)
	}
	if err := r.WriteTree(old, older); err == nil {
		t.Error("writing over existing files: no error")
	}
	checkErr(t, r.WriteTree("nope", t.TempDir()), ErrRevisionNotFound, "...writing the tree at nope")
}
