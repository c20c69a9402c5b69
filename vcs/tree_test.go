package vcs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// changeHistory has one commit of each kind of change after base.
type changeHistory struct {
	f          *fixture
	base, head string
}

func newChangeHistory(t *testing.T) changeHistory {
	f := newFixture(t)
	h := changeHistory{f: f}
	h.base = f.commit("base", map[string]string{
		"models/a.scxml":      lines("a", 20),
		"models/b.scxml":      lines("b", 20),
		"models/c.scxml":      lines("c", 20),
		"models/big.scxml":    lines("big", 20),
		"models/x.scxml":      lines("x", 20),
		"models/keep.scxml":   lines("keep", 20),
		"docs/notes.txt":      lines("notes", 20),
		"docs/readme.md":      lines("readme", 20),
		"models-old/z.scxml":  lines("z", 20),
		"models.scxml":        lines("top", 20),
		"models/deep/d.scxml": lines("d", 20),
	})
	edited := strings.Replace(lines("big", 20), "big line a", "big line A (edited)", 1)
	h.head = f.commit("head", map[string]string{
		"models/new.scxml":     lines("new", 20),                        // added
		"models/a.scxml":       lines("a", 20) + "one more line\n",      // modified
		"models/c.scxml":       "",                                      // deleted
		"models/b.scxml":       "",                                      // renamed, pure
		"models/sub/b2.scxml":  lines("b", 20),                          //
		"models/big.scxml":     "",                                      // renamed, with an edit
		"archive/big.scxml":    edited,                                  //
		"docs/notes.txt":       "",                                      // renamed into models/
		"models/notes.scxml":   lines("notes", 20),                      //
		"models/x.scxml":       "",                                      // renamed out of models/
		"attic/x.txt":          lines("x", 20),                          //
		"docs/readme.md":       lines("readme", 20) + "more\n",          // modified, not a model
		"models/deep/d.scxml":  "",                                      // deleted
		"models-old/z.scxml":   lines("z", 20) + strings.Repeat("!", 3), // modified
		"models/keep.scxml":    lines("keep", 20),                       // unchanged
		"models.scxml":         lines("top", 20),                        // unchanged
		"models/deep/e.scxml":  lines("e", 20),                          // added
		"models/empty/.keepme": "x",                                     // added, not a model
	})
	return h
}

func TestChanged(t *testing.T) {
	h := newChangeHistory(t)
	r := h.f.open()
	all := []Change{
		{Renamed, "models/big.scxml", "archive/big.scxml"},
		{Renamed, "models/x.scxml", "attic/x.txt"},
		{Modified, "docs/readme.md", "docs/readme.md"},
		{Modified, "models-old/z.scxml", "models-old/z.scxml"},
		{Modified, "models/a.scxml", "models/a.scxml"},
		{Deleted, "models/c.scxml", ""},
		{Deleted, "models/deep/d.scxml", ""},
		{Added, "", "models/deep/e.scxml"},
		{Added, "", "models/empty/.keepme"},
		{Added, "", "models/new.scxml"},
		{Renamed, "docs/notes.txt", "models/notes.scxml"},
		{Renamed, "models/b.scxml", "models/sub/b2.scxml"},
	}
	keep := func(pred func(Change) bool) []Change {
		var out []Change
		for _, c := range all {
			if pred(c) {
				out = append(out, c)
			}
		}
		return out
	}
	inModels := func(p string) bool { return strings.HasPrefix(p, "models/") }
	isModel := func(p string) bool { return strings.HasSuffix(p, ".scxml") }
	tests := []struct {
		name       string
		base, head string
		match      func(string) bool
		want       []Change
	}{
		{"every file", h.base, h.head, nil, all},
		{"by revision names", "main~1", "main", nil, all},
		{"under models/", h.base, h.head, inModels, keep(func(c Change) bool {
			return inModels(c.OldPath) || inModels(c.NewPath)
		})},
		{"models only", h.base, h.head, isModel, keep(func(c Change) bool {
			return c.Path() != "docs/readme.md" && c.Path() != "models/empty/.keepme"
		})},
		{"nothing matches", h.base, h.head, func(string) bool { return false }, nil},
		{"same commit", h.head, "HEAD", nil, nil},
		{"backwards", h.head, h.base, isModel, []Change{
			{Renamed, "models/notes.scxml", "docs/notes.txt"},
			{Modified, "models-old/z.scxml", "models-old/z.scxml"},
			{Modified, "models/a.scxml", "models/a.scxml"},
			{Renamed, "models/sub/b2.scxml", "models/b.scxml"},
			{Renamed, "archive/big.scxml", "models/big.scxml"},
			{Added, "", "models/c.scxml"},
			{Added, "", "models/deep/d.scxml"},
			{Deleted, "models/deep/e.scxml", ""},
			{Deleted, "models/new.scxml", ""},
			{Renamed, "attic/x.txt", "models/x.scxml"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.Changed(tt.base, tt.head, tt.match)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Changed =\n%s\nwant\n%s", formatChanges(got), formatChanges(tt.want))
			}
		})
	}
	t.Run("git agrees", func(t *testing.T) {
		out, err := runGit(t, h.f.dir, "diff", "--name-status", "-M", h.base, h.head)
		if err != nil {
			t.Fatal(err)
		}
		var fromGit []Change
		for line := range strings.Lines(out) {
			f := strings.Split(strings.TrimSpace(line), "\t")
			switch f[0][0] {
			case 'A':
				fromGit = append(fromGit, Change{Added, "", f[1]})
			case 'D':
				fromGit = append(fromGit, Change{Deleted, f[1], ""})
			case 'M':
				fromGit = append(fromGit, Change{Modified, f[1], f[1]})
			case 'R':
				fromGit = append(fromGit, Change{Renamed, f[1], f[2]})
			}
		}
		slices.SortFunc(fromGit, func(a, b Change) int { return strings.Compare(a.Path(), b.Path()) })
		if !slices.Equal(all, fromGit) {
			t.Errorf("git diff -M gives\n%s\nwant\n%s", formatChanges(fromGit), formatChanges(all))
		}
	})
}

func formatChanges(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\t%s %q -> %q\n", c.Status, c.OldPath, c.NewPath)
	}
	return b.String()
}

func TestChangedBadRevision(t *testing.T) {
	h := newChangeHistory(t)
	r := h.f.open()
	_, err := r.Changed("main", "nope", nil)
	checkErr(t, err, ErrRevisionNotFound, `listing changes from main to nope: resolving "nope": revision not found`)
}

func TestReadFile(t *testing.T) {
	h := newChangeHistory(t)
	r := h.f.open()
	short := h.head[:7]
	tests := []struct {
		rev, path string
		want      string
		wantIs    error
		wantMsg   string
	}{
		{rev: h.base, path: "models/a.scxml", want: lines("a", 20)},
		{rev: h.head, path: "models/a.scxml", want: lines("a", 20) + "one more line\n"},
		{rev: "main", path: "models/a.scxml", want: lines("a", 20) + "one more line\n"},
		{rev: "main~1", path: "models/b.scxml", want: lines("b", 20)},
		{rev: "main", path: "models/sub/b2.scxml", want: lines("b", 20)},
		{rev: h.head, path: "/models/a.scxml", want: lines("a", 20) + "one more line\n"},
		{rev: h.head, path: "./models//a.scxml", want: lines("a", 20) + "one more line\n"},
		{rev: h.base, path: "models/c.scxml", want: lines("c", 20)},
		{rev: h.head, path: "models/c.scxml", wantIs: ErrPathNotFound,
			wantMsg: "reading models/c.scxml at " + short + ": path not found"},
		{rev: h.head[:10], path: "models/zzz.scxml", wantIs: ErrPathNotFound,
			wantMsg: "reading models/zzz.scxml at " + short + ": path not found"},
		{rev: "main", path: "nope/zzz.scxml", wantIs: ErrPathNotFound,
			wantMsg: "reading nope/zzz.scxml at main (" + short + "): path not found"},
		{rev: h.head, path: "models/a.scxml/x", wantIs: ErrPathNotFound, wantMsg: "...path not found"},
		{rev: h.head, path: "models", wantMsg: "reading models at " + short + ": is a directory"},
		{rev: h.head, path: "models/deep/", wantMsg: "reading models/deep at " + short + ": is a directory"},
		{rev: h.head, path: "", wantMsg: "...is a directory"},
		{rev: h.head, path: "../etc/passwd", wantMsg: "...invalid path"},
		{rev: "HEAD~9", path: "models/a.scxml", wantIs: ErrRevisionNotFound,
			wantMsg: `reading models/a.scxml at HEAD~9: resolving "HEAD~9": revision not found`},
	}
	for _, tt := range tests {
		t.Run(tt.rev+":"+tt.path, func(t *testing.T) {
			got, err := r.ReadFile(tt.rev, tt.path)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tt.want {
					t.Errorf("ReadFile = %q, want %q", got, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("ReadFile = %q, want an error", got)
			}
			if tt.wantIs == nil && errors.Is(err, ErrPathNotFound) {
				t.Errorf("error %q wraps ErrPathNotFound", err)
			}
			checkErr(t, err, tt.wantIs, tt.wantMsg)
		})
	}
}

func TestFiles(t *testing.T) {
	h := newChangeHistory(t)
	r := h.f.open()
	tests := []struct {
		rev   string
		match func(string) bool
		want  []string
	}{
		{h.base, nil, []string{
			"docs/notes.txt", "docs/readme.md", "models-old/z.scxml", "models.scxml",
			"models/a.scxml", "models/b.scxml", "models/big.scxml", "models/c.scxml",
			"models/deep/d.scxml", "models/keep.scxml", "models/x.scxml",
		}},
		{"main", func(p string) bool { return strings.HasSuffix(p, ".scxml") }, []string{
			"archive/big.scxml", "models-old/z.scxml", "models.scxml", "models/a.scxml",
			"models/deep/e.scxml", "models/keep.scxml", "models/new.scxml", "models/notes.scxml",
			"models/sub/b2.scxml",
		}},
		{"main", func(p string) bool { return strings.HasPrefix(p, "models/") && !strings.HasSuffix(p, ".scxml") },
			[]string{"models/empty/.keepme"}},
		{"main", func(string) bool { return false }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.rev, func(t *testing.T) {
			got, err := r.Files(tt.rev, tt.match)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Files = %q, want %q", got, tt.want)
			}
			if tt.match == nil {
				out, err := runGit(t, h.f.dir, "ls-tree", "-r", "--name-only", tt.rev)
				if err != nil {
					t.Fatal(err)
				}
				if gitSays := strings.Split(out, "\n"); !slices.Equal(got, gitSays) {
					t.Errorf("git ls-tree gives %q", gitSays)
				}
			}
		})
	}
	_, err := r.Files("nope", nil)
	checkErr(t, err, ErrRevisionNotFound, `listing files at nope: resolving "nope": revision not found`)
}
