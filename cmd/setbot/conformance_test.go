package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// irpDir holds hand-written tests in the W3C IRP layout, one per verdict.
const irpDir = "../../conformance/testdata/irp"

// TestConformanceText runs untimed, where test 6 needs timed semantics
// (timed, TestConformanceAllJSON, it is right).
func TestConformanceText(t *testing.T) {
	code, out, errs := runCLI(t, "conformance", irpDir, "--time", "untimed")
	if code != 1 {
		t.Errorf("exit %d, want 1 (tests judged wrong): %s", code, errs)
	}
	for _, want := range []string{
		"1     RIGHT       pass entered at the start; fail never entered\n",
		"2     WRONG       fail entered at the start\n",
		"6     NEEDS_TIME  ",
		"11 mandatory automatic tests: 2 judged right (1 within bounds only), 4 judged wrong, 1 need timed semantics, 2 refused, 1 errors, 1 missing\n",
		"refusal reasons:\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestConformanceAllJSON(t *testing.T) {
	code, out, _ := runCLI(t, "conformance", irpDir, "--all", "--format", "json")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var rep struct {
		All    bool
		Counts struct{ Tests, Right, Wrong int }
		Tests  []struct{ ID, Verdict string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !rep.All || rep.Counts.Tests != 13 || rep.Counts.Right != 4 || rep.Counts.Wrong != 4 || len(rep.Tests) != 13 {
		t.Errorf("json %+v", rep)
	}
}

// rightOnly makes a test directory whose one test is judged right.
func rightOnly(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	doc, err := os.ReadFile(filepath.Join(irpDir, "test1.scxml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := `<assertions><test id="1" conformance="mandatory" manual="false"><start uri="1/test1.txml"/></test></assertions>`
	for name, data := range map[string][]byte{"test1.scxml": doc, "manifest.xml": []byte(manifest)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestConformanceBaseline(t *testing.T) {
	dir := rightOnly(t)
	if code, out, errs := runCLI(t, "conformance", dir); code != 0 {
		t.Fatalf("exit %d, want 0:\n%s%s", code, out, errs)
	}
	base := filepath.Join(t.TempDir(), "right.txt")
	if err := os.WriteFile(base, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, "conformance", dir, "--baseline", base); code != 0 ||
		!strings.Contains(out, "baseline "+base+": 1 right then, 1 now\n") {
		t.Errorf("exit %d, want 0:\n%s", code, out)
	}
	// Test 2 was right in the baseline and is not run now; test 1 is right.
	if err := os.WriteFile(base, []byte("1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "conformance", dir, "--baseline", base)
	if code != 1 || !strings.Contains(out, "1 now (REGRESSED)") || !strings.Contains(out, "no longer right: 2 (not run") {
		t.Errorf("exit %d, want 1:\n%s", code, out)
	}

	// The JSON output of a run is a baseline too.
	_, js, _ := runCLI(t, "conformance", dir, "--format", "json")
	if err := os.WriteFile(base, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	code, js, _ = runCLI(t, "conformance", dir, "--format", "json", "--baseline", base)
	var rep struct {
		Baseline struct{ Right, Now int }
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != 0 || rep.Baseline.Right != 1 || rep.Baseline.Now != 1 {
		t.Errorf("exit %d, baseline %+v, %v", code, rep.Baseline, err)
	}
}

func TestConformanceUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "none")}, filepath.Join(dir, "none")},
		{[]string{dir}, filepath.Join(dir, "manifest.xml")},
		{[]string{irpDir, "--baseline", filepath.Join(dir, "none.txt")}, filepath.Join(dir, "none.txt")},
		{[]string{irpDir, "--format", "xml"}, `unknown --format "xml"`},
	} {
		code, out, errs := runCLI(t, append([]string{"conformance"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, errs, tt.want)
		}
	}
}

func TestConformanceHelp(t *testing.T) {
	code, out, _ := runCLI(t, "conformance", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"manifest.xml", "mandatory automatic", "pass entered by some execution, fail entered by none",
		"RIGHT", "WRONG", "NEEDS_TIME", "REFUSED", "ERROR", "MISSING", "known wrong",
		"Exit code 0; 1 when a test is judged wrong", "2 when DIR",
		"--all", "--baseline", "--timeout",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
