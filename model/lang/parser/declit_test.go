package parser

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	// Values as ECMAScript reads the literal: the nearest double, ties to
	// even; exact says whether the written value is that double.
	tests := []struct {
		lit, want string
		exact     bool
	}{
		{"1.5", "3/2", true}, {".5", "1/2", true}, {"2e3", "2000", true}, {"2.5E-1", "1/4", true},
		{"1e+2", "100", true}, {"0.0", "0", true}, {"0e999999999999", "0", true}, {"1.", "1", true},
		{"0.1", "3602879701896397/36028797018963968", false},
		{"0.10000000000000001", "3602879701896397/36028797018963968", false},
		{"0.1000000000000000055511151231257827021181583404541015625", "3602879701896397/36028797018963968", true},
		{"20.3", "5713942027226317/281474976710656", false},
		{"1e-400", "0", false}, {"1e-99999999999999999999", "0", false},
		{"5e-324", "1/" + new(big.Int).Lsh(big.NewInt(1), 1074).String(), false},
		{"9007199254740993.0", "9007199254740992", false}, // a tie: to the even significand
		{"9007199254740995.0", "9007199254740996", false},
		{"1.7976931348623157e308", "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368", false},
	}
	for _, tt := range tests {
		r, exact, err := parseDecimal(tt.lit)
		if err != nil || r.RatString() != tt.want || exact != tt.exact {
			t.Errorf("parseDecimal(%q) = %v, %v, %v; want %s, %v", tt.lit, r, exact, err, tt.want, tt.exact)
		}
		if r2, err := ParseDecimal(tt.lit); err != nil || r2.Cmp(r) != 0 {
			t.Errorf("ParseDecimal(%q) = %v, %v; want %s", tt.lit, r2, err, tt.want)
		}
	}
	for _, lit := range []string{"1e309", "1.8e308", "1e99999999999999999999"} {
		if _, err := ParseDecimal(lit); err == nil || !strings.Contains(err.Error(), "outside the range of ECMAScript's numbers") {
			t.Errorf("ParseDecimal(%q): %v, want out of range", lit, err)
		}
	}
	for _, lit := range []string{".", "e5", "0x1p-2", "inf", "1_0.5", "1e", "1e+-2", "1.5.5", ""} {
		if _, err := ParseDecimal(lit); err == nil {
			t.Errorf("ParseDecimal(%q) succeeded, want malformed", lit)
		}
	}
}
