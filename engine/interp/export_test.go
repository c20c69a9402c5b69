package interp

import "github.com/setbot/setbot/engine/sim"

// Vars returns a copy of the machine's variables, for the tests: nothing
// setbot runs shows them (simulate prints outputs and configurations).
func (in *Interp) Vars() map[string]sim.Value { return copyArgs(in.cur.vars) }
