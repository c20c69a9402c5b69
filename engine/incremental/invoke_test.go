package incremental_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
)

// TestInvokedChildChanges: on a parent and the counter it invokes, MSE's
// tree and tests are full SE's whether the change is the child's or the
// parent's, and a change of the child alone updates transitions of the
// composed machine (those within the invoke), so no stale subtree of the
// base is reused for them.
func TestInvokedChildChanges(t *testing.T) {
	src, err := os.ReadFile("../testdata/invoke.scxml")
	if err != nil {
		t.Fatal(err)
	}
	base := loadBytes(t, "base.scxml", src)
	changes := []struct{ name, old, new, kind string }{
		{"child's guard", `cond="n + 1 &lt; limit"`, `cond="n + 2 &lt; limit"`, "guard_changed counter.counting:go"},
		{"child's reply", `<param name="c" expr="n"/>`, `<param name="c" expr="n * 2"/>`, "action_changed counter.counting:go"},
		{"param the parent passes", `<param name="limit" expr="3"/>`, `<param name="limit" expr="2"/>`, ""},
		{"parent's finalize", `_event.data.c : -1"`, `_event.data.c + 1 : -1"`, ""},
	}
	opts := engine.Options{MaxDepth: 6}
	for _, c := range changes {
		if !strings.Contains(string(src), c.old) {
			t.Fatalf("%s: %q is not in the model", c.name, c.old)
		}
		head := loadBytes(t, "head.scxml", []byte(strings.Replace(string(src), c.old, c.new, 1)))
		res, same := sameAsFull(t, c.name, base, head, opts)
		if !same {
			continue
		}
		if len(res.Diff.Updated) == 0 {
			t.Errorf("%s: no transition of the composed machine is updated", c.name)
		}
		var kinds []string
		for _, ch := range res.Changes {
			kinds = append(kinds, string(ch.Kind)+" "+ch.Subject)
		}
		if c.kind != "" && !slices.ContainsFunc(kinds, func(k string) bool { return strings.HasPrefix(k, c.kind) }) {
			t.Errorf("%s: source-level changes %q; want one %s... (the child's, scoped by the invoke id)", c.name, kinds, c.kind)
		}
	}
}
