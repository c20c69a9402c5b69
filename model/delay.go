package model

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// ParseDelay reads a delay as SCXML writes one: a CSS2 duration, a
// non-negative number followed by "s" or "ms" ("500ms", "2s", "1.5s",
// ".5s"). setbot measures time in whole milliseconds, so a delay finer than
// that is an error.
func ParseDelay(s string) (ms int64, err error) { return parseDuration(s, "delay", MaxDelay) }

// ParseTime reads a time since a machine's start, written as a delay is
// (setbot simulate's go@1.5s). A test's times add up its delays, so a time
// may exceed MaxDelay.
func ParseTime(s string) (ms int64, err error) { return parseDuration(s, "time", math.MaxInt64/4) }

func parseDuration(s, what string, most int64) (ms int64, err error) {
	t := strings.TrimSpace(s)
	num, scale := "", int64(0)
	switch {
	case strings.HasSuffix(t, "ms"):
		num, scale = strings.TrimSuffix(t, "ms"), 1
	case strings.HasSuffix(t, "s"):
		num, scale = strings.TrimSuffix(t, "s"), 1000
	default:
		return 0, fmt.Errorf("%s %q is not a CSS2 duration: write a number followed by s or ms, such as \"2s\" or \"500ms\"", what, s)
	}
	if num == "" || strings.Trim(num, "0123456789.") != "" || strings.Count(num, ".") > 1 || num == "." {
		return 0, fmt.Errorf("%s %q is not a CSS2 duration: write a non-negative number followed by s or ms, such as \"2s\" or \"500ms\"", what, s)
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, fmt.Errorf("%s %q is not a CSS2 duration", what, s)
	}
	r.Mul(r, big.NewRat(scale, 1))
	if !r.IsInt() {
		return 0, fmt.Errorf("%s %q is not a whole number of milliseconds: setbot measures time in milliseconds", what, s)
	}
	if !r.Num().IsInt64() || r.Num().Int64() > most {
		return 0, fmt.Errorf("%s %q is too long: at most %d days", what, s, most/(24*3600*1000))
	}
	return r.Num().Int64(), nil
}

// MaxDelay is the longest delay setbot reads, in milliseconds (a year):
// times stay far from the limits of 64-bit arithmetic.
const MaxDelay = 365 * 24 * 3600 * 1000
