package modelgen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// mutateSeeds is the number of generated models each kind is tried on
// (shortSeeds with -short); minApplied is the share of them it must apply
// to, in percent.
const (
	mutateSeeds = 200
	shortSeeds  = 50
	minApplied  = 30
)

// mutateOpts turns every feature on, an unused variable included (the only
// kind variable_removed can remove).
var mutateOpts = modelgen.Options{Parallel: true, History: true, Loops: true, Internal: true, Timers: true, Unused: 1}

// version is a model and its machine.
type version struct {
	m    *model.Model
	mach *mlm.Machine
}

// load reads and flattens a document; it returns the errors as a string.
func load(name string, src []byte) (version, string) {
	m, errs := scxml.Read(source.NewFileSet(), name, src, scxml.Options{})
	if len(errs) > 0 {
		return version{}, fmt.Sprintf("reading: %v", errs)
	}
	mach, err := mlm.Flatten(context.Background(), m, mlm.Options{})
	if err != nil {
		return version{}, fmt.Sprintf("flattening: %v", err)
	}
	return version{m, mach}, ""
}

// base is a document changes apply to, with its model. Its machine is
// made only when a test needs it (TestGenerate checks that generated
// models flatten).
type base struct {
	src []byte
	m   *model.Model
}

// loadBase reads a base document.
func loadBase(name string, src []byte) (base, string) {
	m, errs := scxml.Read(source.NewFileSet(), name, src, scxml.Options{})
	if len(errs) > 0 {
		return base{}, fmt.Sprintf("reading: %v", errs)
	}
	return base{src, m}, ""
}

// TestMutate applies every kind to generated models: the result reads and
// flattens, differs from the input, names an element that exists, and is
// the same on a second call; a rename changes nothing but the id; and
// every kind applies to enough models.
func TestMutate(t *testing.T) {
	// Flattening thousands of models allocates at a high rate on a small
	// heap: collect less often.
	old := debug.SetGCPercent(1000)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	seeds := int64(mutateSeeds)
	if testing.Short() {
		seeds = shortSeeds
	}
	bases := make([]base, seeds+1)
	for seed := int64(1); seed <= seeds; seed++ {
		b, msg := loadBase("base.scxml", modelgen.Generate(seed, mutateOpts))
		if msg != "" {
			t.Fatalf("seed %d: %s", seed, msg)
		}
		checkIdentities(t, fmt.Sprint("seed ", seed), b)
		bases[seed] = b
	}
	for _, kind := range modelgen.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			applied := 0
			for seed := int64(1); seed <= seeds; seed++ {
				base := bases[seed]
				out, ch, ok := modelgen.Mutate(base.src, kind, seed)
				if !ok {
					continue
				}
				applied++
				if again, ch2, _ := modelgen.Mutate(base.src, kind, seed); !bytes.Equal(out, again) || ch != ch2 {
					t.Fatalf("seed %d: two calls give two results", seed)
				}
				checkMutation(t, fmt.Sprint("seed ", seed), base, out, ch, kind)
			}
			if int64(applied)*100 < seeds*minApplied {
				t.Errorf("applies to %d of %d models, want at least %d%%", applied, seeds, minApplied)
			}
			t.Logf("%s applies to %d of %d models", kind, applied, seeds)
		})
	}
}

// TestMutateFiles applies every kind to the benchmark models and the
// examples with a few seeds.
func TestMutateFiles(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/bench/*.scxml")
	examples, _ := filepath.Glob("../../examples/*.scxml")
	if len(files) == 0 || len(examples) == 0 {
		t.Fatal("no benchmark models or examples")
	}
	for _, f := range append(files, examples...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base, msg := loadBase(f, src)
		if msg != "" {
			t.Fatalf("%s: %s", f, msg)
		}
		for _, kind := range modelgen.Kinds {
			for seed := int64(1); seed <= 5; seed++ {
				if out, ch, ok := modelgen.Mutate(src, kind, seed); ok {
					checkMutation(t, fmt.Sprintf("%s, seed %d", filepath.Base(f), seed), base, out, ch, kind)
				}
			}
		}
	}
}

// TestSeedChanges applies RenameTrigger and AddOutput to every transition
// of the benchmark models they apply to.
func TestSeedChanges(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/bench/*.scxml")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base, msg := loadBase(f, src)
		if msg != "" {
			t.Fatalf("%s: %s", f, msg)
		}
		checkIdentities(t, f, base)
		list, _ := modelgen.Transitions(src)
		for _, tr := range list {
			if tr.Renamable {
				out, e, err := modelgen.RenameTrigger(src, tr.ID)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				checkMutation(t, filepath.Base(f)+": "+e.Description, base, out, e.Change, modelgen.TriggerChanged)
			}
			out, e, err := modelgen.AddOutput(src, tr.ID)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			checkMutation(t, filepath.Base(f)+": "+e.Description, base, out, e.Change, modelgen.ActionChanged)
		}
	}
}

// checkIdentities checks that Transitions names the transitions as the
// reader does.
func checkIdentities(t *testing.T, what string, b base) {
	t.Helper()
	list, err := modelgen.Transitions(b.src)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var ids []string
	for _, tr := range list {
		ids = append(ids, tr.ID)
	}
	if want := transitionIDs(b.m); !slices.Equal(ids, want) {
		t.Fatalf("%s: transitions %q, the model has %q", what, ids, want)
	}
}

// checkMutation checks one changed document against its base.
func checkMutation(t *testing.T, what string, base base, out []byte, ch modelgen.Change, kind modelgen.Kind) {
	t.Helper()
	if ch.Kind != kind {
		t.Fatalf("%s: change of kind %s, want %s", what, ch.Kind, kind)
	}
	if bytes.Equal(out, base.src) {
		t.Fatalf("%s: %s changed nothing", what, kind)
	}
	next, msg := load("changed.scxml", out)
	if msg != "" {
		t.Fatalf("%s: after %v: %s\n%s", what, ch, msg, out)
	}
	if err := checkSubject(base.m, next.m, ch); err != "" {
		t.Fatalf("%s: %v: %s\n%s", what, ch, err, out)
	}
	if kind == modelgen.StateRenamed {
		old, id, _ := strings.Cut(ch.Subject, ">")
		undone := bytes.ReplaceAll(out, []byte(id), []byte(old))
		if bytes.Equal(undone, base.src) {
			return
		}
		back, msg := load("back.scxml", undone)
		if msg != "" {
			t.Fatalf("%s: undoing %v: %s", what, ch, msg)
		}
		orig, _ := load("base.scxml", base.src)
		if mlm.Hash(back.mach) != mlm.Hash(orig.mach) {
			t.Fatalf("%s: %v changes more than the id:\n%s", what, ch, out)
		}
	}
}

// checkSubject checks that a change names what it changed, in the model
// before (a) and after (b) it.
func checkSubject(a, b *model.Model, ch modelgen.Change) string {
	s := ch.Subject
	hasState := func(m *model.Model, id string) bool { return m.State(id) != nil }
	switch ch.Kind {
	case modelgen.StateAdded:
		if hasState(a, s) || !hasState(b, s) {
			return "no new state of that name"
		}
	case modelgen.StateRemoved:
		if !hasState(a, s) || hasState(b, s) {
			return "no state of that name removed"
		}
	case modelgen.StateRenamed:
		old, id, _ := strings.Cut(s, ">")
		if !hasState(a, old) || hasState(b, old) || !hasState(b, id) {
			return "no state renamed so"
		}
	case modelgen.EntryChanged, modelgen.ExitChanged:
		if !hasState(a, s) || !hasState(b, s) {
			return "no such state"
		}
	case modelgen.TransitionAdded:
		if slices.Contains(transitionIDs(a), s) || !slices.Contains(transitionIDs(b), s) {
			return "no new transition of that identity"
		}
	case modelgen.TransitionRetargeted, modelgen.TriggerChanged:
		if !slices.Contains(transitionIDs(b), s) {
			return "no transition of that identity after the change"
		}
	case modelgen.GuardChanged, modelgen.ActionChanged:
		if !slices.Contains(transitionIDs(a), s) || !slices.Contains(transitionIDs(b), s) {
			return "no such transition in both versions"
		}
	case modelgen.TransitionRemoved:
		if !slices.Contains(transitionIDs(a), s) {
			return "no such transition in the base"
		}
	case modelgen.VariableAdded:
		if a.Var(s) != nil || b.Var(s) == nil {
			return "no new variable of that name"
		}
	case modelgen.VariableRemoved:
		if a.Var(s) == nil || b.Var(s) != nil {
			return "no variable of that name removed"
		}
	case modelgen.InitialValueChanged:
		if a.Var(s) == nil || b.Var(s) == nil || printer.ExprString(a.Var(s).Init) == printer.ExprString(b.Var(s).Init) {
			return "no initial value changed"
		}
	case modelgen.ParamAdded, modelgen.ParamRemoved:
		i := strings.LastIndex(s, ".") // event names may have dots, parameter names do not
		ev, p := s[:max(i, 0)], s[i+1:]
		had, has := hasParam(a, ev, p), hasParam(b, ev, p)
		if had == (ch.Kind == modelgen.ParamAdded) || has != (ch.Kind == modelgen.ParamAdded) {
			return "no such parameter change"
		}
	case modelgen.InitialChanged:
		ia, ib := initialOf(a, s), initialOf(b, s)
		if ia == "" || ia == ib {
			return "no initial changed"
		}
	default:
		return "unknown kind"
	}
	return ""
}

// transitionIDs returns the identities of a model's transitions.
func transitionIDs(m *model.Model) []string {
	var out []string
	for _, s := range m.States() {
		if s.Kind == model.History {
			continue
		}
		for _, t := range s.Transitions {
			out = append(out, t.ID)
		}
	}
	return out
}

// hasParam reports whether the event has the parameter.
func hasParam(m *model.Model, ev, p string) bool {
	e := m.EventByName(ev)
	if e == nil {
		return false
	}
	_, ok := e.Param(p)
	return ok
}

// initialOf returns the identity of the initial transition of a state, or
// of the machine for "scxml".
func initialOf(m *model.Model, id string) string {
	s := m.Root
	if id != "scxml" {
		s = m.State(id)
	}
	if s == nil || s.Initial == nil {
		return ""
	}
	return s.Initial.ID
}
