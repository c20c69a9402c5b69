package main

import (
	"strings"
	"testing"
)

// TestECMAMixedKinds: a variable given an int and a string, and a ?: of
// the two, hold a tagged value: ==, ===, +, typeof, < and truthiness
// follow ECMAScript for the kind held (7 == '7', '7' + 1 === '71',
// '7' > '10', ” == 0, !”), in check, explore and both executors, and an
// output passes the value of the kind held.
func TestECMAMixedKinds(t *testing.T) {
	const model = "testdata/ecma/mixed.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model)
	for _, want := range []string{"states unreachable:\n  fail (line 37)", "output seen to #_parent: first after 1 events (num)"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	simulateBoth(t, "twice (halted)", model, "num")
	simulateBoth(t, "joined (halted)", model, "str")
	simulateBoth(t, "none (halted)", model, "empty")
	for _, ref := range []bool{false, true} {
		args := []string{model, "str"}
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		if _, out, _ := runSimulate(t, args...); !strings.Contains(out, "outputs: seen(v='7') to #_parent") {
			t.Errorf("simulate %v: no output seen(v='7') in\n%s", args, out)
		}
	}
}

// TestECMAMixedRefused: what the tag cannot express is refused with the
// position: a string method of a value that may be an int, arithmetic
// other than +, an array of two kinds.
func TestECMAMixedRefused(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"x.length", "6:53: x holds an int or a string, and .length of it is not modelled"},
		{"x * 2", "6:55: operator * on x (an int or a string) and 2 (an int) is not modelled"},
		{"[x]", "6:54: an element or field that holds int|string (in an array literal) is not modelled"},
	} {
		doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
  <datamodel><data id="x" expr="0"/><data id="y"/></datamodel>
  <state id="a">
    <transition event="s" target="b"><assign location="x" expr="'s'"/></transition>
  </state>
  <state id="b"><onentry><assign location="y" expr="` + tc.expr + `"/></onentry></state>
</scxml>`
		path := writeModel(t, "m.scxml", []byte(doc))
		code, out, errs := runCLI(t, "check", path)
		if code == 0 || !strings.Contains(out+errs, tc.want) {
			t.Errorf("check of y = %s: exit %d, want %q in\n%s%s", tc.expr, code, tc.want, out, errs)
		}
	}
}

// TestECMAMixedSemantics: conditions on a variable of several kinds give
// what ECMAScript gives (the expected values are ECMAScript's, not
// setbot's), on the simulator, the reference interpreter and the symbolic
// executor alike.
func TestECMAMixedSemantics(t *testing.T) {
	for _, tc := range []struct {
		value, cond string
		want        bool
	}{
		{"7", "x == '7'", true},
		{"'7'", "x === 7", false},
		{"'7'", "x == 7", true},
		{"''", "x == 0", true},
		{"''", "!x", true},
		{"0", "!x", true},
		{"'0'", "!x", false},
		{"undefined", "x == null", true},
		{"null", "x == undefined", true},
		{"null", "x === undefined", false},
		{"undefined", "typeof x === 'undefined'", true},
		{"null", "typeof x === 'object'", true},
		{"'7'", "typeof x === 'string'", true},
		{"7", "x + 1 === 8", true},
		{"'7'", "x + 1 === '71'", true},
		{"undefined", "x + 'a' === 'undefineda'", true},
		{"null", "x + 'a' === 'nulla'", true},
		{"'7'", "x > '10'", true},
		{"7", "x > '10'", false},
		{"null", "x < 1", true},
		{"undefined", "x < 1", false},
		{"undefined", "x >= 1", false},
		{"null", "x >= 0", true},
		{"'02'", "x == 2", true},
		{"'02'", "x == '2'", false},
		{"7", "String(x) === '7'", true},
		{"null", "String(x) === 'null'", true},
		{"'1'", "x == true", true},
		{"7", "x != true", true},
		{"7", "(x === 7 ? 'a' : 1) === 'a'", true},
		{"'7'", "(x === 7 ? 'a' : 1) == '1'", true},
	} {
		esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace
		doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
  <datamodel><data id="x"/></datamodel>
  <state id="a">
    <onentry><assign location="x" expr="` + esc(tc.value) + `"/></onentry>
    <transition event="never" target="a"><assign location="x" expr="0"/><assign location="x" expr="'s'"/></transition>
    <transition cond="` + esc(tc.cond) + `" target="yes"/>
    <transition target="no"/>
  </state>
  <final id="yes"/>
  <final id="no"/>
</scxml>`
		path := writeModel(t, "m.scxml", []byte(doc))
		reached, unreached := "yes", "no"
		if !tc.want {
			reached, unreached = "no", "yes"
		}
		simulateBoth(t, reached+" (halted)", path)
		_, out, errs := runCLI(t, "explore", path)
		if !strings.Contains(out, "states unreachable:\n  "+unreached+" ") {
			t.Errorf("x = %s; %s: explore does not find %s unreachable\n%s%s", tc.value, tc.cond, unreached, out, errs)
		}
	}
}
