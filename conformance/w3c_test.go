package conformance_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/conformance"
	"github.com/setbot/setbot/engine"
)

var update = flag.Bool("update", false, "rewrite "+baselineFile+" with the W3C tests judged right now")

// w3cDir holds the W3C SCXML IRP tests for the ECMAScript data model, read
// in place, never copied into the repository.
const w3cDir = "../../shared/conformance/w3c-ecma"

// baselineFile lists the mandatory automatic W3C tests judged right when
// it was last written (go test ./conformance -update).
const baselineFile = "testdata/w3c-ecma-right.txt"

// TestW3C judges the mandatory automatic W3C tests and fails when one is
// judged wrong that is not on the known-wrong list, when a test on that
// list is no longer wrong (the list only shrinks), or when a test of the
// baseline is no longer judged right.
func TestW3C(t *testing.T) {
	if _, err := os.Stat(w3cDir); err != nil {
		t.Skipf("the W3C conformance tests are absent (%v)", err)
	}
	// Every test setbot judges takes milliseconds; the budget only keeps a
	// test that explodes from holding up go test ./... (2 workers on CI).
	opts := conformance.Options{Engine: engine.Options{Timeout: 5 * time.Second}, NewSolver: newZ3}
	rep, err := conformance.Run(w3cDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%d ms)", rep.Summary(), rep.Ms)

	known := conformance.KnownWrong()
	for _, r := range rep.Results {
		switch {
		case r.Verdict == conformance.Wrong && r.KnownWrong == "":
			t.Errorf("test %s judged WRONG: %s", r.ID, r.Reason)
		case r.Verdict != conformance.Wrong && known[r.ID] != "":
			t.Errorf("test %s is on the known-wrong list but is now %s (%s): remove it from knownWrong in known.go",
				r.ID, r.Verdict, r.Reason)
		case r.Verdict == conformance.NeedsTime || r.Verdict == conformance.Error:
			t.Logf("test %s %s: %s", r.ID, r.Verdict, r.Reason)
		}
		delete(known, r.ID)
	}
	for id := range known {
		t.Errorf("test %s is on the known-wrong list but not among the mandatory automatic tests: remove it from knownWrong in known.go", id)
	}

	if *update {
		writeBaseline(t, rep)
		return
	}
	right, err := conformance.ReadBaseline(baselineFile)
	if err != nil {
		t.Fatal(err)
	}
	b := rep.CompareBaseline(baselineFile, right)
	for _, l := range b.Lost {
		if l.Verdict == "not_run" {
			t.Errorf("test %s of %s is not among the mandatory automatic tests of the manifest", l.ID, baselineFile)
			continue
		}
		t.Errorf("test %s was judged right and is now %s: %s", l.ID, strings.ToUpper(l.Verdict), l.Reason)
	}
	if b.Now < b.Right {
		t.Errorf("%d tests judged right, fewer than the %d of %s", b.Now, b.Right, baselineFile)
	}
	if len(b.Gained) > 0 {
		t.Logf("newly right: %s; raise the baseline with go test ./conformance -run TestW3C -update",
			strings.Join(b.Gained, ", "))
	}
}

func writeBaseline(t *testing.T, rep *conformance.Report) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# The mandatory automatic W3C SCXML IRP tests (%s) that setbot judges\n", strings.TrimPrefix(w3cDir, "../"))
	b.WriteString("# right: TestW3C fails when one of them is no longer right.\n")
	b.WriteString("# Regenerate with: go test ./conformance -run TestW3C -update\n")
	for _, r := range rep.Results {
		if r.Verdict == conformance.Right {
			b.WriteString(r.ID + "\n")
		}
	}
	if err := os.WriteFile(baselineFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", baselineFile)
}
