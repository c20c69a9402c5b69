package ecma

import "testing"

// TestParseIntHexPrefix checks parseInt(s) and parseInt(s, 10) where s
// may start with a hexadecimal prefix: without a radix ECMAScript reads
// "0x" as base 16 (parseInt("0x1A") is 26, parseInt("0x") NaN), which is
// beyond the exact range; with radix 10 the digits stop at the 'x'.
func TestParseIntHexPrefix(t *testing.T) {
	tests := []struct {
		s        string
		radix10  bool
		want     int64
		wantOK   bool
		ecmaNote string
	}{
		{"0x1A", false, 0, false, "26"},
		{"0x1A", true, 0, true, "0"},
		{"-0x10", false, 0, false, "-16"},
		{"-0x10", true, 0, true, "-0"},
		{" 0X1f", false, 0, false, "31"},
		{" 0X1f", true, 0, true, "0"},
		{"+0x5", false, 0, false, "5"},
		{"0x", false, 0, false, "NaN"},
		{"0x", true, 0, true, "0"},
		{"0", false, 0, true, "0"},
		{"0", true, 0, true, "0"},
		{"0y", false, 0, true, "0"},
		{"0y", true, 0, true, "0"},
		{"00x1", false, 0, true, "0"},
		{"00x1", true, 0, true, "0"},
		{"x1", false, 0, false, "NaN"},
		{"12", false, 12, true, "12"},
		{"  -7z", false, -7, true, "-7"},
	}
	for _, tt := range tests {
		v, ok := ParseInt(tt.s, tt.radix10)
		if ok != tt.wantOK || ok && v != tt.want {
			t.Errorf("ParseInt(%q, radix10 %v) = %d, exact %v; want %d, exact %v (ECMAScript: %s)", tt.s, tt.radix10, v, ok, tt.want, tt.wantOK, tt.ecmaNote)
		}
	}
}
