package model

import (
	"strings"
	"testing"
)

func TestParseDelay(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ms   int64
		want string // an error's start, or "" for none
	}{
		{"2s", 2000, ""},
		{"1.5s", 1500, ""},
		{".5s", 500, ""},
		{" 500ms ", 500, ""},
		{"0s", 0, ""},
		{"0.001s", 1, ""},
		{"2", 0, `delay "2" is not a CSS2 duration`},
		{"-1s", 0, `delay "-1s" is not a CSS2 duration`},
		{"1.2.3s", 0, `delay "1.2.3s" is not a CSS2 duration`},
		{"s", 0, `delay "s" is not a CSS2 duration`},
		{"0.0005s", 0, `delay "0.0005s" is not a whole number of milliseconds`},
		{"1.5ms", 0, `delay "1.5ms" is not a whole number of milliseconds`},
		{"99999999999s", 0, `delay "99999999999s" is too long`},
	} {
		ms, err := ParseDelay(tc.in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("ParseDelay(%q): %v", tc.in, err)
		case tc.want == "" && ms != tc.ms:
			t.Errorf("ParseDelay(%q) = %d, want %d", tc.in, ms, tc.ms)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("ParseDelay(%q) = %d, %v, want an error %q", tc.in, ms, err, tc.want)
		}
	}
}

// TestParseTime checks that a time since the start reads as a delay does
// and may exceed the longest delay: a test's times add up its delays.
func TestParseTime(t *testing.T) {
	if ms, err := ParseTime("63072000s"); err != nil || ms != 63072000000 {
		t.Errorf("ParseTime(63072000s) = %d, %v; want two years in ms", ms, err)
	}
	if _, err := ParseTime("1"); err == nil || !strings.HasPrefix(err.Error(), `time "1" is not a CSS2 duration`) {
		t.Errorf("ParseTime(1): %v", err)
	}
}
