package conformance_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/conformance"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

// irp is a small manifest over hand-written tests, one per way a test can
// be judged; the manifest says which.
const irp = "testdata/irp"

// fixtureKnownWrong is the known-wrong list the tests of irp run with:
// its test159 is wrong on purpose.
var fixtureKnownWrong = map[string]string{"159": "a fixture known to be wrong"}

// run judges the tests of dir untimed, where every verdict of irp's occurs
// (timedVerdicts checks those that timed semantics changes).
func run(t *testing.T, dir string, all bool) *conformance.Report {
	t.Helper()
	return runWith(t, dir, all, vocab.TimeUntimed)
}

func runWith(t *testing.T, dir string, all bool, tm vocab.Time) *conformance.Report {
	t.Helper()
	if dir == irp {
		conformance.SetKnownWrong(t, fixtureKnownWrong)
	}
	rep, err := conformance.Run(dir, conformance.Options{All: all, NewSolver: newZ3, Engine: engine.Options{Time: tm}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// position matches a file:line:col, which no reason keeps.
var position = regexp.MustCompile(`\.scxml:\d+`)

// TestTimedVerdicts checks the tests whose timers decide: under timed
// semantics the timers fire in deadline order, so test 6's fail (entered
// only when its second timer fires before its first) is never entered,
// and test 7's ticks end in done within the bounds.
func TestTimedVerdicts(t *testing.T) {
	rep := runWith(t, irp, true, vocab.TimeTimed)
	for _, r := range rep.Results {
		switch r.ID {
		case "6", "7":
			if r.Verdict != conformance.Right || !strings.Contains(r.Reason, "fail never entered") {
				t.Errorf("test %s: %s %q, want RIGHT with fail never entered", r.ID, r.Verdict, r.Reason)
			}
		}
	}
	if c := rep.Counts(); c.NeedsTime != 0 {
		t.Errorf("%d tests need timed semantics under timed semantics", c.NeedsTime)
	}
}

func TestVerdicts(t *testing.T) {
	rep := run(t, irp, true)
	want := []struct {
		id      string
		verdict conformance.Verdict
		reason  string // a part of the reason
	}{
		{"1", conformance.Right, "pass entered at the start; fail never entered"},
		{"2", conformance.Wrong, "fail entered at the start"},
		{"3", conformance.Wrong, "pass never entered, and no bound cut the tree"},
		{"4", conformance.Refused, "expected expression"},
		{"5", conformance.Refused, "the machine does not finish starting within the bounds"},
		{"6", conformance.NeedsTime, "fail entered after second (timer); the test uses delayed sends"},
		{"7", conformance.Right, "pass entered after done (timer); fail not entered within the bounds (depth 10 cut 1 paths)"},
		{"8", conformance.Error, "no verdict: neither pass nor fail entered within the bounds"},
		{"9", conformance.Missing, "no test9.scxml in the directory (start 9/test9.txml)"},
		{"10", conformance.Wrong, "test1.scxml: RIGHT, pass entered at the start; fail never entered; test2.scxml: WRONG, fail entered"},
		{"11", conformance.Right, "pass entered"},
		{"12", conformance.Error, `no state "pass"`},
		{"159", conformance.Wrong, "fail entered at the start"},
	}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(rep.Results), len(want))
	}
	for i, w := range want {
		r := rep.Results[i]
		if r.ID != w.id || r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason) {
			t.Errorf("result %d: test %s %s %q; want test %s %s with %q", i, r.ID, r.Verdict, r.Reason, w.id, w.verdict, w.reason)
		}
		if position.MatchString(r.Reason) {
			t.Errorf("test %s: the reason %q keeps a position", r.ID, r.Reason)
		}
		if r.Qualified != (r.ID == "7") {
			t.Errorf("test %s: qualified %v", r.ID, r.Qualified)
		}
		if known := r.KnownWrong != ""; known != (r.ID == "159") {
			t.Errorf("test %s: known wrong %q", r.ID, r.KnownWrong)
		}
	}
	c := rep.Counts()
	wantCounts := conformance.Counts{Tests: 13, Right: 3, RightWithinBounds: 1, Wrong: 4, KnownWrong: 1,
		NeedsTime: 1, Refused: 2, Errors: 2, Missing: 1}
	if c != wantCounts {
		t.Errorf("counts %+v, want %+v", c, wantCounts)
	}
	const summary = "13 tests (all of the manifest): 3 judged right (1 within bounds only), 4 judged wrong (1 known), " +
		"1 need timed semantics, 2 refused, 2 errors, 1 missing"
	if got := rep.Summary(); got != summary {
		t.Errorf("summary %q\nwant    %q", got, summary)
	}
}

// TestSelection: by default only the mandatory automatic tests run.
func TestSelection(t *testing.T) {
	rep := run(t, irp, false)
	var ids []string
	for _, r := range rep.Results {
		ids = append(ids, r.ID)
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "159"}; !slices.Equal(ids, want) {
		t.Errorf("tests %v, want %v", ids, want)
	}
	if s := rep.Summary(); !strings.HasPrefix(s, "11 mandatory automatic tests: 2 judged right") {
		t.Errorf("summary %q", s)
	}
}

func TestRefusalsGrouped(t *testing.T) {
	dir := t.TempDir()
	manifest := `<assertions>`
	for i, doc := range []string{
		`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="pass" datamodel="xpath"><final id="pass"/></scxml>`,
		`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="pass" datamodel="python"><final id="pass"/></scxml>`,
		`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="pass"><foo/><final id="pass"/></scxml>`,
	} {
		id := string(rune('1' + i))
		manifest += `<test id="` + id + `" conformance="mandatory" manual="false"><start uri="` + id + `/test` + id + `.txml"/></test>`
		if err := os.WriteFile(filepath.Join(dir, "test"+id+".scxml"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.xml"), []byte(manifest+`</assertions>`), 0o644); err != nil {
		t.Fatal(err)
	}
	got := run(t, dir, false).Refusals()
	if len(got) != 2 || got[0].Count != 2 || !slices.Equal(got[0].Tests, []string{"1", "2"}) ||
		!strings.Contains(got[0].Reason, `"…"`) || got[1].Count != 1 {
		t.Errorf("refusals %+v: want the two data models as one reason, first", got)
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := run(t, irp, false).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"test  verdict     reason\n",
		"6     NEEDS_TIME  fail entered after second (timer)",
		"159   WRONG       fail entered at the start [known wrong: a fixture known to be wrong",
		"\n11 mandatory automatic tests: 2 judged right (1 within bounds only), 4 judged wrong (1 known), 1 need timed semantics, 2 refused, 1 errors, 1 missing\n",
		"known wrong (still wrong, listed in conformance.KnownWrong): 159\n",
		"refusal reasons:\n    1  expected expression, found end of input (4)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	rep := run(t, irp, false)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Summary  string
		Counts   conformance.Counts
		Refusals []conformance.Refusal
		Tests    []struct {
			ID          string
			Conformance string
			Verdict     string
			Reason      string
			KnownWrong  string `json:"known_wrong"`
			Files       []conformance.FileResult
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Summary != rep.Summary() || got.Counts != rep.Counts() || len(got.Refusals) != 2 || len(got.Tests) != 11 {
		t.Fatalf("json %+v", got)
	}
	six := got.Tests[5]
	if six.ID != "6" || six.Verdict != "needs_time" || six.Conformance != "mandatory" || len(six.Files) != 1 ||
		six.Files[0].File != "test6.scxml" || six.Files[0].Verdict != conformance.NeedsTime {
		t.Errorf("test 6 in json: %+v", six)
	}
	if last := got.Tests[10]; last.ID != "159" || last.KnownWrong == "" || last.Verdict != "wrong" {
		t.Errorf("test 159 in json: %+v", last)
	}
}

func TestBaseline(t *testing.T) {
	rep := run(t, irp, false)
	dir := t.TempDir()
	lines := filepath.Join(dir, "right.txt")
	if err := os.WriteFile(lines, []byte("# right then\n1\n7  # within bounds\n\n4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := conformance.ReadBaseline(lines)
	if err != nil || !slices.Equal(ids, []string{"1", "7", "4"}) {
		t.Fatalf("ReadBaseline: %v, %v", ids, err)
	}
	b := rep.CompareBaseline(lines, ids)
	if !b.Regressed() || b.Right != 3 || b.Now != 2 || len(b.Lost) != 1 || b.Lost[0].ID != "4" ||
		b.Lost[0].Verdict != "refused" || len(b.Gained) != 0 {
		t.Errorf("comparison %+v", b)
	}
	if b := rep.CompareBaseline(lines, []string{"1", "11"}); !b.Regressed() || b.Lost[0].Verdict != "not_run" || !slices.Equal(b.Gained, []string{"7"}) {
		t.Errorf("an id the run left out: %+v", b)
	}
	if b := rep.CompareBaseline(lines, []string{"7"}); b.Regressed() {
		t.Errorf("more right than the baseline regressed: %+v", b)
	}

	// The JSON report is a baseline too.
	report := filepath.Join(dir, "report.json")
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(report, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if ids, err := conformance.ReadBaseline(report); err != nil || !slices.Equal(ids, []string{"1", "7"}) {
		t.Errorf("ReadBaseline(json): %v, %v", ids, err)
	}

	for _, tt := range []struct{ text, err string }{
		{"1\n1\n", "right.txt:2: test 1 listed twice"},
		{"1 2\n", `right.txt:1: want one test id per line, found "1 2"`},
		{"{nope", "right.txt: not a conformance JSON report"},
	} {
		if err := os.WriteFile(lines, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := conformance.ReadBaseline(lines); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.err)
		}
	}
	if _, err := conformance.ReadBaseline(filepath.Join(dir, "none")); err == nil {
		t.Error("a missing baseline read without error")
	}
}

func TestBadDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "manifest.xml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conformance.Run(dir, conformance.Options{NewSolver: newZ3}); err == nil ||
		!strings.Contains(err.Error(), filepath.Join(dir, "manifest.xml")) {
		t.Errorf("no manifest: %v", err)
	}
	if _, err := conformance.Run(filepath.Join(dir, "none"), conformance.Options{NewSolver: newZ3}); err == nil ||
		!strings.Contains(err.Error(), filepath.Join(dir, "none")) {
		t.Errorf("no directory: %v", err)
	}
	for _, tt := range []struct{ manifest, err string }{
		{`<assertions><test`, "manifest.xml: malformed XML"},
		{`<assertions></assertions>`, "manifest.xml: no <test> elements"},
		{"<assertions>\n<test conformance=\"mandatory\" manual=\"false\"><start uri=\"a\"/></test></assertions>", "manifest.xml:2: <test> without an id"},
		{`<assertions><test id="1" conformance="maybe" manual="false"><start uri="a"/></test></assertions>`, `test 1: conformance="maybe"`},
		{`<assertions><test id="1" conformance="optional" manual="yes"><start uri="a"/></test></assertions>`, `test 1: manual="yes"`},
		{`<assertions><test id="1" conformance="optional" manual="true"></test></assertions>`, "test 1: no <start>"},
		{`<assertions><test id="1" conformance="optional" manual="true"><start/></test></assertions>`, "test 1: <start> without a uri"},
		{`<assertions><test id="1" conformance="optional" manual="true"><start uri="a"/></test>` +
			`<test id="1" conformance="optional" manual="true"><start uri="a"/></test></assertions>`, `a second test with id "1"`},
	} {
		write(tt.manifest)
		_, err := conformance.Run(dir, conformance.Options{NewSolver: newZ3})
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want %q", tt.manifest, err, tt.err)
		}
	}
}

func TestFile(t *testing.T) {
	for in, want := range map[string]string{
		"355/test355.txml":  "test355.scxml",
		"403/test403a.txml": "test403a.scxml",
		"513/test513.txt":   "test513.scxml",
	} {
		if got := conformance.File(in); got != want {
			t.Errorf("File(%q) = %q, want %q", in, got, want)
		}
	}
}
