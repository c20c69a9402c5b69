package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestSendErrors: a send to a target the SCXML event processor does not
// support becomes raise error.execution and skips the rest of its block
// (SCXML §4.10, §6.2.4); inside an if, the statements after the if move
// into the branches that do not raise it. A send to a #_scxml_ session
// becomes raise error.communication and the block goes on. #_parent and
// #_name stay outputs.
func TestSendErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"outputs and self", `<send event="a" target="#_parent"/><send event="b" target="#_log"/><send event="c"/><send event="d" target="#_internal"/>`,
			`send a() to "#_parent"; send b() to "#_log"; send c(); raise d();`},
		{"top level", `<assign location="x" expr="1"/><send event="e" target="baz"/><assign location="x" expr="2"/><raise event="f"/>`,
			`x = 1; raise platform error.execution();`},
		{"url and bare #_", `<send event="e" target="http://example.com/"/><send event="f" target="#_"/>`,
			`raise platform error.execution();`},
		{"delayed", `<send event="e" target="baz" delay="1s"/><assign location="x" expr="2"/>`,
			`raise platform error.execution();`},
		{"communication", `<send event="e" target="#_scxml_foo"/><assign location="x" expr="2"/>`,
			`raise platform error.communication(); x = 2;`},
		{"if without else", `<if cond="x == 1"><send event="e" target="baz"/><assign location="x" expr="3"/></if><assign location="x" expr="2"/>`,
			`if (x == 1) { raise platform error.execution(); } else { x = 2; }`},
		{"if at the end", `<if cond="x == 1"><send event="e" target="baz"/></if>`,
			`if (x == 1) { raise platform error.execution(); }`},
		{"elseif and else", `<if cond="x == 1"><assign location="x" expr="5"/><elseif cond="x == 2"/><assign location="x" expr="6"/><send event="e" target="baz"/><else/><raise event="g"/></if><assign location="x" expr="2"/><send event="h" target="#_scxml_s"/>`,
			`if (x == 1) { x = 5; x = 2; raise platform error.communication(); } else if (x == 2) { x = 6; raise platform error.execution(); } else { raise g(); x = 2; raise platform error.communication(); }`},
		{"if that cannot fail", `<if cond="x == 1"><send event="e" target="#_scxml_s"/><assign location="x" expr="5"/></if><assign location="x" expr="2"/>`,
			`if (x == 1) { raise platform error.communication(); x = 5; } x = 2;`},
		{"script", `<script>x = 1; if (x == 1) { send e() to "baz" } x = 2</script><assign location="x" expr="3"/>`,
			`x = 1; if (x == 1) { raise platform error.execution(); } else { x = 2; x = 3; }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="e f g h error.*"/></state></scxml>`
			_, got := entryCode(t, doc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestForEachErrors: an element of a <foreach> that raises
// error.execution ends the loop and skips the rest of the block that holds
// the foreach (SCXML §4.6): a flag that the raise sets ends the loop and
// guards what follows it. Nested loops share the flag, since the error
// ends the outer loop too.
func TestForEachErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"failing element", `<foreach array="xs" item="i"><assign location="x" expr="x + i"/><assign location="nope.f" expr="1"/><assign location="x" expr="0"/></foreach><raise event="f"/>`,
			`bool _foreach_failed_1 = false; { int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length && !_foreach_failed_1) { i = _foreach_index_1 == 0 ? xs[0] : xs[1]; _absent_i = 0; x = x + i; raise platform error.execution(); _foreach_failed_1 = true; _foreach_index_1 = _foreach_index_1 + 1; } } if (!_foreach_failed_1) { raise f(); }`},
		{"under if", `<foreach array="xs" item="i" index="k"><if cond="i == 2"><send event="e" target="baz"/></if><assign location="x" expr="k"/></foreach>`,
			`bool _foreach_failed_1 = false; { int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length && !_foreach_failed_1) { i = _foreach_index_1 == 0 ? xs[0] : xs[1]; _absent_i = 0; k = _foreach_index_1; _absent_k = 0; if (i == 2) { raise platform error.execution(); _foreach_failed_1 = true; } else { x = k; } _foreach_index_1 = _foreach_index_1 + 1; } }`},
		{"nested", `<foreach array="xs" item="i"><foreach array="xs" item="j"><send event="e" target="baz"/></foreach><raise event="g"/></foreach><raise event="f"/>`,
			`bool _foreach_failed_1 = false; { int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length && !_foreach_failed_1) { i = _foreach_index_1 == 0 ? xs[0] : xs[1]; _absent_i = 0; { int _foreach_index_2 = 0; while (_foreach_index_2 < xs.length && !_foreach_failed_1) { j = _foreach_index_2 == 0 ? xs[0] : xs[1]; _absent_j = 0; raise platform error.execution(); _foreach_failed_1 = true; _foreach_index_2 = _foreach_index_2 + 1; } } if (!_foreach_failed_1) { raise g(); } _foreach_index_1 = _foreach_index_1 + 1; } } if (!_foreach_failed_1) { raise f(); }`},
		{"one after another", `<foreach array="xs" item="i"><assign location="_name" expr="1"/></foreach><foreach array="xs" item="i"><send event="e" target="baz"/></foreach>`,
			`bool _foreach_failed_1 = false; { int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length && !_foreach_failed_1) { i = _foreach_index_1 == 0 ? xs[0] : xs[1]; _absent_i = 0; raise platform error.execution(); _foreach_failed_1 = true; _foreach_index_1 = _foreach_index_1 + 1; } } if (!_foreach_failed_1) { bool _foreach_failed_2 = false; { int _foreach_index_2 = 0; while (_foreach_index_2 < xs.length && !_foreach_failed_2) { i = _foreach_index_2 == 0 ? xs[0] : xs[1]; _absent_i = 0; raise platform error.execution(); _foreach_failed_2 = true; _foreach_index_2 = _foreach_index_2 + 1; } } }`},
		{"body that cannot fail", `<foreach array="xs" item="i"><send event="e" target="#_scxml_s"/></foreach><raise event="f"/>`,
			`{ int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length) { i = _foreach_index_1 == 0 ? xs[0] : xs[1]; _absent_i = 0; raise platform error.communication(); _foreach_index_1 = _foreach_index_1 + 1; } } raise f();`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/><data id="xs" expr="[1, 2]"/></datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="e f g error.*"/></state></scxml>`
			m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := strings.Join(strings.Fields(printer.BlockString(m.State("a").OnEntry[0])), " "); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestSendErrorsRefused: where the lowering cannot skip the rest of the
// block exactly, the reader says so.
func TestSendErrorsRefused(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"loop", `<script>while (x &lt; 3) { x++; send e() to "baz" }</script>`,
			`a send to target "baz" inside a script loop is not supported`},
		{"captured local", `<script>var y = 1; if (x == 1) { send e() to "baz" } else { var y = 2 } x = y</script>`,
			`local y is declared in a branch of an if that may raise error.execution, and used after the if`},
		// Each if copies what follows it into its other branches: 40
		// nested pairs would take 2^40 copies; the budget stops it at once.
		{"too many conditional failures", strings.Repeat(`<if cond="x == 1"><if cond="x == 2"><send event="o" target="bad"/></if></if><assign location="x" expr="x + 1"/>`, 40),
			`m.scxml:1:193: the sends to unsupported targets in this block raise error.execution under so many conditions that skipping the rest of the block takes more than 10000 statements to write`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="e error.*"/></state></scxml>`
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
			if len(errs) == 0 || !strings.Contains(errs.Error(), tt.want) {
				t.Errorf("errors %v, want one with %q", errs, tt.want)
			}
		})
	}
}
