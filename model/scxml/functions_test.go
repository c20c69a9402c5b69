package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/lang/simplify"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// blackBox is a model that declares the black-box function rise with the
// table t.csv and calls it in a guard.
func blackBox(decl, call string) string {
	return `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="a">
<setbot:event name="e"><setbot:param name="v" type="int"/></setbot:event>
` + decl + `
<state id="a"><transition event="e" cond="` + call + `" target="b"/></state><state id="b"/></scxml>`
}

func readWith(t *testing.T, doc string, files map[string]string) (string, source.ErrorList) {
	t.Helper()
	read := func(rel string) ([]byte, error) {
		if s, ok := files[rel]; ok {
			return []byte(s), nil
		}
		return nil, &notFound{rel}
	}
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{ReadFile: read})
	if len(errs) > 0 {
		return "", errs
	}
	f := m.Function("rise")
	var rows []string
	for _, r := range f.Rows {
		var vs []string
		for _, e := range append(append([]ast.Expr(nil), r.In...), r.Out) {
			vs = append(vs, printer.ExprString(e))
		}
		rows = append(rows, strings.Join(vs, ","))
	}
	return strings.Join(rows, " "), nil
}

type notFound struct{ name string }

func (e *notFound) Error() string { return e.name + ": no such file" }

func TestBlackBoxTables(t *testing.T) {
	decl := `<setbot:function name="rise" params="int,int" returns="decimal" table="t.csv" command="bin/rise"/>`
	rows, errs := readWith(t, blackBox(decl, "rise(_event.data.v, 1) &gt; 1"), map[string]string{"t.csv": "# a, b, rise\n1,2,0.5\n3, 4 ,2.42\n"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if rows != "1,2,0.5 3,4,2.42" {
		t.Errorf("rows %q", rows)
	}
	tests := []struct {
		name, decl, call, table, want string
	}{
		{"malformed value", decl, "rise(1, 2) &gt; 1", "1,2,0.5\n3,x,1\n",
			`t.csv:2:3: value "x" in the table of rise: want an integer`},
		{"short row", decl, "rise(1, 2) &gt; 1", "1,2,0.5\n3,1\n",
			"t.csv:2:1: row of 2 values in the table of rise: a row holds its 2 arguments, then its result"},
		{"repeated inputs", decl, "rise(1, 2) &gt; 1", "1,2,0.5\n1,2,0.7\n",
			"t.csv:2:1: row repeats the inputs of the row at t.csv:1:1 in the table of rise: a function has one result per input"},
		{"wrong arity", decl, "rise(1) &gt; 1", "1,2,0.5\n",
			"m.scxml:4:43: call of rise with 1 arguments: its setbot:function declares 2 parameters"},
		{"unknown function", decl, "fall(1) &gt; rise(1, 2)", "1,2,0.5\n",
			"m.scxml:4:43: call of fall, a function the model does not define (its host's)"},
		{"wrong argument type", decl, "rise('a', 1) &gt; 1", "1,2,0.5\n",
			"m.scxml:4:48: argument 1 of rise is a string: its setbot:function declares int"},
		{"command outside the repository", `<setbot:function name="rise" params="int,int" returns="int" command="../x"/>`, "rise(1, 2) &gt; 1", "",
			`m.scxml:3:70: command "../x": name an executable inside the repository by a relative path, e.g. command="./bin/rise"`},
		{"bad type", `<setbot:function name="rise" params="int[3]" returns="int"/>`, "rise(1) &gt; 1", "",
			`m.scxml:3:38: type "int[3]" of a black-box function: a black-box function takes and returns ints, decimals, bools and strings`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := readWith(t, blackBox(tc.decl, tc.call), map[string]string{"t.csv": tc.table})
			if len(errs) == 0 {
				t.Fatal("accepted")
			}
			if got := errs[0].Error(); !strings.HasPrefix(got, tc.want) {
				t.Errorf("got  %s\nwant %s", errs.Error(), tc.want)
			}
		})
	}
}

// TestFunctionsInData: a <data> initial value may call script functions
// and built-ins, which are inlined there too; a black box it may not call
// (an initial value is computed before any input).
func TestFunctionsInData(t *testing.T) {
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="a">
<setbot:function name="rise" params="int" returns="int"/>
<script>function sq(n) { return n * n; }</script>
<datamodel><data id="x" expr="Math.max(sq(3), 4)"/></datamodel>
<state id="a"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := printer.ExprString(simplify.Expr(m.Var("x").Init)); got != "9" {
		t.Errorf("x's initial value folds to %s, want 9", got)
	}
	bad := strings.Replace(doc, "Math.max(sq(3), 4)", "rise(1)", 1)
	if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(bad), scxml.Options{}); len(errs) == 0 || !strings.Contains(errs[0].Error(), "call of rise, a function the model does not define") {
		t.Errorf("a black box in a <data>: %v", errs)
	}
}
