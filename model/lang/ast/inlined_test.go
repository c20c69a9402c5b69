package ast

import "testing"

func TestSourceNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{InlinedName("t_DISPLAYS", 16) + " has no field x", "t_DISPLAYS has no field x"},
		{"a$1 + b$22 (a$x, $5, 7$3)", "a + b (a$x, $5, 7)"},
		{"price is 5$", "price is 5$"},
	} {
		if got := SourceNames(c.in); got != c.want {
			t.Errorf("SourceNames(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
