package z3

import (
	"errors"
	"fmt"
	"time"

	"github.com/setbot/setbot/solver"
)

// Solver decides conjunctions of terms of one solver.Table with Z3. It is
// not safe for concurrent use: use one per goroutine.
//
// Translations are memoised per Solver (terms are hash-consed). A check
// asserts its conjuncts in a scope (push, assert) and keeps the scope
// afterwards: the next check pops the scopes that are not part of the
// longest common prefix of the two conjunctions and pushes one scope for
// the rest. A path condition that extends the previous one costs only its
// new conjuncts, and nothing one check assumes outlives the next. When the
// memo grows past a limit, the Solver drops it. Every renewEvery checks,
// and after a check that ends Unknown, it also starts a fresh Z3 solver:
// on nonlinear problems Z3's solver keeps growing across push and pop, in
// memory and in time per check.
//
// Results (Sat, Unsat) do not depend on earlier checks, except that a
// check may end Unknown under a timeout; the values in a model may: they
// are a deterministic function of the sequence of calls made on the
// Solver, not of the last call alone.
type Solver struct {
	tab      *solver.Table
	ctx      *context // nil once closed
	intSort  ast
	boolSort ast
	realSort ast
	strSort  ast
	bvSort   ast // 32-bit vectors
	zero     ast
	slv      solverObj
	memo     map[solver.Term]ast   // translated terms, one reference each
	axioms   []ast                 // definitions (defs.go), one reference each
	own      map[solver.Term]int   // the definition of a term's own constant, by number
	defs     map[solver.Term][]int // the definitions a translated term needs asserted with it
	temps    []ast                 // intermediate terms of a translation
	stack    []solver.Term         // conjuncts asserted, in order
	scopes   []int                 // index in stack where each open scope starts
	lits     []solver.Term         // scratch: the non-constant conjuncts of a check
	asts     []ast                 // scratch: translations of new conjuncts (held by memo)
	timeout  time.Duration         // per check, 0 for none (check enforces it)
	deadline time.Time             // no check runs past it; zero for none
	cancel   <-chan struct{}       // closed: checks end Unknown
	calls    int
	age      int // checks made by the current Z3 solver
	limit    int // len(memo) beyond which the memo is dropped
}

var _ solver.Solver = (*Solver)(nil)

// defaultLimit bounds the number of memoised translations.
const defaultLimit = 50000

// renewEvery is the number of checks after which a Z3 solver is replaced.
const renewEvery = 500

var errClosed = errors.New("z3: solver is closed")

// New returns a Solver for terms of tab. It is not safe for concurrent use
// (one per goroutine).
func New(tab *solver.Table) (*Solver, error) {
	ctx, err := newContext()
	if err != nil {
		return nil, err
	}
	s := &Solver{tab: tab, ctx: ctx, limit: defaultLimit}
	s.intSort = ctx.intSort()
	ctx.incRef(s.intSort)
	s.boolSort = ctx.boolSort()
	ctx.incRef(s.boolSort)
	s.realSort = ctx.realSort()
	ctx.incRef(s.realSort)
	s.strSort = ctx.stringSort()
	ctx.incRef(s.strSort)
	s.bvSort = ctx.bv32Sort()
	ctx.incRef(s.bvSort)
	if s.zero, err = ctx.mkInt(0, s.intSort); err != nil {
		s.Close()
		return nil, err
	}
	ctx.incRef(s.zero)
	if err := s.fresh(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// fresh starts with an empty memo and a new Z3 solver.
func (s *Solver) fresh() error {
	s.release()
	s.memo = make(map[solver.Term]ast)
	s.own, s.defs = make(map[solver.Term]int), make(map[solver.Term][]int)
	return s.renew()
}

// renew replaces the Z3 solver by a new one.
func (s *Solver) renew() error {
	s.dropSolver()
	slv, err := s.ctx.newSolver()
	if err != nil {
		return err
	}
	s.slv = slv
	return s.ctx.setParams(s.slv)
}

// dropSolver releases the Z3 solver.
func (s *Solver) dropSolver() {
	s.ctx.delSolver(s.slv)
	s.slv = solverObj{}
	s.stack, s.scopes = s.stack[:0], s.scopes[:0]
	s.age = 0
}

// release drops the memo and the Z3 solver.
func (s *Solver) release() {
	for _, a := range s.memo {
		s.ctx.decRef(a)
	}
	s.releaseTemps(0)
	s.memo = nil
	s.releaseDefs()
	s.dropSolver()
}

// Close releases the solver's resources. It may be called more than once.
func (s *Solver) Close() {
	if s.ctx == nil {
		return
	}
	s.release()
	for _, a := range []ast{s.zero, s.bvSort, s.strSort, s.boolSort, s.intSort, s.realSort} {
		if a != nil {
			s.ctx.decRef(a)
		}
	}
	s.zero, s.bvSort, s.strSort, s.boolSort, s.intSort, s.realSort = nil, nil, nil, nil, nil, nil
	s.ctx.del()
	s.ctx = nil
}

// Calls returns the number of Z3 checks made.
func (s *Solver) Calls() int { return s.calls }

// SetTimeout bounds each check (0: no bound). A check that runs out of
// time returns solver.Unknown.
func (s *Solver) SetTimeout(d time.Duration) { s.timeout = max(d, 0) }

// SetDeadline makes each check end by t as well (zero: no deadline).
func (s *Solver) SetDeadline(t time.Time) { s.deadline = t }

// checkTimeout is how long the next check may run: the timeout, or what is left
// before the deadline where that is less (0: no bound). expired is set
// where the deadline has passed.
func (s *Solver) checkTimeout() (d time.Duration, expired bool) {
	d = s.timeout
	if s.deadline.IsZero() {
		return d, false
	}
	left := time.Until(s.deadline)
	if left <= 0 {
		return 0, true
	}
	if d == 0 || left < d {
		d = left
	}
	return d, false
}

// SetCancel makes the checks stop once done is closed: a check running
// then is interrupted (Z3_interrupt, from a goroutine that watches done
// while it runs), and a later one is not started. Both end Unknown.
func (s *Solver) SetCancel(done <-chan struct{}) { s.cancel = done }

// canceled reports whether the checks were told to stop.
func (s *Solver) canceled() bool {
	select {
	case <-s.cancel:
		return true
	default:
		return false
	}
}

// check runs the Z3 check, interrupted if it runs out of time or the
// checks are told to stop while it runs.
//
// The timeout is not Z3's: Z3 (4.8) hands every check that has one to a
// timer thread, and at the end of the check yields the CPU in a loop until
// that thread is idle again. With thousands of short checks (ACCS's
// subsumption) on a busy machine, those hand-offs and yields cost about a
// sixth of the exploration's CPU time (docs/performance.md). A Go timer
// costs nothing until it fires, and then interrupts the check as a
// cancellation does; the check ends Unknown either way.
func (s *Solver) check() (lbool, error) {
	timeout, expired := s.checkTimeout()
	if expired {
		return lUndef, nil
	}
	if s.cancel == nil && timeout == 0 {
		return s.ctx.check(s.slv)
	}
	// end stops the interrupts once the check returned, and reports
	// whether any was made.
	stop, watched := make(chan struct{}), make(chan struct{})
	var end func() bool
	if s.cancel == nil {
		t := time.AfterFunc(timeout, func() {
			defer close(watched)
			s.interruptUntil(stop)
		})
		end = func() bool {
			if t.Stop() {
				return false
			}
			close(stop) // it fired: stop its interrupts before the next check
			<-watched
			return true
		}
	} else {
		var expired <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			expired = t.C
		}
		interrupted := false
		go func() {
			defer close(watched)
			select {
			case <-s.cancel:
			case <-expired:
			case <-stop:
				return
			}
			interrupted = true
			s.interruptUntil(stop)
		}()
		end = func() bool {
			close(stop)
			<-watched // the context outlives the watcher
			return interrupted
		}
	}
	lb, err := s.ctx.check(s.slv)
	if end() && err == nil {
		err = s.clearInterrupt()
	}
	return lb, err
}

// clearInterrupt clears an interrupt that landed after the check it was
// meant for had returned. Z3 keeps such an interrupt in the context and
// fails every later call with "canceled" (the next push first) until a
// check begins, which clears it: an empty check on a solver of its own
// does, and leaves the solver's scopes as they are.
func (s *Solver) clearInterrupt() error {
	slv, err := s.ctx.newSolver()
	if err != nil {
		return err
	}
	defer s.ctx.delSolver(slv)
	_, err = s.ctx.check(slv)
	return err
}

// interruptUntil interrupts the running check until stop is closed. An
// interrupt that lands before Z3 has begun the check is lost (the check
// starts with its flag clear), and on a loaded machine the interrupting
// goroutine can run first: it interrupts again until the check has
// returned.
func (s *Solver) interruptUntil(stop <-chan struct{}) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		s.ctx.interrupt()
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// Check decides the conjunction of the boolean terms conj. Constant
// conjuncts and the empty conjunction are decided without Z3.
func (s *Solver) Check(conj []solver.Term) (solver.Result, error) {
	r, _, err := s.solve(conj, nil, false)
	return r, err
}

// Model decides the conjunction of conj and, when it is satisfiable,
// returns the values of vars (usually variables; any term is evaluated) in
// one model, with model completion: unconstrained variables get a value
// too. An integer value that does not fit in an int64, or a string holding
// a UTF-16 surrogate (a character of Z3's that is no Unicode scalar
// value), gives an error wrapping solver.ErrOutOfRange.
func (s *Solver) Model(conj []solver.Term, vars []solver.Term) (solver.Result, map[solver.Term]solver.Value, error) {
	return s.solve(conj, vars, true)
}

func (s *Solver) valid(x solver.Term) error {
	if x <= 0 || int(x) > s.tab.Len() {
		return fmt.Errorf("z3: invalid term %d", x)
	}
	return nil
}

func (s *Solver) solve(conj, vars []solver.Term, wantModel bool) (solver.Result, map[solver.Term]solver.Value, error) {
	if s.ctx == nil {
		return solver.Unknown, nil, errClosed
	}
	tab := s.tab
	s.lits = s.lits[:0]
	for _, c := range conj {
		if err := s.valid(c); err != nil {
			return solver.Unknown, nil, err
		}
		if tab.Sort(c) != solver.BoolSort {
			return solver.Unknown, nil, fmt.Errorf("z3: conjunct %s is not boolean", tab.String(c))
		}
		if v, ok := tab.BoolValue(c); ok {
			if !v {
				return solver.Unsat, nil, nil
			}
			continue
		}
		s.lits = append(s.lits, c)
	}
	onlyVars := true
	for _, v := range vars {
		if err := s.valid(v); err != nil {
			return solver.Unknown, nil, err
		}
		onlyVars = onlyVars && tab.Op(v) == solver.OpVar
	}
	if len(s.lits) == 0 && onlyVars {
		// Trivially satisfiable; model completion gives 0, false and "".
		if !wantModel {
			return solver.Sat, nil, nil
		}
		m := make(map[solver.Term]solver.Value, len(vars))
		for _, v := range vars {
			m[v] = solver.Value{Sort: tab.Sort(v)}
		}
		return solver.Sat, m, nil
	}
	if s.canceled() {
		return solver.Unknown, nil, nil
	}
	var err error
	switch {
	case s.memo == nil || len(s.memo) > s.limit:
		err = s.fresh()
	case s.slv.s == nil || s.age >= renewEvery:
		err = s.renew()
	}
	if err != nil {
		return solver.Unknown, nil, err
	}
	return s.decide(vars, wantModel)
}

// decide brings the scopes of the Z3 solver in line with s.lits and
// checks.
func (s *Solver) decide(vars []solver.Term, wantModel bool) (solver.Result, map[solver.Term]solver.Value, error) {
	k := 0
	for k < len(s.stack) && k < len(s.lits) && s.stack[k] == s.lits[k] {
		k++
	}
	// Keep the scopes that lie within the common prefix: pop the one
	// holding position k, if any, and those after it.
	keep := len(s.scopes)
	if k < len(s.stack) {
		for s.scopes[keep-1] > k {
			keep--
		}
		keep--
	}
	if err := s.popTo(keep); err != nil {
		return solver.Unknown, nil, err
	}
	if rest := s.lits[len(s.stack):]; len(rest) > 0 {
		s.asts = s.asts[:0]
		for _, c := range rest {
			a, err := s.translate(c)
			if err != nil {
				return solver.Unknown, nil, err
			}
			s.asts = append(s.asts, a)
		}
		if err := s.ctx.push(s.slv); err != nil {
			return solver.Unknown, nil, s.abandon(err)
		}
		s.scopes = append(s.scopes, len(s.stack))
		for i, a := range s.asts {
			if err := s.ctx.assert(s.slv, a); err != nil {
				return solver.Unknown, nil, s.abandon(err)
			}
			if err := s.assertDefs(rest[i]); err != nil {
				return solver.Unknown, nil, s.abandon(err)
			}
			s.stack = append(s.stack, rest[i])
		}
	}
	s.calls++
	s.age++
	lb, err := s.check()
	if err != nil {
		return solver.Unknown, nil, s.abandon(err)
	}
	switch lb {
	case lFalse:
		return solver.Unsat, nil, nil
	case lUndef:
		// Do not build on an interrupted search: later checks start from
		// a new Z3 solver.
		return solver.Unknown, nil, s.renew()
	}
	if !wantModel {
		return solver.Sat, nil, nil
	}
	m, err := s.values(vars)
	return solver.Sat, m, err
}

// popTo pops all but the first n scopes.
func (s *Solver) popTo(n int) error {
	if n >= len(s.scopes) {
		return nil
	}
	err := s.ctx.pop(s.slv, len(s.scopes)-n)
	s.stack = s.stack[:s.scopes[n]]
	s.scopes = s.scopes[:n]
	if err != nil {
		return s.abandon(err)
	}
	return nil
}

// abandon starts a new Z3 solver after a failure, so that its scopes stay
// in line with s.stack, and returns err.
func (s *Solver) abandon(err error) error {
	if ferr := s.renew(); ferr != nil {
		return errors.Join(err, ferr)
	}
	return err
}

// values reads vars in the model of the last (satisfiable) check.
func (s *Solver) values(vars []solver.Term) (map[solver.Term]solver.Value, error) {
	out := make(map[solver.Term]solver.Value, len(vars))
	if len(vars) == 0 {
		return out, nil
	}
	m, err := s.ctx.getModel(s.slv)
	if err != nil {
		return nil, err
	}
	defer s.ctx.delModel(m)
	for _, v := range vars {
		if out[v], err = s.value(m, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// value reads v in the model m. A term whose translation needs a
// definition (defs.go) is computed from its variables' values, since no
// conjunct may have asserted the definition.
func (s *Solver) value(m model, v solver.Term) (solver.Value, error) {
	a, err := s.translate(v)
	if err != nil {
		return solver.Value{}, err
	}
	if len(s.defs[v]) > 0 {
		vals := make(map[solver.Term]solver.Value)
		for _, x := range s.tab.Vars(v) {
			if vals[x], err = s.value(m, x); err != nil {
				return solver.Value{}, err
			}
		}
		r, ok := s.tab.Eval(v, func(x solver.Term) (solver.Value, bool) { r, ok := vals[x]; return r, ok })
		if !ok {
			return solver.Value{}, fmt.Errorf("z3: value of %s: %w", s.tab.String(v), solver.ErrOutOfRange)
		}
		return r, nil
	}
	switch srt := s.tab.Sort(v); srt {
	case solver.IntSort:
		n, fits, err := s.ctx.evalInt(m, a)
		if err != nil {
			return solver.Value{}, err
		}
		if !fits {
			return solver.Value{}, fmt.Errorf("z3: value of %s: %w", s.tab.String(v), solver.ErrOutOfRange)
		}
		return solver.Value{Sort: srt, Int: n}, nil
	case solver.BoolSort:
		b, err := s.ctx.evalBool(m, a)
		return solver.Value{Sort: srt, Bool: b}, err
	case solver.RealSort:
		r, err := s.ctx.evalRat(m, a)
		return solver.Value{Sort: srt, Rat: r}, err
	case solver.StringSort:
		str, valid, err := s.ctx.evalString(m, a, s.intSort)
		if err != nil {
			return solver.Value{}, err
		}
		if !valid {
			return solver.Value{}, fmt.Errorf("z3: value of %s: a character is a UTF-16 surrogate: %w", s.tab.String(v), solver.ErrOutOfRange)
		}
		return solver.Value{Sort: srt, Str: str}, nil
	}
	return solver.Value{}, fmt.Errorf("z3: %s has invalid sort", s.tab.String(v))
}
