// Package diffmap is the semantic difference of two versions of a model
// (docs/architecture.md §Changes and impact; Rapos, Understanding the
// Effects of Model Evolution, 2012, Tables 1-4): the changes, classified, each
// with its place in the old and the new file; and their image on the
// flattened machines, T_updated: the MLM transitions added, removed or
// changed. File order, layout and comments are no change.
package diffmap

import (
	"fmt"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
)

// Kind is a change class.
type Kind string

// The change classes.
const (
	StateAdded           Kind = "state_added"
	StateRemoved         Kind = "state_removed"
	StateRenamed         Kind = "state_renamed"
	TransitionAdded      Kind = "transition_added"
	TransitionRemoved    Kind = "transition_removed"
	TransitionRetargeted Kind = "transition_retargeted"
	TriggerChanged       Kind = "trigger_changed"
	GuardChanged         Kind = "guard_changed"
	ActionChanged        Kind = "action_changed"
	EntryChanged         Kind = "entry_changed"
	ExitChanged          Kind = "exit_changed"
	VariableAdded        Kind = "variable_added"
	VariableRemoved      Kind = "variable_removed"
	InitialValueChanged  Kind = "initial_value_changed"
	ParamAdded           Kind = "param_added"
	ParamRemoved         Kind = "param_removed"
	InitialChanged       Kind = "initial_changed"
	// PriorityChanged is two transitions that compete for an event tried
	// in the other order (SCXML's priority, docs/architecture.md §Semantics): swapped in
	// the document, or one moved between a state and its ancestor past the
	// other. Their identities need not change; what they do does.
	PriorityChanged Kind = "priority_changed"
	// InvokeChanged is an <invoke> of a state that changed what it does:
	// its id, src, params, finalize, autoforward or idlocation (the
	// subject names which), or an invoke added to or removed from a state
	// both versions have.
	InvokeChanged Kind = "invoke_changed"
	// TableChanged is a black-box function whose signature, table file,
	// command or rows changed: its callers compute something else.
	TableChanged Kind = "table_changed"
	// MachineChanged stands for changes that update flattened transitions
	// and that no other class names; its subject counts them. Without it a
	// report would say "no change" of a change that has an effect.
	MachineChanged Kind = "machine_changed"
)

// Position is a place in a file.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Change is one classified change. Old and New place it in the two files;
// for priority_changed they place the first transition of Transitions.
type Change struct {
	Kind    Kind      `json:"kind"`
	Subject string    `json:"subject"` // state id, transition identity, variable, EVENT.PARAM, OLD>NEW, FIRST before SECOND
	Old     *Position `json:"old,omitempty"`
	New     *Position `json:"new,omitempty"`
	// Transitions are, for priority_changed, the two transitions: first the
	// one the new version tries first, which the old tried second.
	Transitions []TransitionPlace `json:"transitions,omitempty"`
}

// TransitionPlace is a transition, by its identity in the new version,
// and its places in the two files.
type TransitionPlace struct {
	ID  string    `json:"id"`
	Old *Position `json:"old,omitempty"`
	New *Position `json:"new,omitempty"`
}

// Diff is the difference between two versions.
type Diff struct {
	Changes []Change
	Renamed map[string]string // old state id -> new
	// Configs and Keys name the old machine's states and transitions (by
	// name and key) as the new machine does where only renames tell them
	// apart: a renamed state renames the configurations it is in and the
	// transitions that leave, enter or pass through it. Only names a
	// rename changes are here; see Config and Key.
	Configs, Keys map[string]string

	// The MLM transitions (by key) added, removed and changed; Updated is
	// their union, as T_updated of Khalil and Dingel, Incremental symbolic execution, 2015.
	Added, Removed, Changed []string
	Updated                 map[string]bool
	// RootUpdated is set when the machine starts differently: other
	// variables or initial values, or another initial configuration.
	RootUpdated bool
}

// Compute compares two versions of a model and of their flattened machines.
func Compute(oldM, newM *model.Model, oldMLM, newMLM *mlm.Machine) *Diff {
	d := &Diff{Renamed: make(map[string]string), Updated: make(map[string]bool)}
	ids := compareModels(d, oldM, newM, "", true)
	sort.SliceStable(d.Changes, func(i, j int) bool {
		a, b := d.Changes[i], d.Changes[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Subject < b.Subject
	})
	rekey(d, oldMLM, newMLM, ids)
	mapTransitions(d, oldMLM, newMLM)
	if len(d.Changes) == 0 && len(d.Updated) > 0 {
		d.Changes = append(d.Changes, Change{Kind: MachineChanged, Subject: fmt.Sprintf("%d flattened transitions", len(d.Updated))})
	}
	return d
}

// compareModels classifies the source-level changes from o to n, then
// those of each machine they both invoke under the same id, with the
// subjects and renames scoped by the invoke id (sub.s0, as reports name the
// states of invoked machines). Positions are kept where the code is in the
// model's own file (sameFile): an invoke's src file is another. It
// returns the old transitions' ids mapped to the new (transitionIDs) of
// the models themselves.
func compareModels(d *Diff, o, n *model.Model, scope string, sameFile bool) map[string]string {
	sub := d
	if scope != "" {
		sub = &Diff{Renamed: make(map[string]string), Updated: make(map[string]bool)}
	}
	c := &comparer{d: sub, o: o, n: n}
	c.states()
	c.transitions()
	c.moves()
	c.priorities()
	c.variables()
	c.params()
	c.initials()
	c.invokes()
	c.tables()
	if scope != "" {
		for _, ch := range sub.Changes {
			ch.Subject = scope + ch.Subject
			if !sameFile {
				ch.Old, ch.New = nil, nil
				for i := range ch.Transitions {
					ch.Transitions[i].Old, ch.Transitions[i].New = nil, nil
				}
			}
			d.Changes = append(d.Changes, ch)
		}
		for from, to := range sub.Renamed {
			d.Renamed[scope+from] = scope + to
		}
	}
	for _, ni := range n.Invokes() {
		for _, oi := range o.Invokes() {
			if oi.ID == ni.ID && oi.Child != nil && ni.Child != nil {
				compareModels(d, oi.Child, ni.Child, scope+ni.ID+".", sameFile && ni.Src == "" && oi.Src == "")
			}
		}
	}
	return c.transitionIDs()
}

type comparer struct {
	d    *Diff
	o, n *model.Model

	// The transitions of states in both versions: those paired across the
	// versions, and those removed and added.
	matched    []match
	gone, born []*model.Transition
}

func pos(m *model.Model, p source.Pos) *Position {
	if !p.IsValid() {
		return nil
	}
	x := m.Position(p)
	return &Position{Line: x.Line, Column: x.Column}
}

func (c *comparer) add(k Kind, subject string, op, np source.Pos) {
	ch := Change{Kind: k, Subject: subject}
	if op.IsValid() {
		ch.Old = pos(c.o, op)
	}
	if np.IsValid() {
		ch.New = pos(c.n, np)
	}
	c.d.Changes = append(c.d.Changes, ch)
}

// proper lists a model's states proper (no root, no history), by id.
func proper(m *model.Model) map[string]*model.State {
	out := make(map[string]*model.State)
	for _, s := range m.States() {
		if s.Kind != model.Root && s.Kind != model.History {
			out[s.ID] = s
		}
	}
	return out
}

// events spells a transition's descriptors, those of an old transition with
// done.state.<id> mapped through the renames (the event is named after the
// state).
func (c *comparer) events(t *model.Transition, old bool) string {
	var out []string
	for _, e := range t.Events {
		if id, ok := strings.CutPrefix(e, "done.state."); ok && old {
			e = "done.state." + c.mapped(id)
		}
		out = append(out, e)
	}
	return strings.Join(out, " ")
}

// mapped returns the new id of an old state (itself unless renamed).
func (c *comparer) mapped(id string) string {
	if n, ok := c.d.Renamed[id]; ok {
		return n
	}
	return id
}

// states finds added, removed and renamed states and changed entry and
// exit actions. A removed and an added state are a rename when everything
// but the id matches: kind, parent, entry and exit code, and transitions.
func (c *comparer) states() {
	olds, news := proper(c.o), proper(c.n)
	var gone, born []*model.State
	for _, id := range sortedKeys(olds) {
		if _, ok := news[id]; !ok {
			gone = append(gone, olds[id])
		}
	}
	for _, id := range sortedKeys(news) {
		if _, ok := olds[id]; !ok {
			born = append(born, news[id])
		}
	}
	used := c.renames(gone, born)
	for _, g := range gone {
		if _, ok := c.d.Renamed[g.ID]; !ok {
			c.add(StateRemoved, g.ID, g.Pos, source.NoPos)
		}
	}
	for _, b := range born {
		if !used[b] {
			c.add(StateAdded, b.ID, source.NoPos, b.Pos)
		}
	}
	for _, id := range sortedKeys(olds) {
		o := olds[id]
		n := news[c.mapped(id)]
		if n == nil {
			continue
		}
		if c.blocks(o.OnEntry, true) != c.blocks(n.OnEntry, false) {
			c.add(EntryChanged, n.ID, o.Pos, n.Pos)
		}
		if c.blocks(o.OnExit, true) != c.blocks(n.OnExit, false) {
			c.add(ExitChanged, n.ID, o.Pos, n.Pos)
		}
	}
}

// renames pairs removed states with added ones whose signatures match,
// records them in Renamed and reports them; it returns the added states
// paired. States renamed together often name one another (siblings whose
// transitions target each other, a parent and its children), so they are
// paired in rounds: in each, a state not yet paired is named in a
// signature by a placeholder, and a removed and an added state are paired
// when each is the other's only match; the pairs found name their states
// in the next round. A pair stays a rename only when the signatures are
// equal with every state named (the placeholder may hide a difference);
// pairs that are not are undone until those left are. States whose
// signatures stay alike (a symmetric group) are not renames.
func (c *comparer) renames(gone, born []*model.State) map[*model.State]bool {
	used := make(map[*model.State]bool)
	goneIDs := make(map[string]bool, len(gone))
	for _, g := range gone {
		goneIDs[g.ID] = true
	}
	bornIDs := make(map[string]*model.State, len(born))
	for _, b := range born {
		bornIDs[b.ID] = b
	}
	for {
		// Unpaired states of either side are named "?".
		unpairedOld := func(id string) bool { _, ok := c.d.Renamed[id]; return goneIDs[id] && !ok }
		unpairedNew := func(id string) bool { b := bornIDs[id]; return b != nil && !used[b] }
		olds := make(map[string][]*model.State)
		for _, g := range gone {
			if _, ok := c.d.Renamed[g.ID]; !ok {
				k := c.signature(g, c.o, g.ID, unpairedOld)
				olds[k] = append(olds[k], g)
			}
		}
		news := make(map[string][]*model.State)
		for _, b := range born {
			if !used[b] {
				k := c.signature(b, c.n, b.ID, unpairedNew)
				news[k] = append(news[k], b)
			}
		}
		found := false
		for k, gs := range olds {
			if bs := news[k]; len(gs) == 1 && len(bs) == 1 {
				c.d.Renamed[gs[0].ID] = bs[0].ID
				used[bs[0]] = true
				found = true
			}
		}
		if !found {
			break
		}
	}
	none := func(string) bool { return false }
	for undone := true; undone; {
		undone = false
		for _, g := range gone {
			to, ok := c.d.Renamed[g.ID]
			if !ok {
				continue
			}
			b := bornIDs[to]
			if c.signature(g, c.o, g.ID, none) != c.signature(b, c.n, b.ID, none) {
				delete(c.d.Renamed, g.ID)
				delete(used, b)
				undone = true
			}
		}
	}
	for _, g := range gone {
		if to, ok := c.d.Renamed[g.ID]; ok {
			c.add(StateRenamed, g.ID+">"+to, g.Pos, bornIDs[to].Pos)
		}
	}
	return used
}

// signature describes a state without its id, so that a renamed state
// matches its old self; ids of other states are written as they are in
// the new version, those unknown reports as "?", and self stands for the
// state's own id.
func (c *comparer) signature(s *model.State, m *model.Model, self string, unknown func(string) bool) string {
	ref := func(id string) string {
		switch {
		case id == self:
			return "@self"
		case unknown(id):
			return "?"
		case m == c.o:
			return c.mapped(id)
		}
		return id
	}
	var b strings.Builder
	parent := ""
	if s.Parent != nil && s.Parent.Kind != model.Root {
		parent = ref(s.Parent.ID)
	}
	inState := func(x ast.Expr) ast.Expr {
		if in, ok := x.(*ast.InState); ok {
			return &ast.InState{Start: in.Start, State: ref(in.State)}
		}
		return x
	}
	code := func(bs []*ast.Block) string {
		var keys []string
		for _, blk := range bs {
			keys = append(keys, ast.Key(ast.RewriteBlock(blk, inState)))
		}
		return strings.Join(keys, " ")
	}
	fmt.Fprintf(&b, "%s|%s|%s|%s|%v", s.Kind, parent, code(s.OnEntry), code(s.OnExit), s.Deep)
	for _, t := range s.Transitions {
		var targets []string
		for _, x := range t.Targets {
			targets = append(targets, ref(x.ID))
		}
		c := ast.Key(ast.RewriteExpr(guard(t), inState))
		var events []string
		for _, e := range t.Events {
			if id, ok := strings.CutPrefix(e, "done.state."); ok {
				e = "done.state." + ref(id)
			}
			events = append(events, e)
		}
		fmt.Fprintf(&b, "|%s %v %s>%s", strings.Join(events, " "), t.Type, c, strings.Join(targets, " "))
		b.WriteString(code([]*ast.Block{t.Body}))
	}
	for _, k := range s.ChildStates() {
		b.WriteString("|child " + ref(k.ID))
	}
	return b.String()
}

// inState maps In() through the renames when the code is the old
// version's, so that a rename changes no condition or action.
func (c *comparer) inState(old bool) func(ast.Expr) ast.Expr {
	return func(x ast.Expr) ast.Expr {
		if in, ok := x.(*ast.InState); ok && old {
			return &ast.InState{Start: in.Start, State: c.mapped(in.State)}
		}
		return x
	}
}

// blocks returns the identity of code (ast.Key, one key a block), for
// comparison and as a map key.
func (c *comparer) blocks(bs []*ast.Block, old bool) string {
	var keys []string
	for _, b := range bs {
		keys = append(keys, ast.Key(ast.RewriteBlock(b, c.inState(old))))
	}
	return strings.Join(keys, " ")
}

// guard is t's cond as it behaves: one that raises error.execution on
// some values only (model.Transition.FailsWhen) is false as its Cond says,
// and told apart by when it raises.
func guard(t *model.Transition) ast.Expr {
	if t.FailsWhen == nil {
		return t.Cond
	}
	return &ast.Binary{X: t.Cond, OpPos: t.Cond.Pos(), Op: ast.LAND, Y: t.FailsWhen}
}

// cond returns the identity of a condition (ast.Key; absent: none).
func (c *comparer) cond(e ast.Expr, old bool) string {
	return ast.Key(ast.RewriteExpr(e, c.inState(old)))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
