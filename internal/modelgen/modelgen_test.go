package modelgen_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

const seeds = 300

// maxStates is the largest MLM a generated model may flatten to.
const maxStates = 2000

// optionSets are the option combinations under test. Over the seeds, a
// set's models must each use none of forbid, and together all of want.
var optionSets = []struct {
	name   string
	opts   modelgen.Options
	forbid []string
	want   []string
}{
	{name: "defaults", opts: modelgen.Options{},
		forbid: []string{"parallel", "history", "final", "raise", "delayed send", "for loop"},
		want:   []string{"eventless", "if", "output", "targetless", "wildcard"}},
	{name: "all", opts: modelgen.Options{Parallel: true, History: true, Loops: true, Internal: true, Timers: true},
		forbid: []string{"self send", "top-level final", "region final"},
		want: []string{"parallel", "history", "deep history", "final", "eventless", "raise", "delayed send",
			"timer event", "for loop", "if", "output", "onentry", "onexit", "targetless", "several targets",
			"type internal", "wildcard"}},
	{name: "large", opts: modelgen.Options{States: 11, Events: 5, Vars: 3, Parallel: true, History: true, Loops: true,
		Internal: true, Timers: true}},
	{name: "small", opts: modelgen.Options{States: 3, Events: 1, Vars: 1, Internal: true},
		forbid: []string{"parallel", "history", "delayed send", "for loop"}},
	{name: "sequential", opts: modelgen.Options{States: 8, History: true, Loops: true, Timers: true},
		forbid: []string{"parallel", "final", "raise"}},
	{name: "queues and completion", opts: modelgen.Options{Parallel: true, History: true, Internal: true, Timers: true,
		SelfSends: true, Halt: true, Completion: true},
		want: []string{"self send", "top-level final", "region final", "raise", "delayed send", "parallel", "history"}},
}

// TestGenerate checks that every generated model reads and flattens
// within the bounds, and which features the option sets bring.
func TestGenerate(t *testing.T) {
	for _, set := range optionSets {
		t.Run(set.name, func(t *testing.T) {
			t.Parallel()
			largest := 0
			total := make(features)
			for seed := int64(1); seed <= seeds; seed++ {
				src := modelgen.Generate(seed, set.opts)
				m, errs := scxml.Read(source.NewFileSet(), fmt.Sprintf("%s-%d.scxml", set.name, seed), src, scxml.Options{})
				if len(errs) > 0 {
					t.Fatalf("seed %d: reading: %v\n%s", seed, errs, src)
				}
				mach, err := mlm.Flatten(context.Background(), m, mlm.Options{})
				if err != nil {
					t.Fatalf("seed %d: flattening: %v\n%s", seed, err, src)
				}
				if n := len(mach.States); n > maxStates {
					t.Errorf("seed %d: %d MLM states, want at most %d", seed, n, maxStates)
				}
				largest = max(largest, len(mach.States))
				f := inspect(m)
				for _, k := range set.forbid {
					if f[k] > 0 {
						t.Errorf("seed %d: %s, which the options do not allow:\n%s", seed, k, src)
					}
				}
				for k, n := range f {
					if n > 0 {
						total[k]++
					}
				}
			}
			for _, k := range set.want {
				if total[k] == 0 {
					t.Errorf("no model of %d has %s", seeds, k)
				}
			}
			t.Logf("largest MLM: %d states; models with each feature: %v", largest, total)
		})
	}
}

// TestDeterministic checks that a seed always gives the same bytes, and
// that seeds give different models.
func TestDeterministic(t *testing.T) {
	for _, set := range optionSets {
		distinct := make(map[string]bool)
		for seed := int64(1); seed <= 100; seed++ {
			a := modelgen.Generate(seed, set.opts)
			b := modelgen.Generate(seed, set.opts)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: seed %d gives two different documents", set.name, seed)
			}
			distinct[string(a)] = true
		}
		if len(distinct) < 90 {
			t.Errorf("%s: 100 seeds give only %d distinct documents", set.name, len(distinct))
		}
	}
}

// features counts what a model uses.
type features map[string]int

// inspect counts the features of a parsed model.
func inspect(m *model.Model) features {
	f := make(features)
	code := func(b *ast.Block) {
		ast.Inspect(b, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.For:
				f["for loop"]++
			case *ast.If:
				f["if"]++
			case *ast.Raise:
				f["raise"]++
			case *ast.Send:
				switch {
				case s.Target == "#_internal":
					f["raise"]++
				case s.Delay != nil:
					f["delayed send"]++
				case s.Target == "#_parent":
					f["output"]++
				case s.Target == "":
					f["self send"]++
				}
			}
			return true
		})
	}
	for _, s := range m.States() {
		switch s.Kind {
		case model.Parallel:
			f["parallel"]++
		case model.History:
			f["history"]++
			if s.Deep {
				f["deep history"]++
			}
		case model.Final:
			f["final"]++
			switch {
			case s.Parent.Kind == model.Root:
				f["top-level final"]++
			case s.Parent.Parent.Kind == model.Parallel:
				f["region final"]++
			}
		}
		for _, b := range s.OnEntry {
			f["onentry"]++
			code(b)
		}
		for _, b := range s.OnExit {
			f["onexit"]++
			code(b)
		}
		if s.Initial != nil {
			code(s.Initial.Body)
		}
		for _, t := range s.Transitions {
			code(t.Body)
			if s.Kind == model.History {
				continue
			}
			switch {
			case t.Eventless():
				f["eventless"]++
			case len(t.Targets) == 0:
				f["targetless"]++
			case len(t.Targets) > 1:
				f["several targets"]++
			}
			if t.Type == model.TransitionInternal {
				f["type internal"]++
			}
			for _, d := range t.Events {
				if d == "*" || len(d) > 2 && d[len(d)-2:] == ".*" {
					f["wildcard"]++
				}
			}
		}
	}
	for _, e := range m.Events {
		if e.Kinds&model.Timer != 0 {
			f["timer event"]++
		}
	}
	return f
}
