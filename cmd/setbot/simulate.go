package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/mlm"
)

func newSimulateCmd() *cobra.Command {
	var fe frontEndFlags
	var format string
	var opts sim.Options
	cmd := &cobra.Command{
		Use:   "simulate FILE [EVENT...]",
		Short: "Run a model's machine on a sequence of events",
		Long: `simulate flattens a model into its Mealy-like machine and runs it on concrete
values: it starts the machine, then sends it each EVENT in turn, and prints
what every step did (the outputs sent to other targets and the state reached).
It is the oracle that setbot's generated tests are replayed on.

An EVENT is written name, name() or name(x=3, ok=true, y=-2): a dotted name is
allowed (done.state.S1), values are decimal integers or true/false, and "p: 3"
may stand for "p=3". Quote events that have parentheses or spaces, e.g.
  setbot simulate examples/triangle.scxml 'setTriangleSides(x=3, y=4, z=5)' checkPositiveSides

The environment may send:
  - an input event, with exactly its declared parameters: an int argument
    must lie in its parameter's range (int[0..50], say);
  - a timer (an event the machine sends itself with a delay), without
    arguments, once the machine has set it: it fires with the arguments it was
    set with, and is then no longer pending. Setting a timer again restarts
    it. A timer stays pending when the state that set it is left; firing it
    then is allowed, and discarded if no transition takes it. The text format
    lists the pending timers after each step.
An event that is both an input and a timer is sent as the input. Sending an
output, an internal event, an event the machine only sends itself, an unknown
event or a timer that is not pending is an error.

Each event is processed by the first of the current state's transitions on it
(in key order) whose guard holds and whose action runs to its end; an event
no transition takes is discarded. Then the machine runs to completion: it
processes the events it raised (its internal queue), then those it sent to
itself without a delay, until none is left. A final state stops the machine:
queues and timers are dropped and any further event is an error. Integers are
64-bit: an overflow is an error; division truncates toward zero, x / 0 = 0 and
x % 0 = x. Variable ranges are not enforced.

Formats: text (one block per step: the event, the outputs, the state) and
json ({"steps": [{"event", "args", "fired": [{"key", "path"}], "outputs":
[{"event", "target", "args"}], "state", "configuration", "halted", "timers"}]},
with "error" when a step failed). A fired transition's path has one t or f
per branching point its guard and action evaluated (&&, ||, ?:, if, each loop
test, assume), in order.

The steps before an error are printed; the error goes to stderr and the exit
code is 1, as it is for a model that does not read or flatten (its errors go to
stderr). Exit 2 means the command line is wrong (an EVENT that does not parse,
say).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			write, ok := simulateWriters[format]
			if !ok {
				return fmt.Errorf("unknown --format %q (want text or json)", format)
			}
			path := args[0]
			events := make([]sim.Event, 0, len(args)-1)
			for _, text := range args[1:] {
				ev, err := sim.ParseEvent(text)
				if err != nil {
					return err
				}
				events = append(events, ev)
			}
			m, errs := fe.load(path)
			if len(errs) > 0 {
				for _, e := range errs {
					fmt.Fprintln(cmd.ErrOrStderr(), e)
				}
				return exitError{code: exitFindings}
			}
			steps, err := simulate(m, opts, events)
			if werr := write(cmd.OutOrStdout(), steps, err); werr != nil {
				return werr
			}
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", path, err)
				return exitError{code: exitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().IntVar(&opts.LoopLimit, "loop-limit", sim.DefaultLoopLimit,
		"error when one execution of a loop runs more iterations than this")
	cmd.Flags().IntVar(&opts.MaxMicrosteps, "max-microsteps", sim.DefaultMaxMicrosteps,
		"error when run-to-completion processes more queued events than this in one step")
	fe.register(cmd)
	return cmd
}

// simStep is one step with the timers pending after it.
type simStep struct {
	sim.Step
	Timers []string
}

// simulate runs the machine on events and returns the steps it completed,
// the start step first, and the error that stopped it, if any.
func simulate(m *mlm.Machine, opts sim.Options, events []sim.Event) ([]simStep, error) {
	s, st, err := sim.New(m, opts)
	if err != nil {
		return nil, err
	}
	steps := []simStep{{Step: st, Timers: s.PendingTimers()}}
	for i, ev := range events {
		st, err := s.Step(ev)
		if err != nil {
			return steps, fmt.Errorf("event %d: %w", i+1, err)
		}
		steps = append(steps, simStep{Step: st, Timers: s.PendingTimers()})
	}
	return steps, nil
}

var simulateWriters = map[string]func(io.Writer, []simStep, error) error{
	"text": writeStepsText,
	"json": writeStepsJSON,
}

func writeStepsText(w io.Writer, steps []simStep, _ error) error {
	var b strings.Builder
	for _, st := range steps {
		if st.Input.Name == "" {
			b.WriteString("(start)\n")
		} else {
			fmt.Fprintf(&b, "> %s\n", st.Input)
		}
		outs := make([]string, len(st.Outputs))
		for i, o := range st.Outputs {
			outs[i] = o.String()
		}
		if len(outs) == 0 {
			outs = []string{"none"}
		}
		fmt.Fprintf(&b, "  outputs: %s\n", strings.Join(outs, "; "))
		if st.Halted {
			fmt.Fprintf(&b, "  state: %s (halted)\n", st.State)
		} else {
			fmt.Fprintf(&b, "  state: %s\n", st.State)
		}
		if len(st.Timers) > 0 {
			fmt.Fprintf(&b, "  timers: %s\n", strings.Join(st.Timers, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type jsonSteps struct {
	Steps []jsonStep `json:"steps"`
	Error string     `json:"error,omitempty"`
}

type jsonStep struct {
	Event   string         `json:"event"`
	Args    map[string]any `json:"args"`
	Fired   []jsonFired    `json:"fired"`
	Outputs []jsonOutput   `json:"outputs"`
	State   string         `json:"state"`
	Config  []string       `json:"configuration"`
	Halted  bool           `json:"halted"`
	Timers  []string       `json:"timers"`
}

type jsonFired struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

type jsonOutput struct {
	Event  string         `json:"event"`
	Target string         `json:"target"`
	Args   map[string]any `json:"args"`
}

func writeStepsJSON(w io.Writer, steps []simStep, stepErr error) error {
	out := jsonSteps{Steps: []jsonStep{}}
	if stepErr != nil {
		out.Error = stepErr.Error()
	}
	for _, st := range steps {
		js := jsonStep{
			Event:   st.Input.Name,
			Args:    jsonArgs(st.Input.Args),
			Fired:   []jsonFired{},
			Outputs: []jsonOutput{},
			State:   st.State,
			Config:  append([]string{}, st.Config...),
			Halted:  st.Halted,
			Timers:  append([]string{}, st.Timers...),
		}
		for _, f := range st.Fired {
			js.Fired = append(js.Fired, jsonFired{Key: f.Key, Path: f.Path})
		}
		for _, o := range st.Outputs {
			js.Outputs = append(js.Outputs, jsonOutput{Event: o.Event, Target: o.Target, Args: jsonArgs(o.Args)})
		}
		out.Steps = append(out.Steps, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// jsonArgs turns argument values into JSON numbers and booleans.
func jsonArgs(args map[string]sim.Value) map[string]any {
	out := make(map[string]any, len(args))
	for name, v := range args {
		if v.Kind == lang.Bool {
			out[name] = v.Bool
		} else {
			out[name] = v.Int
		}
	}
	return out
}
