package interp_test

import (
	"math/rand/v2"
	"testing"
)

// edgeCases are statecharts built around constructs the random models do
// not make: eventless loops that settle, transitions across and out of
// parallel regions, history inside and of parallel states, internal
// transitions of parallel states, deep initial targets, In() in eventless
// conditions, several done.state events at once, and raises between
// parallel regions.
var edgeCases = []struct{ name, src string }{
	{"eventless counter", head + `initial="A">
  <setbot:event name="go" input="true"/>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="A">
    <transition event="go" target="B"><assign location="x" expr="3"/></transition>
  </state>
  <state id="B">
    <transition cond="x &gt; 0" target="C"><assign location="x" expr="x - 1"/></transition>
    <transition target="D"/>
  </state>
  <state id="C"><transition target="B"><send event="tick" target="#_parent"/></transition></state>
  <state id="D"><transition event="go" target="A"/></state>
</scxml>`},
	{"parallel regions and history", head + `initial="P">
  <setbot:event name="a" input="true"/><setbot:event name="b" input="true"/><setbot:event name="out" input="true"/>
  <setbot:event name="back" input="true"/><setbot:event name="deep" input="true"/><setbot:event name="both" input="true"/>
  <parallel id="P">
    <history id="Hs"><transition target="R1"/></history>
    <history id="Hd" type="deep"><transition target="a1"/></history>
    <transition event="out" target="O"/>
    <transition event="both" type="internal" target="a2 b2"/>
    <state id="R1" initial="a1">
      <state id="a1"><transition event="a" target="a2"/></state>
      <state id="a2">
        <initial><transition target="a22"/></initial>
        <state id="a21"/>
        <state id="a22"><transition event="a" target="a21"/></state>
        <transition event="b" target="b2"/>
      </state>
    </state>
    <state id="R2" initial="b1">
      <state id="b1"><transition event="b" target="b2"/><transition cond="In('a21')" target="b2"/></state>
      <state id="b2"><transition event="a" target="b1"/></state>
    </state>
  </parallel>
  <state id="O">
    <transition event="back" target="Hs"/>
    <transition event="deep" target="Hd"/>
  </state>
</scxml>`},
	{"raises between regions and several done events", head + `initial="P">
  <setbot:event name="go" input="true"/><setbot:event name="reset" input="true"/>
  <datamodel><data id="n" expr="0"/></datamodel>
  <parallel id="P">
    <transition event="done.state.P" target="Q"><send event="complete" target="#_parent"/></transition>
    <transition event="done.state.*"><assign location="n" expr="n + 1"/></transition>
    <state id="R1">
      <state id="x1"><transition event="go" target="xf"><raise event="ping"/></transition></state>
      <final id="xf"/>
    </state>
    <state id="R2">
      <state id="y1"><transition event="ping" target="yf"><send event="pong"/></transition></state>
      <final id="yf"/>
    </state>
  </parallel>
  <state id="Q">
    <transition event="pong"><send event="ponged" target="#_parent"/></transition>
    <transition event="reset" target="P"/>
  </state>
</scxml>`},
	{"deep initial into a parallel state", head + `initial="b2">
  <setbot:event name="go" input="true"/>
  <state id="C">
    <parallel id="P">
      <state id="R1"><state id="a1"/><state id="a2"/></state>
      <state id="R2"><state id="b1"/><state id="b2"><transition event="go" target="a2 b1"/></state></state>
    </parallel>
  </state>
</scxml>`},
	{"conflicts between an outer and inner transition in parallel regions", head + `initial="P">
  <setbot:event name="e" input="true"/><setbot:event name="f" input="true"/>
  <datamodel><data id="k" expr="0"/></datamodel>
  <parallel id="P">
    <transition event="f" target="P"><assign location="k" expr="k + 10"/></transition>
    <state id="R1">
      <state id="a1"><transition event="e" target="a2"/><transition event="f" cond="k &lt; 20" target="a2"/></state>
      <state id="a2"><transition event="e" target="Z"/></state>
    </state>
    <state id="R2">
      <state id="b1"><transition event="e" target="b2"/></state>
      <state id="b2"><transition event="e" target="b1"/><transition event="f" target="Z"/></state>
    </state>
  </parallel>
  <state id="Z"><transition event="e" target="P"/></state>
</scxml>`},

	{"history targeted from inside its parent", head + `initial="C">
  <setbot:event name="next" input="true"/><setbot:event name="again" input="true"/>
  <setbot:event name="out" input="true"/><setbot:event name="in" input="true"/>
  <datamodel><data id="entries" expr="0"/></datamodel>
  <state id="C">
    <onentry><assign location="entries" expr="entries + 1"/></onentry>
    <history id="H"><transition target="c1"/></history>
    <history id="D" type="deep"><transition target="c1"/></history>
    <transition event="out" target="O"/>
    <state id="c1"><transition event="next" target="c2"/><transition event="again" target="H"/></state>
    <state id="c2">
      <state id="c21"><transition event="next" target="c22"/></state>
      <state id="c22"><transition event="again" target="D"/><transition event="next" target="H"/></state>
      <transition event="again" type="internal" target="H"/>
    </state>
  </state>
  <state id="O"><transition event="in" target="H"/><transition event="again" target="D"/></state>
</scxml>`},

	{"a self-sent event and a timer of one name", head + `initial="A">
  <setbot:event name="go" input="true"/><setbot:event name="arm" input="true"/>
  <datamodel><data id="n" expr="0"/></datamodel>
  <state id="A">
    <transition event="arm"><send event="t" delay="1s"/></transition>
    <transition event="go" target="B"><send event="t"/></transition>
    <transition event="t"><assign location="n" expr="n + 1"/></transition>
  </state>
  <state id="B">
    <transition event="t" target="A"><assign location="n" expr="n + 10"/></transition>
  </state>
</scxml>`},
}

// TestDifferentialEdgeCases compares both sides on the edge cases, under
// random event sequences and the generated tests.
func TestDifferentialEdgeCases(t *testing.T) {
	var n counts
	for i, c := range edgeCases {
		t.Run(c.name, func(t *testing.T) {
			s, why := load(c.name+".scxml", []byte(c.src))
			if s == nil {
				t.Fatalf("%s does not load: %s", c.name, why)
			}
			r := rand.New(rand.NewPCG(uint64(i), 0xed))
			for range 30 {
				if d := s.compare(random(r, s.inputs, 15), &n); d != "" {
					t.Fatal(d)
				}
			}
			if _, d, err := s.generated(3, &n); err != nil || d != "" {
				t.Fatalf("%v%s", err, d)
			}
		})
	}
	t.Logf("%d edge cases: %d runs, %d steps compared", len(edgeCases), n.runs.Load(), n.steps.Load())
}
