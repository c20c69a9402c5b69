package ecma

import (
	"math/big"
	"testing"
)

func TestFormatDecimal(t *testing.T) {
	tests := []struct {
		rat  string
		want string
		ok   bool
	}{
		{"3/2", "1.5", true}, {"-1/4", "-0.25", true}, {"3", "3.0", true}, {"1/10", "0.1", true},
		{"2000", "2000.0", true}, {"1/3", "0.33333333333333333333...", false}, {"1/80", "0.0125", true},
		// Doubles whose exact expansion is long print as ECMAScript prints them.
		{"3602879701896397/36028797018963968", "0.1", true},
		{"-5713942027226317/281474976710656", "-20.3", true},
		{"1/1024", "0.0009765625", true},
		{"1152921504606846976", "1152921504606847000.0", true}, // 2^60
		{"4503599627370495/1024", "4398046511103.999", true},
		{"8711228593176025/87112285931760246646623899502532662132736", "1e-25", true},
		{"1/100000000000000000000000000", "0.00000000000000000000000001", true}, // no double: exact
		{"1000000000000000055511151231257827021181583405/10000000000000000000000000000000000000000000000", "0.1000000000000000055511151231257827021181583405", true}, // no double: exact,
	}
	for _, tt := range tests {
		r, _ := new(big.Rat).SetString(tt.rat)
		if got, ok := FormatDecimal(r); got != tt.want || ok != tt.ok {
			t.Errorf("FormatDecimal(%s) = %s, %v; want %s, %v", tt.rat, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIsDoubleAndPowerOfTwo(t *testing.T) {
	for lit, want := range map[string]bool{"0.5": true, "2.25": true, "1e3": true, "0.1": false, "0.2": false, "1e300": false} {
		r, _ := new(big.Rat).SetString(lit)
		if IsDouble(r) != want {
			t.Errorf("IsDouble(%s) = %v, want %v", lit, !want, want)
		}
	}
	for rat, want := range map[string]bool{"2": true, "1/4": true, "-8": true, "3": false, "3/4": false, "0": false, "1": true} {
		r, _ := new(big.Rat).SetString(rat)
		if IsPowerOfTwo(r) != want {
			t.Errorf("IsPowerOfTwo(%s) = %v, want %v", rat, !want, want)
		}
	}
}
