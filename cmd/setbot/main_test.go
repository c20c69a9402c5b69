package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/buildinfo"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExamples(t *testing.T) {
	examples, _ := filepath.Glob("../../examples/*.scxml")
	if len(examples) < 3 {
		t.Fatalf("want at least 3 examples, found %v", examples)
	}
	code, out, errs := runCLI(t, append([]string{"check"}, examples...)...)
	if code != 0 || out != "" || errs != "" {
		t.Errorf("check examples: exit %d\n%s%s", code, out, errs)
	}
}

func TestCheckBrokenModel(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.scxml")
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
  <state id="a">
    <transition event="go" cond="false || x &gt; 1" target="b"/>
  </state>
</scxml>`
	if err := os.WriteFile(bad, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "check", "../../examples/triangle.scxml", bad)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := bad + ":3:43: undeclared name x\n" + bad + ":3:61: unknown target state \"b\"\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

// TestCheckStartsTheMachine checks that check refuses, at the loop, a
// model that parses but cannot complete its initial macrostep.
func TestCheckStartsTheMachine(t *testing.T) {
	dir := "../../engine/testdata/start/"
	for _, tt := range []struct{ file, want string }{
		{"eventless_loop.scxml", dir + "eventless_loop.scxml:3:5: eventless transitions do not settle within 32 steps"},
		{"raise_loop.scxml", dir + "raise_loop.scxml:6:5: the machine does not finish starting within the bounds: run-to-completion processes more than 100 queued events"},
		{"while_true.scxml", dir + "while_true.scxml:5:15: the machine does not finish starting within the bounds: a loop runs more than 10 iterations"},
		{"failing_cond_loop.scxml", dir + "failing_cond_loop.scxml:2:1: the machine does not finish starting within the bounds: run-to-completion processes more than 100 queued events"},
	} {
		code, out, _ := runCLI(t, "check", dir+tt.file)
		if code != 1 || !strings.Contains(out, "\n"+tt.want) && !strings.HasPrefix(out, tt.want) {
			t.Errorf("%s: exit %d, output %q; want 1 and %q", tt.file, code, out, tt.want)
		}
		// explore and tests say the same, at the same place.
		for _, command := range []string{"explore", "tests"} {
			code, _, errs := runCLI(t, command, dir+tt.file)
			if code != 1 || !strings.Contains(errs, "\n"+tt.want) && !strings.HasPrefix(errs, tt.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want 1 and %q", command, tt.file, code, errs, tt.want)
			}
		}
	}
}

func TestCheckMissingFile(t *testing.T) {
	code, out, _ := runCLI(t, "check", "no/such/file.scxml")
	if code != 1 || !strings.HasPrefix(out, "no/such/file.scxml: ") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestMLMJSON(t *testing.T) {
	code, out, errs := runCLI(t, "mlm", "../../examples/triangle.scxml", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m struct {
		States []struct {
			Name string `json:"name"`
		} `json:"states"`
		Transitions []struct {
			Key, Source, Target, Event, Guard, Action string
			Entered                                   []string
		} `json:"transitions"`
		Initial []struct {
			Entered []string
		} `json:"initial"`
		Hash string `json:"hash"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.States) != 5 || len(m.Transitions) != 10 || len(m.Hash) != 64 {
		t.Errorf("%d states, %d transitions, hash %q; want 5, 10 and a SHA-256", len(m.States), len(m.Transitions), m.Hash)
	}
	for _, tr := range m.Transitions {
		if tr.Key == "" || tr.Source == "" || tr.Target == "" || tr.Event == "" || tr.Guard == "" {
			t.Errorf("incomplete transition %+v", tr)
		}
		// Entering S1 enters the compound state and its initial child.
		if tr.Event == "setTriangleSides" && strings.Join(tr.Entered, " ") != "S1 S1_S0" {
			t.Errorf("%s enters %v, want [S1 S1_S0]", tr.Key, tr.Entered)
		}
	}
	if len(m.Initial) != 1 || strings.Join(m.Initial[0].Entered, " ") != "S0" {
		t.Errorf("initial %+v, want one that enters S0", m.Initial)
	}
}

func TestMLMFormats(t *testing.T) {
	for format, want := range map[string]string{
		"text":    "machine checkTriangleType: 5 states, 10 transitions\nhash: ",
		"dot":     "digraph \"checkTriangleType\" {",
		"mermaid": "stateDiagram-v2\n",
	} {
		code, out, errs := runCLI(t, "mlm", "--format", format, "../../examples/triangle.scxml")
		if code != 0 || !strings.HasPrefix(out, want) {
			t.Errorf("--format %s: exit %d, output starts %q\n%s", format, code, out[:min(len(out), 80)], errs)
		}
	}
	code, _, errs := runCLI(t, "mlm", "--format", "yaml", "../../examples/triangle.scxml")
	if code != 2 || !strings.Contains(errs, `unknown --format "yaml"`) {
		t.Errorf("bad format: exit %d, %q", code, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"check"}, {"mlm"}, {"bogus"}, {"mlm", "--nope", "x"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	code, out, _ := runCLI(t, "mlm", "--help")
	if code != 0 || !strings.Contains(out, "--format") || !strings.Contains(out, "--max-mlm-states") {
		t.Errorf("mlm --help: exit %d\n%s", code, out)
	}
}

// TestCheckLoopBound checks that a start whose loop ends after more than
// the default bound is refused at the loop, and accepted with a larger
// --loop-bound.
func TestCheckLoopBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "loop20.scxml")
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="A">
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="A">
    <onentry><script>for (var i = 0; i &lt; 20; i++) { x = x + 1 }</script></onentry>
    <transition cond="x == 20" target="B"/>
  </state>
  <state id="B"/>
</scxml>`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	want := path + ":4:22: the machine does not finish starting within the bounds: a loop runs more than 10 iterations"
	if code, out, _ := runCLI(t, "check", path); code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("default bound: exit %d, output %q; want 1 and %q", code, out, want)
	}
	if code, out, _ := runCLI(t, "check", "--loop-bound", "30", path); code != 0 || out != "" {
		t.Errorf("--loop-bound 30: exit %d, output %q; want 0 and nothing", code, out)
	}
}

// TestFlagRanges checks that bad flag values are refused with exit 2 and
// the allowed range before any work: the model path does not exist, so an
// error about it would mean the command had started.
func TestFlagRanges(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.scxml")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"explore", missing, "--depth", "0"}, "--depth 0 is out of range: it must be at least 1"},
		{[]string{"explore", missing, "--depth", "-1"}, "--depth -1 is out of range: it must be at least 1"},
		{[]string{"tests", missing, "--max-states", "0"}, "--max-states 0 is out of range: it must be at least 1"},
		{[]string{"explore", missing, "--loop-bound", "-3"}, "--loop-bound -3 is out of range: it must be at least 1"},
		{[]string{"check", missing, "--loop-bound", "0"}, "--loop-bound 0 is out of range"},
		{[]string{"explore", missing, "--timeout", "-5s"}, "--timeout -5s is out of range: it must be at least 0s"},
		{[]string{"mlm", missing, "--max-mlm-states", "-1"}, "--max-mlm-states -1 is out of range: it must be at least 1"},
		{[]string{"tests", missing, "--coverage", "bogus"}, `unknown --coverage "bogus" (want path, transition, state)`},
		{[]string{"diff", missing, missing, "--depth", "0"}, "--depth 0 is out of range"},
		{[]string{"simulate", missing, "--max-microsteps", "0"}, "--max-microsteps 0 is out of range"},
		{[]string{"runs", "--limit", "-1"}, "--limit -1 is out of range: it must be at least 0"},
		{[]string{"explore", missing, "--jobs", "-2"}, "--jobs -2 is out of range: it must be at least 0"},
		{[]string{"analyze", "--base", "HEAD~1", "--jobs", "-1"}, "--jobs -1 is out of range: it must be at least 0"},
	}
	for _, tc := range cases {
		code, out, errs := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Contains(errs, "missing.scxml") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// TestVersion checks that --version and the version command print the
// build's version, the same line.
func TestVersion(t *testing.T) {
	code, flag, errs := runCLI(t, "--version")
	if code != 0 || errs != "" {
		t.Fatalf("--version: exit %d: %s", code, errs)
	}
	want := "setbot " + buildinfo.Read().String() + "\n"
	if flag != want {
		t.Errorf("--version printed %q, want %q", flag, want)
	}
	code, cmd, errs := runCLI(t, "version")
	if code != 0 || cmd != flag {
		t.Errorf("version: exit %d, %q (%s), want %q", code, cmd, errs, flag)
	}
}
