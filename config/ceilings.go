package config

import (
	"time"

	"github.com/setbot/setbot/vocab"
)

// Ceilings are the most a repository's configuration may ask for. The
// server sets them (ceilings in its configuration): .setbot.yml comes
// from the commit under analysis, a pull request's from a fork included,
// so without them a pull request could ask for a tree no host holds. An
// absent or zero bound has no ceiling.
type Ceilings struct {
	Bounds         vocab.Limits  // of each key of bounds in .setbot.yml
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
func (c Ceilings) Cap(b vocab.Limits) []Capped {
	var out []Capped
	for _, s := range vocab.Settings() {
		ceiling, v := c.Bounds[s.Bound], b[s.Bound]
		asked := v
		if asked <= 0 {
			asked = s.Default
		}
		if ceiling <= 0 || asked > 0 && asked <= ceiling {
			continue
		}
		if v > 0 && v != s.Default {
			out = append(out, Capped{Setting: "bounds." + s.Key, Asked: s.Format(v), Ceiling: s.Format(ceiling)})
		}
		b[s.Bound] = ceiling
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
