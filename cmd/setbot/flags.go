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
// max 0 means no upper end.
var intRanges = map[string]struct{ min, max int }{
	"depth":          {1, 0},
	"max-states":     {1, 0},
	"loop-bound":     {1, 0},
	"max-mlm-states": {1, 0},
	"runs":           {1, 0},
	"analyze-depth":  {1, 0},
	"limit":          {0, 0},
	"loop-limit":     {1, 0},
	"max-microsteps": {1, 0},
	"jobs":           {0, 0}, // 0: one per idle CPU
	"top":            {1, 0},
}

// choices are the allowed values of the string flags that name a word of
// the domain, whichever command has them.
var choices = map[string][]string{
	"time": vocab.Names(vocab.Times),
}

// durationMins are the smallest allowed values of the duration flags.
var durationMins = map[string]time.Duration{
	"timeout": 0,
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
