package depend

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
)

// load reads and flattens one model, failing the test on any error.
func loadFile(t testing.TB, path string) *mlm.Machine {
	t.Helper()
	mach, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s:\n%v", path, err)
	}
	return mach
}

// triangleNames names the triangle's transitions as Fig. 3 of
// Khalil and Dingel, Incremental symbolic execution, 2015 does.
var triangleNames = map[string]string{
	"S0 setTriangleSides S1_S0":      "T1",
	"S1_S0 checkPositiveSides S1_S1": "T2",
	"S1_S0 checkPositiveSides S1_S3": "T3",
	"S1_S0 reset S0":                 "T4",
	"S1_S1 checkIsTriangle S1_S2":    "T5",
	"S1_S1 checkIsTriangle S1_S3":    "T6",
	"S1_S1 reset S0":                 "T7",
	"S1_S2 checkTriangleType S1_S3":  "T8",
	"S1_S2 reset S0":                 "T9",
	"S1_S3 reset S0":                 "T10",
}

// namer names transitions by source, event and target, or by the given
// table when it has them.
type namer map[string]string

func (n namer) name(t *mlm.Transition) string {
	s := t.Source.Name + " " + t.Event + " " + t.Target.Name
	if short, ok := n[s]; ok {
		return short
	}
	return s
}

func (n namer) path(p []*mlm.Transition) string {
	var parts []string
	for _, t := range p {
		parts = append(parts, n.name(t))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (n namer) paths(ps [][]*mlm.Transition) []string {
	var out []string
	for _, p := range ps {
		out = append(out, n.path(p))
	}
	return out
}

func (n namer) deps(ds []Dep) []string {
	var out []string
	for _, d := range ds {
		s := n.name(d.From) + " -> " + n.name(d.To)
		if d.Var != "" {
			s += " " + d.Var
		}
		out = append(out, s)
	}
	return out
}

func (n namer) transitions(ts []*mlm.Transition) []string {
	var out []string
	for _, t := range ts {
		out = append(out, n.name(t))
	}
	return out
}

// keys returns the keys of the named transitions.
func (n namer) keys(t *testing.T, m *mlm.Machine, names ...string) map[string]bool {
	t.Helper()
	keys := make(map[string]bool)
	for _, want := range names {
		found := false
		for _, tr := range m.Transitions {
			if n.name(tr) == want {
				keys[tr.Key] = true
				found = true
			}
		}
		if !found {
			t.Fatalf("no transition %s", want)
		}
	}
	return keys
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestModels checks the maximal paths and the dependences of small models
// against Example 1 of
// Khalil and Dingel, Incremental symbolic execution, 2015 and against hand computation.
func TestModels(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    string
		names   namer
		paths   []string
		control []string
		data    []string
		pairs   []string
	}{{
		name:  "triangle",
		path:  "../../examples/triangle.scxml",
		names: triangleNames,
		paths: []string{
			"[T1, T2, T5, T8, T10]",
			"[T1, T2, T5, T9]",
			"[T1, T2, T6, T10]",
			"[T1, T2, T7]",
			"[T1, T3, T10]",
			"[T1, T4]",
		},
		control: []string{"T2 -> T5", "T2 -> T6", "T2 -> T7", "T5 -> T8", "T5 -> T9"},
		data: []string{
			"T1 -> T2 a", "T1 -> T2 b", "T1 -> T2 c",
			"T1 -> T3 a", "T1 -> T3 b", "T1 -> T3 c",
			"T1 -> T5 a", "T1 -> T5 b", "T1 -> T5 c",
			"T1 -> T6 a", "T1 -> T6 b", "T1 -> T6 c",
			"T1 -> T8 a", "T1 -> T8 b", "T1 -> T8 c",
		},
		pairs: []string{"T1 -> T2", "T1 -> T3", "T1 -> T5", "T1 -> T6", "T1 -> T8"},
	}, {
		// A and B loop; the tick from B closes the cycle. Leaving B by its
		// tick (to A, whose paths all come back to B) rather than by stop
		// (to the initial state, where paths end) decides whether B's
		// transitions run again. The tick from A reads its own x.
		name: "cycle",
		path: "testdata/cycle.scxml",
		paths: []string{
			"[Idle start A, A tick B, B stop Idle]",
			"[Idle start A, A tick B, B tick A]",
		},
		control: []string{"B tick A -> B stop Idle"},
		data: []string{
			"A tick B -> A tick B x",
			"A tick B -> B tick A x",
			"Idle start A -> A tick B x",
		},
		pairs: []string{"A tick B -> A tick B", "A tick B -> B tick A", "Idle start A -> A tick B"},
	}, {
		// Stuck and the final Done have no outgoing transitions.
		name: "deadend",
		path: "testdata/deadend.scxml",
		paths: []string{
			"[Idle go Stuck]",
			"[Idle go Work, Work back Idle]",
			"[Idle go Work, Work ok Done]",
		},
		control: []string{
			"Idle go Work -> Work back Idle",
			"Idle go Work -> Work ok Done",
			"Work back Idle -> Idle go Stuck",
			"Work back Idle -> Idle go Work",
		},
		data: []string{
			"Work back Idle -> Idle go Stuck n",
			"Work back Idle -> Idle go Work n",
			"Work back Idle -> Work back Idle n",
		},
		pairs: []string{"Work back Idle -> Idle go Stuck", "Work back Idle -> Idle go Work", "Work back Idle -> Work back Idle"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			a := Analyze(loadFile(t, tc.path), Options{})
			if a.Truncated {
				t.Error("truncated")
			}
			n := tc.names
			equal(t, "paths", n.paths(a.Paths), tc.paths)
			equal(t, "control", n.deps(a.Control), tc.control)
			equal(t, "data", n.deps(a.Data), tc.data)
			equal(t, "data pairs", n.deps(pairs(a.Data)), tc.pairs)
		})
	}
}

// pairs returns the distinct pairs of sorted data dependences, the way
// Example 1 of Khalil and Dingel, Incremental symbolic execution, 2015 lists them, with Var "".
func pairs(deps []Dep) []Dep {
	var out []Dep
	for _, d := range deps {
		p := Dep{From: d.From, To: d.To}
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}

// pathsFrom enumerates the maximal paths from s, as Analyze does from the
// initial state.
func pathsFrom(a *Analysis, s *mlm.State) pathSet { return a.enumerate(a.g.index[s]) }

// TestEndStates checks the one empty path from a state without outgoing
// transitions.
func TestEndStates(t *testing.T) {
	m := loadFile(t, "testdata/deadend.scxml")
	a := Analyze(m, Options{})
	for _, name := range []string{"Stuck", "Done"} {
		ps := pathsFrom(a, m.State(name)).paths
		if len(ps) != 1 || len(ps[0]) != 0 {
			t.Errorf("maximal paths from %s = %v, want one empty path", name, ps)
		}
	}
}

// TestMaximalPaths checks paths from a state other than the initial one,
// where the initial state ends a path.
func TestMaximalPaths(t *testing.T) {
	m := loadFile(t, "../../examples/triangle.scxml")
	a := Analyze(m, Options{})
	n := namer(triangleNames)
	equal(t, "maximal paths from S1_S1", n.paths(pathsFrom(a, m.State("S1_S1")).paths),
		[]string{"[T5, T8, T10]", "[T5, T9]", "[T6, T10]", "[T7]"})
}

// TestImpacted checks T_impacted on changes of the triangle: an added or
// removed transition through every dependence it has, in the version that
// has it; a changed guard through its control dependents and what defines
// the variables it reads; a changed action through what uses the variables
// it defines and what defines those it uses.
func TestImpacted(t *testing.T) {
	triangle := loadFile(t, "../../examples/triangle.scxml")
	n := namer(triangleNames)
	for _, tc := range []struct {
		name       string
		base, head *mlm.Machine
		updated    []string
		impacted   []string
	}{
		{"T2 added", without(t, triangle, "T2"), triangle, []string{"T2"}, []string{"T1", "T5", "T6", "T7"}},
		{"T2 removed", triangle, without(t, triangle, "T2"), []string{"T2"}, []string{"T1", "T5", "T6", "T7"}},
		{"T1 added", without(t, triangle, "T1"), triangle, []string{"T1"}, []string{"T2", "T3", "T5", "T6", "T8"}},
		// T2 -> T5 is between updated transitions.
		{"T2 and T5 added", without(t, triangle, "T2", "T5"), triangle, []string{"T2", "T5"}, []string{"T1", "T6", "T7", "T8", "T9"}},
		{"T10 added", without(t, triangle, "T10"), triangle, []string{"T10"}, nil},
		// Khalil and Dingel, Incremental symbolic execution, 2015, §4.2: T2's new
		// action neither defines nor uses a variable, and nothing is impacted.
		{"T2 action", triangle, edit(t, `<send event="evValidInput" target="#_parent"/>`,
			`<send event="evValidInput" target="#_parent"/><send event="evAudit" target="#_parent"/>`), []string{"T2"}, nil},
		// T5 decides T8 and T9; T1 defines a, b and c, which the guard
		// reads. T2, which decides T5, is not impacted by a new guard.
		{"T5 guard", triangle, edit(t, `cond="a + b &gt; c &amp;&amp; a + c &gt; b &amp;&amp; b + c &gt; a"`,
			`cond="a + b &gt; c &amp;&amp; a + b &lt; c"`), []string{"T5"}, []string{"T1", "T8", "T9"}},
		// T8 decides nothing and defines nothing; T1 defines what it uses.
		// T5, which decides T8, is not impacted by a new action.
		{"T8 action", triangle, edit(t, `<send event="evScalene" target="#_parent"/>`, ``), []string{"T8"}, []string{"T1"}},
		// T1's action defines a, b and c before and after the change:
		// the transitions that use them are impacted.
		{"T1 action", triangle, edit(t, `<assign location="a" expr="_event.data.x"/>`, `<assign location="a" expr="_event.data.x + 1"/>`),
			[]string{"T1"}, []string{"T2", "T3", "T5", "T6", "T8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			updated := n.keys(t, triangle, tc.updated...)
			got := Impacted(Analyze(tc.base, Options{}), Analyze(tc.head, Options{}), updated, nil)
			equal(t, "Impacted", n.transitions(got), tc.impacted)
			for _, x := range got {
				if !slices.Contains(tc.head.Transitions, x) {
					t.Errorf("%s is not a transition of head", n.name(x))
				}
			}
		})
	}
}

// without returns a copy of m without the named transitions.
func without(t *testing.T, m *mlm.Machine, names ...string) *mlm.Machine {
	t.Helper()
	drop := namer(triangleNames).keys(t, m, names...)
	out := *m
	out.Transitions = slices.DeleteFunc(slices.Clone(m.Transitions), func(x *mlm.Transition) bool { return drop[x.Key] })
	return &out
}

// edit returns the triangle with one piece of its source replaced.
func edit(t *testing.T, old, new string) *mlm.Machine {
	t.Helper()
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), old) {
		t.Fatalf("the triangle has no %s", old)
	}
	m, err := load.Bytes(context.Background(), "triangle.scxml", []byte(strings.Replace(string(src), old, new, 1)), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMeasures checks M1 and M2 on the triangle.
func TestMeasures(t *testing.T) {
	m := loadFile(t, "../../examples/triangle.scxml")
	a := Analyze(m, Options{})
	n := namer(triangleNames)
	for _, tc := range []struct {
		changed []string
		m1, m2  float64
	}{
		{nil, 100, 100},
		// T2 is on 4 of the 6 paths, second on paths of 5, 4, 4 and 3.
		{[]string{"T2"}, 100 * 2.0 / 6, 100 * (2.0/5 + 2.0/4 + 2.0/4 + 2.0/3) / 4},
		{[]string{"T1"}, 0, 100 * (1.0/5 + 1.0/4 + 1.0/4 + 1.0/3 + 1.0/3 + 1.0/2) / 6},
		// Between T2 and T5, T2 is the first on their paths.
		{[]string{"T2", "T5"}, 100 * 2.0 / 6, 100 * (2.0/5 + 2.0/4 + 2.0/4 + 2.0/3) / 4},
		{[]string{"T10"}, 100 * 3.0 / 6, 100 * (5.0/5 + 4.0/4 + 3.0/3) / 3},
	} {
		t.Run(strings.Join(tc.changed, ","), func(t *testing.T) {
			changed := n.keys(t, m, tc.changed...)
			near(t, "M1", a.M1(changed), tc.m1)
			near(t, "M2", a.M2(changed), tc.m2)
		})
	}
}

// TestTruncation checks the bounds on a complete graph of six states.
func TestTruncation(t *testing.T) {
	m := loadFile(t, "testdata/dense.scxml")
	full := Analyze(m, Options{})
	if full.Truncated {
		t.Fatal("truncated under the default bounds")
	}
	// From S0 a path visits a sequence of k distinct other states (5!/(5-k)!
	// of them) and ends by one of the k transitions of the last one back to
	// S0 or to a visited state.
	want := 0
	for k, seqs := 1, 5; k <= 5; k++ {
		want += seqs * k
		seqs *= 5 - k
	}
	if len(full.Paths) != want {
		t.Errorf("%d paths, want %d", len(full.Paths), want)
	}
	for _, tc := range []struct {
		opts  Options
		paths int
	}{
		{Options{MaxPaths: 10}, 10},
		{Options{MaxPaths: want}, want},
		{Options{MaxSteps: 100}, -1},
	} {
		a := Analyze(m, tc.opts)
		truncated := tc.paths < want
		if tc.paths >= 0 && len(a.Paths) != tc.paths {
			t.Errorf("%+v: %d paths, want %d", tc.opts, len(a.Paths), tc.paths)
		}
		if steps := countSteps(a.Paths); tc.opts.MaxSteps > 0 && steps > tc.opts.MaxSteps {
			t.Errorf("%+v: %d steps", tc.opts, steps)
		}
		if a.Truncated != truncated {
			t.Errorf("%+v: truncated %v, want %v", tc.opts, a.Truncated, truncated)
		}
		if !slices.EqualFunc(a.Paths, full.Paths[:len(a.Paths)], slices.Equal) {
			t.Errorf("%+v: the paths are not a prefix of the full enumeration", tc.opts)
		}
		// Control dependence does not depend on the enumeration.
		if !slices.Equal(a.Control, full.Control) {
			t.Errorf("%+v: control dependences differ", tc.opts)
		}
	}
}

func countSteps(ps [][]*mlm.Transition) int {
	n := 0
	for _, p := range ps {
		n += len(p)
	}
	return n
}

// TestUnavoidable checks the graph characterisation used for Def. 2
// against the enumerated maximal paths: from every state but the initial
// one (where a path after a transition ends at once), the states every
// maximal path visits.
func TestUnavoidable(t *testing.T) {
	bench, _ := filepath.Glob("../../testdata/bench/*.scxml")
	models := append([]string{
		"../../examples/triangle.scxml",
		"testdata/cycle.scxml",
		"testdata/deadend.scxml",
		"testdata/dense.scxml",
	}, bench...)
	for _, path := range models {
		t.Run(filepath.Base(path), func(t *testing.T) {
			a := Analyze(loadFile(t, path), Options{})
			g := a.g
			from := make([]pathSet, len(g.states))
			for s := range g.states {
				from[s] = a.enumerate(s)
			}
			checked := 0
			for v := range g.states {
				always := g.unavoidable(v)
				for s, st := range g.states {
					want := s == v
					if s != g.initial {
						if from[s].truncated {
							continue
						}
						want = onAll(from[s].paths, st, g.states[v])
					}
					if always[s] != want {
						t.Errorf("every path from %s visits %s: got %v, want %v", st.Name, g.states[v].Name, always[s], want)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Error("nothing checked")
			}
		})
	}
}

// onAll tells whether every path from s visits v.
func onAll(ps [][]*mlm.Transition, s, v *mlm.State) bool {
	for _, p := range ps {
		if s != v && !slices.ContainsFunc(p, func(t *mlm.Transition) bool { return t.Target == v }) {
			return false
		}
	}
	return true
}

// TestBench runs the analysis on the benchmark models. Their maximal paths
// from the initial state are enumerated in full, within the default bounds
// of Options: the bound on the work is a count of paths and steps, and
// BenchmarkAnalyze measures its time.
func TestBench(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/bench/*.scxml")
	if len(paths) == 0 {
		t.Fatal("no benchmark models")
	}
	for _, path := range paths {
		m := loadFile(t, path)
		a := Analyze(m, Options{})
		if len(a.Paths) == 0 {
			t.Errorf("%s: no paths", path)
		}
		if a.Truncated {
			t.Errorf("%s: %d paths, truncated by the default bounds", path, len(a.Paths))
		}
		t.Logf("%s: %d states, %d transitions; %d paths, %d control, %d data (%d pairs)",
			filepath.Base(path), len(m.States), len(m.Transitions), len(a.Paths),
			len(a.Control), len(a.Data), len(pairs(a.Data)))
		// Measures walks the same paths as Analyze keeps, for any change
		// (six changes of one or two transitions spread over the model).
		for i := 0; i < len(m.Transitions); i += max(1, len(m.Transitions)/6) {
			tr := m.Transitions[i]
			changed := map[string]bool{tr.Key: true, m.Transitions[(i*7)%len(m.Transitions)].Key: true}
			_, m1, m2 := Measures(m, changed)
			if m1 != a.M1(changed) || m2 != a.M2(changed) {
				t.Errorf("%s, %v changed: Measures gives M1 %v, M2 %v; Analyze %v, %v", path, changed, m1, m2, a.M1(changed), a.M2(changed))
			}
		}
		// Dependences is the same analysis without the paths.
		d := Dependences(m)
		if d.Paths != nil || !slices.Equal(d.Control, a.Control) || !slices.Equal(d.Data, a.Data) {
			t.Errorf("%s: Dependences differs from Analyze's dependences (%d paths, %d control, %d data)",
				path, len(d.Paths), len(d.Control), len(d.Data))
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	paths, _ := filepath.Glob("../../testdata/bench/*.scxml")
	for _, path := range paths {
		b.Run(strings.TrimSuffix(filepath.Base(path), ".scxml"), func(b *testing.B) {
			m := loadFile(b, path)
			for b.Loop() {
				Analyze(m, Options{})
			}
		})
	}
}

// ExampleImpacted shows the impact of a change to T2's guard on the
// triangle, and the measures of the change.
func ExampleImpacted() {
	base, _ := load.File(context.Background(), "../../examples/triangle.scxml", load.Options{})
	src, _ := os.ReadFile("../../examples/triangle.scxml")
	doc := strings.Replace(string(src), `cond="a &gt; 0 &amp;&amp; b &gt; 0 &amp;&amp; c &gt; 0"`, `cond="a &gt;= 1 &amp;&amp; b &gt;= 1 &amp;&amp; c &gt;= 1"`, 1)
	head, _ := load.Bytes(context.Background(), "triangle.scxml", []byte(doc), load.Options{})
	ba, ha := Analyze(base, Options{}), Analyze(head, Options{})
	t2 := "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S1] S1_S1"
	updated := map[string]bool{t2: true}
	fmt.Printf("%d paths, M1 %.2f, M2 %.2f\n", len(ha.Paths), ha.M1(updated), ha.M2(updated))
	for _, t := range Impacted(ba, ha, updated, nil) {
		fmt.Println(t.Source.Name, t.Event, t.Target.Name)
	}
	// Output:
	// 6 paths, M1 33.33, M2 51.67
	// S0 setTriangleSides S1_S0
	// S1_S1 checkIsTriangle S1_S2
	// S1_S1 checkIsTriangle S1_S3
	// S1_S1 reset S0
}
