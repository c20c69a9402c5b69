package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jexlCounter is a model of Apache Commons SCXML's jexl data model: JEXL's
// word operators, empty() and size(), a Java string method, + of a string
// and Commons SCXML's <var>.
const jexlCounter = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:cs="https://commons.apache.org/scxml" datamodel="jexl" initial="idle">
  <datamodel><data id="count" expr="0"/><data id="limit" expr="2"/><data id="name" expr="'x'"/></datamodel>
  <state id="idle">
    <transition event="tick" cond="count lt limit and not empty(limit)" target="idle">
      <cs:var name="step" expr="1"/>
      <assign location="count" expr="count + step"/>
    </transition>
    <transition event="tick" cond="count ge limit" target="named">
      <assign location="name" expr="'done after ' + name"/>
    </transition>
  </state>
  <state id="named">
    <transition cond="size(name) gt 3 and name.startsWith('done')" target="end"/>
  </state>
  <final id="end"/>
</scxml>
`

// TestJexlModel runs a jexl model through check (it loads, with the
// warning about <var>'s scope), explore, and both simulators, which end
// in the final state after the third tick.
func TestJexlModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counter.scxml")
	if err := os.WriteFile(path, []byte(jexlCounter), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "check", path)
	if code != 0 || !strings.Contains(out, path+":5:7: warning: Commons SCXML's <var name=\"step\">") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "explore", path)
	if code != 0 || !strings.Contains(out, "1 paths, depth 3") {
		t.Errorf("explore: exit %d\n%s%s", code, out, errs)
	}
	for _, args := range [][]string{{"simulate", path}, {"simulate", "--reference", path}} {
		code, out, errs := runCLI(t, append(args, "tick", "tick")...)
		if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), ": idle") {
			t.Errorf("%v after two ticks: exit %d\n%s%s", args, code, out, errs)
		}
		code, out, errs = runCLI(t, append(args, "tick", "tick", "tick")...)
		if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), ": end (halted)") {
			t.Errorf("%v after three ticks: exit %d\n%s%s", args, code, out, errs)
		}
	}
}

// TestJexlRefused checks that check refuses a JEXL construct outside the
// dialect at its line and column, naming it, and exits non-zero.
func TestJexlRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "match.scxml")
	doc := strings.Replace(jexlCounter, `cond="count ge limit"`, `cond="name =~ 'x.*'"`, 1)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "check", path)
	if code == 0 || !strings.Contains(out+errs, path+":8:41: JEXL's operator =~ is outside setbot's jexl dialect") {
		t.Errorf("check: exit %d\n%s%s", code, out, errs)
	}
}
