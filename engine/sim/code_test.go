package sim_test

import (
	"testing"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// codeModel exercises the action language: one targetless transition per
// event, in one state.
const codeModel = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="S">
  <setbot:event name="calc"><setbot:param name="a" type="int"/><setbot:param name="b" type="int"/></setbot:event>
  <setbot:event name="bump"><setbot:param name="n" type="int"/></setbot:event>
  <setbot:event name="neg"><setbot:param name="n" type="int"/></setbot:event>
  <setbot:event name="count"><setbot:param name="n" type="int"/></setbot:event>
  <setbot:event name="pick"><setbot:param name="n" type="int"/></setbot:event>
  <datamodel>
    <data id="q" expr="0"/>
    <data id="r" expr="0"/>
    <data id="x" expr="0"/>
    <data id="ok" expr="false"/>
  </datamodel>
  <state id="S">
    <transition event="calc"><script>q = _event.data.a / _event.data.b; r = _event.data.a % _event.data.b</script></transition>
    <transition event="bump"><assign location="x" expr="x + _event.data.n"/></transition>
    <transition event="neg"><assign location="x" expr="-_event.data.n"/></transition>
    <transition event="count"><script>x = 0; while (x &lt; _event.data.n) { x++ }</script></transition>
    <transition event="sum"><script>x = 0; for (int i = 0; i &lt; 3; i++) { x += i }</script></transition>
    <transition event="scope"><script>
      int y = 5
      { int y = 1; y = 7 }
      int z
      bool b
      x = b ? 100 : y + z
    </script></transition>
    <transition event="pick"><script>
      x = _event.data.n &gt; 0 ? 1 : 2
      ok = _event.data.n != 0 &amp;&amp; 10 / _event.data.n &gt; 2
    </script></transition>
    <transition event="forever"><script>for (;;) { x++ }</script></transition>
    <transition event="arm"><send event="tick" delay="1s"><param name="p" expr="x"/></send></transition>
    <transition event="tick"><assign location="x" expr="_event.data.p + 1"/></transition>
    <transition event="ping"><raise event="loop"/></transition>
    <transition event="loop"><raise event="loop"/></transition>
  </state>
</scxml>`

func TestCode(t *testing.T) {
	m := loadString(t, "code.scxml", codeModel)
	replay(t, m, sim.Options{LoopLimit: 10, MaxMicrosteps: 50}, []want{
		{state: "S", vars: "q=0 r=0 x=0 ok=false"},
		// C division and remainder, x / 0 = 0, x % 0 = x.
		{ev: "calc(a=7, b=2)", vars: "q=3 r=1"},
		{ev: "calc(a=-7, b=2)", vars: "q=-3 r=-1"},
		{ev: "calc(a=7, b=-2)", vars: "q=-3 r=1"},
		{ev: "calc(a=-7, b=-2)", vars: "q=3 r=-1"},
		{ev: "calc(a=5, b=0)", vars: "q=0 r=5"},
		{ev: "calc(a=-9223372036854775808, b=-1)", err: "integer overflow in _event.data.a / _event.data.b at code.scxml:"},
		{ev: "bump(n=9223372036854775807)", vars: "x=9223372036854775807"},
		{ev: "bump(n=1)", err: `event bump(n=1): transition "S bump [S:bump>] S": integer overflow in x + _event.data.n at code.scxml:15:57`},
		// A failed step leaves the machine as it was.
		{ev: "bump(n=-9223372036854775807)", vars: "x=0"},
		{ev: "neg(n=-9223372036854775808)", err: "integer overflow in -_event.data.n"},
		{ev: "neg(n=-3)", vars: "x=3"},
		// Each loop test records on the decision path.
		{ev: "count(n=2)", vars: "x=2", paths: `["ttf"]`},
		{ev: "count(n=10)", vars: "x=10", paths: `["ttttttttttf"]`},
		{ev: "count(n=11)", err: "ran more than 10 iterations"},
		{ev: "count(n=11)", err: "event count(n=11): transition \"S count [S:count>] S\": loop at code.scxml:"},
		{ev: "sum", vars: "x=3", paths: `["tttf"]`},
		// Locals are block-scoped; typed ones start at 0 and false.
		{ev: "scope", vars: "x=5", paths: `["f"]`},
		// ?: records its condition, && its left operand.
		{ev: "pick(n=5)", vars: "x=1 ok=false", paths: `["tt"]`},
		{ev: "pick(n=3)", vars: "x=1 ok=true", paths: `["tt"]`},
		{ev: "pick(n=0)", vars: "x=2 ok=false", paths: `["ff"]`},
		{ev: "pick(n=-3)", vars: "x=2 ok=false", paths: `["ft"]`},
		{ev: "forever", err: "ran more than 10 iterations"},
		// A timer fires with the arguments it was set with; every
		// delayed send is its own pending event, the oldest firing first.
		{ev: "sum", vars: "x=3", timers: "none"},
		{ev: "arm", timers: "tick"},
		{ev: "neg(n=-8)", vars: "x=8"},
		{ev: "arm", timers: "tick tick"},
		{ev: "tick(p=1)", err: "timer tick takes no arguments"},
		{ev: "tick", vars: "x=4", timers: "tick"},
		{ev: "tick", vars: "x=9", timers: "none"},
		{ev: "tick", err: "timer tick is not pending"},
		{ev: "ping", err: "run-to-completion did not finish within 50 events"},
		{ev: "sum", vars: "x=3"},
	})
}

// cancelModel sets timers with and without send ids and cancels them.
const cancelModel = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="S">
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="S">
    <transition event="arm">
      <send id="t" event="tick" delay="1s"><param name="p" expr="x"/></send>
      <send event="tock" delay="1s"/>
    </transition>
    <transition event="other">
      <assign location="x" expr="10"/>
      <send id="u" event="tick" delay="2s"><param name="p" expr="x"/></send>
    </transition>
    <transition event="stop"><cancel sendid="t"/></transition>
    <transition event="again">
      <cancel sendid="t"/>
      <send id="t" event="tick" delay="1s"><param name="p" expr="x"/></send>
    </transition>
    <transition event="tick"><assign location="x" expr="_event.data.p + 1"/></transition>
    <transition event="tock"/>
  </state>
</scxml>`

// TestCancel checks that a cancel removes every pending timer of its send
// id, whatever its event, and no other; that an id with nothing pending
// changes nothing; and that an action's sends and cancels apply in order.
func TestCancel(t *testing.T) {
	m := loadString(t, "cancel.scxml", cancelModel)
	replay(t, m, sim.Options{Time: vocab.TimeUntimed}, []want{ // untimed: the timers fire in the order the test chooses
		{state: "S", vars: "x=0", timers: "none"},
		{ev: "arm", timers: "tick tock"},
		{ev: "arm", timers: "tick tick tock tock"},
		{ev: "other", vars: "x=10", timers: "tick tick tick tock tock"},
		{ev: "stop", timers: "tick tock tock"},
		{ev: "stop", timers: "tick tock tock"},
		// The tick left is the one sent with id u, with p=10.
		{ev: "tick", vars: "x=11", timers: "tock tock"},
		{ev: "again", timers: "tick tock tock"},
		{ev: "again", timers: "tick tock tock"},
		{ev: "tick", vars: "x=12", timers: "tock tock"},
	})
}

func parseExpr(t *testing.T, text string) ast.Expr {
	t.Helper()
	e, errs := parser.ParseExpr(parser.Snippet{Text: text})
	if len(errs) > 0 {
		t.Fatalf("%s: %v", text, errs)
	}
	return e
}

func parseStmts(t *testing.T, text string) *ast.Block {
	t.Helper()
	b, errs := parser.ParseStmts(parser.Snippet{Text: text})
	if len(errs) > 0 {
		t.Fatalf("%s: %v", text, errs)
	}
	return b
}

// handMachine builds a two-state machine with the given initial
// transitions (guard, action pairs, all to A) and one transition A --go--> B.
func handMachine(t *testing.T, initial [][2]string, goGuard, goAction string) *mlm.Machine {
	a := &mlm.State{Name: "A", Atomic: []string{"A"}}
	b := &mlm.State{Name: "B", Atomic: []string{"B"}}
	tr := func(key string, src, dst *mlm.State, event, guard, action string) *mlm.Transition {
		var g ast.Expr
		if guard != "" {
			g = parseExpr(t, guard)
		}
		return &mlm.Transition{Key: key, Source: src, Target: dst, Event: event, Guard: g, Action: parseStmts(t, action)}
	}
	m := &mlm.Machine{
		Name:   "hand",
		Vars:   []*model.Var{{Name: "x", Type: ast.IntType, Init: parseExpr(t, "-(3)")}},
		Events: []*model.Event{{Name: "go", Kinds: model.Input}},
		States: []*mlm.State{a, b},
		Transitions: []*mlm.Transition{
			tr("A go B", a, b, "go", goGuard, goAction),
		},
	}
	for i, it := range initial {
		m.Initial = append(m.Initial, tr("initial "+string(rune('1'+i)), nil, a, "", it[0], it[1]))
	}
	return m
}

func TestHandBuilt(t *testing.T) {
	tests := []struct {
		name      string
		initial   [][2]string
		guard     string
		action    string
		startErr  string
		startPath string // decision path of the start step
		stepErr   string // of sending go
		stepPath  string // decision path of go
		vars      string
	}{
		{name: "initial value", initial: [][2]string{{"", ""}}, startPath: `[""]`, vars: "x=-3"},
		{name: "first initial that completes", initial: [][2]string{{"x > 0", "x = 1"}, {"", "x = 2; assume(x == 3)"}, {"", "x = 4"}},
			startPath: `[""]`, vars: "x=4"},
		{name: "no initial completes", initial: [][2]string{{"x > 0", ""}, {"", "assume(false)"}},
			startErr: "starting the machine: no initial transition completes"},
		{name: "event data at the start", initial: [][2]string{{"", "x = _event.data.v"}},
			startErr: `starting the machine: transition "initial 1": -: _event.data.v read where no event is being processed`},
		{name: "missing parameter", initial: [][2]string{{"", ""}}, guard: "_event.data.p == 1", startPath: `[""]`,
			stepErr: `event go(): transition "A go B": -: _event.data.p: event go carries no parameter p`},
		{name: "unresolved In", initial: [][2]string{{"", ""}}, guard: "In('A')", startPath: `[""]`,
			stepErr: `event go(): transition "A go B": -: In('A') was not resolved by the flattener`},
		{name: "guard and assume path", initial: [][2]string{{"", ""}}, guard: "x < 0 || x > 10", action: "assume(x != 0)",
			startPath: `[""]`, vars: "x=-3", stepPath: `["tt"]`},
		{name: "no path", initial: [][2]string{{"", ""}}, startPath: `[""]`, stepPath: `[""]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st, err := sim.New(handMachine(t, tt.initial, tt.guard, tt.action), sim.Options{})
			if tt.startErr != "" {
				if err == nil || err.Error() != tt.startErr {
					t.Fatalf("start: got error %v, want %q", err, tt.startErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			if got := pathsOf(st); got != tt.startPath {
				t.Errorf("start paths %s, want %s", got, tt.startPath)
			}
			if v := s.Vars()["x"]; tt.vars != "" && "x="+v.String() != tt.vars {
				t.Errorf("x=%v, want %s", v, tt.vars)
			}
			st, err = s.StepAt(sim.Event{Name: "go"}, nil)
			if tt.stepErr != "" {
				if err == nil || err.Error() != tt.stepErr {
					t.Fatalf("go: got error %v, want %q", err, tt.stepErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("go: %v", err)
			}
			if st.State != "B" || tt.stepPath != "" && pathsOf(st) != tt.stepPath {
				t.Errorf("go: state %s, paths %s; want B, %s", st.State, pathsOf(st), tt.stepPath)
			}
		})
	}
}
