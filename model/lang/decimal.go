package lang

import (
	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"
)

// Decimals are exact rationals. ECMAScript computes with doubles, so the
// two agree where every value is a double and every operation's exact
// result is one too. A literal's value is the double ECMAScript reads, so
// comparisons agree whatever is written (0.1 == 0.10000000000000001); the
// checker refuses arithmetic where a literal's written value is not a
// double (see CheckDecimals and the checker's division rule), since there
// the exact sum is not ECMAScript's, and it assumes that results stay
// within the 53 bits of a double's significand, as values of statecharts
// (speeds, temperatures, halves and quarters) do.

// CheckDecimals applies the rule under which setbot's exact decimals agree
// with ECMAScript's doubles to a whole model, given the checker's results
// for every snippet of it: a model that has a decimal literal no double
// holds (0.1) may assign and compare decimals, but not compute with them,
// since ECMAScript rounds the literal and setbot does not. Each arithmetic
// operation on decimals is reported, naming the first such literal.
func CheckDecimals(fset *source.FileSet, infos []*Info) source.ErrorList {
	var inexact *ast.DecLit
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
				ast.DecimalText(inexact), at.Line, at.Column)
		}
	}
	return errs
}
