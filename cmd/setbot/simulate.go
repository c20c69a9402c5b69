package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine/interp"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// simulateLong is simulate's --help.
var simulateLong = `simulate flattens a model into its Mealy-like machine and runs it on concrete
values: it starts the machine, then sends it each EVENT in turn, and prints
what every step did (the outputs sent to other targets and the state reached).
It is the oracle that setbot's generated tests are replayed on.

With --reference it runs the statechart itself instead, on setbot's reference
interpreter (the W3C SCXML algorithm, Appendix D, applied directly), and
prints for every step the statechart transitions taken (one line per
microstep), the states exited and entered in order, the outputs and the
configuration reached. The two must agree (a differential test keeps them
so); the reference runs models the flattener refuses, too.

An EVENT is written name, name() or name(ARG, ...): a dotted name is allowed
(done.state.S1), and an ARG is NAME=VALUE (or NAME: VALUE, as the action
language writes arguments). NAME is a parameter's, or a part of an array or
object parameter, which is passed as its parts: xs.length, xs[0], p.f. A
VALUE is
  - an integer (3, -2) or a decimal (1.5, -0.25, 2e3; an integer is the
    decimal of its value where the parameter is a decimal);
  - true or false;
  - a string literal of the action language, in single or double quotes:
    it may hold commas and parentheses, and the escapes \\ \' \" \n \t
    \r \u{1F600} \u00e9 (e(s='it\'s, ok') sends it's, ok);
  - undefined or null, for a parameter that may hold them (s=undefined
    stands for the pair setbot lowers it to, _absent_s=1 and an empty s).
Each step is printed with its event written the same way, so a step's
event can be sent again as it reads. Quote each EVENT for the shell, e.g.
  setbot simulate examples/triangle.scxml 'setTriangleSides(x=3, y=4, z=5)' checkPositiveSides
  setbot simulate model.scxml "say(text='it\'s, \"ok\"', lang=undefined)"

The environment may send:
  - an input event, with exactly its declared parameters: an argument must
    lie in its parameter's range (int[0..50], say) and in the input domain,
    where ` + inputDomainHelp("    ") + `;
  - a pending timer (an event the machine sent itself with a delay), without
    arguments: it fires with the arguments it was set with. Every delayed
    send is its own pending timer, so a timer set twice is pending twice. A
    timer stays pending when the state that set it is left. The text format
    lists the pending timers after each step. A timer an invoked session
    set is named by the invoke's id and its event: s0.0/timeout.
An event that is both an input and a timer is sent as the input, unless it
is written NAME (timer), as tests print a timer's step.

Time (--time timed, the default): the machine starts at 0s; a timer is due
its delay after the step that set it, and only the timer due first (the
earliest set among equals) may fire, at its deadline. An EVENT may end in
@TIME, a CSS2 duration from the start: go@1.5s, tick@500ms. An input comes at
that time (without one, at once: when the last step came), no earlier than the
last step and no later than the next deadline; a timer's time, when given,
must be its deadline. Every step says when it happened. With --time untimed a
timer may fire whenever it is pending (of those of one name the oldest), and
times are not read.

Each event is processed by the first of the current state's transitions on it
(in key order) whose guard holds and whose action runs to its end. Then the
machine runs to completion: it processes the events it raised (its internal
queue), then those it sent to itself without a delay, until none is left. A
final state stops the machine: queues and timers are dropped.

An event nothing takes is discarded, as SCXML discards it, and the step says
why: one no transition of the current state takes (or whose every guard is
false), one the machine does not know, any event after the machine has
stopped. Sending with wrong arguments, sending an internal event, an event the
machine only sends itself or a timer that is not pending, where a transition
of the current state would take it, is an error. Integers are 64-bit: an
overflow is an error; division truncates toward zero, x / 0 = 0 and
x % 0 = x. Variable ranges are not enforced.

Formats: text (one block per step: the event, the outputs, the state, and why
it was discarded) and json ({"steps": [{"event", "args", "fired": [{"key",
"path"}], "entered", "outputs": [{"event", "target", "args"}], "state",
"configuration", "halted", "timers", "at", "next", "vars", "discarded"}]}, with "error" when a
step failed; "discarded" only when the event was, "vars" only with --vars). A fired transition's path has
one t or f per branching point its guard and action evaluated (&&, ||, ?:,
if, each loop test, assume), in order; "entered" lists the statechart states
the step entered, in order. With --reference the json steps are {"event",
"args", "transitions", "exited", "entered", "outputs", "configuration",
"halted", "timers", "at", "next", "vars", "discarded"}; "at" (ms) and "next" ({"event", "at"}) only for a machine with timers, timed.

With --vars every step also lists the data model's variables after it (those
the model declares, not the system variables), in the text written as
arguments are (s=undefined), in the json as arguments are (the lowered pair
_absent_s=1, s="").

The steps before an error are printed; the error goes to stderr and the exit
code is 1, as it is for a model that does not read or flatten (its errors go to
stderr). Exit 2 means the command line is wrong (an EVENT that does not parse,
say).`

func newSimulateCmd() *cobra.Command {
	var fe frontEndFlags
	var format string
	var reference, vars bool
	var timeSem string
	var hosts []string
	var opts sim.Options
	cmd := &cobra.Command{
		Use:   "simulate FILE [EVENT...]",
		Short: "Run a model's machine on a sequence of events",
		Long:  simulateLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, ok := simulateWriters[format]; !ok {
				return fmt.Errorf("unknown --format %q (want text or json)", format)
			}
			path := args[0]
			events, times, err := parseSimEvents(args[1:])
			if err != nil {
				return err
			}
			opts.Time = vocab.Time(timeSem)
			var steps []simStep
			if reference {
				m, errs := scxml.ReadFile(source.NewFileSet(), path, scxml.Options{})
				if len(errs) > 0 {
					return modelErrors(cmd.ErrOrStderr(), errs)
				}
				if err := completeArgs(events, m.EventByName); err != nil {
					return err
				}
				if err := hostResults(m, hosts); err != nil {
					return err
				}
				in, start, ierr := interp.New(m, opts)
				if err = ierr; err == nil {
					steps, err = simulate(in, start, referenceStep, events, times, vars)
				}
				var bad *source.Error
				if errors.As(err, &bad) {
					// A statechart the algorithm cannot run: a model error.
					return modelErrors(cmd.ErrOrStderr(), source.ErrorList{bad})
				}
			} else {
				m, lerr := fe.load(cmd.Context(), path, 0)
				if lerr != nil {
					return modelErrors(cmd.ErrOrStderr(), lerr)
				}
				if err := completeArgs(events, m.Event); err != nil {
					return err
				}
				if err := hostResults(m.Source, hosts); err != nil {
					return err
				}
				s, start, serr := sim.New(m, opts)
				if err = serr; err == nil {
					steps, err = simulate(s, start, flattenedStep, events, times, vars)
				}
			}
			if werr := simulateWriters[format](cmd.OutOrStdout(), steps, err); werr != nil {
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
	cmd.Flags().StringVar(&timeSem, "time", string(vocab.TimeTimed), timeUsage)
	cmd.Flags().BoolVar(&reference, "reference", false,
		"run the statechart on the reference interpreter (W3C SCXML algorithm) instead of the flattened machine")
	cmd.Flags().BoolVar(&vars, "vars", false,
		"print the data model's variables after every step")
	cmd.Flags().IntVar(&opts.LoopLimit, "loop-limit", sim.DefaultLoopLimit,
		"error when one execution of a loop runs more iterations than this")
	micro, _ := vocab.BoundMicrosteps.Settable()
	cmd.Flags().IntVar(&opts.MaxMicrosteps, micro.Flag, int(micro.Default),
		"error when run-to-completion processes more queued events than this in one step "+
			"(with --reference: more microsteps, or more queued events, than this)")
	cmd.Flags().StringArrayVar(&hosts, "host", nil,
		"NAME=VALUE: the result of every call of the host function NAME, one the model calls for its value "+
			"without defining it (GetTotal=21, JSON.stringify={}: a string as it reads, unquoted); repeat for each function")
	fe.register(cmd)
	return cmd
}

// parseSimEvents reads simulate's EVENT arguments: each an event, with
// its time where it has one (splitTime).
func parseSimEvents(args []string) ([]sim.Event, []*int64, error) {
	events := make([]sim.Event, 0, len(args))
	times := make([]*int64, 0, len(args))
	for _, text := range args {
		text, at, err := splitTime(text)
		if err != nil {
			return nil, nil, err
		}
		ev, err := sim.ParseEvent(text)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, ev)
		times = append(times, at)
	}
	return events, times, nil
}

// hostResults gives each host function that hosts name (NAME=VALUE) its
// result, as the one row of its table: a call the model makes of a host
// function for its value is a black box without a table (see
// lower.HostFunction), which a concrete run cannot answer without it.
func hostResults(m *model.Model, hosts []string) error {
	for _, h := range hosts {
		name, text, ok := strings.Cut(h, "=")
		name = strings.TrimSpace(name)
		if !ok {
			return fmt.Errorf("--host %q: write NAME=VALUE", h)
		}
		f := m.Function(name)
		if f == nil || f.Table != "" || len(f.Params) > 0 {
			return fmt.Errorf("--host %q: %s is no host function the model calls for its value", h, name)
		}
		v, err := model.ParseValue(strings.TrimSpace(text), f.Result)
		if err != nil {
			return fmt.Errorf("--host %q: %v", h, err)
		}
		f.Rows = []*model.Row{{Out: v}}
	}
	return nil
}

// completeArgs gives the events the lowered pairs of their parameters that
// may be undefined (sim.Complete), so that s=undefined stands for
// _absent_s=1 with s the empty string.
func completeArgs(events []sim.Event, lookup func(string) *model.Event) error {
	for _, ev := range events {
		if e := lookup(ev.Name); e != nil {
			if err := sim.Complete(e, ev.Args); err != nil {
				return err
			}
		}
	}
	return nil
}

// simStep is one step of either path, with the timers pending after it.
// A flattened step has a State and Fired; a reference step has
// Transitions and Exited.
type simStep struct {
	Input       sim.Event
	Fired       []sim.Fired
	Transitions []string
	Exited      []string
	Entered     []string
	Outputs     []sim.Output
	State       string
	Config      []string
	Halted      bool
	Discarded   string
	Timers      []string
	Vars        map[string]sim.Value // with --vars: the variables after the step
	At          *int64               // timed: when the step happened, in ms
	Next        *sim.Timer           // timed: the timer that fires next
	reference   bool
}

func flattenedStep(st sim.Step) simStep {
	return simStep{Input: st.Input, Fired: st.Fired, Entered: st.Entered, Outputs: st.Outputs, State: st.State,
		Config: st.Config, Halted: st.Halted, Discarded: st.Discarded, At: &st.At}
}

func referenceStep(st interp.Step) simStep {
	return simStep{Input: st.Input, Transitions: st.Transitions, Exited: st.Exited, Entered: st.Entered,
		Outputs: st.Outputs, Config: st.Config, Halted: st.Halted, Discarded: st.Discarded, At: &st.At, reference: true}
}

// simulate runs a machine, the flattened one or the reference interpreter,
// on events and returns the steps it completed, the start step first
// (start, which view turns into a simStep as it does every step), and the
// error that stopped it, if any.
func simulate[S any](s sim.Stepper[S], start S, view func(S) simStep, events []sim.Event, times []*int64, vars bool) ([]simStep, error) {
	step := func(st S) simStep {
		out := view(st)
		out.Timers = s.PendingTimers()
		if vars {
			out.Vars = userVars(s.Vars())
		}
		if !s.Timed() {
			out.At = nil
		} else if next, ok := s.NextTimer(); ok {
			out.Next = &next
		}
		return out
	}
	steps := []simStep{step(start)}
	for i, ev := range events {
		st, err := s.StepAt(ev, times[i])
		if err != nil {
			return steps, fmt.Errorf("event %d: %w", i+1, err)
		}
		steps = append(steps, step(st))
	}
	return steps, nil
}

// userVars keeps the variables the model declares, with the tags that say
// which of them are undefined or null (lower.AbsentName), and drops the
// system variables (their names start with _, which SCXML reserves).
func userVars(vars map[string]sim.Value) map[string]sim.Value {
	for name := range vars {
		if _, tag := lower.AbsentOf(name); lower.Reserved(name) && !tag {
			delete(vars, name)
		}
	}
	return vars
}

var simulateWriters = map[string]func(io.Writer, []simStep, error) error{
	"text": writeStepsText,
	"json": writeStepsJSON,
}

func writeStepsText(w io.Writer, steps []simStep, _ error) error {
	var b strings.Builder
	list := func(label string, items []string, sep string) {
		if len(items) == 0 {
			items = []string{"none"}
		}
		fmt.Fprintf(&b, "  %s: %s\n", label, strings.Join(items, sep))
	}
	for _, st := range steps {
		at := ""
		if st.At != nil {
			at = " @" + sim.FormatTime(*st.At)
		}
		if st.Input.Name == "" {
			b.WriteString("(start)" + at + "\n")
		} else {
			fmt.Fprintf(&b, "> %s%s\n", st.Input, at)
		}
		if st.reference {
			for _, t := range st.Transitions {
				fmt.Fprintf(&b, "  transition: %s\n", t)
			}
			list("exited", st.Exited, " ")
			list("entered", st.Entered, " ")
		}
		outs := make([]string, len(st.Outputs))
		for i, o := range st.Outputs {
			outs[i] = o.String()
		}
		list("outputs", outs, "; ")
		where := "state: " + st.State
		if st.reference {
			where = "configuration: " + strings.Join(st.Config, " ")
		}
		if st.Halted {
			where += " (halted)"
		}
		fmt.Fprintf(&b, "  %s\n", where)
		if len(st.Timers) > 0 {
			fmt.Fprintf(&b, "  timers: %s\n", strings.Join(st.Timers, ", "))
		}
		if st.Next != nil {
			fmt.Fprintf(&b, "  next: %s at %s\n", st.Next.Name, sim.FormatTime(st.Next.Due))
		}
		if st.Vars != nil {
			fmt.Fprintf(&b, "  vars: %s\n", sim.FormatArgs(st.Vars))
		}
		if st.Discarded != "" {
			fmt.Fprintf(&b, "  discarded: %s\n", st.Discarded)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type jsonSteps struct {
	Steps []any  `json:"steps"`
	Error string `json:"error,omitempty"`
}

// jsonStep is a step of the flattened machine, jsonReferenceStep one of
// the reference interpreter: the same head and tail, and between them what
// each executor says of the transitions it took.
type jsonStep struct {
	jsonStepHead
	Fired   []jsonFired  `json:"fired"`
	Entered []string     `json:"entered"`
	Outputs []jsonOutput `json:"outputs"`
	State   string       `json:"state"`
	jsonStepTail
}

type jsonReferenceStep struct {
	jsonStepHead
	Transitions []string     `json:"transitions"`
	Exited      []string     `json:"exited"`
	Entered     []string     `json:"entered"`
	Outputs     []jsonOutput `json:"outputs"`
	jsonStepTail
}

// jsonStepHead is the input of a step.
type jsonStepHead struct {
	Event string         `json:"event"`
	Args  map[string]any `json:"args"`
}

// jsonStepTail is where a step left the machine.
type jsonStepTail struct {
	Config    []string       `json:"configuration"`
	Halted    bool           `json:"halted"`
	Timers    []string       `json:"timers"`
	At        *int64         `json:"at,omitempty"`
	Next      *jsonNext      `json:"next,omitempty"`
	Vars      map[string]any `json:"vars,omitempty"`
	Discarded string         `json:"discarded,omitempty"`
}

// jsonNext is the timer that fires next: its event and when, in ms.
type jsonNext struct {
	Event string `json:"event"`
	At    int64  `json:"at"`
}

// nextJSON is the JSON of the timer that fires next, nil for none.
func nextJSON(t *sim.Timer) *jsonNext {
	if t == nil {
		return nil
	}
	return &jsonNext{Event: t.Name, At: t.Due}
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

// plainVars is the JSON of the variables, nil without --vars.
func plainVars(vars map[string]sim.Value) map[string]any {
	if vars == nil {
		return nil
	}
	return sim.PlainArgs(vars)
}

func writeStepsJSON(w io.Writer, steps []simStep, stepErr error) error {
	out := jsonSteps{Steps: []any{}}
	if stepErr != nil {
		out.Error = stepErr.Error()
	}
	for _, st := range steps {
		outputs := []jsonOutput{}
		for _, o := range st.Outputs {
			outputs = append(outputs, jsonOutput{Event: o.Event, Target: o.Target, Args: sim.PlainArgs(o.Args)})
		}
		head := jsonStepHead{Event: st.Input.Name, Args: sim.PlainArgs(st.Input.Args)}
		tail := jsonStepTail{
			Config:    append([]string{}, st.Config...),
			Halted:    st.Halted,
			Timers:    append([]string{}, st.Timers...),
			At:        st.At,
			Next:      nextJSON(st.Next),
			Vars:      plainVars(st.Vars),
			Discarded: st.Discarded,
		}
		if st.reference {
			out.Steps = append(out.Steps, jsonReferenceStep{
				jsonStepHead: head,
				Transitions:  append([]string{}, st.Transitions...),
				Exited:       append([]string{}, st.Exited...),
				Entered:      append([]string{}, st.Entered...),
				Outputs:      outputs,
				jsonStepTail: tail,
			})
			continue
		}
		js := jsonStep{
			jsonStepHead: head,
			Fired:        []jsonFired{},
			Entered:      append([]string{}, st.Entered...),
			Outputs:      outputs,
			State:        st.State,
			jsonStepTail: tail,
		}
		for _, f := range st.Fired {
			js.Fired = append(js.Fired, jsonFired{Key: f.Key, Path: f.Path})
		}
		out.Steps = append(out.Steps, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// splitTime splits EVENT@TIME into the event and its time in ms (nil when
// the event has none): TIME is a CSS2 duration after the last @, once the
// event's arguments are closed.
func splitTime(text string) (string, *int64, error) {
	i := strings.LastIndex(text, "@")
	if i < 0 || strings.LastIndex(text, ")") > i {
		return text, nil, nil
	}
	ms, err := model.ParseTime(text[i+1:])
	if err != nil {
		return "", nil, fmt.Errorf("event %q: the time after @: %v", text, err)
	}
	return text[:i], &ms, nil
}
