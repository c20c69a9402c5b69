package sim_test

import (
	"testing"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// TestStringsAndBits evaluates the string operations and ECMAScript's
// 32-bit bit operators, with the results a JavaScript engine gives.
func TestStringsAndBits(t *testing.T) {
	tests := []struct{ src, want string }{
		{"'ab' + \"cd\"", "'abcd'"},
		{"'abc'.length", "3"},
		{"''.length", "0"},
		{"'aXbXc'.indexOf('X')", "1"},
		{"'abc'.indexOf('z')", "-1"},
		{"'abc'.indexOf('')", "0"},
		{"'aXbXc'.lastIndexOf('X')", "3"},
		{"'abc'.lastIndexOf('z')", "-1"},
		{"'abc'.lastIndexOf('')", "3"},
		{"'aXbXc'.lastIndexOf('X', 2) + 'abc'.lastIndexOf('a', -1)", "1"},
		{"_event.name.substring(_event.name.lastIndexOf('.') + 1)", "'now'"},
		{"'abc'.startsWith('ab') && 'abc'.endsWith('bc') && 'abc'.includes('b')", "true"},
		{"'abc'.substring(1)", "'bc'"},
		{"'abcdef'.substring(4, 1)", "'bcd'"},
		{"'abc'.substring(-5, 99)", "'abc'"},
		{"'abc'.charAt(1)", "'b'"},
		{"'abc'.charAt(3)", "''"},
		{"'äbc'.length + 'äbc'.indexOf('c')", "5"},
		{"'a' < 'b' && 'ab' > 'a' && 'b' >= 'b' && !('b' <= 'a')", "true"},
		{"'x' == 'x' && 'x' != 'y'", "true"},
		{"s + s", "'hihi'"},
		{"_event.name", "'go.now'"},
		{"5 & 3", "1"},
		{"5 | 3", "7"},
		{"5 ^ 3", "6"},
		{"~5", "-6"},
		{"~-1", "0"},
		{"1 << 31", "-2147483648"},
		{"1 << 32", "1"},
		{"1 << -1", "-2147483648"},
		{"-16 >> 2", "-4"},
		{"-16 >>> 28", "15"},
		{"-1 >>> 0", "4294967295"},
		{"4294967296 | 0", "0"},
		{"2147483648 | 0", "-2147483648"},
		{"-2147483649 | 0", "2147483647"},
		{"5 >> 33", "2"},
		{"4294967301 >>> 0", "5"},
		{"~4294967296", "-1"},
		{"'日本'.charAt(1) + '日本'.substring(-1, 1)", "'本日'"},
	}
	for _, tt := range tests {
		fs := source.NewFileSet()
		f := fs.AddFile("t", []byte(tt.src))
		e, errs := parser.ParseExpr(parser.NewSnippet(f, tt.src))
		if len(errs) > 0 {
			t.Fatalf("ParseExpr(%q): %v", tt.src, errs)
		}
		x := &sim.Executor{Vars: map[string]sim.Value{"s": sim.StringValue("hi")}, Event: &sim.Event{Name: "go.now"}}
		v, err := x.Eval(e)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.src, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("Eval(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}
