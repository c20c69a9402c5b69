package diffmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
)

// transitionIDs maps the ids of the old version's transitions (those of
// states and the initial ones) to the ids of their counterparts in the
// new version, where the counterpart has the same identity but for the
// renames: the same source, events and targets once renamed. A
// transition otherwise changed in identity (retargeted, a trigger
// changed, a setbot:id changed) is not here.
func (c *comparer) transitionIDs() map[string]string {
	ids := make(map[string]string, len(c.matched))
	for _, m := range c.matched {
		if c.mapped(m.o.Source.ID) == m.n.Source.ID && c.events(m.o, true) == c.events(m.n, false) &&
			c.targets(m.o, true) == c.targets(m.n, false) && sameNaming(m.o) == sameNaming(m.n) {
			ids[m.o.ID] = m.n.ID
		}
	}
	for _, o := range c.o.States() {
		if o.Initial == nil {
			continue
		}
		n := c.n.Root
		if o.Kind != model.Root {
			n = c.n.State(c.mapped(o.ID))
		}
		if n != nil && n.Initial != nil && c.targets(o.Initial, true) == c.targets(n.Initial, false) {
			ids[o.Initial.ID] = n.Initial.ID
		}
	}
	return ids
}

// sameNaming reports whether t is named after its source, events and
// targets (not by a setbot:id): only then does a rename rename it.
func sameNaming(t *model.Transition) bool {
	var targets []string
	for _, x := range t.Targets {
		targets = append(targets, x.ID)
	}
	base := fmt.Sprintf("%s:%s>%s", t.Source.ID, strings.Join(t.Events, " "), strings.Join(targets, " "))
	return t.ID == base || strings.HasPrefix(t.ID, base+"#")
}

// rekey names the old machine's states and transitions as the new machine
// names them where the renames are all that tells them apart: a state is
// the configuration of the renamed states, a transition the one from the
// renamed source on the renamed event through the renamed statechart
// transitions to the renamed target. It fills Configs and Keys with those
// whose name a rename changes and that the new machine has. A transition
// whose key is not built as a flattened one is (a composed machine's) is
// left as it is.
func rekey(d *Diff, o, n *mlm.Machine, ids map[string]string) {
	d.Configs, d.Keys = make(map[string]string), make(map[string]string)
	if len(d.Renamed) == 0 {
		return
	}
	byConfig := make(map[string]*mlm.State, len(n.States))
	for _, s := range n.States {
		byConfig[configOf(s, nil)] = s
	}
	for _, s := range o.States {
		if x := byConfig[configOf(s, d.Renamed)]; x != nil && x.Name != s.Name {
			d.Configs[s.Name] = x.Name
		}
	}
	newKeys := make(map[string]bool, len(n.Transitions)+len(n.Initial))
	for _, t := range slices.Concat(n.Transitions, n.Initial) {
		newKeys[t.Key] = true
	}
	images := make(map[string][]string) // new key -> the old keys renamed to it
	for _, t := range slices.Concat(o.Transitions, o.Initial) {
		k, ok := d.renamedKey(t, ids)
		if ok && k != t.Key && newKeys[k] {
			images[k] = append(images[k], t.Key)
		}
	}
	oldKeys := make(map[string]bool, len(o.Transitions)+len(o.Initial))
	for _, t := range slices.Concat(o.Transitions, o.Initial) {
		oldKeys[t.Key] = true
	}
	for k, from := range images {
		// One old transition per new key, and none that keeps it.
		if len(from) == 1 && !oldKeys[k] {
			d.Keys[from[0]] = k
		}
	}
}

// renamedKey is the key of t (a transition of the old machine) with the
// renames applied, built as package mlm builds it; ok is false when t's
// key is not built so or names a transition ids does not map.
func (d *Diff) renamedKey(t *mlm.Transition, ids map[string]string) (string, bool) {
	origins := make([]string, len(t.Origins))
	for i, origin := range t.Origins {
		parts := strings.Split(origin, "+")
		for j, p := range parts {
			id, ok := ids[p]
			if !ok {
				return "", false
			}
			parts[j] = id
		}
		origins[i] = strings.Join(parts, "+")
	}
	if t.Source == nil {
		if t.Key != fmt.Sprintf("initial [%s] %s", strings.Join(t.Origins, " ; "), t.Target.Name) {
			return "", false
		}
		return fmt.Sprintf("initial [%s] %s", strings.Join(origins, " ; "), d.Config(t.Target.Name)), true
	}
	if t.Key != fmt.Sprintf("%s %s [%s] %s", t.Source.Name, t.Event, strings.Join(t.Origins, " ; "), t.Target.Name) {
		return "", false
	}
	return fmt.Sprintf("%s %s [%s] %s", d.Config(t.Source.Name), d.Event(t.Event), strings.Join(origins, " ; "),
		d.Config(t.Target.Name)), true
}

// configOf describes an MLM state by its atomic states and recorded
// history, with the states renamed (old id to new) by renamed.
func configOf(s *mlm.State, renamed map[string]string) string {
	ren := func(ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = id
			if to, ok := renamed[id]; ok {
				out[i] = to
			}
		}
		slices.Sort(out)
		return out
	}
	parts := []string{strings.Join(ren(s.Atomic), ",")}
	for _, h := range s.History {
		parts = append(parts, h.History+"="+strings.Join(ren(h.States), ","))
	}
	slices.Sort(parts[1:])
	return strings.Join(parts, "|")
}

// Key returns the key in the new machine of the old machine's transition
// of key k: itself unless a rename changed it.
func (d *Diff) Key(k string) string {
	if to, ok := d.Keys[k]; ok {
		return to
	}
	return k
}

// Config returns the name in the new machine of the old machine's state
// of name s: itself unless a rename changed it.
func (d *Diff) Config(s string) string {
	if to, ok := d.Configs[s]; ok {
		return to
	}
	return s
}

// Event returns the name in the new version of an event of the old:
// done.state.<id> is named after its state.
func (d *Diff) Event(e string) string {
	if id, ok := strings.CutPrefix(e, "done.state."); ok {
		if to, ok := d.Renamed[id]; ok {
			return "done.state." + to
		}
	}
	return e
}

// oldEvent is Event's inverse: the name in the old version of an event of
// the new.
func (d *Diff) oldEvent(e string) string {
	if id, ok := strings.CutPrefix(e, "done.state."); ok {
		for from, to := range d.Renamed {
			if to == id {
				return "done.state." + from
			}
		}
	}
	return e
}

// State returns the id in the new version of a state of the old: itself
// unless renamed.
func (d *Diff) State(id string) string {
	if to, ok := d.Renamed[id]; ok {
		return to
	}
	return id
}
