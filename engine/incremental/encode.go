package incremental

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// The encoding of a Result is resultMagic, then resultFormat (one byte),
// then one gob value of type storedResult. It keeps everything a Result
// says about the change and nothing it was computed from: not the diff,
// the trees or their suites (the cache keeps trees and suites on their
// own), nor the tree node a test ends at. It is not compressed: the cache
// deflates every blob it stores.
//
// The stored types mirror the core's, with the tests' argument maps as
// lists of typed values: gob would carry an argument as an interface value
// named by its Go type, and it sizes a decoded map by the length the input
// claims, which a damaged input can make gigabytes. TestStoredMirrorsResult
// fails when a field is added to a Result and not here. Change the format
// byte with the stored types; a later format may be another encoding
// altogether, behind the same two functions.
const (
	resultMagic  = "SETRESULT"
	resultFormat = 1
)

// ErrResultEncoding is wrapped by every error decoding a result.
var ErrResultEncoding = errors.New("malformed encoded result")

type storedResult struct {
	Strategy              vocab.Strategy
	StrategyReason        string
	Changes               []diffmap.Change
	Impact                Impact
	Base, Head            Size
	ReusedStates          int
	NewStates             int
	SolverCalls           int
	SolverUnknown         int
	Tests                 Counts
	TestsPartial          bool
	TestDelta             *storedDelta
	NewlyUnreachable      []StateRef
	NewlyReachable        []StateRef
	NewlyTransient        []StateRef
	NoBase                bool
	ConfirmedBy           string
	BoundsHit             []engine.BoundHit
	Invariants            []storedInvariant
	OutputsLost           []storedOutputRef
	Nondeterminism        []storedConflict
	NondeterminismPartial bool
	BaseCached            bool
	HeadCached            bool
}

type storedDelta struct {
	Retained, Changed, Obsolete, New []storedTest
}

type storedInvariant struct {
	Invariant, Implied string
	Holds              bool
	State              string
	Witness            *storedTest
	CutBy              vocab.Bound
}

type storedOutputRef struct {
	Output      string
	Within      int
	CutBy       vocab.Bound
	BaseWitness *storedTest
}

type storedConflict struct {
	State, Event, Taken, Shadows string
	Line                         int
	Witness                      *storedTest
	AtBase                       bool
}

type storedTest struct {
	ID       string
	Identity []string
	Steps    []storedStep
	Final    []string
	Rows     []string
}

type storedStep struct {
	Event   string
	Timer   bool
	At      []int64 // the time, or none (gob would drop a pointer to 0)
	Args    []storedArg
	Outputs []storedOutput
	Fired   []testgen.Fired
	Config  []string
}

type storedOutput struct {
	Event, Target string
	Args          []storedArg
}

// storedArg is one argument of a test's event, as tests carry it: an
// int64, a bool, a string or a sim.Decimal (its text, in Str).
type storedArg struct {
	Name string
	Kind argKind
	Int  int64
	Bool bool
	Str  string
}

type argKind uint8

const (
	argInt argKind = iota
	argBool
	argString
	argDecimal
)

// EncodeResult encodes r for DecodeResult.
func EncodeResult(r *Result) ([]byte, error) {
	s := storedResult{
		Strategy: r.Strategy, StrategyReason: r.StrategyReason, Changes: r.Changes, Impact: r.Impact,
		Base: r.Base, Head: r.Head, ReusedStates: r.ReusedStates, NewStates: r.NewStates,
		SolverCalls: r.SolverCalls, SolverUnknown: r.SolverUnknown, Tests: r.Tests, TestsPartial: r.TestsPartial,
		NewlyUnreachable: r.NewlyUnreachable, NewlyReachable: r.NewlyReachable, NewlyTransient: r.NewlyTransient,
		NoBase: r.NoBase, ConfirmedBy: r.ConfirmedBy, BoundsHit: r.BoundsHit,
		NondeterminismPartial: r.NondeterminismPartial, BaseCached: r.BaseCached, HeadCached: r.HeadCached,
	}
	var err error
	if d := r.TestDelta; d != nil {
		s.TestDelta = &storedDelta{}
		for _, l := range []struct {
			to   *[]storedTest
			from []*testgen.Test
		}{{&s.TestDelta.Retained, d.Retained}, {&s.TestDelta.Changed, d.Changed},
			{&s.TestDelta.Obsolete, d.Obsolete}, {&s.TestDelta.New, d.New}} {
			if *l.to, err = storeTests(l.from); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range r.Invariants {
		w, err := storeWitness(c.Witness)
		if err != nil {
			return nil, err
		}
		s.Invariants = append(s.Invariants, storedInvariant{Invariant: c.Invariant, Implied: c.Implied, Holds: c.Holds, State: c.State, Witness: w, CutBy: c.CutBy})
	}
	for _, o := range r.OutputsLost {
		w, err := storeWitness(o.BaseWitness)
		if err != nil {
			return nil, err
		}
		s.OutputsLost = append(s.OutputsLost, storedOutputRef{Output: o.Output, Within: o.Within, CutBy: o.CutBy, BaseWitness: w})
	}
	for _, c := range r.Nondeterminism {
		w, err := storeWitness(c.Witness)
		if err != nil {
			return nil, err
		}
		s.Nondeterminism = append(s.Nondeterminism, storedConflict{State: c.State, Event: c.Event, Taken: c.Taken,
			Shadows: c.Shadows, Line: c.Line, Witness: w, AtBase: c.AtBase})
	}
	var b bytes.Buffer
	b.WriteString(resultMagic)
	b.WriteByte(resultFormat)
	if err := gob.NewEncoder(&b).Encode(&s); err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return b.Bytes(), nil
}

func storeTests(ts []*testgen.Test) ([]storedTest, error) {
	out := make([]storedTest, len(ts))
	for i, t := range ts {
		var err error
		if out[i], err = storeTest(t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func storeWitness(t *testgen.Test) (*storedTest, error) {
	if t == nil {
		return nil, nil
	}
	s, err := storeTest(t)
	return &s, err
}

func storeTest(t *testgen.Test) (storedTest, error) {
	s := storedTest{ID: t.ID, Identity: t.Identity, Final: t.Final, Rows: t.Rows, Steps: make([]storedStep, len(t.Steps))}
	for i, st := range t.Steps {
		args, err := storeArgs(st.Args)
		if err != nil {
			return s, fmt.Errorf("encoding test %s, step %d: %w", t.ID, i+1, err)
		}
		s.Steps[i] = storedStep{Event: st.Event, Timer: st.Timer, Args: args, Fired: st.Fired, Config: st.Config,
			Outputs: make([]storedOutput, len(st.Outputs))}
		if st.At != nil {
			s.Steps[i].At = []int64{*st.At}
		}
		for j, o := range st.Outputs {
			args, err := storeArgs(o.Args)
			if err != nil {
				return s, fmt.Errorf("encoding test %s, step %d, output %s: %w", t.ID, i+1, o.Event, err)
			}
			s.Steps[i].Outputs[j] = storedOutput{Event: o.Event, Target: o.Target, Args: args}
		}
	}
	return s, nil
}

// storeArgs lists arguments by name, so that a result always encodes to
// the same bytes.
func storeArgs(args map[string]any) ([]storedArg, error) {
	out := make([]storedArg, 0, len(args))
	for _, name := range slices.Sorted(maps.Keys(args)) {
		a := storedArg{Name: name}
		switch v := args[name].(type) {
		case int64:
			a.Kind, a.Int = argInt, v
		case bool:
			a.Kind, a.Bool = argBool, v
		case string:
			a.Kind, a.Str = argString, v
		case sim.Decimal:
			a.Kind, a.Str = argDecimal, string(v)
		default:
			return nil, fmt.Errorf("argument %s: %v (%T) is not an int64, a bool, a string or a decimal", name, v, v)
		}
		out = append(out, a)
	}
	return out, nil
}

// DecodeResult decodes a result EncodeResult wrote. What the encoding
// leaves out is absent: Diff, the trees and their suites are nil, and so
// is every test's Leaf. A list that was empty may come back nil.
func DecodeResult(data []byte) (*Result, error) {
	if len(data) < len(resultMagic)+1 || string(data[:len(resultMagic)]) != resultMagic {
		return nil, fmt.Errorf("%w: not an encoded result", ErrResultEncoding)
	}
	if f := data[len(resultMagic)]; f != resultFormat {
		return nil, fmt.Errorf("%w: format %d, not %d", ErrResultEncoding, f, resultFormat)
	}
	rd := bytes.NewReader(data[len(resultMagic)+1:])
	var s storedResult
	if err := gob.NewDecoder(rd).Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrResultEncoding, err)
	}
	if rd.Len() > 0 {
		return nil, fmt.Errorf("%w: %d bytes after the result", ErrResultEncoding, rd.Len())
	}
	r := &Result{
		Strategy: s.Strategy, StrategyReason: s.StrategyReason, Changes: s.Changes, Impact: s.Impact,
		Base: s.Base, Head: s.Head, ReusedStates: s.ReusedStates, NewStates: s.NewStates,
		SolverCalls: s.SolverCalls, SolverUnknown: s.SolverUnknown, Tests: s.Tests, TestsPartial: s.TestsPartial,
		NewlyUnreachable: s.NewlyUnreachable, NewlyReachable: s.NewlyReachable, NewlyTransient: s.NewlyTransient,
		NoBase: s.NoBase, ConfirmedBy: s.ConfirmedBy, BoundsHit: s.BoundsHit,
		NondeterminismPartial: s.NondeterminismPartial, BaseCached: s.BaseCached, HeadCached: s.HeadCached,
	}
	var err error
	if d := s.TestDelta; d != nil {
		r.TestDelta = &testgen.Delta{}
		for _, l := range []struct {
			to   *[]*testgen.Test
			from []storedTest
		}{{&r.TestDelta.Retained, d.Retained}, {&r.TestDelta.Changed, d.Changed},
			{&r.TestDelta.Obsolete, d.Obsolete}, {&r.TestDelta.New, d.New}} {
			if *l.to, err = loadTests(l.from); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range s.Invariants {
		w, err := loadWitness(c.Witness)
		if err != nil {
			return nil, err
		}
		r.Invariants = append(r.Invariants, analysis.InvariantCheck{Invariant: c.Invariant, Implied: c.Implied, Holds: c.Holds, State: c.State, Witness: w, CutBy: c.CutBy})
	}
	for _, o := range s.OutputsLost {
		w, err := loadWitness(o.BaseWitness)
		if err != nil {
			return nil, err
		}
		r.OutputsLost = append(r.OutputsLost, OutputRef{Output: o.Output, Within: o.Within, CutBy: o.CutBy, BaseWitness: w})
	}
	for _, c := range s.Nondeterminism {
		w, err := loadWitness(c.Witness)
		if err != nil {
			return nil, err
		}
		r.Nondeterminism = append(r.Nondeterminism, Conflict{AtBase: c.AtBase, Conflict: analysis.Conflict{State: c.State, Event: c.Event,
			Taken: c.Taken, Shadows: c.Shadows, Line: c.Line, Witness: w}})
	}
	return r, nil
}

func loadTests(ss []storedTest) ([]*testgen.Test, error) {
	tests := make([]testgen.Test, len(ss)) // one allocation for the tests of a list
	out := make([]*testgen.Test, len(ss))
	for i, s := range ss {
		if err := loadTest(&tests[i], s); err != nil {
			return nil, err
		}
		out[i] = &tests[i]
	}
	return out, nil
}

func loadWitness(s *storedTest) (*testgen.Test, error) {
	if s == nil {
		return nil, nil
	}
	t := new(testgen.Test)
	if err := loadTest(t, *s); err != nil {
		return nil, err
	}
	return t, nil
}

func loadTest(t *testgen.Test, s storedTest) error {
	*t = testgen.Test{ID: s.ID, Identity: s.Identity, Final: s.Final, Rows: s.Rows, Steps: make([]testgen.Step, len(s.Steps))}
	for i, st := range s.Steps {
		args, err := loadArgs(st.Args)
		if err != nil {
			return fmt.Errorf("%w: test %s, step %d: %v", ErrResultEncoding, s.ID, i+1, err)
		}
		t.Steps[i] = testgen.Step{Event: st.Event, Timer: st.Timer, Args: args, Fired: st.Fired, Config: st.Config,
			Outputs: make([]testgen.Output, len(st.Outputs))}
		if len(st.At) == 1 {
			at := st.At[0]
			t.Steps[i].At = &at
		}
		for j, o := range st.Outputs {
			args, err := loadArgs(o.Args)
			if err != nil {
				return fmt.Errorf("%w: test %s, step %d, output %s: %v", ErrResultEncoding, s.ID, i+1, o.Event, err)
			}
			t.Steps[i].Outputs[j] = testgen.Output{Event: o.Event, Target: o.Target, Args: args}
		}
	}
	return nil
}

func loadArgs(args []storedArg) (map[string]any, error) {
	out := make(map[string]any, len(args))
	for _, a := range args {
		if _, dup := out[a.Name]; dup {
			return nil, fmt.Errorf("argument %s twice", a.Name)
		}
		switch a.Kind {
		case argInt:
			out[a.Name] = a.Int
		case argBool:
			out[a.Name] = a.Bool
		case argString:
			out[a.Name] = a.Str
		case argDecimal:
			d := sim.Decimal(a.Str)
			if _, err := d.Rat(); err != nil {
				return nil, fmt.Errorf("argument %s: %v", a.Name, err)
			}
			out[a.Name] = d
		default:
			return nil, fmt.Errorf("argument %s: unknown kind %d", a.Name, a.Kind)
		}
	}
	return out, nil
}
