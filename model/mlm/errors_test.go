package mlm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

const head = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml">`

func TestFlattenErrors(t *testing.T) {
	// Three parallel regions of ten states each: a thousand configurations.
	var wide strings.Builder
	wide.WriteString(head + `<parallel id="P">`)
	for r := range 3 {
		wide.WriteString(`<state id="R` + string(rune('a'+r)) + `">`)
		for i := range 10 {
			id := string(rune('a'+r)) + string(rune('0'+i))
			next := string(rune('a'+r)) + string(rune('0'+(i+1)%10))
			wide.WriteString(`<state id="` + id + `"><transition event="t` + string(rune('a'+r)) + `" target="` + next + `"/></state>`)
		}
		wide.WriteString(`</state>`)
	}
	wide.WriteString(`</parallel></scxml>`)

	tests := []struct {
		name string
		doc  string
		opts mlm.Options
		want string
	}{
		{"parameter read on an event without it", head +
			`<setbot:event name="go"><setbot:param name="n" type="int"/></setbot:event>
<state id="A"><transition event="go" target="B"/><transition event="other" target="B"/></state>
<state id="B"><transition cond="_event.data.n &gt; 0" target="A"/></state></scxml>`, mlm.Options{},
			`f.scxml:3:33: _event.data.n is read on event "other", which has no parameter "n" (MLM transition A other [A:other>B] B)`},
		{"parameter read after an event nothing takes", head +
			`<setbot:event name="go"><setbot:param name="n" type="int"/></setbot:event><setbot:event name="ping" input="true"/>
<state id="A"><transition event="go" target="B"/></state>
<state id="B"><transition cond="_event.data.n &gt; 0" target="A"/></state></scxml>`, mlm.Options{},
			`f.scxml:3:33: _event.data.n is read by an eventless condition of B, which SCXML evaluates after every event, also after "ping", which no transition of B takes and which has no parameter "n"`},
		{"parameter read while starting", head +
			`<setbot:event name="go"><setbot:param name="n" type="int"/></setbot:event>
<state id="A"><onentry><script>var k = _event.data.n;</script></onentry></state></scxml>`, mlm.Options{},
			`f.scxml:2:40: _event.data.n is read while the machine starts, when there is no event`},
		{"event field read while starting", head +
			`<datamodel><data id="t" expr="''"/></datamodel>
<state id="A"><onentry><if cond="_event"><assign location="t" expr="_event.type"/></if><assign location="t" expr="_event.name"/></onentry></state></scxml>`, mlm.Options{},
			`f.scxml:2:115: _event.name is read while the machine starts, when there is no event`},
		{"eventless loop", head + `<datamodel><data id="x" expr="0"/></datamodel>
<state id="A"><transition target="B"><assign location="x" expr="x + 1"/></transition></state>
<state id="B"><transition target="A"/></state></scxml>`, mlm.Options{MaxEventlessSteps: 8},
			`f.scxml:2:15: eventless transitions do not settle within 8 steps (through A:>B ; B:>A ; A:>B); setbot folds them statically and cannot bound a loop whose exit depends on values it cannot compute (give the loop an event, or compute the value in one action)`},
		{"too many transitions, as .setbot.yml sets the bound", wide.String(), mlm.Options{}.Bounded(vocab.Limits{vocab.BoundMLMTransitions: 40}),
			`f.scxml:1:1: flattening exceeds 40 MLM transitions (at 27 states; parallel regions multiply); raise the bound (bounds.max_mlm_transitions in .setbot.yml, --max-mlm-transitions on the command line) or split the model`},
		{"too many states", wide.String(), mlm.Options{MaxStates: 500},
			`f.scxml:1:1: flattening exceeds 500 MLM states (parallel regions multiply); raise the bound (bounds.max_mlm_states in .setbot.yml, --max-mlm-states on the command line) or split the model`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, errs := scxml.Read(source.NewFileSet(), "f.scxml", []byte(tc.doc), scxml.Options{})
			if len(errs) > 0 {
				t.Fatalf("reading: %v", errs)
			}
			_, err := mlm.Flatten(context.Background(), m, tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Errorf("errors:\n%v\nwant:\n%s", err, tc.want)
			}
		})
	}
}

// TestTriangleShape checks the MLM of Example 2 of
// Khalil and Dingel, Incremental symbolic execution, 2015.
func TestTriangleShape(t *testing.T) {
	m := flatten(t, "../../examples/triangle.scxml")
	if len(m.States) != 5 || len(m.Transitions) != 10 || len(m.Initial) != 1 {
		t.Fatalf("triangle: %d states, %d transitions, %d initial; want 5, 10, 1", len(m.States), len(m.Transitions), len(m.Initial))
	}
	// reset on the composite S1 flattens to one transition per substate
	// (T4, T7, T9, T10 of Khalil and Dingel, Incremental symbolic execution, 2015).
	var resets []string
	for _, t := range m.Transitions {
		if t.Event == "reset" {
			resets = append(resets, t.Source.Name+">"+t.Target.Name)
		}
	}
	if got := strings.Join(resets, " "); got != "S1_S0>S0 S1_S1>S0 S1_S2>S0 S1_S3>S0" {
		t.Errorf("reset transitions: %s", got)
	}
	if in := m.InputEvents(); len(in) != 5 {
		t.Errorf("input alphabet has %d events, want 5 (Example 2)", len(in))
	}
}
