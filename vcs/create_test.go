package vcs

import (
	"path/filepath"
	"testing"
	"time"
)

// TestCreate: each commit of the history holds its files and those of the
// commits before, the change between two is the file that changed, and
// fixed authors and times give the same SHAs twice.
func TestCreate(t *testing.T) {
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	history := []Commit{
		{Files: map[string][]byte{"a.txt": []byte("one\n"), "dir/b.txt": []byte("b\n")}, Message: "first", Name: "n", Email: "e@x", When: when},
		{Files: map[string][]byte{"a.txt": []byte("two\n")}, Message: "second", Name: "n", Email: "e@x", When: when.Add(time.Hour)},
	}
	dir := filepath.Join(t.TempDir(), "repo")
	shas, err := Create(dir, history)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Create(filepath.Join(t.TempDir(), "repo"), history)
	if err != nil {
		t.Fatal(err)
	}
	if len(shas) != 2 || shas[0] != again[0] || shas[1] != again[1] {
		t.Fatalf("SHAs %v, then %v", shas, again)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct{ rev, path, want string }{
		{shas[0], "a.txt", "one\n"}, {shas[1], "a.txt", "two\n"}, {shas[1], "dir/b.txt", "b\n"}, {"HEAD", "a.txt", "two\n"},
	} {
		got, err := r.ReadFile(c.rev, c.path)
		if err != nil || string(got) != c.want {
			t.Errorf("%s at %.7s: %q, %v; want %q", c.path, c.rev, got, err, c.want)
		}
	}
	changes, err := r.Changed(shas[0], shas[1], func(string) bool { return true })
	if err != nil || len(changes) != 1 || changes[0].Path() != "a.txt" {
		t.Errorf("changed: %+v, %v", changes, err)
	}
	if _, err := Create(dir, history); err == nil {
		t.Error("Create in a repository: no error")
	}
}
