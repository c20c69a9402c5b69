package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// surveyReport is the JSON survey prints.
type surveyReport struct {
	DataModels []surveyRow  `json:"datamodels"`
	Total      surveyRow    `json:"total"`
	Files      []surveyFile `json:"files"`
}

// TestSurvey surveys a generated tree: every *.scxml and every *.xml whose
// root is <scxml> is counted under its data model, loaded and explored or
// refused, and refusals are counted by their message without positions.
func TestSurvey(t *testing.T) {
	dir := t.TempDir()
	const ok = `<scxml xmlns="http://www.w3.org/2005/07/scxml"%s><state id="a"><transition event="e" target="b"/></state><state id="b"/></scxml>`
	files := map[string]string{
		"ok.scxml":          strings.Replace(ok, "%s", ` datamodel="ecmascript"`, 1),
		"sub/none.xml":      strings.Replace(ok, "%s", "", 1),
		"sub/null.scxml":    strings.Replace(ok, "%s", ` datamodel="null"`, 1),
		"sub/x1.scxml":      strings.Replace(ok, "%s", ` datamodel="ecmascript"><datamodel><data id="v" expr="w"/></datamodel`, 1),
		"sub/deep/x2.scxml": strings.Replace(ok, "%s", ` datamodel="ecmascript">`+"\n\n"+`<datamodel><data id="v" expr="w"/></datamodel`, 1),
		"jexl.xml":          strings.Replace(ok, "%s", ` datamodel="jexl:x"`, 1),
		"broken.scxml":      "<scxml",
		"pom.xml":           "<project/>",
		"notes.txt":         "<scxml/>",
	}
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCLI(t, "survey", "--format", "json", dir)
	var rep surveyReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("survey: exit %d\n%s%s", code, out, errs)
	}
	if got := rep.Total; got.Files != 7 || got.Loaded != 3 || got.Explored != 3 || got.Refused != 4 {
		t.Errorf("total %+v, want 7 files (pom.xml and notes.txt are none), 3 loaded and explored, 4 refused", got)
	}
	rows := map[string]surveyRow{}
	for _, r := range rep.DataModels {
		rows[r.DataModel] = r
	}
	eco := rows["ecmascript"]
	if eco.Files != 3 || eco.Explored != 1 || eco.Refused != 2 || len(eco.Reasons) != 1 ||
		eco.Reasons[0] != (reasonCount{Reason: "undeclared name w", Files: 2}) {
		t.Errorf("ecmascript row %+v, want 3 files, 1 explored, 2 refused by one reason", eco)
	}
	if rows["(none)"].Files != 2 || rows["null"].Explored != 1 || rows["jexl"].Refused != 1 {
		t.Errorf("rows %+v, want (none) with ok and broken, null explored, jexl (of jexl:x) refused", rep.DataModels)
	}
	for _, f := range rep.Files {
		if !f.Explored && !strings.HasPrefix(f.Error, f.Path+":") {
			t.Errorf("%s: error %q does not name the file", f.Path, f.Error)
		}
	}

	code, out, _ = runCLI(t, "survey", dir)
	header := regexp.MustCompile(`(?m)^data model +files +loaded +explored +refused\n`)
	total := regexp.MustCompile(`(?m)^all +7 +3 +3 +4$`)
	reason := regexp.MustCompile(`(?m)^ecmascript: the most common reasons \(files\)\n +2  undeclared name w$`)
	if code != 0 || !header.MatchString(out) || !total.MatchString(out) || !reason.MatchString(out) {
		t.Errorf("survey text: exit %d\n%s", code, out)
	}
	if code, summary, _ := runCLI(t, "check", "--summary", dir); code != 0 || summary != out {
		t.Errorf("check --summary: exit %d\n%s\nwant survey's\n%s", code, summary, out)
	}
	if code, _, errs := runCLI(t, "survey", filepath.Join(dir, "sub", "deep", "none")); code != exitUsage || errs == "" {
		t.Errorf("survey of a missing directory: exit %d, want 2 and an error", code)
	}
}

// TestSurveyWild surveys the corpus of SCXML from public repositories,
// when it is there: every file it lists is counted, and each answers.
func TestSurveyWild(t *testing.T) {
	const dir = "../../../shared/corpora/wild"
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.md"))
	if err != nil {
		t.Skipf("the corpus is not here: %v", err)
	}
	listed := len(regexp.MustCompile(`(?m)^\| [^ ]+\.(scxml|xml) \|`).FindAll(manifest, -1))
	// What this test catches is a crash or a hang (a file that never
	// answers), not a slow machine: the limit is twice the default, which
	// the busiest file needs only under load (18 s alone, at 30 s).
	code, out, errs := runCLI(t, "survey", "--format", "json", "--timeout", "60s", dir)
	var rep surveyReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("survey: exit %d\n%s", code, errs)
	}
	if rep.Total.Files != listed || rep.Total.Loaded+rep.Total.Refused != listed {
		t.Errorf("survey counted %+v of the %d files the manifest lists", rep.Total, listed)
	}
	for _, f := range rep.Files {
		if strings.HasPrefix(f.Reason, "no answer") || strings.HasPrefix(f.Reason, "setbot failed") {
			t.Errorf("%s: %s", f.Path, f.Reason)
		}
	}
}

// TestSurveyTimeLimit: a model whose tree does not end within --timeout is
// cut there, counted as explored with the time bound hit.
func TestSurveyTimeLimit(t *testing.T) {
	dir := t.TempDir()
	const slow = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a"><datamodel><data id="n" expr="0"/></datamodel>
<state id="a"><transition event="e" cond="n &lt; 1000000"><assign location="n" expr="n + 1"/></transition>
<transition event="f" cond="n &gt; 999999" target="b"/></state><state id="b"/></scxml>`
	if err := os.WriteFile(filepath.Join(dir, "slow.scxml"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "survey", "--format", "json", "--timeout", "300ms", "--depth", "100000", dir)
	var rep surveyReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Files) != 1 {
		t.Fatalf("survey: exit %d\n%s%s", code, out, errs)
	}
	if f := rep.Files[0]; !f.Explored || strings.Join(f.Bounds, " ") != "time" {
		t.Errorf("got %+v, want explored with the time bound hit", f)
	}
}
