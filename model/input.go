package model

import (
	"fmt"
	"math/big"

	"github.com/setbot/setbot/model/lang/ecma"
)

// The input domain (docs/architecture.md §Inputs): the values the environment may
// send as an event's parameter are those of its type and declared range,
// and within them only those below, which the symbolic executor assumes
// (engine.InputDomain) and the simulator checks (CheckInputString,
// CheckInputDecimal). Claims are made for this domain.
const (
	// MaxInputString is the most code points a string input holds. It
	// also keeps Z3's string solver from building huge strings, which its
	// timeout does not stop.
	MaxInputString = 32

	// DecimalInputScale and DecimalInputBits bound a decimal input to the
	// multiples of 2^-DecimalInputScale (1/1024) below 2^DecimalInputBits
	// (about 4.4e12) in magnitude. setbot's decimals are exact rationals
	// and ECMAScript's are doubles: an input that no double holds (1.1,
	// which a guard x * 50 == 55 asks for) would make the solver find
	// paths that no double takes. Every value of the grid is a double (10 +
	// 42 bits fit a double's 53-bit significand), and so are the sum and
	// difference of two and their products by small ints and binary
	// fractions, where ECMAScript's results are then exact as setbot's.
	// 1/1024 is finer than the thousandths that readings and setpoints
	// use, and every value has a short, exact decimal text for tests
	// (0.0009765625).
	DecimalInputScale = 10
	DecimalInputBits  = 42
)

// CheckInputString reports an error when s is no string input (see
// MaxInputString).
func CheckInputString(s string) error {
	if n := ecma.Length(s); n > MaxInputString {
		return fmt.Errorf("is outside the input domain: a string input holds at most %d code points, this one %d", MaxInputString, n)
	}
	return nil
}

// CheckInputDecimal reports an error when r is no decimal input (see
// DecimalInputScale).
func CheckInputDecimal(r *big.Rat) error {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), DecimalInputScale)))
	limit := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), DecimalInputBits))
	if !scaled.IsInt() || new(big.Rat).Abs(r).Cmp(limit) >= 0 {
		return fmt.Errorf("is outside the input domain: a decimal input is a multiple of 2^-%d (1/%d) below 2^%d in magnitude",
			DecimalInputScale, 1<<DecimalInputScale, DecimalInputBits)
	}
	return nil
}
