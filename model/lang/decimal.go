package lang

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/source"
)

// Decimals are exact rationals. ECMAScript computes with doubles, so the
// two agree where every value is a double and every operation's exact
// result is one too. The checker enforces a conservative rule that
// guarantees it for literals (see CheckDecimals and the checker's division
// rule); it assumes that results stay within the 53 bits of a double's
// significand, as values of statecharts (speeds, temperatures, halves and
// quarters) do.

// maxExponent bounds the exponent of a decimal literal: beyond it a double
// is infinite or zero, and the exact value would take pages to write.
const maxExponent = 400

// ParseDecimal returns the exact value of a DECIMAL literal: 1.5, .5, 2e3,
// 2.5E-1.
func ParseDecimal(lit string) (*big.Rat, error) {
	mant, exp, hasExp := strings.Cut(strings.ToLower(lit), "e")
	if hasExp {
		var e int
		if _, err := fmt.Sscan(exp, &e); err != nil || e > maxExponent || e < -maxExponent {
			return nil, fmt.Errorf("decimal literal %s is outside the range of ECMAScript's numbers", lit)
		}
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok || mant == "" {
		return nil, fmt.Errorf("malformed decimal literal %s", lit)
	}
	if f, _ := r.Float64(); f > 1.7976931348623157e308 {
		return nil, fmt.Errorf("decimal literal %s is outside the range of ECMAScript's numbers", lit)
	}
	return r, nil
}

// DecimalText returns the text of a decimal literal: as written, or from
// its value.
func DecimalText(x *DecLit) string {
	if x.Text != "" {
		return x.Text
	}
	s, _ := ecma.FormatDecimal(x.Value)
	return s
}

// CheckDecimals applies the rule under which setbot's exact decimals agree
// with ECMAScript's doubles to a whole model, given the checker's results
// for every snippet of it: a model that has a decimal literal no double
// holds (0.1) may assign and compare decimals, but not compute with them,
// since ECMAScript rounds the literal and setbot does not. Each arithmetic
// operation on decimals is reported, naming the first such literal.
func CheckDecimals(fset *source.FileSet, infos []*Info) source.ErrorList {
	var inexact *DecLit
	for _, info := range infos {
		if info != nil && len(info.Inexact) > 0 && inexact == nil {
			inexact = info.Inexact[0]
		}
	}
	if inexact == nil {
		return nil
	}
	var errs source.ErrorList
	at := fset.Position(inexact.ValuePos)
	seen := make(map[source.Pos]bool) // a <data> value computed at start is checked twice
	for _, info := range infos {
		if info == nil {
			continue
		}
		for _, pos := range info.DecimalArith {
			if seen[pos] {
				continue
			}
			seen[pos] = true
			errs.Add(fset.Position(pos), "arithmetic on decimals in a model with the literal %s (at %d:%d), which ECMAScript rounds in binary while setbot computes exactly "+
				"(0.1 + 0.2 == 0.3 is false in ECMAScript): use halves, quarters, ... (0.5, 0.25) or scale to an int (count tenths)",
				DecimalText(inexact), at.Line, at.Column)
		}
	}
	return errs
}
