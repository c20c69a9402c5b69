package pipeline

import (
	"errors"
	pathpkg "path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vcs"
)

// reads returns the files a model reads besides itself at rev: the
// machines it invokes (and those they invoke), its <data src> and <script
// src> files, as repository paths, sorted. A file it names and that does
// not exist is listed too: its appearance changes the model.
func reads(repo *vcs.Repo, rev, path string) ([]string, error) {
	data, err := repo.ReadFile(rev, path)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(data) {
		return nil, nil
	}
	var out []string
	opts := scxml.Options{ReadFile: readAt(repo, rev, path, &out)}
	scxml.Read(source.NewFileSet(), path, data, opts) // the errors are the analysis's to report
	slices.Sort(out)
	return slices.Compact(out), nil
}

// readAt reads the files a model at path names (relative to its
// directory) at rev, recording each path in read when read is not nil.
func readAt(repo *vcs.Repo, rev, path string, read *[]string) func(rel string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		p := pathpkg.Join(pathpkg.Dir(path), rel)
		if p == ".." || strings.HasPrefix(p, "../") {
			return nil, errors.New("the file is outside the repository")
		}
		if read != nil {
			*read = append(*read, p)
		}
		return repo.ReadFile(rev, p)
	}
}

// throughChanges returns the models at head that did not change but read
// a file that did (an invoked machine, say), each with those files: the
// change reaches them through the files, and they are analysed as changed.
func throughChanges(repo *vcs.Repo, base, head string, isModel func(string) bool, changed []vcs.Change) ([]vcs.Change, map[string][]string, error) {
	all, err := repo.Changed(base, head, nil)
	if err != nil {
		return nil, nil, err
	}
	touched := make(map[string]bool)
	for _, c := range all {
		touched[c.OldPath], touched[c.NewPath] = true, true
	}
	delete(touched, "")
	models, err := repo.Files(head, isModel)
	if err != nil {
		return nil, nil, err
	}
	var out []vcs.Change
	why := make(map[string][]string)
	for _, m := range models {
		if touched[m] || slices.ContainsFunc(changed, func(c vcs.Change) bool { return c.NewPath == m }) {
			continue
		}
		files, err := reads(repo, head, m)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range files {
			if touched[f] {
				why[m] = append(why[m], f)
			}
		}
		if len(why[m]) > 0 {
			out = append(out, vcs.Change{Status: vcs.Modified, OldPath: m, NewPath: m})
		}
	}
	return out, why, nil
}
