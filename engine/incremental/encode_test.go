package incremental_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// handMadeResult sets every field a Result keeps, with test arguments of
// every kind tests carry, a timer step, outputs with arguments, an empty
// test and a priority change.
func handMadeResult() *incremental.Result {
	args := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	test := &testgen.Test{ID: "t0123456789ab", Identity: []string{"A go [A:go>B] B#tf", "B tick [B:tick>C] C#"},
		Steps: []testgen.Step{
			{Event: "go", Args: args("n", int64(-9223372036854775808), "ok", true, "s", "a'b, c\u00e9", "t", sim.Decimal("-0.25"),
				"big", sim.Decimal("1e21"), "xs.length", int64(2), "_absent_p", int64(1)),
				Outputs: []testgen.Output{{Event: "sent", Target: "#_parent", Args: args("d", sim.Decimal("3.0"), "none", "")}},
				Fired:   []testgen.Fired{{Key: "A go [A:go>B] B", Path: "tf"}}, Config: []string{"B"}},
			{Event: "tick", Timer: true, Args: args(), Outputs: []testgen.Output{}, Fired: []testgen.Fired{{Key: "B tick [B:tick>C] C"}},
				Config: []string{"C", "D"}},
		},
		Final: []string{"C", "D"}}
	empty := &testgen.Test{ID: "te3b0c44298fc", Final: []string{"A"}}
	pos := func(line, col int) *diffmap.Position { return &diffmap.Position{Line: line, Column: col} }
	return &incremental.Result{
		Strategy: vocab.StrategyDSE, StrategyReason: "requested",
		Changes: []diffmap.Change{{Kind: diffmap.GuardChanged, Subject: "A:go>B", Old: pos(3, 5), New: pos(4, 5)},
			{Kind: diffmap.PriorityChanged, Subject: "x before y", New: pos(9, 1),
				Transitions: []diffmap.TransitionPlace{{ID: "x", Old: pos(8, 1), New: pos(9, 1)}, {ID: "y", New: pos(7, 1)}}}},
		Impact: incremental.Impact{Changed: []string{"A go [A:go>B] B"}, Impacted: []string{"B tick [B:tick>C] C"}, M1: 33.33, M2: 0.1},
		Base:   incremental.Size{States: 10, Paths: 4, Ms: 12}, Head: incremental.Size{States: 11, Paths: 5, Ms: 1 << 40},
		ReusedStates: 3, NewStates: 8, SolverCalls: 99, SolverUnknown: 2,
		Tests: incremental.Counts{Retained: 1, Changed: 1, Obsolete: 1, New: 2}, TestsPartial: true,
		TestDelta: &testgen.Delta{Retained: []*testgen.Test{test}, Changed: []*testgen.Test{test}, Obsolete: []*testgen.Test{empty},
			New: []*testgen.Test{test, empty}},
		NewlyUnreachable: []incremental.StateRef{{State: "C", Line: 12, Within: 10}, {State: "E", CutBy: vocab.BoundStates}},
		NewlyReachable:   []incremental.StateRef{{State: "D", Line: 14}},
		NewlyTransient:   []incremental.StateRef{{State: "F", Line: 2, Within: 3}},
		NoBase:           true, ConfirmedBy: "full: the head tree is small",
		BoundsHit: []engine.BoundHit{{Bound: vocab.BoundDepth, Limit: 10, Count: 7}, {Bound: "array", Limit: 4, Count: 1}},
		Invariants: []analysis.InvariantCheck{{Invariant: "n != 3", Holds: false, State: "B", Witness: test},
			{Invariant: "0 <= n && n <= 9", Implied: "n: int[0..9]", Holds: true}},
		OutputsLost:           []incremental.OutputRef{{Output: "sent to #_parent", Within: 10, BaseWitness: empty}, {Output: "x to y", CutBy: "time"}},
		Nondeterminism:        []incremental.Conflict{{Conflict: analysis.Conflict{State: "A", Event: "go", Taken: "x", Shadows: "y", Line: 7, Witness: empty}, AtBase: true}},
		NondeterminismPartial: true, BaseCached: true, HeadCached: true,
	}
}

// changed analyses base and a copy of it edited by replacing old with new,
// with every analysis; the invariants, if any, are checked too.
func changed(t testing.TB, path, old, new string, invariants ...string) *incremental.Result {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), old, new, 1)
	if edited == string(src) {
		t.Fatalf("%s has no %q", path, old)
	}
	base, head := loadBytes(t, path, src), loadBytes(t, path, []byte(edited))
	var invs []analysis.Invariant
	for _, text := range invariants {
		inv, err := analysis.ParseInvariant(head, text)
		if err != nil {
			t.Fatal(err)
		}
		invs = append(invs, inv)
	}
	r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{
		Engine: engine.Options{MaxDepth: 4}, Solver: newZ3, Analyses: incremental.AllAnalyses, Invariants: invs})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var (
	realOnce    sync.Once
	realResults map[string]*incremental.Result
)

// realResultsFor returns results to encode: a hand-made one, and analyses
// of changes whose tests carry decimals, strings,
// booleans, integers, outputs with arguments and timers, with witnesses of
// invariants, lost outputs and conflicts.
func realResultsFor(t testing.TB) map[string]*incremental.Result {
	realOnce.Do(func() {
		realResults = map[string]*incremental.Result{
			"radio":     changed(t, "../../examples/radio.scxml", `cond="_event.data.level == 0"`, `cond="_event.data.level &lt;= 0"`, "volume != 7"),
			"decimals":  changed(t, "../../model/mlm/testdata/features/decimals.scxml", "20.5", "21.5"),
			"strings":   changed(t, "../../model/mlm/testdata/features/strings.scxml", "'adm'", "'root'"),
			"conflict":  changed(t, "../../model/mlm/testdata/features/conflict.scxml", "_event.data.ok", "!_event.data.ok"),
			"timers":    changed(t, "../../model/mlm/testdata/features/send.scxml", `<param name="code" expr="7"/>`, `<param name="code" expr="8"/>`),
			"hand-made": handMadeResult(),
		}
	})
	if realResults == nil {
		t.Fatal("the results could not be computed")
	}
	return realResults
}

// TestResultRoundTrip: a decoded result is the result that was encoded,
// but for what the encoding leaves out, and encodes to the same bytes.
func TestResultRoundTrip(t *testing.T) {
	kinds := map[reflect.Type]bool{}
	for name, r := range realResultsFor(t) {
		t.Run(name, func(t *testing.T) {
			enc, err := incremental.EncodeResult(r)
			if err != nil {
				t.Fatal(err)
			}
			got, err := incremental.DecodeResult(enc)
			if err != nil {
				t.Fatal(err)
			}
			want := *r
			want.Diff, want.BaseSet, want.HeadSet, want.WholeSet, want.BaseTests, want.HeadTests = nil, nil, nil, nil, nil, nil
			if path, ok := same(reflect.ValueOf(&want), reflect.ValueOf(got), ""); !ok {
				t.Errorf("the decoded result differs at %s", path)
			}
			again, err := incremental.EncodeResult(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, enc) {
				t.Error("the decoded result encodes to other bytes")
			}
			if got.TestDelta != nil {
				for _, l := range [][]*testgen.Test{got.TestDelta.Retained, got.TestDelta.New} {
					for _, tt := range l {
						for _, s := range tt.Steps {
							for _, v := range s.Args {
								kinds[reflect.TypeOf(v)] = true
							}
						}
					}
				}
			}
		})
	}
	for _, v := range []any{int64(0), true, "", sim.Decimal("")} {
		if !kinds[reflect.TypeOf(v)] {
			t.Errorf("no decoded test carries an argument of type %T", v)
		}
	}
}

// same compares two values deeply, taking a nil slice or map for an empty
// one (the encoding does not tell them apart) and ignoring the tree node a
// test ends at; it returns where they differ.
func same(a, b reflect.Value, path string) (string, bool) {
	if a.Kind() != b.Kind() {
		return path, false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return path, a.IsNil() == b.IsNil()
		}
		return same(a.Elem(), b.Elem(), path)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return path, a.IsNil() == b.IsNil()
		}
		if a.Elem().Type() != b.Elem().Type() {
			return path + " (type)", false
		}
		return same(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			f := a.Type().Field(i)
			if a.Type() == reflect.TypeFor[testgen.Test]() && f.Name == "Leaf" {
				continue
			}
			if p, ok := same(a.Field(i), b.Field(i), path+"."+f.Name); !ok {
				return p, false
			}
		}
		return path, true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return path + " (length)", false
		}
		for i := range a.Len() {
			if p, ok := same(a.Index(i), b.Index(i), path+"["+strconv.Itoa(i)+"]"); !ok {
				return p, false
			}
		}
		return path, true
	case reflect.Map:
		if a.Len() != b.Len() {
			return path + " (length)", false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return path + "[" + k.String() + "]", false
			}
			if p, ok := same(a.MapIndex(k), bv, path+"["+k.String()+"]"); !ok {
				return p, false
			}
		}
		return path, true
	}
	return path, a.Interface() == b.Interface()
}

// TestDecodeResultErrors: what is not an encoded result of this format is
// an error that wraps ErrResultEncoding.
func TestDecodeResultErrors(t *testing.T) {
	enc, err := incremental.EncodeResult(handMadeResult())
	if err != nil {
		t.Fatal(err)
	}
	format := len("SETRESULT")
	edit := func(f func([]byte) []byte) []byte { return f(bytes.Clone(enc)) }
	cases := map[string][]byte{
		"empty":         nil,
		"another magic": edit(func(b []byte) []byte { b[0] = 'X'; return b }),
		"a tree":        []byte("SET3"),
		"a newer format": edit(func(b []byte) []byte {
			b[format]++
			return b
		}),
		"the header only": enc[:format+1],
		"truncated":       enc[:len(enc)-3],
		"trailing bytes":  append(bytes.Clone(enc), 0),
		"a bad decimal":   encoded(t, "t", sim.Decimal("1/3")),
	}
	for name, data := range cases {
		if _, err := incremental.DecodeResult(data); !errors.Is(err, incremental.ErrResultEncoding) {
			t.Errorf("%s: error %v, want one wrapping ErrResultEncoding", name, err)
		}
	}
	r := handMadeResult()
	r.TestDelta.New[0].Steps[0].Args["f"] = 1.5
	if _, err := incremental.EncodeResult(r); err == nil || !strings.Contains(err.Error(), "argument f") {
		t.Errorf("encoding a float64 argument: error %v, want one naming it", err)
	}
}

// encoded is the encoding of a result with one test whose one step has
// the argument name=v, which EncodeResult takes as it is.
func encoded(t *testing.T, name string, v any) []byte {
	t.Helper()
	r := &incremental.Result{TestDelta: &testgen.Delta{New: []*testgen.Test{{ID: "t", Steps: []testgen.Step{{Event: "e", Args: map[string]any{name: v}}}}}}}
	enc, err := incremental.EncodeResult(r)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// FuzzDecodeResult checks that DecodeResult never panics and that every
// error wraps ErrResultEncoding, given encoded results damaged anyhow. A
// result it accepts encodes to bytes that decode to the same result.
func FuzzDecodeResult(f *testing.F) {
	f.Add([]byte("SETRESULT\x01"))
	for _, name := range []string{"hand-made", "conflict", "strings"} {
		enc, err := incremental.EncodeResult(realResultsFor(f)[name])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := incremental.DecodeResult(data)
		if err != nil {
			if !errors.Is(err, incremental.ErrResultEncoding) {
				t.Fatalf("error %q does not wrap ErrResultEncoding", err)
			}
			return
		}
		enc, err := incremental.EncodeResult(r)
		if err != nil {
			t.Fatalf("encoding a decoded result: %v", err)
		}
		again, err := incremental.DecodeResult(enc)
		if err != nil {
			t.Fatalf("decoding a decoded result's encoding: %v", err)
		}
		if path, ok := same(reflect.ValueOf(r), reflect.ValueOf(again), ""); !ok {
			t.Fatalf("a decoded result changes through its encoding at %s", path)
		}
	})
}
