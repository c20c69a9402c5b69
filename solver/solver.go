package solver

import (
	"errors"
	"math/big"
	"time"
)

// Result is the outcome of a satisfiability check.
type Result int

// The results. Unknown (a timeout, a resource limit) means "not proven":
// callers never read it as Unsat.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Value is a variable's value in a model: the field of its sort holds it
// (Rat for RealSort).
type Value struct {
	Sort Sort
	Int  int64
	Bool bool
	Str  string
	Rat  *big.Rat
}

// ErrOutOfRange is returned for model values that a Value cannot hold: an
// integer beyond 64 bits, a string with a character that is no Unicode
// scalar value (a UTF-16 surrogate).
var ErrOutOfRange = errors.New("model value out of range")

// A Factory makes the solver for the terms of one Table (Z3's, say): what
// the engine explores with and the bot and the commands hand it, so that
// none of them needs the engine for its type.
type Factory func(*Table) (Solver, error)

// Solver decides conjunctions of boolean terms of one Table. Each check is
// independent: the conjunction passed is all that is assumed (an
// implementation may keep translated terms and assertions across checks,
// but never lets one check's assumptions leak into another).
type Solver interface {
	// Check decides the conjunction of the terms.
	Check(conj []Term) (Result, error)
	// Model decides the conjunction and, when it is satisfiable, returns
	// the values of vars in one model; variables the conjunction does not
	// constrain still get a value.
	Model(conj []Term, vars []Term) (Result, map[Term]Value, error)
	// SetTimeout bounds each check (0: no bound).
	SetTimeout(d time.Duration)
	// SetDeadline makes each check end by t as well (the zero time: no
	// deadline): one that would run past it ends Unknown, and one asked
	// after it is not started.
	SetDeadline(t time.Time)
	// SetCancel makes the checks stop once done is closed (a context's
	// Done channel): one running then, and every later one, ends Unknown.
	// A nil done never stops them.
	SetCancel(done <-chan struct{})
	// Close releases the solver's resources.
	Close()
}
