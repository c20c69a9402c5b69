package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/setbot/setbot/vocab"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// intRanges are the allowed values of the integer flags, whichever command
// has them: a bound of 0 or less used to be taken silently as the default.
// max 0 means no upper end. Those of the bounds a user sets are their rows'
// in the bounds table (limitRanges).
var intRanges = limitRanges(map[string]struct{ min, max int }{
	"runs":          {1, 0},
	"analyze-depth": {1, 0},
	"limit":         {0, 0},
	"loop-limit":    {1, 0},
	"jobs":          {0, 0}, // 0: one per idle CPU
	"top":           {1, 0},
})

// choices are the allowed values of the string flags that name a word of
// the domain, whichever command has them.
var choices = map[string][]string{
	"time": vocab.Names(vocab.Times),
}

// durationMins are the smallest allowed values of the duration flags: the
// bounds table's.
var durationMins = durationLimits()

// limitRanges adds to ranges the range of each count bound of the bounds
// table: from its minimum, with no upper end.
func limitRanges(ranges map[string]struct{ min, max int }) map[string]struct{ min, max int } {
	for _, s := range vocab.Settings() {
		if s.Unit == vocab.UnitCount {
			ranges[s.Flag] = struct{ min, max int }{int(s.Min), 0}
		}
	}
	return ranges
}

// durationLimits are the minimums of the duration bounds of the bounds table.
func durationLimits() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, s := range vocab.Settings() {
		if s.Unit == vocab.UnitDuration {
			out[s.Flag] = time.Duration(s.Min)
		}
	}
	return out
}

// limitFlags registers in fl the flag of each bound of the given stages,
// as its row of the bounds table says (name, default, help, then more's
// words for it when more is not nil), reading its value into l.
func limitFlags(fl *pflag.FlagSet, l vocab.Limits, more func(vocab.Setting) string, stages ...vocab.Stage) {
	for _, s := range vocab.Settings(stages...) {
		help := s.Help
		if more != nil {
			help += more(s)
		}
		l[s.Bound] = s.Default
		fl.Var(limitValue{l, s}, s.Flag, help)
	}
}

// limitValue is the value of a bound's flag: a count or a duration, as its
// row says, kept in a Limits.
type limitValue struct {
	l vocab.Limits
	s vocab.Setting
}

// String writes the value as the flag takes it. No time bound is "0", as
// pflag writes an integer's zero, so that the help shows no default for it.
func (v limitValue) String() string {
	if n := v.l[v.s.Bound]; v.s.Unit != vocab.UnitDuration || n != 0 {
		return v.s.Format(n)
	}
	return "0"
}

// Set reads a value as pflag reads an int or a time.Duration.
func (v limitValue) Set(text string) error {
	if v.s.Unit == vocab.UnitDuration {
		d, err := time.ParseDuration(text)
		if err == nil {
			v.l[v.s.Bound] = int64(d)
		}
		return err
	}
	n, err := strconv.ParseInt(text, 0, 64)
	if err == nil {
		v.l[v.s.Bound] = n
	}
	return err
}

// Type names the value's type in the help, as pflag's own flags do.
func (v limitValue) Type() string {
	if v.s.Unit == vocab.UnitDuration {
		return "duration"
	}
	return "int"
}

// checkFlags refuses, before any work, a flag value outside its range,
// naming the range; run turns the error into exit status 2.
func checkFlags(cmd *cobra.Command, _ []string) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil {
			return
		}
		if r, ok := intRanges[f.Name]; ok && f.Value.Type() == "int" {
			n, _ := strconv.Atoi(f.Value.String())
			switch {
			case r.max == 0 && n < r.min:
				err = fmt.Errorf("--%s %d is out of range: it must be at least %d", f.Name, n, r.min)
			case r.max != 0 && (n < r.min || n > r.max):
				err = fmt.Errorf("--%s %d is out of range: it must be from %d to %d", f.Name, n, r.min, r.max)
			}
		}
		// An empty default means "as configured": empty stays allowed.
		if want, ok := choices[f.Name]; ok && !slices.Contains(want, f.Value.String()) && (f.DefValue != "" || f.Value.String() != "") {
			err = fmt.Errorf("unknown --%s %q (want %s)", f.Name, f.Value, strings.Join(want, " or "))
		}
		if lo, ok := durationMins[f.Name]; ok && f.Value.Type() == "duration" {
			d, _ := time.ParseDuration(f.Value.String())
			if d < lo {
				err = fmt.Errorf("--%s %s is out of range: it must be at least %s (0 means no limit)", f.Name, f.Value, lo)
			}
		}
	})
	return err
}
