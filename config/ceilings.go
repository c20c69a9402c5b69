package config

import (
	"strconv"
	"time"

	"github.com/setbot/setbot/model/mlm"
)

// Ceilings are the most a repository's configuration may ask for. The
// server sets them (ceilings in its configuration): .setbot.yml comes
// from the commit under analysis, a pull request's from a fork included,
// so without them a pull request could ask for a tree no host holds. A
// zero field sets no ceiling.
type Ceilings struct {
	Bounds         Bounds        // of each key of bounds in .setbot.yml
	CommandTimeout time.Duration // of functions.timeout: one run of a black-box function's command
}

// A Capped is a setting a repository's configuration asked for beyond the
// server's ceiling: the analysis used the ceiling instead.
type Capped struct {
	Setting string // the key in .setbot.yml, such as bounds.max_states
	Asked   string // the value asked for, as .setbot.yml writes it
	Ceiling string // the ceiling, which the analysis used
}

// Cap lowers each bound of b beyond its ceiling to the ceiling and returns
// those it lowered. A bound at its default (or 0, for the default) beyond
// a ceiling set below the default gets the ceiling too, as does a time
// bound of 0 (no time bound), but these are not listed: .setbot.yml does
// not say it asked for them (Parse fills in the defaults), and a tree the
// ceiling cuts reports the bound it hit.
func (c Ceilings) Cap(b *Bounds) []Capped {
	var out []Capped
	count := func(key string, v *int, def, ceiling int) {
		asked := *v
		if asked <= 0 {
			asked = def
		}
		if ceiling <= 0 || asked <= ceiling {
			return
		}
		if *v > 0 && *v != def {
			out = append(out, Capped{Setting: "bounds." + key, Asked: strconv.Itoa(*v), Ceiling: strconv.Itoa(ceiling)})
		}
		*v = ceiling
	}
	cb := c.Bounds
	count("depth", &b.Depth, DefaultDepth, cb.Depth)
	count("max_states", &b.MaxStates, DefaultMaxStates, cb.MaxStates)
	count("loop_bound", &b.LoopBound, DefaultLoopBound, cb.LoopBound)
	count("max_microsteps", &b.MaxMicrosteps, DefaultMaxMicrosteps, cb.MaxMicrosteps)
	count("max_mlm_states", &b.MaxMLMStates, mlm.DefaultMaxStates, cb.MaxMLMStates)
	if cb.Timeout > 0 && (b.Timeout <= 0 || b.Timeout > cb.Timeout) {
		if b.Timeout > 0 {
			out = append(out, Capped{Setting: "bounds.timeout", Asked: b.Timeout.String(), Ceiling: cb.Timeout.String()})
		}
		b.Timeout = cb.Timeout
	}
	return out
}

// CapCommands lowers the time limit of one run of a command in f to its
// ceiling when beyond it, and returns what it lowered.
func (c Ceilings) CapCommands(f *Functions) []Capped {
	if c.CommandTimeout <= 0 || f.Timeout <= c.CommandTimeout {
		return nil
	}
	out := []Capped{{Setting: "functions.timeout", Asked: f.Timeout.String(), Ceiling: c.CommandTimeout.String()}}
	f.Timeout = c.CommandTimeout
	return out
}
