package solver

import (
	"math/big"
	"testing"

	"github.com/setbot/setbot/model/lang/ecma"
)

// convertStrings are inputs of parseInt and Number at the edges of the
// exact range and of ECMAScript's grammar.
var convertStrings = []string{
	"", " ", "    ", "     ", "0", "7", "+7", "-7", "007", "  -12abc", "abc", "1.50", "-0.5", ".5", "5.", ".", "+", "-",
	"-.", "+.5", "1e3", "0x1A", "Infinity", " 12 ", "12    ", "12     ", "\t\n12\u3000", "\u00a0-3", "1 2", "1..2",
	"123456789012345", "1234567890123456", "-999999999999999", "0000000000000001", "12345678901234.5", "1.125",
	"1.1", "0.1", "2.25", "0.015625", "0.0078125", "3.000000", "3.0000000", "  +0.25x", "--1", "+-1", "12abc34",
	"     7", "    7", "١٢", "٣", "-0x10", " 0X1f", "+0x5", "0x", "0X", "0", "0y", "00x1", "    0x1", "     0x1", "x1",
}

// TestConversionsAgainstECMA checks the terms the conversions build over a
// variable, evaluated with the variable's value, against package ecma's
// functions (which the simulator computes with), value and range alike;
// Number folds on constants only.
func TestConversionsAgainstECMA(t *testing.T) {
	tab := NewTable()
	s := tab.Var("s", StringSort)
	pin := func(v Value) func(Term) (Value, bool) {
		return func(x Term) (Value, bool) { return v, x == s || tab.Name(x) == "d" }
	}
	if _, nok := tab.Number(s); nok != tab.Bool(false) {
		t.Errorf("Number of a string variable is exact under %s; want never (the path is cut)", tab.String(nok))
	}
	for _, str := range convertStrings {
		val := pin(Value{Sort: StringSort, Str: str})
		for _, radix10 := range []bool{false, true} {
			pv, pok := tab.ParseInt(s, radix10)
			gotOK, ok1 := tab.Eval(pok, val)
			got, ok2 := tab.Eval(pv, val)
			want, wantOK := ecma.ParseInt(str, radix10)
			if !ok1 || !ok2 || gotOK.Bool != wantOK || wantOK && got.Int != want {
				t.Errorf("parseInt(%q) (radix10 %v): terms give %v (exact %v), ecma %d (exact %v)", str, radix10, got.Int, gotOK.Bool, want, wantOK)
			}
			if fold, foldOK := tab.ParseInt(tab.Str(str), radix10); fold != tab.Int(want) && wantOK || foldOK != tab.Bool(wantOK) {
				t.Errorf("parseInt(%q) (radix10 %v) folds to %s (exact %s)", str, radix10, tab.String(fold), tab.String(foldOK))
			}
		}
		r, wantOK := ecma.Number(str)
		if fold, foldOK := tab.Number(tab.Str(str)); foldOK != tab.Bool(wantOK) || wantOK && fold != tab.Rat(r) {
			t.Errorf("Number(%q) folds to %s (exact %s), ecma %v (exact %v)", str, tab.String(fold), tab.String(foldOK), r, wantOK)
		}
	}
	d := tab.Var("d", RealSort)
	sv, sok := tab.NumberString(d)
	iv, iok := tab.ParseIntReal(d)
	for _, text := range []string{"0", "3", "-3", "0.5", "-0.5", "1.25", "123.456", "0.000001", "0.0000005", "999999999999999",
		"1000000000000000", "99999999.999999", "-0.000125", "1e20", "1e21", "-1e21", "7/3", "1/1024",
		"9223372036854775807.5", "9223372036854775808", "-9223372036854775808.5", "1e19"} {
		r, _ := new(big.Rat).SetString(text)
		val := pin(Value{Sort: RealSort, Rat: r})
		got, _ := tab.Eval(sv, val)
		exact, _ := tab.Eval(sok, val)
		if exact.Bool != exactString(r) || exact.Bool && got.Str != ecma.NumberString(r) {
			t.Errorf("String(%s): terms give %q (exact %v), ecma %q", text, got.Str, exact.Bool, ecma.NumberString(r))
		}
		got, _ = tab.Eval(iv, val)
		exact, _ = tab.Eval(iok, val)
		want, wantOK := ecma.ParseIntDecimal(r)
		if exact.Bool != wantOK || wantOK && (!want.IsInt64() || got.Int != want.Int64()) {
			t.Errorf("parseInt(%s): terms give %d (exact %v), ecma %v (exact %v)", text, got.Int, exact.Bool, want, wantOK)
		}
	}
}

// exactString is the range NumberString's terms are exact on: m / 10^f
// with f <= ecma.MaxFraction and |m| < 10^ecma.MaxDigits.
func exactString(d *big.Rat) bool {
	for f := 0; f <= ecma.MaxFraction; f++ {
		m := new(big.Rat).Mul(d, new(big.Rat).SetInt(pow10(f)))
		if m.IsInt() {
			return new(big.Int).Abs(m.Num()).Cmp(pow10(ecma.MaxDigits)) < 0
		}
	}
	return false
}
