package solver

import "time"

// Lazy returns a solver that starts the one start makes when it is first
// asked to check, and gives it the limits set before that. A user whose
// checks are answered before they reach a solver (the engine decides most
// by intervals, difference bounds and models it builds) then never starts
// one, and a Z3 context fills about 17 MB of tables as it starts. An error
// in starting is the first check's, and every later one's.
func Lazy(start func() (Solver, error)) Solver { return &lazy{start: start} }

type lazy struct {
	start    func() (Solver, error)
	s        Solver
	err      error // start's, kept: every later check fails with it
	timeout  time.Duration
	deadline time.Time
	cancel   <-chan struct{}
}

// started returns the solver, starting it the first time.
func (l *lazy) started() (Solver, error) {
	if l.s == nil && l.err == nil {
		l.s, l.err = l.start()
		if l.err == nil {
			l.s.SetTimeout(l.timeout)
			l.s.SetDeadline(l.deadline)
			l.s.SetCancel(l.cancel)
		}
	}
	return l.s, l.err
}

func (l *lazy) Check(conj []Term) (Result, error) {
	s, err := l.started()
	if err != nil {
		return Unknown, err
	}
	return s.Check(conj)
}

func (l *lazy) Model(conj []Term, vars []Term) (Result, map[Term]Value, error) {
	s, err := l.started()
	if err != nil {
		return Unknown, nil, err
	}
	return s.Model(conj, vars)
}

func (l *lazy) SetTimeout(d time.Duration) {
	l.timeout = d
	if l.s != nil {
		l.s.SetTimeout(d)
	}
}

func (l *lazy) SetDeadline(t time.Time) {
	l.deadline = t
	if l.s != nil {
		l.s.SetDeadline(t)
	}
}

func (l *lazy) SetCancel(done <-chan struct{}) {
	l.cancel = done
	if l.s != nil {
		l.s.SetCancel(done)
	}
}

func (l *lazy) Close() {
	if l.s != nil {
		l.s.Close()
	}
}
