package diffmap_test

import (
	"os"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
)

// TestTwins retargets a transition onto the target of another with the
// same event: the two share events and targets then, and their ordinal
// identities follow the document, but each keeps its partner.
func TestTwins(t *testing.T) {
	src, err := os.ReadFile("testdata/priority.scxml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, from, to, want string }{
		{"retarget onto a later twin", `cond="x &gt; 0" target="A"`, `cond="x &gt; 0" target="B"`,
			"transition_retargeted C:e>B @8"},
		{"retarget onto an earlier twin", `cond="x &gt; 2" target="B"`, `cond="x &gt; 2" target="A"`,
			"transition_retargeted C:e>A#2 @9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := string(src)
			to := strings.Replace(base, tc.from, tc.to, 1)
			if to == base {
				t.Fatal("the test's replacement did not apply")
			}
			o, n := machine(t, base), machine(t, to)
			if got := changes(diffmap.Compute(o.Source, n.Source, o, n)); got != tc.want {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
		})
	}
}
