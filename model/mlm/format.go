package mlm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// Hash is the content hash of the machine's canonical form: its variables,
// events, states and transitions, each list sorted, each guard and action
// printed canonically. File order, layout and comments do not reach it.
func Hash(m *Machine) string {
	sum := sha256.Sum256([]byte(canonical(m)))
	return hex.EncodeToString(sum[:])
}

// GuardString prints a guard; "true" when there is none.
func GuardString(g ast.Expr) string {
	if g == nil {
		return "true"
	}
	return printer.ExprString(g)
}

// KindNames lists an event's kinds in a fixed order.
func KindNames(k model.EventKind) []string {
	var out []string
	for _, kn := range []struct {
		k    model.EventKind
		name string
	}{{model.Input, "input"}, {model.Internal, "internal"}, {model.Self, "self"}, {model.Timer, "timer"}, {model.Output, "output"}, {model.Invoked, "invoked"}} {
		if k&kn.k != 0 {
			out = append(out, kn.name)
		}
	}
	return out
}

func paramList(ps []model.Param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Name + ": " + p.Type.String()
	}
	return strings.Join(parts, ", ")
}

// canonical is the text the hash covers.
func canonical(m *Machine) string {
	var b strings.Builder
	vars := append([]*model.Var(nil), m.Vars...)
	sort.Slice(vars, func(i, j int) bool { return vars[i].Name < vars[j].Name })
	for _, v := range vars {
		fmt.Fprintf(&b, "var %s: %s = %s\n", v.Name, v.Type, printer.ExprString(v.Init))
	}
	for _, e := range m.Events {
		fmt.Fprintf(&b, "event %s(%s) %s\n", e.Name, paramList(e.Params), strings.Join(KindNames(e.Kinds), ","))
	}
	// Black-box functions and their tables: a changed row changes what
	// the tree under the summaries is.
	if m.Source != nil {
		fs := append([]*model.Function(nil), m.Source.Functions...)
		sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
		for _, f := range fs {
			b.WriteString(FunctionString(f) + "\n")
		}
	}
	for _, s := range m.States {
		kind := "state"
		if s.Final {
			kind = "final"
		}
		fmt.Fprintf(&b, "%s %s\n", kind, s.Name)
	}
	write := func(t *Transition) {
		arrow := "(start) -->"
		if t.Source != nil {
			arrow = t.Source.Name + " --" + t.Event + "-->"
		}
		fmt.Fprintf(&b, "%s %s\n  key: %s\n  guard: %s\n", arrow, t.Target.Name, t.Key, GuardString(t.Guard))
		if a := printer.BlockString(t.Action); a != "" {
			fmt.Fprintf(&b, "  action: %s\n", a)
		}
	}
	for _, t := range m.Initial {
		write(t)
	}
	for _, t := range m.Transitions {
		write(t)
	}
	return b.String()
}

// FunctionString is the canonical form of a black-box function: its
// signature and, summarised, its rows, sorted.
func FunctionString(f *model.Function) string {
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		params[i] = p.String()
	}
	s := fmt.Sprintf("function %s(%s) %s", f.Name, strings.Join(params, ", "), f.Result)
	if f.Summarised() {
		rows := make([]string, len(f.Rows))
		for i, r := range f.Rows {
			vs := make([]string, 0, len(r.In)+1)
			for _, e := range append(append([]ast.Expr(nil), r.In...), r.Out) {
				vs = append(vs, printer.ExprString(e))
			}
			rows[i] = strings.Join(vs, ",")
		}
		sort.Strings(rows)
		s += " table " + strings.Join(rows, " ")
	}
	return s
}

// WriteText writes the machine in setbot's text form: a header, then the
// canonical form that the hash covers.
func WriteText(w io.Writer, m *Machine) error {
	_, err := fmt.Fprintf(w, "machine %s: %d states, %d transitions\nhash: %s\n%s",
		m.Name, len(m.States), len(m.Transitions), m.Hash, canonical(m))
	return err
}

type jsonMachine struct {
	Name        string           `json:"name"`
	Hash        string           `json:"hash"`
	Variables   []jsonVar        `json:"variables"`
	Events      []jsonEvent      `json:"events"`
	States      []jsonState      `json:"states"`
	Initial     []jsonTransition `json:"initial"`
	Transitions []jsonTransition `json:"transitions"`
}

type jsonVar struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Init string `json:"init"`
}

type jsonParam struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type jsonEvent struct {
	Name   string      `json:"name"`
	Kinds  []string    `json:"kinds"`
	Params []jsonParam `json:"params"`
}

type jsonState struct {
	Name    string              `json:"name"`
	Atomic  []string            `json:"atomic"`
	History map[string][]string `json:"history,omitempty"`
	Final   bool                `json:"final"`
	Line    int                 `json:"line,omitempty"`
}

type jsonTransition struct {
	Key     string   `json:"key"`
	Source  string   `json:"source"`
	Target  string   `json:"target"`
	Event   string   `json:"event"`
	Guard   string   `json:"guard"`
	Action  string   `json:"action"`
	Origins []string `json:"origins"`
	Entered []string `json:"entered"`
	Line    int      `json:"line,omitempty"`
}

// WriteJSON writes the machine as JSON (indented, fields in a fixed order).
func WriteJSON(w io.Writer, m *Machine) error {
	out := jsonMachine{Name: m.Name, Hash: m.Hash, Variables: []jsonVar{}, Events: []jsonEvent{},
		States: []jsonState{}, Initial: []jsonTransition{}, Transitions: []jsonTransition{}}
	for _, v := range m.Vars {
		out.Variables = append(out.Variables, jsonVar{Name: v.Name, Type: v.Type.String(), Init: printer.ExprString(v.Init)})
	}
	for _, e := range m.Events {
		je := jsonEvent{Name: e.Name, Kinds: KindNames(e.Kinds), Params: []jsonParam{}}
		for _, p := range e.Params {
			je.Params = append(je.Params, jsonParam{Name: p.Name, Type: p.Type.String()})
		}
		out.Events = append(out.Events, je)
	}
	for _, s := range m.States {
		js := jsonState{Name: s.Name, Atomic: s.Atomic, Final: s.Final, Line: m.line(s.Pos)}
		if len(s.History) > 0 {
			js.History = make(map[string][]string)
			for _, h := range s.History {
				js.History[h.History] = h.States
			}
		}
		out.States = append(out.States, js)
	}
	conv := func(t *Transition) jsonTransition {
		jt := jsonTransition{Key: t.Key, Target: t.Target.Name, Event: t.Event, Guard: GuardString(t.Guard),
			Action: printer.BlockString(t.Action), Origins: t.Origins, Entered: t.Entered, Line: m.line(t.Pos)}
		if jt.Entered == nil {
			jt.Entered = []string{}
		}
		if t.Source != nil {
			jt.Source = t.Source.Name
		}
		return jt
	}
	for _, t := range m.Initial {
		out.Initial = append(out.Initial, conv(t))
	}
	for _, t := range m.Transitions {
		out.Transitions = append(out.Transitions, conv(t))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// line is the source line of p, 0 when unknown.
func (m *Machine) line(p source.Pos) int {
	if m.Source == nil || !p.IsValid() {
		return 0
	}
	return m.Source.Position(p).Line
}

// WriteDOT writes the machine as a Graphviz digraph.
func WriteDOT(w io.Writer, m *Machine) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n  start [shape=point];\n", dotQuote(m.Name))
	for _, s := range m.States {
		shape := ""
		if s.Final {
			shape = ", peripheries=2"
		}
		fmt.Fprintf(&b, "  %s [label=%s%s];\n", dotQuote(s.Name), dotQuote(s.Name), shape)
	}
	for _, t := range m.Initial {
		fmt.Fprintf(&b, "  start -> %s [label=%s];\n", dotQuote(t.Target.Name), dotQuote(label(t)))
	}
	for _, t := range m.Transitions {
		fmt.Fprintf(&b, "  %s -> %s [label=%s];\n", dotQuote(t.Source.Name), dotQuote(t.Target.Name), dotQuote(label(t)))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// label is "event [guard] / action" for diagrams.
func label(t *Transition) string {
	s := t.Event
	if t.Guard != nil {
		s += " [" + printer.ExprString(t.Guard) + "]"
	}
	if a := printer.BlockString(t.Action); a != "" {
		s += " / " + a
	}
	return strings.TrimSpace(s)
}

func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// WriteMermaid writes the machine as a Mermaid state diagram. State names
// are mapped to plain identifiers; labels keep event and guard (actions are
// left out to keep the diagram legible).
func WriteMermaid(w io.Writer, m *Machine) error {
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	idx := make(map[string]string)
	names := make([]string, 0, len(m.States))
	for _, s := range m.States {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	for i, n := range names {
		idx[n] = fmt.Sprintf("s%d", i)
		fmt.Fprintf(&b, "  state %s as %s\n", mermaidQuote(n), idx[n])
	}
	for _, t := range m.Initial {
		fmt.Fprintf(&b, "  [*] --> %s\n", idx[t.Target.Name])
	}
	for _, t := range m.Transitions {
		l := t.Event
		if t.Guard != nil {
			l += " [" + printer.ExprString(t.Guard) + "]"
		}
		fmt.Fprintf(&b, "  %s --> %s : %s\n", idx[t.Source.Name], idx[t.Target.Name], mermaidText(l))
	}
	for _, s := range m.States {
		if s.Final {
			fmt.Fprintf(&b, "  %s --> [*]\n", idx[s.Name])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mermaidQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, "#quot;") + `"` }

// mermaidText escapes what Mermaid would read as syntax in a label.
func mermaidText(s string) string {
	r := strings.NewReplacer(":", "#58;", ";", "#59;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ")
	return r.Replace(s)
}
