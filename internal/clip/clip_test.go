package clip

import (
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"too long", 3, "too…"},
		{"héllo", 2, "h…"}, // é is two bytes: not split
		{"héllo", 3, "hé…"},
		{"日本", 2, "…"},
	} {
		got := Cut(tc.s, tc.n, "…")
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
