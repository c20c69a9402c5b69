package testgen

import (
	"context"
	"fmt"
	"slices"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Delta is how a test suite changed between two versions
// (Rapos, Effects of model evolution, 2012). Every
// base test is replayed on the head machine with its own input values:
// those that fire the same transitions with the same decision paths and
// meet their oracle are retained, those that follow their path but produce
// other outputs or end in another configuration are changed (they carry
// the head's oracle), those whose inputs no longer drive the head machine
// along their path are obsolete. Head tests of another identity are new.
type Delta struct {
	Retained []*Test `json:"retained"`
	Changed  []*Test `json:"changed"`
	Obsolete []*Test `json:"obsolete"`
	New      []*Test `json:"new"`
}

// Compare computes the delta from the base suite to the head version,
// whose tree is headSet and whose suite is head.
//
// A base test is judged by what its inputs do on the head machine (package
// sim), not by where the head tree ends: one that is no longer a leaf of
// that tree (its path now reaches a subsumed node, or a bound cuts it) but
// still follows its path is retained or changed, never obsolete. A retained
// or changed test keeps its identity and values; its Leaf is the head
// tree's node its path ends at, nil when the head tree stops before. An
// obsolete test is the base test as it was.
// Replaying is concrete: Compare asks no solver. It stops with the
// context's error once the context ends.
func Compare(ctx context.Context, base, head []*Test, headSet *engine.SET) (*Delta, error) {
	d := &Delta{Retained: []*Test{}, Changed: []*Test{}, Obsolete: []*Test{}, New: []*Test{}}
	kept := make(map[string]bool)
	for _, b := range base {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := replay(headSet.Machine, b)
		switch {
		case err != nil:
			return nil, fmt.Errorf("replaying test %s on the head version: %w", b.ID, err)
		case h == nil:
			d.Obsolete = append(d.Obsolete, b)
			continue
		case h == b:
			r := *b
			h = &r
			d.Retained = append(d.Retained, h)
		default:
			d.Changed = append(d.Changed, h)
		}
		h.Leaf = node(headSet, h)
		kept[b.ID] = true
	}
	for _, h := range head {
		if !kept[h.ID] {
			d.New = append(d.New, h)
		}
	}
	return d, nil
}

// replay runs t's inputs on m. It returns nil when they no longer drive m
// along t's path: a step is not the same kind of input any more (a timer
// that is not pending, an input that would fire a timer), m rejects it (a
// parameter it no longer has, a value out of range, a run-time error),
// discards an event the path takes, or fires other transitions or decision
// paths. Otherwise it returns t itself when m meets t's oracle, or a copy
// of t with the oracle m gives it (outputs, configurations). An error is a
// test no machine could run, or a machine that does not start.
func replay(m *mlm.Machine, t *Test) (*Test, error) {
	opts := sim.Options{Time: vocab.TimeUntimed}
	if len(t.Steps) > 0 && t.Steps[0].At != nil {
		opts.Time = vocab.TimeTimed // a test of a timed tree: each step at its time
	}
	s, _, err := sim.New(m, opts)
	if err != nil {
		return nil, err
	}
	var steps []Step // the head's oracle, from the first step that differs
	for i, st := range t.Steps {
		if !sameKind(m, s, st) {
			return nil, nil
		}
		ev, err := st.Input()
		if err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", i+1, st.Event, err)
		}
		got, err := s.StepAt(ev, st.At)
		if err != nil || (got.Discarded != "" && len(st.Fired) > 0) || !sameFired(got.Fired, st.Fired) {
			return nil, nil
		}
		h, same := st, true
		if !sameOutputs(got.Outputs, st.Outputs) {
			h.Outputs, same = make([]Output, len(got.Outputs)), false
			for j, o := range got.Outputs {
				h.Outputs[j] = Output{Event: o.Event, Target: o.Target, Args: sim.PlainArgs(o.Args)}
			}
		}
		if !slices.Equal(got.Config, st.Config) {
			h.Config, same = got.Config, false
		}
		if !same && steps == nil {
			steps = append(make([]Step, 0, len(t.Steps)), t.Steps[:i]...)
		}
		if steps != nil {
			steps = append(steps, h)
		}
	}
	final := s.State().Atomic
	if steps == nil && slices.Equal(final, t.Final) {
		return t, nil
	}
	out := *t
	if steps != nil {
		out.Steps = steps
	}
	out.Final = slices.Clone(final)
	return &out, nil
}

// Input is what the environment sends for the step: the event with its
// values, or a pending timer, which fires with the values it was set with
// (an event the machine sent itself: its Meta says so, which tells it from
// an input of the same name).
func (st Step) Input() (sim.Event, error) {
	if st.Timer {
		return sim.Event{Name: st.Event, Meta: model.Meta{Self: true}}, nil
	}
	args, err := sim.ArgsOf(st.Args)
	return sim.Event{Name: st.Event, Args: args}, err
}

// sameKind reports whether step st is, on the running machine s, what it
// was when the test was made: a pending timer firing, or an event from the
// environment (taken as an input, or discarded).
func sameKind(m *mlm.Machine, s *sim.Sim, st Step) bool {
	e := m.Event(st.Event)
	if input := e != nil && e.Kinds&model.Input != 0; input {
		return !st.Timer
	}
	return slices.Contains(s.PendingTimers(), st.Event) == st.Timer
}

func sameFired(got []sim.Fired, want []Fired) bool {
	return slices.EqualFunc(got, want, func(g sim.Fired, w Fired) bool { return g.Key == w.Key && g.Path == w.Path })
}

// node returns the node of set that t's path ends at, or nil when the
// tree does not hold the whole path.
func node(set *engine.SET, t *Test) *engine.Node {
	if len(set.Nodes) == 0 {
		return nil
	}
	n := set.Nodes[0]
	for _, st := range t.Steps {
		i := slices.IndexFunc(n.Children, func(c *engine.Node) bool {
			return c.In.Event == st.Event && c.In.Timer == st.Timer &&
				slices.EqualFunc(c.In.Fired, st.Fired, func(f engine.Fired, w Fired) bool { return f.T.Key == w.Key && f.Path == w.Path })
		})
		if i < 0 {
			return nil
		}
		n = n.Children[i]
	}
	return n
}

// sameOutputs reports whether the simulator's outputs are a test's.
func sameOutputs(got []sim.Output, want []Output) bool {
	return slices.EqualFunc(got, want, func(g sim.Output, w Output) bool {
		if g.Event != w.Event || g.Target != w.Target || len(g.Args) != len(w.Args) {
			return false
		}
		for name, v := range g.Args {
			x, ok := w.Args[name]
			if !ok || x != v.Plain() {
				return false
			}
		}
		return true
	})
}
