package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestNoDataGuards: the raises and sends of one event that pass different
// parameters each pass all of them, undefined where they did not, and
// _nodata where some pass none; a statement that reads a parameter is
// guarded where the event came without data, a cond false there, and a
// read elsewhere refused.
func TestNoDataGuards(t *testing.T) {
	doc := func(handler string) string {
		return head + `<datamodel><data id="x" expr="''"/></datamodel><state id="a">
<transition event="go"><raise event="op"/><send target="#_internal" event="op"><param name="k" expr="'a'"/></send><send target="#_internal" event="op"><param name="j" expr="1"/></send></transition>
` + handler + `</state></scxml>`
	}
	for _, tt := range []struct{ handler, raise, guarded, cond, err string }{
		{handler: `<transition event="op"><assign location="x" expr="x + _event.data.k"/><assign location="x" expr="'!'"/></transition>`,
			raise: "raise op(_nodata: true, j: 0, _absent_j: 1, k: '', _absent_k: 1); raise op(k: 'a', _absent_k: 0, _nodata: false, j: 0, _absent_j: 1); " +
				"raise op(j: 1, _absent_j: 0, _nodata: false, k: '', _absent_k: 1);",
			guarded: "if (_event.data._nodata) { raise platform error.execution(); } else {"},
		{handler: `<transition event="op" cond="_event.data.j == 1"/>`, cond: "!_event.data._nodata && (_event.data._absent_j == 0 && _event.data.j == 1)"},
		{handler: `<transition event="op" cond="_event.data.j == 1"><assign location="x" expr="_event.data.k"/></transition>`,
			cond: "!_event.data._nodata && (_event.data._absent_j == 0 && _event.data.j == 1)", guarded: "if (_event.data._nodata) { raise platform error.execution(); } else {"},
		{handler: `<transition event="op"><assign location="x" expr="x == '' ? _event.data.k : ''"/></transition>`, err: "m.scxml:3:"},
	} {
		mod, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc(tt.handler)), scxml.Options{})
		if tt.err != "" {
			if len(errs) == 0 || !strings.Contains(errs.Error(), tt.err) || !strings.Contains(errs.Error(), "may have been raised or sent without data") {
				t.Errorf("%s: errors %v, want one at %q", tt.handler, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("%s: %v", tt.handler, errs)
			continue
		}
		a := mod.State("a")
		if got := printer.BlockString(a.Transitions[0].Body); tt.raise != "" && got != tt.raise {
			t.Errorf("%s: raises\n%s\nwant\n%s", tt.handler, got, tt.raise)
		}
		if got := printer.BlockString(a.Transitions[1].Body); !strings.HasPrefix(got, tt.guarded) {
			t.Errorf("%s: handler\n%s\nwant it to start\n%s", tt.handler, got, tt.guarded)
		}
		if tt.cond != "" {
			if got := printer.ExprString(a.Transitions[1].Cond); got != tt.cond || a.Transitions[1].FailsWhen == nil {
				t.Errorf("%s: cond %s (fails when %v), want %s", tt.handler, got, a.Transitions[1].FailsWhen, tt.cond)
			}
		}
	}
}

// TestHostAssigned: a host call assigned to a variable whose other values
// give it a type is a black box of that type, with a warning; one whose
// variable has no type of one kind stays refused.
func TestHostAssigned(t *testing.T) {
	doc := func(init string) string {
		return head + `<datamodel><data id="r"` + init + `/></datamodel><state id="a">
<transition event="go"><assign location="r" expr="eval('1')"/></transition></state></scxml>`
	}
	mod, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc(` expr="'x'"`)), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if f := mod.Function("eval"); f == nil || !f.Host || f.Result.Kind.String() != "string" {
		t.Errorf("eval: %+v, want a host function of string result", f)
	}
	if len(mod.Warnings) != 1 || !strings.Contains(mod.Warnings[0].Error(), `<setbot:function name="eval" returns="..."/>`) {
		t.Errorf("warnings %v", mod.Warnings)
	}
	if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc(` expr="[1]"`)), scxml.Options{}); len(errs) == 0 || !strings.Contains(errs.Error(), "call of eval, a function the model does not define") {
		t.Errorf("an array variable: errors %v, want the call refused", errs)
	}
}
