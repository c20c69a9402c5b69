package z3

import (
	"fmt"
	"sync"
	"testing"

	"github.com/setbot/setbot/solver"
)

// TestContextsOneAfterAnother checks what creating every context on one
// thread, reusing the memory of those deleted before, must keep: solvers
// started from many goroutines at once all start and answer, and a
// solver started after others (its context in their freed memory) gives
// the same model as the first of the process did, as a new context does.
func TestContextsOneAfterAnother(t *testing.T) {
	query := func() (string, error) {
		tab := solver.NewTable()
		x := tab.Var("x", solver.IntSort)
		y := tab.Var("y", solver.IntSort)
		s, err := New(tab)
		if err != nil {
			return "", err
		}
		defer s.Close()
		conj := []solver.Term{tab.Gt(tab.Add(x, y), tab.Int(10)), tab.Lt(x, y), tab.Ne(tab.Rem(y, tab.Int(3)), tab.Int(0))}
		if r, err := s.Check(append(conj, tab.Lt(tab.Add(x, y), tab.Int(11)))); err != nil || r != solver.Unsat {
			return "", fmt.Errorf("x + y > 10 and x + y < 11: %v, %v; want unsat", r, err)
		}
		r, m, err := s.Model(conj, []solver.Term{x, y})
		if err != nil || r != solver.Sat {
			return "", fmt.Errorf("Model = %v, %v", r, err)
		}
		return fmt.Sprintf("x=%d y=%d", m[x].Int, m[y].Int), nil
	}
	first, err := query()
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 3
	got := make([][]string, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				m, err := query()
				if err != nil {
					errs[w] = err
					return
				}
				got[w] = append(got[w], m)
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		if errs[w] != nil {
			t.Fatalf("goroutine %d: %v", w, errs[w])
		}
		for i, m := range got[w] {
			if m != first {
				t.Errorf("goroutine %d, solver %d: model %s, the first solver's was %s", w, i, m, first)
			}
		}
	}
}
