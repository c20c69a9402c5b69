package html

import (
	"sort"
	"strings"

	"github.com/setbot/setbot/engine/interp"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vocab"
)

// play is a witness or a test as the page's player steps through it: the
// start, then one frame per input event.
type play struct {
	Name   string  `json:"name"`
	Kind   string  `json:"kind"`   // the finding or the test-delta class it belongs to
	Frames []frame `json:"frames"` // the start first, all on the head model
	// Note says why the frames stop early or come from the test's own
	// record rather than a replay (an input the interpreter refused).
	Note string `json:"note,omitempty"`
}

// frame is the machine after one input: what the reviewer sees highlighted.
type frame struct {
	Event string `json:"event"` // "" for the start
	// Active are the active states, ancestors included, so that compound
	// boxes light up with their children.
	Active []string `json:"active"`
	// Fired has one entry per microstep: the statechart transitions taken.
	Fired   [][]string        `json:"fired"`
	Vars    map[string]string `json:"vars,omitempty"`
	Outputs []string          `json:"outputs,omitempty"`
	// Expected is the configuration the test expects, when it differs
	// from Active's atomic states (a test of the base replayed at head).
	Expected  []string `json:"expected,omitempty"`
	Discarded string   `json:"discarded,omitempty"`
}

// replay runs t on the reference interpreter of m (engine/interp), under
// the time semantics the analysis used (time), which
// gives what the flattened test does not record: the microsteps, the
// variables and the states entered on the way. Where the interpreter
// cannot start the machine, the frames come from the test's own record.
func replay(m *model.Model, time vocab.Time, name, kind string, t *report.Test) play {
	p := play{Name: name, Kind: kind}
	in, st, err := interp.New(m, interp.Options{Time: time})
	if err != nil {
		p.Note = "the reference interpreter could not start the machine (" + err.Error() + "): the frames are the test's record"
		p.Frames = recorded(t)
		return p
	}
	p.Frames = append(p.Frames, interpFrame(m, in, st, ""))
	for _, s := range t.Steps {
		args, err := sim.ArgsOf(s.Args)
		if err != nil {
			p.Note = "step " + s.Event + ": " + err.Error()
			return p
		}
		ev := sim.Event{Name: s.Event, Args: args}
		ev.Meta.Self = s.Timer
		if e := m.EventByName(s.Event); e != nil {
			if err := sim.Complete(e, ev.Args); err != nil {
				p.Note = "step " + s.Event + ": " + err.Error()
				return p
			}
		}
		st, err := in.StepAt(ev, s.At)
		if err != nil {
			p.Note = "the reference interpreter stopped at " + s.Event + ": " + err.Error()
			return p
		}
		f := interpFrame(m, in, st, eventText(s))
		if !sameStates(st.Config, s.Config) {
			f.Expected = s.Config
		}
		p.Frames = append(p.Frames, f)
	}
	return p
}

func interpFrame(m *model.Model, in *interp.Interp, st interp.Step, event string) frame {
	f := frame{Event: event, Active: withAncestors(m, st.Config), Discarded: st.Discarded, Vars: map[string]string{}}
	for _, ids := range st.Transitions {
		f.Fired = append(f.Fired, strings.Split(ids, "+"))
	}
	for _, o := range st.Outputs {
		f.Outputs = append(f.Outputs, o.String())
	}
	for name, v := range in.Vars() {
		if !strings.HasPrefix(name, "_") {
			f.Vars[name] = v.String()
		}
	}
	return f
}

// recorded is the frames of t as the test records them: configurations and
// outputs, without variables.
func recorded(t *report.Test) []frame {
	out := []frame{{}}
	for _, s := range t.Steps {
		f := frame{Event: eventText(s), Active: s.Config}
		for _, o := range s.Outputs {
			f.Outputs = append(f.Outputs, o.Event+" to "+o.Target)
		}
		out = append(out, f)
	}
	return out
}

func eventText(s report.Step) string {
	args, err := sim.ArgsOf(s.Args)
	if err != nil || len(args) == 0 {
		if s.Timer {
			return s.Event + " " + sim.TimerMark
		}
		return s.Event
	}
	return sim.Event{Name: s.Event, Args: args}.String()
}

// withAncestors adds to the atomic states ids their proper ancestors but
// the root, sorted.
func withAncestors(m *model.Model, ids []string) []string {
	seen := map[string]bool{}
	for _, id := range ids {
		for s := m.State(id); s != nil && s.Kind != model.Root; s = s.Parent {
			seen[s.ID] = true
		}
		seen[id] = true
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func sameStates(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}
