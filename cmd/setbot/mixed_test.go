package main

import (
	"strings"
	"testing"
)

// TestECMAMixedKinds: a variable given an int and a string, and a ?: of
// the two, hold a tagged value: ==, ===, +, typeof, < and truthiness
// follow ECMAScript for the kind held (7 == '7', '7' + 1 === '71',
// '7' > '10', '' == 0, !''), in check, explore and both executors, and an
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
