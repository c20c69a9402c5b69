package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestPastEndGuards: a read into an element of an array of arrays at an
// index that may lie past the end gets a guard that raises error.execution
// and skips the rest of the block, where its statement always makes it
// (at the top of the block, in an else-if's branch); under ?:, after && or
// as a whole element it stays refused.
func TestPastEndGuards(t *testing.T) {
	doc := func(code string) string {
		return head + `<datamodel><data id="m" expr="[[1, 2], [3, 4]]"/><data id="x" expr="0"/></datamodel>
<state id="a"><onentry><script>` + code + `</script><assign location="x" expr="9"/></onentry></state></scxml>`
	}
	for _, tt := range []struct{ code, want, err string }{
		{code: "x = m[x][1];", want: "if (!(0 <= x && x < m.length)) { raise platform error.execution(); } else { x = x == 0 ? m[0][1] : m[1][1]; x = 9; }"},
		{code: "if (x > 5) { x = 1; } else if (m[x - 1].length == 2) { x = 2; }",
			want: "if (x > 5) { x = 1; x = 9; } else { if (!(0 <= x - 1 && x - 1 < m.length)) { raise platform error.execution(); } else { " +
				"if ((x - 1 == 0 ? m[0].length : m[1].length) == 2) { x = 2; } x = 9; } }"},
		{code: "x = x > 0 ? m[x][0] : 0;", err: "m[x] may lie past the end of m"},
		{code: "x = x > 0 &amp;&amp; m[x][0] > 1 ? 1 : 0;", err: "m[x] may lie past the end of m"},
		{code: "var r = m[x];", err: "m[x] may lie past the end of m"},
	} {
		mod, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc(tt.code)), scxml.Options{})
		if tt.err != "" {
			if len(errs) == 0 || !strings.Contains(errs.Error(), tt.err) {
				t.Errorf("%s: errors %v, want %q", tt.code, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("%s: %v", tt.code, errs)
			continue
		}
		if got := printer.BlockString(mod.State("a").OnEntry[0]); got != tt.want {
			t.Errorf("%s: entry\n%s\nwant\n%s", tt.code, got, tt.want)
		}
		if len(mod.Warnings) != 1 || !strings.Contains(mod.Warnings[0].Error(), "throws a TypeError on reading into it: setbot raises error.execution here") {
			t.Errorf("%s: warnings %v", tt.code, mod.Warnings)
		}
	}
}
