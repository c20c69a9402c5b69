package testgen_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// TestBlackBoxWithoutTable: a black box without a table is an
// unconstrained value; a test whose path reads it says which result it
// assumed, since no table can confirm it.
func TestBlackBoxWithoutTable(t *testing.T) {
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="a">
<setbot:event name="e"><setbot:param name="v" type="int[0..9]"/></setbot:event>
<setbot:function name="sense" params="int" returns="int"/>
<datamodel><data id="x" expr="0"/></datamodel>
<state id="a"><transition event="e" cond="sense(_event.data.v) &gt; 3" target="b">
<assign location="x" expr="sense(_event.data.v)"/><send event="out" target="#_o"><param name="p" expr="x"/></send>
</transition></state><state id="b"/></scxml>`
	m, err := flatten("open.scxml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.Explore(m, engine.Options{MaxDepth: 1}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tc := range tests {
		for _, r := range tc.Rows {
			if strings.HasPrefix(r, "sense(") && strings.HasSuffix(r, "(assumed: sense has no table)") {
				found = true
				// The output carries the assumed result, which the guard
				// requires to be over 3.
				out := tc.Steps[0].Outputs[0].Args["p"].(int64)
				if !strings.Contains(r, "= ") || out <= 3 {
					t.Errorf("row %q, output p = %d", r, out)
				}
			}
		}
	}
	if !found {
		t.Errorf("no test says it assumed sense's result: %+v", tests)
	}
}
