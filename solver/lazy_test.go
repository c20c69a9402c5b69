package solver

import (
	"errors"
	"testing"
	"time"
)

// recorder is a Solver that records what it was set and asked.
type recorder struct {
	timeout  time.Duration
	deadline time.Time
	cancel   <-chan struct{}
	checks   int
	closed   bool
}

func (r *recorder) Check([]Term) (Result, error) { r.checks++; return Sat, nil }
func (r *recorder) Model([]Term, []Term) (Result, map[Term]Value, error) {
	r.checks++
	return Sat, map[Term]Value{}, nil
}
func (r *recorder) SetTimeout(d time.Duration)     { r.timeout = d }
func (r *recorder) SetDeadline(t time.Time)        { r.deadline = t }
func (r *recorder) SetCancel(done <-chan struct{}) { r.cancel = done }
func (r *recorder) Close()                         { r.closed = true }

// TestLazy: the solver starts at the first check, once, with the limits set
// before; one never asked is never started; a failure to start is every
// check's.
func TestLazy(t *testing.T) {
	var started []*recorder
	start := func() (Solver, error) {
		r := &recorder{}
		started = append(started, r)
		return r, nil
	}
	idle := Lazy(start)
	idle.SetTimeout(time.Second)
	idle.Close()
	if len(started) != 0 {
		t.Fatalf("a solver never asked was started %d times", len(started))
	}

	s := Lazy(start)
	done := make(chan struct{})
	deadline := time.Now().Add(time.Hour)
	s.SetTimeout(2 * time.Second)
	s.SetDeadline(deadline)
	s.SetCancel(done)
	if r, err := s.Check(nil); r != Sat || err != nil {
		t.Fatalf("Check = %v, %v", r, err)
	}
	if _, _, err := s.Model(nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(started) != 1 {
		t.Fatalf("started %d times, want once", len(started))
	}
	r := started[0]
	if r.checks != 2 || r.timeout != 2*time.Second || !r.deadline.Equal(deadline) || r.cancel != done {
		t.Errorf("the solver started has checks %d, timeout %v, deadline %v, cancel set %v: not what was asked and set",
			r.checks, r.timeout, r.deadline, r.cancel == done)
	}
	s.SetTimeout(3 * time.Second) // after the start: passed on
	s.Close()
	if r.timeout != 3*time.Second || !r.closed {
		t.Errorf("after the start: timeout %v, closed %v", r.timeout, r.closed)
	}

	failed := errors.New("no solver here")
	tries := 0
	broken := Lazy(func() (Solver, error) { tries++; return nil, failed })
	for range 2 {
		if r, err := broken.Check(nil); r != Unknown || !errors.Is(err, failed) {
			t.Errorf("Check of a solver that cannot start = %v, %v", r, err)
		}
	}
	if tries != 1 {
		t.Errorf("a failed start was tried %d times, want once", tries)
	}
	broken.Close()
}
