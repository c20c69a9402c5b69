// Command mkversions writes modified versions of the benchmark models, for
// reproducing the evaluation of incremental symbolic execution
// (Khalil & Dingel, TR 2015-623, §6.2.2-6.2.3, Tables 3-5).
//
// As in the paper, each numbered version (v01.scxml, ...) changes one
// simple or group transition of the base model: odd versions rename its
// event (to a new event, declared with the old one's parameters when the
// old one is declared), even versions add <send event="evAudit"
// target="#_parent"/> to its action. The transitions are taken at even
// intervals in document order, so that they spread over the model: near
// the initial state, deep in composite states, and on group transitions.
// The paper made 26 versions of AQS, 19 of LGS and 19 of ACCS; so does
// this command. Then, for every change kind of modelgen.Kinds that
// applies to the model, k_<kind>.scxml holds one change of that kind made
// by modelgen.MutateEdit, with the first seed from 1 that does not repeat
// an earlier version. versions.json lists each version's file, kind,
// subject and description.
//
// Run it from the repository root:
//
//	go run ./internal/modelgen/cmd/mkversions
//
// The output is deterministic; every version is checked to read and
// flatten before it is written.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// maxSeed bounds the seeds tried for a per-kind version that differs from
// the versions before it.
const maxSeed = 10

// models are the benchmark models and how many transition versions the
// paper made of each.
var models = []struct {
	name     string
	versions int
}{
	{"aqs", 26},
	{"lgs", 19},
	{"accs", 19},
}

// entry describes one version in versions.json.
type entry struct {
	File        string        `json:"file"`
	Kind        modelgen.Kind `json:"kind"`
	Subject     string        `json:"subject"`
	Description string        `json:"description"`
}

// file is one file to write.
type file struct {
	name string
	data []byte
}

func main() {
	bench := flag.String("bench", "testdata/bench", "the directory of the base models")
	out := flag.String("out", "testdata/versions", "the directory to write the versions into (one directory per model)")
	flag.Parse()
	for _, m := range models {
		if err := run(*bench, *out, m.name, m.versions); err != nil {
			fmt.Fprintln(os.Stderr, "mkversions:", err)
			os.Exit(1)
		}
	}
}

// run writes the versions of one model into out/<name>, replacing any
// written before.
func run(bench, out, name string, n int) error {
	src, err := os.ReadFile(filepath.Join(bench, name+".scxml"))
	if err != nil {
		return err
	}
	files, skipped, err := build(name, src, n)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, pattern := range []string{"v*.scxml", "k_*.scxml", "versions.json"} {
		old, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%s: %d versions written to %s; kinds that do not apply: %v\n", name, len(files)-1, dir, skipped)
	return nil
}

// build makes the versions of one model: the files to write (versions.json
// last) and the kinds that do not apply to it.
func build(name string, src []byte, n int) ([]file, []modelgen.Kind, error) {
	list, err := modelgen.Transitions(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", name, err)
	}
	var cands []modelgen.TransitionInfo
	for _, t := range list {
		if t.Renamable {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil, nil, fmt.Errorf("%s: no transition to change", name)
	}
	var files []file
	var entries []entry
	add := func(fname string, data []byte, e modelgen.Edit) error {
		if err := check(name+"/"+fname, data); err != nil {
			return err
		}
		files = append(files, file{fname, data})
		entries = append(entries, entry{fname, e.Kind, e.Subject, e.Description})
		return nil
	}
	for i := range n {
		// Even intervals over the candidates; when there are fewer
		// candidates than versions, a transition gets both changes.
		t := cands[i*len(cands)/n]
		change := modelgen.RenameTrigger
		if i%2 == 1 {
			change = modelgen.AddOutput
		}
		data, e, err := change(src, t.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
		if t.Group {
			e.Description += fmt.Sprintf(" (a group transition of %s)", t.Source)
		}
		if err := add(fmt.Sprintf("v%02d.scxml", i+1), data, e); err != nil {
			return nil, nil, err
		}
	}
	var skipped []modelgen.Kind
	for _, k := range modelgen.Kinds {
		data, e, ok := perKind(src, k, files)
		if !ok {
			skipped = append(skipped, k)
			continue
		}
		if err := add("k_"+string(k)+".scxml", data, e); err != nil {
			return nil, nil, err
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(entries); err != nil {
		return nil, nil, err
	}
	return append(files, file{"versions.json", b.Bytes()}), skipped, nil
}

// perKind makes a change of kind k with modelgen.MutateEdit, with the
// first seed from 1 that gives a document none of the earlier files is.
func perKind(src []byte, k modelgen.Kind, earlier []file) ([]byte, modelgen.Edit, bool) {
	for seed := int64(1); seed <= maxSeed; seed++ {
		data, e, ok := modelgen.MutateEdit(src, k, seed)
		if !ok {
			return nil, modelgen.Edit{}, false
		}
		if !slices.ContainsFunc(earlier, func(f file) bool { return bytes.Equal(f.data, data) }) {
			e.Description += fmt.Sprintf(" (modelgen.Mutate, seed %d)", seed)
			return data, e, true
		}
	}
	return nil, modelgen.Edit{}, false
}

// check reads and flattens a version, as setbot check does.
func check(name string, src []byte) error {
	m, errs := scxml.Read(source.NewFileSet(), name, src, scxml.Options{})
	err := errs.Err()
	if err == nil {
		_, err = mlm.Flatten(context.Background(), m, mlm.Options{})
	}
	if err != nil {
		return fmt.Errorf("%s does not check: %v", name, err)
	}
	return nil
}
