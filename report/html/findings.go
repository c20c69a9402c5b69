package html

import (
	"fmt"
	"slices"
	"strings"

	"github.com/setbot/setbot/report"
)

// player replays a model's witnesses and tests for the page, at most
// MaxPlays of them.
type player struct {
	v *modelView
}

// add replays t on the head model and returns its index among the
// model's plays, or -1 past MaxPlays.
func (p *player) add(name, kind string, t *report.Test) int {
	if t == nil {
		return -1
	}
	if len(p.v.data.Plays) >= MaxPlays {
		p.v.Unplayed++
		return -1
	}
	p.v.data.Plays = append(p.v.data.Plays, replay(p.v.HeadMachine.Source, p.v.Time, name, kind, t))
	return len(p.v.data.Plays) - 1
}

// findings lists the change's findings, the newly unreachable states
// first, each with its witness where the analysis has one. A newly
// unreachable state's witness is the shortest test of the base that
// entered it, replayed at head: the player shows where the head goes
// instead.
func (p *player) findings(ca *report.ChangeAnalysis) []finding {
	var out []finding
	base := baseTests(ca.TestDelta)
	for _, r := range ca.NewlyUnreachable {
		f := finding{Kind: "unreachable", Subject: r.State, Text: "no execution enters " + r.State + " any more" + within(r)}
		w := reaching(base, r.State)
		f.Play = -1
		if w != nil {
			f.Text += "; at base " + inputs(w) + " entered it"
			f.Play = p.add("witness: "+r.State+" unreachable (a test of the base, replayed at head)", "unreachable", w)
		}
		out = append(out, f)
	}
	for _, c := range ca.Invariants {
		if !c.Holds {
			out = append(out, finding{Kind: "invariant", Subject: c.Invariant, Text: "invariant " + c.Invariant + " is violated in " + c.State,
				Play: p.add("witness: invariant "+c.Invariant, "invariant", c.Witness)})
		}
	}
	for _, o := range ca.OutputsLost {
		out = append(out, finding{Kind: "output", Subject: o.Output, Text: "the head never sends " + o.Output + "; the base did",
			Play: p.add("witness: output "+o.Output+" lost (a test of the base, replayed at head)", "output", o.BaseWitness)})
	}
	for _, c := range ca.Nondeterminism {
		out = append(out, finding{Kind: "conflict", Subject: c.State, Text: fmt.Sprintf("in %s, on %s, %s is taken and %s shadowed", c.State, c.Event, c.Taken, c.Shadows),
			Play: p.add("witness: conflict in "+c.State+" on "+c.Event, "conflict", c.Witness)})
	}
	head := headTests(ca.TestDelta)
	for _, r := range ca.NewlyTransient {
		out = append(out, finding{Kind: "transient", Subject: r.State, Text: r.State + " is entered but no step ends in it any more" + within(r),
			Play: p.add("witness: "+r.State+" newly transient (a test of the head)", "transient", reaching(head, r.State))})
	}
	for _, r := range ca.NewlyReachable {
		out = append(out, finding{Kind: "reached", Subject: r.State, Text: r.State + " is newly reached" + within(r),
			Play: p.add("witness: "+r.State+" newly reached (a test of the head)", "reached", reaching(head, r.State))})
	}
	for _, b := range ca.BoundsHit {
		out = append(out, finding{Kind: "bound", Subject: string(b.Bound), Text: fmt.Sprintf("the %s bound (%d) cut %d paths of the head tree: claims hold within it", b.Bound, b.Limit, b.Count), Play: -1})
	}
	return out
}

func within(r report.StateRef) string {
	switch {
	case r.Within > 0:
		return fmt.Sprintf(" (within %d events)", r.Within)
	case r.CutBy != "":
		return fmt.Sprintf(" (within the %s bound)", r.CutBy)
	}
	return ""
}

// baseTests are the tests of the base the delta keeps a record of.
func baseTests(d *report.TestDelta) []report.Test {
	if d == nil {
		return nil
	}
	return slices.Concat(d.Obsolete, d.Changed, d.Retained)
}

// headTests are the tests of the head the delta holds.
func headTests(d *report.TestDelta) []report.Test {
	if d == nil {
		return nil
	}
	return slices.Concat(d.New, d.Changed, d.Retained)
}

// reaching is the shortest of tests whose steps rest in or enter state.
func reaching(tests []report.Test, state string) *report.Test {
	var best *report.Test
	for i := range tests {
		t := &tests[i]
		for n, s := range t.Steps {
			if slices.Contains(s.Config, state) || entersVia(s, state) {
				if best == nil || n+1 < len(best.Steps) {
					cut := *t
					cut.Steps = t.Steps[:n+1]
					best = &cut
				}
				break
			}
		}
	}
	return best
}

// entersVia reports whether one of a step's statechart transitions
// targets state (an id ends in ">target"): the step enters it even if it
// does not rest there.
func entersVia(s report.Step, state string) bool {
	for _, f := range s.Fired {
		if slices.ContainsFunc(origins(f.Key), func(id string) bool { return strings.HasSuffix(id, ">"+state) }) {
			return true
		}
	}
	return false
}

func inputs(t *report.Test) string {
	ev := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		ev[i] = eventText(s)
	}
	return strings.Join(ev, ", ")
}

// tests lists the test delta, each test playable.
func (p *player) tests(d *report.TestDelta) []testRow {
	if d == nil {
		return nil
	}
	var out []testRow
	for _, c := range []struct {
		class string
		tests []report.Test
	}{{"new", d.New}, {"changed", d.Changed}, {"obsolete", d.Obsolete}, {"retained", d.Retained}} {
		for i := range c.tests {
			t := &c.tests[i]
			name := c.class + " test " + t.ID
			if c.class == "obsolete" {
				name += " (a test of the base, replayed at head)"
			}
			out = append(out, testRow{Class: c.class, ID: t.ID, Steps: len(t.Steps), Play: p.add(name, c.class, t)})
		}
	}
	return out
}

// heat is the coverage of the head's tests (new, changed and retained) on
// the diagram: how many tests rest in each state and take each
// transition, as a level from 1 (least) to 5 (most) by SVG element id.
func heat(g *graph, d *report.TestDelta) map[string]int {
	out := map[string]int{}
	counts := map[string]int{}
	for _, t := range headTests(d) {
		seen := map[string]bool{}
		for _, s := range t.Steps {
			for _, id := range s.Config {
				seen[g.stateEl[id]] = true
			}
			for _, f := range s.Fired {
				for _, id := range origins(f.Key) {
					for _, el := range g.transEl[id] {
						seen[el] = true
					}
				}
			}
		}
		for el := range seen {
			if el != "" {
				counts[el]++
			}
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	for el, n := range counts {
		out[el] = 5
		if most > 1 { // 1 for the least covered, 5 for the most
			out[el] = 1 + (4*(n-1)+most-2)/(most-1)
		}
	}
	return out
}
