package engine_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

var updateSemantics = flag.Bool("update", false, "rewrite testdata/semantics.golden (after bumping engine.SemanticsVersion)")

const semanticsGolden = "testdata/semantics.golden"

// semanticsModels are the models whose outputs pin engine.SemanticsVersion:
// the bundled examples and the benchmarks.
var semanticsModels = []string{"../examples/*.scxml", "../testdata/bench/*.scxml"}

// semanticsRecord is what the golden file holds for one model: a digest of
// everything setbot computes from it, and counts that make a change legible
// in a diff.
type semanticsRecord struct {
	hash                 string
	states, paths, tests int
}

func (r semanticsRecord) String() string {
	return fmt.Sprintf("%s states=%d paths=%d tests=%d", r.hash, r.states, r.paths, r.tests)
}

// TestSemanticsGolden keeps engine.SemanticsVersion honest. For each bundled
// and benchmark model it flattens, explores with the default options and
// generates the path-coverage suite, and digests the machine's hash, the
// tree's dump and the encoded suite. testdata/semantics.golden holds the
// version and each model's digest: the test fails when a digest changed
// under the same version (cached trees, suites and results would be reused
// though they are no longer what setbot computes) and when the version
// changed but the golden file did not. -update rewrites the file, but only
// after the version was bumped if a digest changed.
//
// The digests cover the test values Z3 chose, so they hold for the Z3 the
// project builds with; another Z3 may choose other values.
func TestSemanticsGolden(t *testing.T) {
	var paths []string
	for _, pattern := range semanticsModels {
		found, err := filepath.Glob(pattern)
		if err != nil || len(found) == 0 {
			t.Fatalf("no models match %s (%v)", pattern, err)
		}
		paths = append(paths, found...)
	}
	got := make(map[string]semanticsRecord)
	var mu sync.Mutex
	t.Run("models", func(t *testing.T) {
		for _, p := range paths {
			name := filepath.ToSlash(strings.TrimPrefix(p, "../"))
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				r := semanticsOf(t, p)
				mu.Lock()
				got[name] = r
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		return
	}

	version, want, err := readSemanticsGolden(semanticsGolden)
	if err != nil && !(*updateSemantics && os.IsNotExist(err)) {
		t.Fatalf("reading %s (create it with go test ./engine -run TestSemanticsGolden -update): %v", semanticsGolden, err)
	}
	var changed []string
	for name, r := range got {
		if w, ok := want[name]; ok && w.hash != r.hash {
			changed = append(changed, fmt.Sprintf("%s:\n\twas %v\n\tnow %v", name, w, r))
		}
	}
	slices.Sort(changed)
	bump := fmt.Sprintf("the engine's output changed; bump engine.SemanticsVersion (engine/encode.go) and run "+
		"go test ./engine -run TestSemanticsGolden -update:\n%s", strings.Join(changed, "\n"))

	if *updateSemantics {
		if version == engine.SemanticsVersion && len(changed) > 0 {
			t.Fatalf("not rewriting %s: %s", semanticsGolden, bump)
		}
		if err := writeSemanticsGolden(semanticsGolden, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	if version != engine.SemanticsVersion {
		t.Fatalf("engine.SemanticsVersion is %q but %s was recorded under %q: run "+
			"go test ./engine -run TestSemanticsGolden -update", engine.SemanticsVersion, semanticsGolden, version)
	}
	if len(changed) > 0 {
		t.Fatal(bump)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is not in %s: run go test ./engine -run TestSemanticsGolden -update", name, semanticsGolden)
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			t.Errorf("%s is in %s but gone: run go test ./engine -run TestSemanticsGolden -update", name, semanticsGolden)
		}
	}
}

// semanticsOf flattens, explores and generates the path-coverage suite of
// the model at path, and digests the results.
func semanticsOf(t *testing.T, path string) semanticsRecord {
	t.Helper()
	m := machine(t, path)
	set := explore(t, m, engine.Options{})
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatalf("generating the tests of %s: %v", path, err)
	}
	suite, err := testgen.EncodeSuite(context.Background(), tests)
	if err != nil {
		t.Fatalf("encoding the tests of %s: %v", path, err)
	}
	h := sha256.New()
	for _, part := range []string{m.Hash, set.Dump(), string(suite)} {
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	return semanticsRecord{hash: hex.EncodeToString(h.Sum(nil)),
		states: set.Stats.States, paths: set.Stats.Paths, tests: len(tests)}
}

// The golden file: comment lines, "version <SemanticsVersion>", then one
// line per model: its path from the repository root, its digest and counts.

func readSemanticsGolden(path string) (string, map[string]semanticsRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	var version string
	records := make(map[string]semanticsRecord)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "version" {
			version = f[1]
			continue
		}
		if len(f) != 5 {
			return "", nil, fmt.Errorf("%s:%d: want a model, its digest, states, paths and tests", path, n)
		}
		r := semanticsRecord{hash: f[1]}
		for i, c := range []*int{&r.states, &r.paths, &r.tests} {
			_, v, _ := strings.Cut(f[2+i], "=")
			if *c, err = strconv.Atoi(v); err != nil {
				return "", nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
		}
		records[f[0]] = r
	}
	if version == "" {
		return "", nil, fmt.Errorf("%s: no version line", path)
	}
	return version, records, sc.Err()
}

func writeSemanticsGolden(path string, records map[string]semanticsRecord) error {
	var b strings.Builder
	b.WriteString("# What setbot computes from each bundled and benchmark model, under\n" +
		"# engine.SemanticsVersion: a digest of the machine's hash, the tree (default\n" +
		"# options) and its path-coverage suite. Written by\n" +
		"#   go test ./engine -run TestSemanticsGolden -update\n" +
		"# which refuses to record a changed digest before the version is bumped.\n")
	fmt.Fprintf(&b, "version %s\n", engine.SemanticsVersion)
	names := make([]string, 0, len(records))
	for name := range records {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(&b, "%s %v\n", name, records[name])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
