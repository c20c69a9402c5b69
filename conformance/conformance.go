// Package conformance runs the W3C SCXML IRP tests (the Implementation
// Report Plan's test documents, converted for one data model, with their
// manifest.xml) through setbot and judges each one.
//
// Every test is a closed statechart that ends in the final state pass when
// the processor behaves as the specification requires and in fail
// otherwise. setbot explores every execution, so its oracle is: pass is
// entered by some execution and fail by none. A test is judged
//
//   - right: pass entered, fail never entered (qualified when a bound cut
//     the tree: fail was not entered within it);
//   - wrong: fail entered by some execution, or pass never entered though
//     no bound cut the tree;
//   - needs timed semantics: under --time untimed only, wrong in a test
//     that uses delayed sends. The untimed abstraction lets timers fire in
//     any order, where the tests rely on their deadlines, so such a verdict
//     says nothing either way;
//   - refused: setbot does not read, flatten or start the model;
//   - error: the exploration failed, or decided nothing within its bounds;
//   - missing: the start document is not in the directory.
package conformance

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// DefaultTimeout is the wall-clock budget of one test document, so that
// no test can hang the run.
const DefaultTimeout = 20 * time.Second

// The final states a test ends in.
const (
	passState = "pass"
	failState = "fail"
)

// Verdict is what the check concludes about a test.
type Verdict int

// The verdicts, in the order a test of several documents combines them:
// the document with the highest verdict decides.
const (
	Right Verdict = iota
	Missing
	Refused
	Error
	NeedsTime
	Wrong
)

var verdictNames = [...]string{"right", "missing", "refused", "error", "needs_time", "wrong"}

// String is the verdict as the table prints it: RIGHT, WRONG, NEEDS_TIME,
// REFUSED, ERROR, MISSING.
func (v Verdict) String() string { return strings.ToUpper(verdictNames[v]) }

// MarshalText is the verdict in JSON: right, wrong, needs_time, refused,
// error, missing.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(verdictNames[v]), nil }

// UnmarshalText reads what MarshalText writes.
func (v *Verdict) UnmarshalText(b []byte) error {
	i := slices.Index(verdictNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("unknown verdict %q", b)
	}
	*v = Verdict(i)
	return nil
}

// Options select the tests and bound their runs.
type Options struct {
	// All runs every test of the manifest; by default only the mandatory
	// automatic ones, the set implementations report on.
	All bool
	// Engine bounds each exploration (zero values take engine's
	// defaults); its Timeout is per test document, DefaultTimeout when 0.
	Engine engine.Options
	// Workers is how many documents are checked at once; GOMAXPROCS when 0.
	Workers int
	// NewSolver makes each exploration's solver (Z3, say). Required.
	NewSolver engine.NewSolver
}

// FileResult is the verdict on one start document of a test.
type FileResult struct {
	File    string            `json:"file"`
	Verdict Verdict           `json:"verdict"`
	Reason  string            `json:"reason"`
	Bounds  []engine.BoundHit `json:"bounds_hit,omitempty"`
	Ms      int64             `json:"ms"`
}

// Result is the verdict on one test.
type Result struct {
	ID          string  `json:"id"`
	Conformance string  `json:"conformance"` // mandatory or optional
	Manual      bool    `json:"manual"`
	Verdict     Verdict `json:"verdict"`
	Reason      string  `json:"reason"`
	// Qualified marks a right verdict reached under a bound that cut the
	// tree: fail is not entered within the bounds.
	Qualified bool `json:"qualified,omitempty"`
	// KnownWrong is why a wrong test is on the list of those known to be
	// wrong (KnownWrong); it is still wrong.
	KnownWrong string       `json:"known_wrong,omitempty"`
	Files      []FileResult `json:"files"`
}

// Report is the outcome of a run over a directory.
type Report struct {
	Dir     string
	All     bool
	Results []Result // by test id, numerically
	Ms      int64
	// Baseline is the comparison with a baseline, once CompareBaseline
	// made it.
	Baseline *BaselineCheck
}

// Selected reports whether a run with opts checks t.
func (o Options) Selected(t Test) bool { return o.All || (t.Mandatory && !t.Manual) }

// Run checks the selected tests of dir. Its error concerns the directory
// or its manifest; a test that setbot cannot check has a verdict that
// says why.
func Run(dir string, opts Options) (*Report, error) {
	if opts.NewSolver == nil {
		return nil, errors.New("conformance: no solver")
	}
	if info, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("reading the test directory: %w", err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	tests, err := ReadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep := &Report{Dir: dir, All: opts.All}
	type job struct {
		test, file int
		start      string
	}
	var jobs []job
	for _, t := range tests {
		if !opts.Selected(t) {
			continue
		}
		r := Result{ID: t.ID, Conformance: "optional", Manual: t.Manual, Files: make([]FileResult, len(t.Starts))}
		if t.Mandatory {
			r.Conformance = "mandatory"
		}
		for i, s := range t.Starts {
			jobs = append(jobs, job{len(rep.Results), i, s})
		}
		rep.Results = append(rep.Results, r)
	}

	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	queue := make(chan job)
	var wg sync.WaitGroup
	for range min(workers, max(len(jobs), 1)) {
		wg.Go(func() {
			for j := range queue {
				rep.Results[j.test].Files[j.file] = checkFile(dir, j.start, opts)
			}
		})
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()

	known := KnownWrong()
	for i := range rep.Results {
		r := &rep.Results[i]
		r.combine()
		if r.Verdict == Wrong {
			r.KnownWrong = known[r.ID]
		}
	}
	slices.SortFunc(rep.Results, func(a, b Result) int { return compareIDs(a.ID, b.ID) })
	rep.Ms = time.Since(start).Milliseconds()
	return rep, nil
}

// compareIDs orders test ids numerically, then as text.
func compareIDs(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil && x != y {
		return cmp.Compare(x, y)
	}
	return cmp.Compare(a, b)
}

// combine sets the test's verdict from its documents'.
func (r *Result) combine() {
	worst := r.Files[0]
	for _, f := range r.Files[1:] {
		if f.Verdict > worst.Verdict {
			worst = f
		}
	}
	r.Verdict = worst.Verdict
	if len(r.Files) == 1 {
		r.Reason = worst.Reason
	} else {
		parts := make([]string, len(r.Files))
		for i, f := range r.Files {
			parts[i] = f.File + ": " + f.Verdict.String() + ", " + f.Reason
		}
		r.Reason = strings.Join(parts, "; ")
	}
	r.Qualified = r.Verdict == Right && slices.ContainsFunc(r.Files, func(f FileResult) bool { return len(f.Bounds) > 0 })
}

// checkFile loads, starts, explores and judges the document of dir that
// the start URI names.
func checkFile(dir, uri string, opts Options) (res FileResult) {
	res.File = File(uri)
	path := filepath.Join(dir, res.File)
	start := time.Now()
	defer func() {
		// One document that crashes the engine is that document's error,
		// not the end of the run.
		if p := recover(); p != nil {
			res.Verdict, res.Reason = Error, oneLine(fmt.Sprintf("panic: %v", p))
		}
		res.Ms = time.Since(start).Milliseconds()
	}()
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		res.Verdict, res.Reason = Missing, "no "+res.File+" in the directory (start "+uri+")"
		return res
	}
	eopts := opts.Engine
	// The tests are closed systems: an event no transition generates is
	// never sent, rather than an input of the environment.
	eopts.Closed = true
	if eopts.Timeout <= 0 {
		eopts.Timeout = DefaultTimeout
	}
	// The document's budget bounds its flattening too.
	ctx, cancel := context.WithTimeout(context.Background(), eopts.Timeout)
	defer cancel()
	m, err := load.File(ctx, path, load.Options{})
	var errs source.ErrorList
	switch {
	case errors.As(err, &errs):
		res.Verdict, res.Reason = Refused, oneLine(errs[0].Msg)
		return res
	case err != nil:
		res.Verdict, res.Reason = Error, oneLine("flattening: "+err.Error())
		return res
	}
	if err := engine.CheckStart(m, eopts, opts.NewSolver); err != nil {
		var se *engine.StartError
		if errors.As(err, &se) {
			res.Verdict, res.Reason = Refused, oneLine(se.Msg)
		} else {
			res.Verdict, res.Reason = Error, oneLine("starting: "+err.Error())
		}
		return res
	}
	set, err := engine.Explore(m, eopts, opts.NewSolver)
	if err != nil {
		res.Verdict, res.Reason = Error, oneLine("exploring: "+err.Error())
		return res
	}
	res.Bounds = set.Bounds
	res.Verdict, res.Reason = judge(set)
	if res.Verdict == Wrong && eopts.Time == vocab.TimeUntimed && m.SetsTimers() {
		res.Verdict = NeedsTime
		res.Reason += "; the test uses delayed sends, whose deadlines setbot's untimed abstraction does not order"
	}
	return res
}

// judge applies the oracle to a tree.
func judge(set *engine.SET) (Verdict, string) {
	src := set.Machine.Source
	if src.State(passState) == nil {
		return Error, `no state "pass" to judge by`
	}
	r := set.Reachability()
	if n := r.Entered[failState]; n != nil {
		return Wrong, "fail entered " + after(n)
	}
	pass := r.Entered[passState]
	switch {
	case pass == nil && len(set.Bounds) == 0:
		return Wrong, "pass never entered, and no bound cut the tree"
	case pass == nil:
		return Error, "no verdict: neither pass nor fail entered within the bounds (" + bounds(set.Bounds) + ")"
	case len(set.Bounds) > 0:
		return Right, "pass entered " + after(pass) + "; fail not entered within the bounds (" + bounds(set.Bounds) + ")"
	}
	return Right, "pass entered " + after(pass) + "; fail never entered"
}

// after says which inputs reach a node: a shortest witness.
func after(n *engine.Node) string {
	path := n.Path()[1:]
	if len(path) == 0 {
		return "at the start"
	}
	steps := make([]string, len(path))
	for i, p := range path {
		steps[i] = p.In.Event
		if p.In.Timer {
			steps[i] += " (timer)"
		}
	}
	return "after " + strings.Join(steps, ", ")
}

// bounds says which bounds cut a tree.
func bounds(hits []engine.BoundHit) string {
	parts := make([]string, len(hits))
	for i, h := range hits {
		limit := strconv.FormatInt(h.Limit, 10)
		if h.Bound == vocab.BoundTime {
			limit = (time.Duration(h.Limit) * time.Millisecond).String()
		}
		parts[i] = fmt.Sprintf("%s %s cut %d paths", h.Bound, limit, h.Count)
	}
	return strings.Join(parts, ", ")
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(first)
}
