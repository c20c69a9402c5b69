package conformance

import "testing"

func TestReasonKey(t *testing.T) {
	for in, want := range map[string]string{
		`variable "Var1" has no initial value: give it an expr, e.g. expr="0"`: `variable "…" has no initial value: give it an expr, e.g. expr="0"`,
		`send type "http://x/#y" is not supported: omit type`:                  `send type "…" is not supported: omit type`,
		`invalid name "\"foo" in namelist`:                                     `invalid name "…" in namelist`,
		`name "a: b" is odd: rename "a: b"`:                                    `name "…" is odd: rename "a: b"`,
		`<invoke> is not supported: remove it`:                                 `<invoke> is not supported: remove it`,
	} {
		if got := reasonKey(in); got != want {
			t.Errorf("reasonKey(%q) = %q, want %q", in, got, want)
		}
	}
}
