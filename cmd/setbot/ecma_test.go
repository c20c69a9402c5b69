package main

import (
	"os"
	"strings"
	"testing"
)

// ECMAScript as people write it in SCXML models (issue 28): each construct
// is read by check, explored, and run by the simulator and the reference
// interpreter alike.

// TestECMAHostCalls: console.log is a <log>, SCXML.raise a <raise> and
// SCXML.send a <send> to the host (to its topic when it names one).
func TestECMAHostCalls(t *testing.T) {
	const model = "testdata/ecma/host.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model, "--depth", "2")
	for _, want := range []string{
		"output bye to #_parent: first after 1 events (ping(count=0))",
		"output pong to #_peer: first after 1 events (ping(count=1))",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	events := []string{"ping(count=2)", "ping(count=0)"}
	for _, ref := range []bool{false, true} {
		args := append([]string{model}, events...)
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		code, out, errs := runSimulate(t, args...)
		if code != exitOK {
			t.Fatalf("simulate %v: exit %d\n%s%s", args, code, out, errs)
		}
		for _, want := range []string{"outputs: pong(count=1) to #_peer", "outputs: bye() to #_parent", "done (halted)"} {
			if !strings.Contains(out, want) {
				t.Errorf("simulate %v: no %q in\n%s", args, want, out)
			}
		}
	}
}

// TestECMACallStatements: a call written as a statement evaluates the
// call; one of a function the model does not define is the host's, an
// output whose parameters are the arguments.
func TestECMACallStatements(t *testing.T) {
	const model = "testdata/ecma/hostfn.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model, "--depth", "2")
	if want := "output onLightOff to #_host: first after 1 events (off)"; !strings.Contains(out, want) {
		t.Errorf("explore: no %q in\n%s", want, out)
	}
	for _, ref := range []bool{false, true} {
		args := []string{model, "off", "on", "off"}
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		code, out, errs := runSimulate(t, args...)
		if code != exitOK {
			t.Fatalf("simulate %v: exit %d\n%s%s", args, code, out, errs)
		}
		for _, want := range []string{"outputs: onLightOff(arg0=1, arg1='dim') to #_host", "outputs: onLightOff(arg0=2, arg1='dim') to #_host"} {
			if !strings.Contains(out, want) {
				t.Errorf("simulate %v: no %q in\n%s", args, want, out)
			}
		}
	}
}

// TestECMAFunctionExpressions: a <data> or a var bound once to a function
// expression is that function.
func TestECMAFunctionExpressions(t *testing.T) {
	const model = "testdata/ecma/funcexpr.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model)
	if want := "4 symbolic states, 1 paths, depth 3"; !strings.Contains(out, want) {
		t.Errorf("explore: no %q in\n%s", want, out)
	}
	for _, ref := range []bool{false, true} {
		args := []string{model, "go", "go", "go"}
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		code, out, errs := runSimulate(t, args...)
		if code != exitOK || strings.Count(out, "(halted)") != 1 || !strings.HasSuffix(strings.TrimSpace(out), "b (halted)") {
			t.Errorf("simulate %v: exit %d, want the third go to end in b\n%s%s", args, code, out, errs)
		}
	}
}

// TestECMAUnboundName: a cond that reads a name bound nowhere is false and
// raises error.execution (ECMAScript's ReferenceError), with a warning.
func TestECMAUnboundName(t *testing.T) {
	const model = "testdata/ecma/unbound.scxml"
	code, out, errs := runCLI(t, "check", model)
	if code != 0 || !strings.Contains(out+errs, "4:34: warning: ghost is bound nowhere in the model") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ = runCLI(t, "explore", model)
	for _, want := range []string{"states unreachable:\n  b (line 7)", "c (line 8): entered after go, never stable"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	simulateBoth(t, "d (halted)", model, "go")
}

// TestECMANew: new Array(...) and new Object() are literals.
func TestECMANew(t *testing.T) {
	const model = "testdata/ecma/new.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "3 symbolic states, 1 paths, depth 2") {
		t.Errorf("explore: want the one path to c\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go", "go")
}

// TestECMAObjectKeys: any string is a field name, {'take.1': 1} and
// o['take.1'], a part of its own (not field 1 of o.take).
func TestECMAObjectKeys(t *testing.T) {
	const model = "testdata/ecma/keys.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "3 symbolic states, 1 paths, depth 2") {
		t.Errorf("explore: want the one path to c\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go", "go")
}

// TestECMAInputParams: the parameters of an input event no send declares
// are the kinds their uses tell: x compared with numbers is a number, s
// with a string method a string, on tested for truth a boolean; _event.data
// tested for truth is then an object, true; press's data as a whole is
// the number it is compared with.
func TestECMAInputParams(t *testing.T) {
	const model = "testdata/ecma/inputs.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model)
	if !strings.Contains(out, "states unreachable:\n  d (line 14)") || strings.Contains(out, "  c (line") {
		t.Errorf("explore: want d alone unreachable (x < 2 && x > 3 of a number) in\n%s", out)
	}
	runs := [][]string{
		{"go(x=5, s='abc')", "go(x=7, s='z')"},
		{"go(x=2, s='abc')", "flag(on=true)"},
		{"go(x=4, s='a')", "press(_data=2)", "press(_data=1)"},
	}
	for _, ref := range []bool{false, true} {
		for _, events := range runs {
			args := append([]string{model}, events...)
			if ref {
				args = append([]string{"--reference"}, args...)
			}
			code, out, errs := runSimulate(t, args...)
			if code != exitOK || !strings.HasSuffix(strings.TrimSpace(out), "c (halted)") {
				t.Errorf("simulate %v: exit %d, want c\n%s%s", args, code, out, errs)
			}
		}
	}
}

// TestECMAAssignedGlobals: assigning a name nothing declares creates a
// global, and a var at the top of a <script> that other code reads is that
// global (z is 'bar' in the cond, n 1).
func TestECMAAssignedGlobals(t *testing.T) {
	const model = "testdata/ecma/globals.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model)
	if !strings.Contains(out, "states unreachable:\n  d (line 12)") || strings.Contains(out, "  c (line") {
		t.Errorf("explore: want d alone unreachable in\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go")
}

// mustCheck runs check on model and stops the test unless it exits 0
// with nothing to say.
func mustCheck(t *testing.T, model string) {
	t.Helper()
	if code, out, errs := runCLI(t, "check", model); code != 0 || out != "" {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
}

// simulateBoth runs simulate with args on the flattened machine and on the
// reference interpreter, and checks that each run ends in want.
func simulateBoth(t *testing.T, want string, args ...string) {
	t.Helper()
	for _, a := range [][]string{args, append([]string{"--reference"}, args...)} {
		code, out, errs := runSimulate(t, a...)
		if code != exitOK || !strings.HasSuffix(strings.TrimSpace(out), want) {
			t.Errorf("simulate %v: exit %d, want the run to end in %q\n%s%s", a, code, want, out, errs)
		}
	}
}

// TestECMAComputedKey: o[k] with a key computed when it runs reads the
// field k names, or undefined where it names none, and the variable it is
// assigned to comes to hold undefined besides its strings.
func TestECMAComputedKey(t *testing.T) {
	const model = "testdata/ecma/computedkey.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	if strings.Contains(out, "unreachable") {
		t.Errorf("explore: want b and unknown reached\n%s", out)
	}
	simulateBoth(t, "b (halted)", model, "key(k='-...')")
	simulateBoth(t, "unknown", model, "key(k='x')")
	simulateBoth(t, "a", model, "key(k='.-')")
}

// TestECMAForward: SCXML.send({event: _event, topic: ...}) sends the event
// being processed, with its data, to the topic: each event the transition
// matches, or in entry code the event whose macrostep enters the state, in
// every executor.
func TestECMAForward(t *testing.T) {
	const model = "testdata/ecma/forward.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"output go to #_out: first after 1 events (go(x=0))", "output stop to #_out: first after 1 events (stop)"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	for _, ref := range []string{"--time=timed", "--reference"} {
		code, out, errs := runSimulate(t, ref, model, "go(x=2)", "go(x=5)")
		if code != 0 || !strings.Contains(out, "outputs: go(x=2) to #_out") || !strings.Contains(out, "outputs: go(x=5) to #_entered") || !strings.HasSuffix(out, "b\n") {
			t.Errorf("simulate %s: exit %d, want go(x=2) forwarded to #_out, go(x=5) by b's entry to #_entered, and the run in b\n%s%s", ref, code, out, errs)
		}
	}
}

// TestECMARebind: binding a name again to the same function changes
// nothing, a <data> whose value names a function is bound to it, typeof of
// either is "function", and of two declarations in one script the last is
// the function; binding a name to another function is refused where it
// happens.
func TestECMARebind(t *testing.T) {
	const model = "testdata/ecma/rebind.scxml"
	want := model + ":8:45: warning: function step declared twice in one script (first at " + model + ":8:11): the last declaration is the function"
	if code, out, errs := runCLI(t, "check", model); code != 0 || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Fatalf("check: exit %d\n%s%s\nwant %s", code, out, errs, want)
	}
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want c reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go", "go")
	src, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(src), `expr="function (a) { return a + 1; }"`, `expr="function (a) { return a + 2; }"`, 1)
	path := writeModel(t, "m.scxml", []byte(other))
	if code, out, _ := runCLI(t, "check", path); code != exitFindings || !strings.HasPrefix(out, path+":14:25: inc is bound to another function here than at ") {
		t.Errorf("check of a binding to another function: exit %d\n%s", code, out)
	}
}

// TestECMASlice: a string's slice(start, end) is ECMAScript's: negative
// indexes count from the end, end defaults to the length, and an end
// before the start gives the empty string; the solver finds a string whose
// slices meet a condition.
func TestECMASlice(t *testing.T) {
	const model = "testdata/ecma/slice.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want c reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go(t='x')", "go(t='abd')")
	for _, ref := range []string{"--time=timed", "--reference"} {
		code, out, errs := runSimulate(t, ref, model, "go(t='x')", "go(t='abc')")
		if code != 0 || !strings.Contains(out, "discarded: no transition of b takes it") {
			t.Errorf("simulate %s: exit %d, want go(t='abc') discarded in b ('abc'.slice(-1) is 'c')\n%s%s", ref, code, out, errs)
		}
	}
}

// TestECMAVarLater: var i; (undefined) that the next statement assigns a
// constant, for (i = 0; ...), is var i = 0.
func TestECMAVarLater(t *testing.T) {
	const model = "testdata/ecma/varlater.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want c reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go", "go")
}

// TestECMAParamAlias: a local that holds an input's parameter tells the
// parameter's kind by its uses (n == 0 makes count a number), and the
// forward of an event the model raises passes the parameters its raise
// names, in every executor.
func TestECMAParamAlias(t *testing.T) {
	const model = "testdata/ecma/pingpong.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model, "--depth", "2")
	if !strings.Contains(out, "output pong to #_peer: first after 1 events (ping(count=") || strings.Contains(out, "\nstates unreachable") {
		t.Errorf("explore: want pong forwarded and every state reached\n%s", out)
	}
	for _, ref := range []string{"--time=timed", "--reference"} {
		code, out, errs := runSimulate(t, ref, model, "ping(count=3)", "ping(count=0)")
		if code != 0 || !strings.Contains(out, "outputs: pong(count=2) to #_peer") || !strings.HasSuffix(strings.TrimSpace(out), "done (halted)") {
			t.Errorf("simulate %s: exit %d, want pong(count=2) forwarded to #_peer and the run in done\n%s%s", ref, code, out, errs)
		}
	}
}

// TestECMAUndefinedData: the data of an event a <content> gives may be
// undefined when its value may be (x before it is assigned), and is where
// a send of the event passes none; a variable given the data of an input
// whose uses disagree on its kind (mix: == 1, and y's string), which
// carries none then, may be undefined; put's data, which only y's kind
// tells, is a string; in every executor.
func TestECMAUndefinedData(t *testing.T) {
	const model = "testdata/ecma/undefdata.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "\nstates unreachable") || !strings.Contains(out, "5 symbolic states, 4 paths") {
		t.Errorf("explore: want the start in b, c after set, d after bare or mix, e after put\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "set")
	simulateBoth(t, "d (halted)", model, "bare")
	simulateBoth(t, "d (halted)", model, "mix")
	simulateBoth(t, "e", model, "put(_data='k')")
}

// TestECMAThrowAndUnbound: a script that throws, and a statement that
// reads a name bound nowhere (scxmlrun's _data), raise error.execution and
// skip the rest of their block, with a warning, in every executor.
func TestECMAThrowAndUnbound(t *testing.T) {
	const model = "testdata/ecma/throw.scxml"
	code, out, errs := runCLI(t, "check", model)
	want := []string{
		model + ":6:34: warning: the script throws: setbot raises error.execution here and skips the rest of the block, as the SCXML specification requires",
		model + ":16:22: warning: _data is bound nowhere in the model",
	}
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.HasPrefix(out, want[0]+"\n") || !strings.Contains(out, "\n"+want[1]) {
		t.Fatalf("check: exit %d\n%s%s\nwant\n%s", code, out, errs, strings.Join(want, "\n"))
	}
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "states unreachable:\n  d (line 20)\n") {
		t.Errorf("explore: want d alone unreachable\n%s", out)
	}
	simulateBoth(t, "f (halted)", model, "go", "go")
}

// TestECMAStringifyEmpty: JSON.stringify of a variable that always holds
// an object without fields is '{}' (not a black box, which would give the
// machine several ways to start), in every executor.
func TestECMAStringifyEmpty(t *testing.T) {
	const model = "testdata/ecma/stringify.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "states unreachable:\n  c (line 12)\n") {
		t.Errorf("explore: want c alone unreachable\n%s", out)
	}
	simulateBoth(t, "d (halted)", model, "go")
}

// TestECMAWriteOnlyObject: a global that code gives an object and that
// nothing reads loads (its value before the first assignment does not
// show), in every executor.
func TestECMAWriteOnlyObject(t *testing.T) {
	const model = "testdata/ecma/writeonly.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 || !strings.Contains(out, "warning: store is assigned but declared nowhere") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every state reached\n%s", out)
	}
	simulateBoth(t, "b (halted)", model, "go")
}

// wild-str (issue 28): string methods as people write them.

// TestECMASubstrReplace: a string's substr(start, length) (Annex B: a
// negative start from the end, a negative length empty) and replace with a
// string pattern (the first occurrence, with $& for the match) are
// ECMAScript's in every executor, and the solver finds an input whose
// replace and substr meet a condition.
func TestECMASubstrReplace(t *testing.T) {
	const model = "testdata/ecma/strmethods.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want c reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "go(t='x')", "go(t='a.b')")
	for _, ref := range []string{"--time=timed", "--reference"} {
		code, out, errs := runSimulate(t, ref, model, "go(t='x')", "go(t='b.a')")
		if code != 0 || !strings.Contains(out, "discarded: no transition of b takes it") {
			t.Errorf("simulate %s: exit %d, want go(t='b.a') discarded in b ('b.a'.replace('.', '') is 'ba')\n%s%s", ref, code, out, errs)
		}
	}
}

// TestECMAEventNameExpr: an eventexpr computed from _event.name (with +
// and replace) sends, on each event its transition takes, the event it
// computes, which a transition may take, in every executor; one whose
// computed events the machine takes and computes from again (a family
// without end) is refused with its position.
func TestECMAEventNameExpr(t *testing.T) {
	const model = "testdata/ecma/eventname.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "2 paths") || strings.Contains(out, "  c (line") || strings.Contains(out, "  d (line") {
		t.Errorf("explore: want c and d reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "btn.one")
	simulateBoth(t, "d (halted)", model, "btn.two")
	code, out, errs := runCLI(t, "check", "testdata/ecma/eventname_cycle.scxml")
	if code == 0 || !strings.Contains(out+errs, `5:24: eventexpr "_event.name + '.y'" reads _event.name, and the events this model's eventexprs compute from _event.name are taken and computed from again without end`) {
		t.Errorf("check of the cycle: exit %d, want the eventexpr refused\n%s%s", code, out, errs)
	}
}

// TestECMATwoShapes: an event sent once with a <content> and once with
// <param>s has, in every executor, the content's value as _event.data or
// an object whose parameters the content's sends leave undefined;
// _event.data read other than compared with a literal is refused.
func TestECMATwoShapes(t *testing.T) {
	const model = "testdata/ecma/twoshapes.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "states unreachable:\n  fail (line 14)\n") {
		t.Errorf("explore: want fail alone unreachable\n%s", out)
	}
	simulateBoth(t, "c (halted)", model)
	code, out, errs := runCLI(t, "check", "testdata/ecma/twoshapes_typeof.scxml")
	if code == 0 || !strings.Contains(out+errs, "10:40: event e carries a <content> in some sends and <param>s in others, and here _event.data is read as a whole") {
		t.Errorf("check of typeof _event.data: exit %d, want it refused\n%s%s", code, out, errs)
	}
}

// TestECMAEntryData: an input's parameter read only in the <onentry> of
// a state its transitions enter is inferred from that use (a truth test
// makes it a boolean), is forwarded through a timer's <param>, and
// _event.data tested for truth there is an object (true) where every event
// that enters the state carries parameters, in every executor.
func TestECMAEntryData(t *testing.T) {
	const model = "testdata/ecma/entrydata.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every state reached\n%s", out)
	}
	simulateBoth(t, "done (halted)", model, "menu(selected=false, shown=true)", "tick")
	simulateBoth(t, "on", model, "menu(selected=false, shown=false)", "tick")
	simulateBoth(t, "done (halted)", model, "menu(selected=true, shown=true)")
}

// ---- wild-obj (issue 28): objects whose fields differ between assignments.

// TestECMAWidenObject: an object part assigned an object of other fields
// holds the fields of both, and a field the object it holds lacks reads
// undefined; a field null at first holds the string given later.
func TestECMAWidenObject(t *testing.T) {
	const model = "testdata/ecma/widenobj.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	if !strings.Contains(out, "2 paths") || strings.Contains(out, "unreachable") {
		t.Errorf("explore: want 2 paths, nothing unreachable\n%s", out)
	}
	simulateBoth(t, "done (halted)", model, "copy")
	simulateBoth(t, "wrong", model, "keep", "copy")
}

// TestECMAFailingRead: reading a field of an object part that is
// undefined (its variable was given objects without it) throws, so the
// cond is false and raises error.execution, in every executor; a guard
// that tests the part first reads nothing.
func TestECMAFailingRead(t *testing.T) {
	const model = "testdata/ecma/failread.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"ten:look>forty (line 11)", "ten:safe>forty (line 10)"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: want %s unreachable (doc.root.foo.a is undefined in ten)\n%s", want, out)
		}
	}
	if strings.Contains(out, "failed") {
		t.Errorf("explore: want state failed reached\n%s", out)
	}
	simulateBoth(t, "failed", model, "look")
	simulateBoth(t, "forty", model, "go", "look")
	for _, args := range [][]string{{model, "safe"}, {"--reference", model, "safe"}} {
		_, out, _ := runSimulate(t, args...)
		if strings.Contains(out, "failed") || !strings.Contains(out, "ten") {
			t.Errorf("simulate %v: want safe discarded in ten, no error.execution\n%s", args, out)
		}
	}
}

// TestECMAArrayItem: a <foreach> item declared by the loop that holds
// arrays is undefined until the loop assigns it (an array with a tag, as
// a scalar that may be undefined is), and a loop nested in the first
// walks it.
func TestECMAArrayItem(t *testing.T) {
	const model = "testdata/ecma/foreachitem.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	if strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every transition reached\n%s", out)
	}
	simulateBoth(t, "two (halted)", model, "find(h=3)")
	simulateBoth(t, "u", model, "find(h=1)")
}

// TestECMAKeyedWrite: o[k] = v with a key computed when it runs writes
// the field k names; where k names none, ECMAScript adds the key, which
// the object's type does not hold: the path meets the keys bound, in the
// explorer, the simulator and the reference interpreter alike.
func TestECMAKeyedWrite(t *testing.T) {
	const model = "testdata/ecma/keywrite.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model, "--depth", "3")
	if !strings.Contains(out, "bound hit: keys (limit 2)") || strings.Contains(out, "unreachable") {
		t.Errorf("explore: want the keys bound hit and state both reached\n%s", out)
	}
	simulateBoth(t, "both (halted)", model, "put(k='take.1', v=1)", "put(k='take.2', v=2)")
	simulateBoth(t, "dropped (halted)", model, "drop(k='take.1')")
	simulateBoth(t, "s", model, "drop(k='take.2')")
	for _, args := range [][]string{{model, "put(k='x', v=1)"}, {"--reference", model, "put(k='x', v=1)"}} {
		_, out, errs := runSimulate(t, args...)
		if !strings.Contains(out+errs, "names none of the object's 2 keys") {
			t.Errorf("simulate %v: want the keys bound met\n%s%s", args, out, errs)
		}
	}
}

// ---- wild-arr (issue 28): arrays that grow in place.

// TestECMAPush: a.push(x, ...) as a statement appends as a =
// a.concat([x, ...]) does, to a local array in a function and to a machine
// variable alike; a path that pushes past the bound meets the array bound
// in explore, and both executors stop there with the same error.
func TestECMAPush(t *testing.T) {
	const model = "testdata/ecma/push.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	if !strings.Contains(out, "bound hit: array (limit 16)") || strings.Contains(out, "done (line") || strings.Contains(out, "other (line") {
		t.Errorf("explore: want done and other reached and the array bound hit\n%s", out)
	}
	simulateBoth(t, "done (halted)", model, "add(v=4)", "count(aux=true, cd=true)")
	simulateBoth(t, "other (halted)", model, "add(v=4)", "count(aux=false, cd=true)")
	nine := []string{model}
	for range 9 {
		nine = append(nine, "add(v=1)")
	}
	for _, a := range [][]string{nine, append([]string{"--reference"}, nine...)} {
		if code, out, errs := runSimulate(t, a...); code == exitOK || !strings.Contains(errs, "event 9: ") || !strings.Contains(errs, "an array grows past its bound of 16 elements") {
			t.Errorf("simulate %v: exit %d, want an error at event 9, the array bound\n%s%s", a, code, out, errs)
		}
	}
}

// TestECMAConcatNumber: + with one string operand joins strings, the
// number or boolean converted as String() converts it (a negative int, a
// decimal, true and false), and += on a string likewise, in every
// executor.
func TestECMAConcatNumber(t *testing.T) {
	const model = "testdata/ecma/concatnum.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "\nstates unreachable") {
		t.Errorf("explore: want hit and miss reached\n%s", out)
	}
	simulateBoth(t, "hit (halted)", model, "take(ok=true)")
	simulateBoth(t, "miss (halted)", model, "take(ok=false)")
}

// TestECMAPastEnd: an element of an array of arrays read at an index that
// may lie past the end (hands[id - 1][0]) is read where the index lies
// within the array; past it ECMAScript reads undefined and throws on
// reading into it, so setbot raises error.execution before the statement
// and skips the rest of the block, with a warning, in every executor.
func TestECMAPastEnd(t *testing.T) {
	const model = "testdata/ecma/pastend.scxml"
	code, out, errs := runCLI(t, "check", model)
	want := model + ":17:23: warning: hands[_event.data.id - 1] may lie past the end of hands, where ECMAScript reads undefined and throws a TypeError on reading into it: " +
		"setbot raises error.execution here and skips the rest of the block, as the SCXML specification requires"
	if code != 0 || !strings.HasPrefix(out, want+"\n") || strings.Count(out, "\n") != 2 {
		t.Fatalf("check: exit %d\n%s%s\nwant first\n%s", code, out, errs, want)
	}
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every state reached\n%s", out)
	}
	simulateBoth(t, "three (halted)", model, "go(id=3)")
	simulateBoth(t, "err (halted)", model, "go(id=4)")
	simulateBoth(t, "b", model, "go(id=0)")
}

// TestECMAElementWrite: a[i] = x at an index that may lie past the end
// replaces the element within the array and appends it at the length
// (proposals[i] = {...} in a loop fills an empty array); past the length or
// below 0, which ECMAScript makes a hole or a property, the path meets the
// index bound in explore, and both executors stop there with one error.
func TestECMAElementWrite(t *testing.T) {
	const model = "testdata/ecma/elemwrite.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 || strings.Contains(out, ": error") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model)
	if !strings.Contains(out, "bound hit: index (limit 16)") || strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every state reached and the index bound hit\n%s", out)
	}
	simulateBoth(t, "replaced (halted)", model, "propose(n=3)", "vote(p=2)")
	simulateBoth(t, "appended (halted)", model, "propose(n=3)", "vote(p=3)")
	for _, a := range [][]string{{model, "propose(n=2)", "vote(p=3)"}, {"--reference", model, "propose(n=2)", "vote(p=-1)"}} {
		if code, out, errs := runSimulate(t, a...); code == exitOK || !strings.Contains(errs, "an element is assigned past the end of its array or below index 0") {
			t.Errorf("simulate %v: exit %d, want the index bound\n%s%s", a, code, out, errs)
		}
	}
}

// --- wild-glob (issue 28): names bound nowhere, forEach callbacks,
// parseInt of undefined.

// TestECMAForEachCallback: array.forEach(function (item, index) {...}) as
// a statement runs its body once per element, with the parameters as the
// body's locals (the global x keeps its value), in every executor; what
// setbot's loop would run otherwise than forEach is refused.
func TestECMAForEachCallback(t *testing.T) {
	const model = "testdata/ecma/foreach_callback.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "states unreachable:\n  bad (line 20)\n") {
		t.Errorf("explore: want bad alone unreachable (sum is 126 after go)\n%s", out)
	}
	simulateBoth(t, "ok (halted)", model, "go")
	src, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ script, want string }{
		{"xs.forEach(function (v) { xs = [1, 2, 3] })", ":9:15: the loop's body assigns xs, which xs reads"},
		{"xs.forEach(function (v) { return })", ":9:17: return in the function given to forEach"},
		{"xs.forEach(function (v, i, a) { sum = 1 })", ":9:17: forEach of a function of 3 parameters"},
		{"sum = xs.forEach(function (v) { sum = 1 })", ":9:23: forEach with a function is read as a statement of its own"},
		{"xs.forEach(function (sum) { x = 'a' })", ":9:36: parameter sum of the loop shadows the machine variable sum"},
	} {
		start := strings.Index(string(src), "<script>") + len("<script>")
		end := strings.Index(string(src), "</script>")
		doc := string(src[:start]) + tc.script + string(src[end:])
		path := t.TempDir() + "/m.scxml"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "check", path); code == 0 || !strings.Contains(out+errs, path+tc.want) {
			t.Errorf("%s: exit %d\n%s%s\nwant %s", tc.script, code, out, errs, tc.want)
		}
	}
}

// TestECMAUnboundInBranch: a name bound nowhere read in a branch of an if
// raises error.execution there and skips the rest of the block (n stays
// 1, the n + 10 after the if does not run); after && in a cond it makes
// the cond false and raises error.execution only where what && reads
// before it holds (n == 1: in c, not in a), in every executor.
func TestECMAUnboundInBranch(t *testing.T) {
	const model = "testdata/ecma/unbound_branch.scxml"
	code, out, errs := runCLI(t, "check", model)
	for _, want := range []string{
		model + ":9:54: warning: ghost is bound nowhere in the model (no <data> declares it and no code assigns it): reading it raises error.execution, so setbot takes this cond as false, and raises error.execution each time it is evaluated where n == 1 holds",
		model + ":12:26: warning: ghost is bound nowhere in the model",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("check: exit %d, want %q in\n%s%s", code, want, out, errs)
		}
	}
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "states unreachable:\n  bad (line 27)\n") {
		t.Errorf("explore: want bad alone unreachable\n%s", out)
	}
	simulateBoth(t, "ok (halted)", model, "go", "go", "go")
}

// TestECMAParseIntUndefined: parseInt of a variable that may be undefined
// is NaN where it is (parseInt('undefined')): the symbolic executor cuts
// the path at the number bound, and both simulators stop there with the
// position; where the variable has a value it is parsed.
func TestECMAParseIntUndefined(t *testing.T) {
	const model = "testdata/ecma/parseint_undefined.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "bound hit: number (limit 15) cut 1 paths") || strings.Contains(out, "unreachable") {
		t.Errorf("explore: want ok reached after set and the path of go alone cut at the number bound\n%s", out)
	}
	simulateBoth(t, "ok (halted)", model, "set", "go")
	for _, a := range [][]string{{model, "go"}, {"--reference", model, "go"}} {
		if code, out, errs := runSimulate(t, a...); code == exitOK || !strings.Contains(errs, model+":7:34: parseInt of 'undefined' is NaN") {
			t.Errorf("simulate %v: exit %d, want the run stopped at the number bound\n%s%s", a, code, out, errs)
		}
	}
}

// TestECMADateVariable: a variable that only ever holds new Date() holds
// its time value, a fresh black box at each new Date(), read as an
// operand of - and <; the same --host value makes the two reads equal in
// both simulators. Any other read of it (==, +, as a condition) is
// refused, since a Date is an object there.
func TestECMADateVariable(t *testing.T) {
	const model = "testdata/ecma/date_var.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"new Date() -> int: no table: every call is an unconstrained value", "3 symbolic states, 2 paths"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	simulateBoth(t, "soon (halted)", "--host", "new Date=5", model, "go")
	src, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, cond := range []string{"t0 == 1", "t0 + 1 &gt; 2", "t0"} {
		doc := strings.Replace(string(src), `cond="new Date() - t0 &gt; 900"`, `cond="`+cond+`"`, 1)
		path := t.TempDir() + "/m.scxml"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "check", path); code == 0 || !strings.Contains(out+errs, path+":7:34: t0 holds a Date") {
			t.Errorf("%s: exit %d\n%s%s\nwant t0 refused at 7:34", cond, code, out, errs)
		}
	}
}

// TestECMAArithmeticOfUndefined: - * / % of a number that may be
// undefined is NaN where it is: the path stops at the number bound, in
// the symbolic executor and both simulators; where it has a value it is
// that value's arithmetic.
func TestECMAArithmeticOfUndefined(t *testing.T) {
	const model = "testdata/ecma/nan_arith.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "bound hit: number (limit 15) cut 1 paths") || strings.Contains(out, "unreachable") {
		t.Errorf("explore: want ok reached after set and the path of go alone cut at the number bound\n%s", out)
	}
	simulateBoth(t, "ok (halted)", model, "set", "go")
	for _, a := range [][]string{{model, "go"}, {"--reference", model, "go"}} {
		if code, out, errs := runSimulate(t, a...); code == exitOK || !strings.Contains(errs, model+":7:37: ") {
			t.Errorf("simulate %v: exit %d, want the run stopped at the number bound\n%s%s", a, code, out, errs)
		}
	}
}

// TestECMAUnboundInFunction: a function that reads a name bound nowhere
// whatever its arguments raises error.execution where it is called: in a
// cond (false, and the raise), in a statement (which ends its block);
// what the function would do after the read (n = 99, an assignment of a
// global) never runs, in every executor.
func TestECMAUnboundInFunction(t *testing.T) {
	const model = "testdata/ecma/unbound_function.scxml"
	code, out, errs := runCLI(t, "check", model)
	for _, want := range []string{model + ":7:5: warning: settings is bound nowhere", model + ":11:36: warning: settings is bound nowhere"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("check: exit %d, want %q in\n%s%s", code, want, out, errs)
		}
	}
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "states unreachable:\n  bad (line 27)\n") {
		t.Errorf("explore: want bad alone unreachable\n%s", out)
	}
	simulateBoth(t, "ok (halted)", model, "go", "go")
}

// TestECMAShared: b = a makes one object of both in ECMAScript, so a.x = 2
// shows through b; setbot's values are copies, so check refuses the model
// at the sharing assignment, naming the write, rather than every executor
// answering what ECMAScript would not.
func TestECMAShared(t *testing.T) {
	code, out, errs := runCLI(t, "check", "testdata/ecma/shared.scxml")
	const want = "testdata/ecma/shared.scxml:9:17: b = a makes them one object or array in ECMAScript, which shares objects and arrays rather than copying them, and a.x is written at 9:22"
	if code == 0 || !strings.Contains(out+errs, want) {
		t.Errorf("check: exit %d, want %q\n%s%s", code, want, out, errs)
	}
	// A <data> whose value is another variable's object shares it too.
	code, out, errs = runCLI(t, "check", "testdata/ecma/shared_data.scxml")
	const wantData = "testdata/ecma/shared_data.scxml:5:24: b = a makes them one object or array in ECMAScript"
	if code == 0 || !strings.Contains(out+errs, wantData) {
		t.Errorf("check of the <data>: exit %d, want %q\n%s%s", code, wantData, out, errs)
	}
}

// TestECMAEffectFunctions: functions that assign globals (whole, a
// field, an element's field), on some paths only, with early returns,
// calling one another, run their effects where they are called, as a
// statement (setBand('FM'), twice in a script), in an if's condition and
// in a var's value,
// in every executor: explore finds bad unreachable on both values of the
// input the function compares, and both simulators end in ok.
func TestECMAEffectFunctions(t *testing.T) {
	const model = "testdata/ecma/effects.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"2 paths", "states unreachable:\n  bad (line 57)\n", "output onBand to #_host"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "  ok (line") {
		t.Errorf("explore: ok unreachable\n%s", out)
	}
	for _, f := range []string{"9", "3"} {
		simulateBoth(t, "ok (halted)", model, "go", "go", "tune(f="+f+")", "done")
	}
	// setBand, called twice in one script, calls the host's onBand each
	// time, and a function of the model's as a statement.
	for _, ref := range []bool{false, true} {
		args := []string{model, "go", "go", "tune(f=9)"}
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		_, out, _ := runSimulate(t, args...)
		if want := "outputs: onBand(arg0='FM') to #_host; onBand(arg0='FM') to #_host"; !strings.Contains(out, want) {
			t.Errorf("simulate %v: no %q in\n%s", args, want, out)
		}
	}
}

// TestECMAEffectFunctionsRefused: a call of a function with effects where
// setbot cannot run the function's body before the code that uses its
// value (a transition's cond, the right of &&), or where the statement
// reads before the call what the call assigns, is refused at the call.
func TestECMAEffectFunctionsRefused(t *testing.T) {
	const model = "testdata/ecma/effects_refused.scxml"
	code, out, errs := runCLI(t, "check", model)
	for _, want := range []string{
		model + ":10:34: call of bump, which assigns n (at " + model + ":5:5), where setbot cannot run it before the code that uses its value",
		model + ":12:41: call of bump, which assigns n",
		model + ":12:58: n is read before the call of bump, which assigns it",
	} {
		if code == 0 || !strings.Contains(out+errs, want) {
			t.Errorf("check: exit %d, want %q in\n%s%s", code, want, out, errs)
		}
	}
}

// TestECMAVirtualRadio: the functions of the Skoda Bolero infotainment's
// radio (SCXML-tutorial by Alex Zhornyak) assign parts of t_SETTINGS on
// some paths; they are no longer refused: what check reports next is
// the event data the model forwards whole.
func TestECMAVirtualRadio(t *testing.T) {
	const model = "../../../shared/corpora/wild/alexzhornyak+SCXML-tutorial/Examples/Qt/SkodaBoleroInfotainment/Model/_virtualRadio.scxml"
	if _, err := os.Stat(model); err != nil {
		t.Skip("the corpus is absent")
	}
	_, out, errs := runCLI(t, "check", model)
	if strings.Contains(out+errs, "which is not one of its parameters or locals") || strings.Contains(out+errs, "where setbot cannot run it") {
		t.Errorf("check: a function with effects refused\n%s%s", out, errs)
	}
}

// TestECMADateAtStart: a time stamped at start-up, new Date() and a
// Date's getter as <data> values, is computed when the machine starts, a
// black box of the host's read before any input; a getter is an int
// whatever its use, typeof of a Date is "object" (so wrong is
// unreachable). explore reads the black boxes as unconstrained values,
// both simulators take them from --host.
func TestECMADateAtStart(t *testing.T) {
	const model = "testdata/ecma/date_data.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"stamp.getFullYear() -> int: no table", "new Date() -> int: no table", "states unreachable:\n  wrong (line 13)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\n  later (line") || strings.Contains(out, "\n  other (line") || strings.Contains(out, "start: ") {
		t.Errorf("explore: later and other are reached from the one start\n%s", out)
	}
	simulateBoth(t, "later (halted)", "--host", "new Date=1000", "--host", "stamp.getFullYear=2026", model, "go")
	simulateBoth(t, "other (halted)", "--host", "new Date=1000", "--host", "stamp.getFullYear=1999", model, "go")
	// Without --host the start itself cannot run: an error at the <data>.
	for _, ref := range []bool{false, true} {
		args := []string{model, "go"}
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		if code, _, errs := runSimulate(t, args...); code == exitOK || !strings.Contains(errs, model+":4:") {
			t.Errorf("simulate %v without --host: exit %d, want an error at the <data>\n%s", args, code, errs)
		}
	}
}

// TestECMADateStartBranch: a getter read in a condition before any input
// makes the start itself depend on the host. The tree has one root: the
// start is pinned to concrete values of the black boxes (the concolic
// fallback), the way that enters the most states, and every claim is
// qualified (ancient is not reached, never unreachable); both simulators
// go the way --host gives.
func TestECMADateStartBranch(t *testing.T) {
	const model = "testdata/ecma/date_start.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"start: black boxes read as the machine starts", "ending in afternoon, morning",
		"states not reached (a branch was concretised, so this is no proof):\n  ancient (line 16)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, " unreachable:") || strings.Contains(out, "concolic:") {
		t.Errorf("explore: nothing is unreachable, and no branch after the start was concretised\n%s", out)
	}
	simulateBoth(t, "morning (halted)", "--host", "new Date=0", "--host", "stamp.getFullYear=2026", "--host", "stamp.getHours=9", model, "go")
	simulateBoth(t, "ancient", "--host", "new Date=0", "--host", "stamp.getFullYear=1066", "--host", "stamp.getHours=9", model)
}

// TestECMADateObjectReads: a Date held from its <data> is still refused
// where its time value would be wrong (== compares two objects, + joins
// text), with the position; Date.now() is a number whatever its use.
func TestECMADateObjectReads(t *testing.T) {
	dir := t.TempDir()
	for cond, at := range map[string]string{"d == e": ":8:34: d holds a Date", "d + 1 &gt; 0": ":8:34: d holds a Date", "now &gt; 0 &amp;&amp; d != now": ":8:56: d holds a Date"} {
		doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
  <datamodel>
    <data id="d" expr="new Date()"/>
    <data id="e" expr="new Date()"/>
    <data id="now" expr="Date.now()"/>
  </datamodel>
  <state id="a">
    <transition event="go" cond="` + cond + `" target="b"/>
  </state>
  <state id="b"/>
</scxml>`
		path := dir + "/m.scxml"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "check", path); code == 0 || !strings.Contains(out+errs, path+at) || strings.Contains(out+errs, "Date.now") {
			t.Errorf("%s: exit %d\n%s%s\nwant %q alone", cond, code, out, errs, at)
		}
	}
}

// TestECMADateWild: the file of the SCXML tutorial (alexzhornyak) that
// stamps a Date in a <data> and compares its getter's results loads and
// explores; its start depends on the host, so what it claims is
// qualified.
func TestECMADateWild(t *testing.T) {
	const model = "../../../shared/corpora/wild/alexzhornyak+SCXML-tutorial/Tests/ecma/Custom/types/testComplexObject.scxml"
	if _, err := os.Stat(model); err != nil {
		t.Skip("the corpus is absent")
	}
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "ending in pass") || strings.Contains(out, " unreachable:") {
		t.Errorf("explore: want the start pinned, ending in pass, and no claim unqualified\n%s", out)
	}
	simulateBoth(t, "pass (halted)", "--host", "new Date=0", "--host", "VarComplexObject.getFullYear=2026", model)
}

// TestECMALastIndexOf: s.lastIndexOf(t) and s.lastIndexOf(t, from) as
// ECMAScript computes them: of _event.name, a constant of each event (the
// digits after the last dot), and of an input's string, which the solver
// decides: a string whose last dot comes before its first is unreachable,
// and a test reaches c with a string whose dots are at 1 and 3.
func TestECMALastIndexOf(t *testing.T) {
	const model = "testdata/ecma/lastindexof.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", model, "--depth", "3")
	if !strings.Contains(out, "states unreachable within 3 events:\n  never (line 20)\n") || strings.Contains(out, "  c (line") || strings.Contains(out, "  b (line") {
		t.Errorf("explore: want b and c reached, never alone unreachable\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "key.7", "key.1.2", "go(t='a.b.c')")
	simulateBoth(t, "a", model, "key.1.2", "key.7")
	for _, ref := range []string{"--time=timed", "--reference"} {
		code, out, errs := runSimulate(t, ref, model, "key.7", "key.1.2", "go(t='a..c')")
		if code != 0 || !strings.Contains(out, "discarded: no transition of b takes it") {
			t.Errorf("simulate %s: exit %d, want go(t='a..c') discarded in b ('a..c'.lastIndexOf('.') is 2)\n%s%s", ref, code, out, errs)
		}
	}
}

// TestECMADictionary: an object {} at first, written and read by keys
// computed when it runs, is a dictionary: m[k] reads the value of the
// entry with key k or undefined (== undefined, typeof), m[k] = v adds or
// replaces an entry, m[k] += v adds to it, a number key is its digits (m[7]
// and m['7'] are one entry), and a ninth key cuts the path at the keys
// bound in the symbolic executor and stops both simulators there.
func TestECMADictionary(t *testing.T) {
	const model = "testdata/ecma/dict.scxml"
	mustCheck(t, model)
	_, out, _ := runCLI(t, "explore", "--depth", "3", model)
	if strings.Contains(out, "unreachable") || !strings.Contains(out, "bound hit: keys (limit 8) cut") {
		t.Errorf("explore: want every state reached and paths cut at the keys bound\n%s", out)
	}
	simulateBoth(t, "three", model, "add(k='a')", "put(k='b', v=1)", "add(k='a')", "add(k='a')", "check(k='a')")
	simulateBoth(t, "none (halted)", model, "add(k='a')", "check(k='b')")
	simulateBoth(t, "seventy", model, "fill(n=8)", "check(k='7')")
	for _, a := range [][]string{{model, "fill(n=8)", "put(k='x', v=1)"}, {"--reference", model, "fill(n=8)", "put(k='x', v=1)"}} {
		if code, out, errs := runSimulate(t, a...); code == exitOK || !strings.Contains(errs, model+":12:16: a key computed when it runs names none of the object's 8 keys") {
			t.Errorf("simulate %v: exit %d, want the run stopped at the keys bound\n%s%s", a, code, out, errs)
		}
	}
}

// TestECMADictionaryCorpus: the dining philosopher of the SCXML tutorial
// keeps its forks' states in t_INPUTS = {}, written by keys computed
// when it runs ('taken.' + i_ID_LEFT, _event.name): none of its refusals
// is about that dictionary any more.
func TestECMADictionaryCorpus(t *testing.T) {
	const path = "../../../shared/corpora/wild/alexzhornyak+SCXML-tutorial/Examples/StateCharts/DiningPhilosphersProblem/sub_dining_philosopher.scxml"
	if _, err := os.Stat(path); err != nil {
		t.Skip("the corpus is not here")
	}
	_, out, errs := runCLI(t, "check", path)
	if strings.Contains(out+errs, "t_INPUTS") {
		t.Errorf("check: t_INPUTS still refused\n%s%s", out, errs)
	}
}

// TestECMADictionaryOfObjects: a dictionary whose values are objects
// (voters[k] = {weight: 1, voted: false}): voters[k] == undefined in a
// cond, and voters[k].f read, assigned, += and ++ in a script, where no
// entry having the key is ECMAScript's TypeError, error.execution, which
// skips the rest of the block, in every executor.
func TestECMADictionaryOfObjects(t *testing.T) {
	const model = "testdata/ecma/dict_objects.scxml"
	code, out, errs := runCLI(t, "check", model)
	if code != 0 || !strings.Contains(out, model+":17:21: warning: no entry of voters may have the key _event.data.who") {
		t.Errorf("check: exit %d, want the warning of the guarded write\n%s%s", code, out, errs)
	}
	if _, out, _ := runCLI(t, "explore", "--depth", "3", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every state reached\n%s", out)
	}
	simulateBoth(t, "done (halted)", model, "join(who='a')", "vote(who='a')")
	simulateBoth(t, "refused", model, "join(who='a')", "vote(who='b')")
	simulateBoth(t, "failed", model, "join(who='a')", "poke(who='b')")
	simulateBoth(t, "s", model, "join(who='a')", "poke(who='a')", "vote(who='a')")
	// voters[k] == undefined || !voters[k].voted reads .voted only where
	// voters[k] is an object.
	simulateBoth(t, "ten", model, "unvote(who='b')")
}

// TestECMANumberEvents: eventexpr and targetexpr computed from ints, where
// + writes them in decimal ('take.' + left, '#_seat' + left, -left) and
// adds numbers first (1 + 2 + '.'), and left is read from a table no code
// writes at an index computed when it runs: check, explore and both
// simulators send the same events, and an index past the end throws
// before anything is sent.
func TestECMANumberEvents(t *testing.T) {
	const model = "testdata/ecma/numevents.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 || !strings.Contains(out, "may lie past the end of hands") {
		t.Fatalf("check: exit %d, want the warning of the guarded read\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", "--depth", "2", model)
	for _, want := range []string{
		"output take.2 to #_parent: first after 1 events (pick(who=2))",
		"output 3.-3 to #_seat3: first after 1 events (pick(who=3))",
		"output take.0: never sent (unreachable)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	for _, a := range [][]string{{model, "pick(who=2)"}, {"--reference", model, "pick(who=2)"}} {
		if code, out, errs := runSimulate(t, a...); code != exitOK || !strings.Contains(out, "outputs: take.2() to #_parent; 3.-2() to #_seat2") {
			t.Errorf("simulate %v: exit %d, want take.2 and 3.-2 sent\n%s%s", a, code, out, errs)
		}
	}
	simulateBoth(t, "two (halted)", model, "pick(who=2)")
	simulateBoth(t, "three (halted)", model, "pick(who=3)")
	simulateBoth(t, "failed (halted)", model, "pick(who=0)")
}

// TestECMADiningPhilosopherCorpus: the dining philosopher of the SCXML
// tutorial, unmodified, loads and explores: it sends 'eat.' + i_ID and
// 'take.' + i_ID_LEFT, ints read from its table t_HAND_COMPLIANCE, and
// sets its timers' delay from update.delay's data (i_DELAY_THINK_EAT, an
// int from its <data>, + 'ms').
func TestECMADiningPhilosopherCorpus(t *testing.T) {
	const path = "../../../shared/corpora/wild/alexzhornyak+SCXML-tutorial/Examples/StateCharts/DiningPhilosphersProblem/sub_dining_philosopher.scxml"
	if _, err := os.Stat(path); err != nil {
		t.Skip("the corpus is not here")
	}
	if code, out, errs := runCLI(t, "check", path); code != 0 || strings.Contains(out, "i_DELAY_THINK_EAT") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "explore", "--depth", "3", path); code != 0 || !strings.Contains(out, "ScxmlPhilospher:") {
		t.Errorf("explore: exit %d\n%s%s", code, out, errs)
	}
}

// TestECMAEventWithoutData: an event raised without data and sent with
// some parameters: a parameter a send leaves out is undefined, and reading
// one where the event came without data is ECMAScript's TypeError,
// error.execution, which skips the rest of the block (or makes a cond
// false), in every executor.
func TestECMAEventWithoutData(t *testing.T) {
	const model = "testdata/ecma/nodata.scxml"
	code, out, errs := runCLI(t, "check", model)
	if code != 0 || !strings.Contains(out, model+":20:42: warning: _event.data.kind is read where event op may have been raised or sent without data") ||
		!strings.Contains(out, model+":36:33: warning: _event.data.k is read where event t may have been raised or sent without data") {
		t.Errorf("check: exit %d, want the warnings of the guarded reads\n%s%s", code, out, errs)
	}
	_, out, _ = runCLI(t, "explore", model)
	if strings.Contains(out, "busy:check>ok") || strings.Contains(out, "failed (line") {
		t.Errorf("explore: want both checks and the failed cond reached\n%s", out)
	}
	simulateBoth(t, "ok (halted)", model, "full", "check")
	// op without data fails before the op with kind 'minus' runs, and its
	// error.execution is processed after it: 'minus-!'.
	simulateBoth(t, "ok (halted)", model, "part", "check")
	simulateBoth(t, "failed (halted)", model, "full", "test")
}

// TestECMAConcatUndefined: + of a string and a value that may be
// undefined or null spells it, as ECMAScript does.
func TestECMAConcatUndefined(t *testing.T) {
	const model = "testdata/ecma/absentconcat.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want every state reached\n%s", out)
	}
	simulateBoth(t, "d (halted)", model, "go", "go", "go")
	simulateBoth(t, "d (halted)", model, "nul", "go")
	// A number that may be undefined stays refused with +: NaN.
	dir := t.TempDir()
	bad := dir + "/nan.scxml"
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" datamodel="ecmascript"><datamodel><data id="n"/><data id="m" expr="1"/></datamodel>` +
		`<state id="a"><transition event="e"><assign location="m" expr="n + 1"/></transition></state></scxml>`
	if err := os.WriteFile(bad, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "check", bad); code == 0 || !strings.Contains(out+errs, "n may be undefined or null, and operator + needs a value") {
		t.Errorf("check: exit %d, want n + 1 refused\n%s%s", code, out, errs)
	}
}

// TestECMAHostAssigned: a host function's call whose use gives no type,
// assigned to a variable its other values type, is a black box of that
// type, with a warning; the simulators take its value from --host.
func TestECMAHostAssigned(t *testing.T) {
	const model = "testdata/ecma/hostassigned.scxml"
	code, out, errs := runCLI(t, "check", model)
	if code != 0 || !strings.Contains(out, model+`:13:36: warning: call of eval, a function the model does not define (its host's), assigned to res: setbot reads it as a black box whose result is an int`) {
		t.Errorf("check: exit %d, want the warning naming the assumption\n%s%s", code, out, errs)
	}
	_, out, _ = runCLI(t, "explore", model)
	if !strings.Contains(out, "eval() -> int: no table: every call is an unconstrained value") || strings.Contains(out, "three (line") || strings.Contains(out, "other (line") {
		t.Errorf("explore: want eval a black box, and both finals reached\n%s", out)
	}
	simulateBoth(t, "three (halted)", "--host", "eval=3", model, "calc")
	simulateBoth(t, "other (halted)", "--host", "eval=4", model, "calc")
}

// TestECMACalc: ldltools/scxmlrun's calculator, which raises OP.INSERT
// without the data its sends pass, joins strings to <data> without a value
// and assigns eval()'s result, loads and explores.
func TestECMACalc(t *testing.T) {
	const path = "../../../shared/corpora/wild/ldltools+scxmlrun/examples/calc/calc.scxml"
	if _, err := os.Stat(path); err != nil {
		t.Skip("the corpus is not here")
	}
	if code, out, errs := runCLI(t, "check", path); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "explore", "--depth", "3", path); code != 0 || !strings.Contains(out, "eval() -> int") {
		t.Errorf("explore: exit %d\n%s%s", code, out, errs)
	}
	simulateBoth(t, "result", "--host", "eval=3", path, "DIGIT", "OPER", "DIGIT", "EQUALS")
}

// TestECMAForwardedData: an input's data that the model only passes on (a
// <content expr="_event.data"/>, a <param>) is a string, with a warning
// that says so where it is passed on; a comparison with a number makes n
// a number all the same. The string the environment sends is the one
// that arrives, in every executor.
func TestECMAForwardedData(t *testing.T) {
	const model = "testdata/ecma/forwarded.scxml"
	code, out, errs := runCLI(t, "check", model)
	if code != 0 || !strings.Contains(out, model+`:7:48: warning: setbot takes the data of event "ask" to be a string, as the model only passes it on`) ||
		!strings.Contains(out, model+`:12:56: warning: setbot takes _event.data.x of event "pass" to be a string`) || strings.Contains(out, "_event.data.n") {
		t.Errorf("check: exit %d, want the warnings of ask's data and pass's x alone\n%s%s", code, out, errs)
	}
	if _, out, _ := runCLI(t, "explore", model); !strings.Contains(out, "entered after ask(_data='')") || strings.Contains(out, "  c (line") {
		t.Errorf("explore: want ask's data a string, and c reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "ask(_data='hi')")
	simulateBoth(t, "a", model, "ask(_data='x')")
	simulateBoth(t, "c (halted)", model, "pass(x='k', n=3)")
	simulateBoth(t, "a", model, "pass(x='j', n=3)")
}

// TestECMAAssignedData: an input's data assigned to a global that its
// <data> value makes an int is an int (the delay d + 'ms' then has a
// value), through a local a string, and assigned to one declared without
// a value the kind of its other assignments, a boolean.
func TestECMAAssignedData(t *testing.T) {
	const model = "testdata/ecma/assigned_data.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", "--time", "untimed", "--depth", "5", model); strings.Contains(out, "unreachable") {
		t.Errorf("explore: want c reached\n%s", out)
	}
	simulateBoth(t, "c (halted)", model, "upd(_data=5)", "name(first='bob')", "arm(_data=true)", "go", "t")
	simulateBoth(t, "a", model, "upd(_data=5)", "name(first='bob')", "arm(_data=false)", "go", "t")
	simulateBoth(t, "a", model, "name(first='bob')", "arm(_data=true)", "go", "t")
}

// TestECMAForwardedDataCorpus: the Skoda Bolero infotainment's radio
// (SCXML-tutorial by Alex Zhornyak) passes on the data of the inputs that
// open its confirmation dialogs, which nothing else reads: it loads, with
// a warning for each, and explores.
func TestECMAForwardedDataCorpus(t *testing.T) {
	const model = "../../../shared/corpora/wild/alexzhornyak+SCXML-tutorial/Examples/Qt/SkodaBoleroInfotainment/Model/_virtualRadio.scxml"
	if _, err := os.Stat(model); err != nil {
		t.Skip("the corpus is absent")
	}
	code, out, errs := runCLI(t, "check", model)
	if code != 0 || !strings.Contains(out, model+`:250:25: warning: setbot takes the data of event "Inp.App.Btn.DeleteAll" to be a string`) {
		t.Fatalf("check: exit %d, want the warning of DeleteAll's data\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "explore", "--depth", "1", model); code != 0 || !strings.Contains(out, "depth 1") {
		t.Errorf("explore: exit %d\n%s%s", code, out, errs)
	}
}

// TestECMAComparedEventNames: the names a cond compares _event.name with,
// a literal or one computed from a variable's known values, are inputs
// beside the descriptor's own name, so that the transitions that ask for
// them are reached (they were reported unreachable, the inputs holding
// only taken for taken.*), in every executor.
func TestECMAComparedEventNames(t *testing.T) {
	const model = "testdata/ecma/comparedname.scxml"
	mustCheck(t, model)
	if _, out, _ := runCLI(t, "explore", model); strings.Contains(out, "unreachable") || !strings.Contains(out, "4 symbolic states, 3 paths") {
		t.Errorf("explore: want zero after taken.0, one after taken.1 and other after taken\n%s", out)
	}
	simulateBoth(t, "zero", model, "taken.0")
	simulateBoth(t, "one", model, "taken.1")
	simulateBoth(t, "other", model, "taken")
}
