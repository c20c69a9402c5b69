package sim

// A Stepper is a running machine that takes its environment's events one
// at a time. setbot has two, kept apart on purpose so that each checks the
// other (docs/architecture.md §Semantics): the flattened machine (Sim)
// and the reference interpreter, which runs the statechart itself by the
// algorithm of the SCXML specification's Appendix D (interp.Interp). S is
// the record of one step each gives: the flattened machine names the MLM
// transitions it fired, the interpreter the statechart's.
//
// simulate drives either through this interface alone, so that the two
// print the same kinds of step from one loop.
type Stepper[S any] interface {
	// StepAt sends ev at time at (nil: at once) and runs the machine to
	// completion; on an error the machine is as it was.
	StepAt(ev Event, at *int64) (S, error)
	// Timed says whether steps have times: the time semantics is timed
	// and the machine sets timers.
	Timed() bool
	// PendingTimers names the timers the environment may fire, sorted.
	PendingTimers() []string
	// NextTimer is the timer due first, timed.
	NextTimer() (Timer, bool)
	// Vars is a copy of the data model's variables.
	Vars() map[string]Value
}

var _ Stepper[Step] = (*Sim)(nil)
