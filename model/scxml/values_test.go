package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestUndefinedData: a <data> without a value is undefined; its type is
// the kind the code assigns to it, carried as a value and a tag variable
// after lowering, and every guard reads the pair.
func TestUndefinedData(t *testing.T) {
	doc := head + `<datamodel><data id="x"/><data id="n"/><data id="s" expr="'a'"/><data id="k" expr="s + 'b'"/><data id="id" expr="_sessionid"/></datamodel>
<state id="a"><transition event="go" cond="x === undefined" target="b"><assign location="x" expr="3"/></transition>
<transition event="stop" cond="n == null &amp;&amp; typeof x == 'number'" target="b"/></state>
<state id="b"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var vars []string
	for _, v := range m.Vars {
		vars = append(vars, v.Name+": "+v.Type.String()+" = "+printer.ExprString(v.Init))
	}
	want := []string{
		"x: int = 0", "_absent_x: int[0..2] = 1", // undefined until assigned an int
		"n: int = 0", "_absent_n: int[0..2] = 1", // never assigned: undefined alone
		"s: string = 'a'",
		"k: string = 'ab'", // folded: s is a constant
		"id: string = ''",  // computed when the machine starts
	}
	if strings.Join(vars, "\n") != strings.Join(want, "\n") {
		t.Errorf("variables:\n%s\nwant:\n%s", strings.Join(vars, "\n"), strings.Join(want, "\n"))
	}
	start := printer.BlockString(m.Root.Initial.Body)
	if want := "id = 'setbot-session';"; start != want {
		t.Errorf("start code %q, want %q", start, want)
	}
	a := m.State("a")
	for i, want := range []string{
		"_absent_x == 1 && !(_absent_x == 0)",
		"!(_absent_n == 0) && (!(_absent_x == 1) && !(_absent_x == 2))", // n == null: n has no value; typeof x is 'number' when x has one
	} {
		if got := printer.ExprString(a.Transitions[i].Cond); got != want {
			t.Errorf("guard %d: %s, want %s", i, got, want)
		}
	}
	if got, want := printer.BlockString(a.Transitions[0].Body), "x = 3; _absent_x = 0;"; got != want {
		t.Errorf("action %q, want %q", got, want)
	}
}

// TestEventName: _event.name is the name of the event whose macrostep the
// flattener folds, also in the eventless transitions that follow it.
func TestEventName(t *testing.T) {
	got := flattenText(t, head+`<state id="a"><transition event="go stop" target="b"/></state>
<state id="b"><transition cond="_event.name == 'go'" target="c"/><transition target="d"/></state>
<state id="c"/><state id="d"/></scxml>`)
	for _, want := range []string{"a go [a:go stop>b ; b:>c] c", "a stop [a:go stop>b ; b:>d] d"} {
		if !strings.Contains(got, want) {
			t.Errorf("no transition %q in\n%s", want, got)
		}
	}
	_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(head+`<state id="a"><transition cond="_event.name == 'go'" target="b"/></state><state id="b"/></scxml>`), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
}

// TestGrowingArrays: an array without a setbot:type that the code makes
// longer gets room for ast.GrowArrayLen elements (an empty one the type
// of the elements it is given); one with a setbot:type keeps its bound.
// An assignment that may make an array longer than its bound is lowered
// with a check of the array bound before it.
func TestGrowingArrays(t *testing.T) {
	tests := []struct {
		name, data, code string
		vars             string // the array's length and last element, or the error
		first            string // the first statement of the code, lowered
	}{
		{"concat", `<data id="xs" expr="[1, 2]"/>`, `<assign location="xs" expr="xs.concat([3])"/>`,
			"xs.length: int[2..16] xs[15]: int", "bound array 16 (xs.length + 1 <= 16);"},
		{"a longer literal", `<data id="xs" expr="[1]"/>`, `<assign location="xs" expr="[1, 2, 3]"/>`,
			"xs.length: int[1..16] xs[15]: int", "xs.length = 3;"},
		{"empty at the start", `<data id="xs" expr="[]"/>`, `<assign location="xs" expr="[].concat(xs, 'a')"/>`,
			"xs.length: int[0..16] xs[15]: string", "bound array 16 (xs.length + 1 <= 16);"},
		{"declared", `<data id="xs" expr="[]" setbot:type="int[4]"/>`, `<assign location="xs" expr="xs.concat([1, 2])"/>`,
			"xs.length: int[0..4] xs[3]: int", "bound array 4 (xs.length + 2 <= 4);"},
		{"declared, always too long", `<data id="xs" expr="[]" setbot:type="int[1]"/>`, `<assign location="xs" expr="xs.concat([1, 2])"/>`,
			"m.scxml:2:52: cannot assign xs.concat([1, 2]) to xs: it holds at most 1 elements and the value has at least 2; declare a larger bound, e.g. setbot:type=\"int[2]\"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel>` + tt.data + "</datamodel>\n" + `<state id="a"><onentry>` + tt.code + `</onentry></state></scxml>`
			m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
			if len(errs) > 0 {
				if got := errs[0].Error(); got != tt.vars {
					t.Errorf("error %s, want %s", got, tt.vars)
				}
				return
			}
			var vars []string
			for _, v := range m.Vars {
				vars = append(vars, v.Name+": "+v.Type.String())
			}
			if got := vars[0] + " " + vars[len(vars)-1]; got != tt.vars {
				t.Errorf("variables %s, want %s", got, tt.vars)
			}
			if got := printer.BlockString(&ast.Block{Stmts: m.State("a").OnEntry[0].Stmts[:1]}); got != tt.first {
				t.Errorf("first statement %s, want %s", got, tt.first)
			}
		})
	}
}
