package report

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/gate"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The commits the fixture claims to compare.
const (
	baseSHA = "b79b934c1d2e3f405162738495a6b7c8d9e0f112"
	headSHA = "4f0e9a8b7c6d5e4f30211203f4e5d6c7b8a99aab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func loadMachine(t testing.TB, path string) *mlm.Machine {
	t.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	return m
}

// analyze runs the real incremental analysis of a change, with the
// timings zeroed: they vary from run to run and would spoil the goldens.
func analyze(t testing.TB, basePath, headPath string, depth int) (*incremental.Result, *mlm.Machine) {
	t.Helper()
	base, head := loadMachine(t, basePath), loadMachine(t, headPath)
	r, err := incremental.Analyze(context.Background(), base, head,
		incremental.Request{Engine: engine.Options{MaxDepth: depth}, Solver: newZ3, Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism})
	if err != nil {
		t.Fatalf("analysing %s -> %s: %v", basePath, headPath, err)
	}
	r.Base.Ms, r.Head.Ms = 0, 0
	return r, head
}

const (
	triangle       = "../examples/triangle.scxml"
	triangleS2Off  = "../engine/incremental/testdata/triangle_s2_off.scxml"
	triangleAction = "../engine/incremental/testdata/triangle_t2_action.scxml"
	radio          = "../examples/radio.scxml"
	radioHead      = "testdata/radio_head.scxml"
	broken         = "testdata/broken.scxml"
)

// s2OffModel is the change that makes state S1_S2 unreachable.
func s2OffModel(t testing.TB) *Model {
	r, head := analyze(t, triangle, triangleS2Off, 10)
	return withResult(&Model{Path: "models/triangle.scxml", Status: Modified, HeadMachine: head}, r)
}

var (
	fixtureOnce sync.Once
	fixture     *Analysis
)

// fixtureAnalysis is one run over six model files: a state made
// unreachable, a changed action (in a renamed file), a parallel model whose
// depth bound is hit and whose configured invariant fails, a file that does
// not parse, a file whose machine did not change, and a deleted file.
// Every result but the hand-made errors and deletion is computed.
func fixtureAnalysis(t testing.TB) *Analysis {
	t.Helper()
	fixtureOnce.Do(func() { fixture = buildFixture(t) })
	if fixture == nil {
		t.Fatal("the fixture could not be built")
	}
	return fixture
}

func buildFixture(t testing.TB) *Analysis {
	var models []*Model
	models = append(models, s2OffModel(t))

	r, head := analyze(t, triangle, triangleAction, 10)
	models = append(models, withResult(&Model{Path: "models/triangle_audit.scxml", OldPath: "models/old/triangle_audit.scxml",
		Status: Renamed, HeadMachine: head}, r))

	r, head = analyze(t, radio, radioHead, 4)
	inv, err := analysis.ParseInvariant(head, "volume != 7")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Analyze(r.HeadSet, []analysis.Invariant{inv}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	r.Invariants = rep.Invariants
	models = append(models, withResult(&Model{Path: "models/radio.scxml", Status: Modified, HeadMachine: head}, r))

	r, head = analyze(t, triangle, triangle, 10)
	models = append(models, withResult(&Model{Path: "models/triangle_copy.scxml", Status: Modified, BaseCached: true, HeadCached: true,
		HeadMachine: head}, r))

	_, err = load.File(context.Background(), broken, load.Options{})
	var errs source.ErrorList
	if !errors.As(err, &errs) {
		t.Fatalf("testdata/broken.scxml loads without a model error (%v)", err)
	}
	bad := &Model{Path: "models/broken.scxml", Status: Modified}
	for _, e := range errs {
		bad.Errors = append(bad.Errors, Diagnostic{Path: bad.Path, Line: e.Pos.Line, Column: e.Pos.Column, Message: e.Msg})
	}
	models = append(models, bad, &Model{Path: "models/legacy.scxml", Status: Deleted})

	return &Analysis{Repo: "acme/controllers", Base: baseSHA, Head: headSHA, Models: models,
		Gate: judge(vocab.RuleActions{vocab.RuleBoundHit: vocab.ActionWarn}, models)}
}

// results holds the core result of each model the tests build, for the
// gate to judge: the report keeps only its own object.
var results = map[*Model]*incremental.Result{}

// withResult gives m the report's object for r and keeps r for judge.
func withResult(m *Model, r *incremental.Result) *Model {
	m.ChangeAnalysis = NewChangeAnalysis(r)
	results[m] = r
	return m
}

// judge is the gate's verdict on models, asked for as the pipeline asks
// for it.
func judge(rules vocab.RuleActions, models []*Model) Verdict {
	diags := func(ds []Diagnostic) []gate.Diagnostic {
		var out []gate.Diagnostic
		for _, d := range ds {
			out = append(out, gate.Diagnostic{Line: d.Line, Column: d.Column, Message: d.Message})
		}
		return out
	}
	in := make([]gate.Model, len(models))
	for i, m := range models {
		in[i] = gate.Model{Path: m.Path, Errors: diags(m.Errors), Warnings: diags(m.Warnings), Result: results[m], Head: m.HeadMachine}
	}
	return NewVerdict(gate.Evaluate(rules, in))
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden file (run go test -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update after checking):\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows where two texts start to differ.
func firstDiff(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-200)
	return "want: …" + want[from:min(len(want), i+200)] + "\n got: …" + got[from:min(len(got), i+200)]
}
