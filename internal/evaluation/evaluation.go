// Package evaluation repeats Khalil and Dingel's evaluation (Incremental symbolic
// execution, 2015, §6; docs/evaluation.md) for versions of a model: it times full symbolic
// execution, MSE, DSE and auto on each version and prints Tables 3-5. It
// is the research harness behind setbot evaluate, kept out of the analysis
// packages because fair timing needs what a library must not do (a
// garbage collection before every timed run).
package evaluation

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Row is one version's line of Tables 3-5 of
// Khalil and Dingel, Incremental symbolic execution, 2015, measured in one run.
type Row struct {
	Name                 string
	Changed, Impacted    int
	M1, M2               float64
	Full, MSE, DSE, Auto time.Duration // fastest of the runs
	AutoStrategy         vocab.Strategy
	States, Paths        int // full SE's tree
	MSENewStates         int
	MSENewPaths          int
	DSEStates, DSEPaths  int
	Identical            bool // MSE's tree is full SE's, node for node
}

// Evaluate measures, for every version of base, the head tree by full SE,
// MSE (from base's tree), DSE and auto, each runs times, interleaved so
// that the machine's noise hits them alike. Each time is the fastest of its
// runs: the best estimate of the work itself on a machine whose other load
// only ever adds time.
func Evaluate(base *mlm.Machine, names []string, versions []*mlm.Machine, req incremental.Request, runs int, progress io.Writer) ([]Row, error) {
	baseSet, err := engine.Explore(base, req.Engine, req.Solver)
	if err != nil {
		return nil, fmt.Errorf("exploring the base: %w", err)
	}
	var rows []Row
	for i, head := range versions {
		d := diffmap.Compute(base.Source, head.Source, base, head)
		impact, interest := incremental.ChangeImpact(d, base, head)
		row := Row{Name: names[i], Changed: len(impact.Changed), Impacted: len(impact.Impacted), M1: impact.M1, M2: impact.M2}
		var tf, tm, td, ta []time.Duration
		var fullDump, mseDump string
		for k := 0; k < runs; k++ {
			last := k == runs-1
			// Each run starts from a collected heap holding only the base
			// tree: a run never pays for the garbage, or the live trees, of
			// another.
			runtime.GC()
			start := time.Now()
			full, err := engine.Explore(head, req.Engine, req.Solver)
			if err != nil {
				return nil, err
			}
			tf = append(tf, time.Since(start))
			row.States, row.Paths = full.Stats.States, full.Stats.Paths
			if last {
				fullDump = full.Dump()
			}
			full = nil
			runtime.GC()
			start = time.Now()
			mse, err := incremental.Build(vocab.StrategyMSE, head, baseSet, d, nil, req)
			if err != nil {
				return nil, err
			}
			tm = append(tm, time.Since(start))
			row.MSENewStates, row.MSENewPaths = mse.Stats.New, 0
			for _, l := range mse.Leaves() {
				if !l.Reused {
					row.MSENewPaths++
				}
			}
			if last {
				mseDump = mse.Dump()
			}
			mse = nil
			runtime.GC()
			start = time.Now()
			dse, err := engine.ExploreDSE(head, interest, req.Engine, req.Solver)
			if err != nil {
				return nil, err
			}
			td = append(td, time.Since(start))
			row.DSEStates, row.DSEPaths = dse.Stats.States, dse.Stats.Paths
			dse = nil
			runtime.GC()
			start = time.Now()
			strategy, _, err := incremental.Choose(vocab.StrategyAuto, d, base, head, baseSet)
			if err != nil {
				return nil, err
			}
			if _, err := incremental.Build(strategy, head, baseSet, d, interest, req); err != nil {
				return nil, err
			}
			ta = append(ta, time.Since(start))
			row.AutoStrategy = strategy
		}
		row.Full, row.MSE, row.DSE, row.Auto = fastest(tf), fastest(tm), fastest(td), fastest(ta)
		row.Identical = mseDump == fullDump
		rows = append(rows, row)
		if progress != nil {
			fmt.Fprintf(progress, "setbot: %s: %d/%d versions\n", base.Name, i+1, len(versions))
		}
	}
	return rows, nil
}

func fastest(ds []time.Duration) time.Duration { return slices.Min(ds) }

func ratio(part, whole float64) float64 {
	if whole == 0 {
		return 1
	}
	return part / whole
}

// WriteTable prints rows in the layout of Tables 3-5 of
// Khalil and Dingel, Incremental symbolic execution, 2015, with the
// average and standard deviation of the savings, the number of versions
// where MSE's tree differs from SE's, and time(auto)/time(full).
func WriteTable(w io.Writer, title string, rows []Row) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", title)
	b.WriteString("| Ver. | changed | impacted | M1 | M2 | SE:MSE time | new states | total states | new paths | total paths | SE:DSE time | states | paths | auto | auto/full | MSE = SE |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	cols := make([][]float64, 6) // savings: MSE time, new states, new paths; DSE time, states, paths
	differ := 0
	worst := 0.0
	for _, r := range rows {
		full := float64(r.Full)
		vals := []float64{
			ratio(float64(r.MSE), full), ratio(float64(r.MSENewStates), float64(r.States)), ratio(float64(r.MSENewPaths), float64(r.Paths)),
			ratio(float64(r.DSE), full), ratio(float64(r.DSEStates), float64(r.States)), ratio(float64(r.DSEPaths), float64(r.Paths)),
		}
		for i, v := range vals {
			cols[i] = append(cols[i], 1-v)
		}
		auto := ratio(float64(r.Auto), full)
		worst = math.Max(worst, auto)
		same := "yes"
		if !r.Identical {
			same = "NO"
			differ++
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.0f | %.0f | 1 : %.2f | 1 : %.2f | 1 : 1 | 1 : %.2f | 1 : 1 | 1 : %.2f | 1 : %.2f | 1 : %.2f | %s | %.2f | %s |\n",
			r.Name, r.Changed, r.Impacted, r.M1, r.M2, vals[0], vals[1], vals[2], vals[3], vals[4], vals[5], r.AutoStrategy, auto, same)
	}
	avg := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	sd := func(xs []float64) float64 {
		m, s := avg(xs), 0.0
		for _, x := range xs {
			s += (x - m) * (x - m)
		}
		return math.Sqrt(s / float64(len(xs)))
	}
	if len(rows) > 0 {
		fmt.Fprintf(&b, "| Average savings | | | | | %.1f %% | %.1f %% | | %.1f %% | | %.1f %% | %.1f %% | %.1f %% | | | |\n",
			100*avg(cols[0]), 100*avg(cols[1]), 100*avg(cols[2]), 100*avg(cols[3]), 100*avg(cols[4]), 100*avg(cols[5]))
		fmt.Fprintf(&b, "| Standard deviation | | | | | %.1f %% | %.1f %% | | %.1f %% | | %.1f %% | %.1f %% | %.1f %% | | | |\n",
			100*sd(cols[0]), 100*sd(cols[1]), 100*sd(cols[2]), 100*sd(cols[3]), 100*sd(cols[4]), 100*sd(cols[5]))
	}
	fmt.Fprintf(&b, "\nVersions where MSE's tree differs from SE's: %d of %d. Largest time(auto)/time(full): %.2f.\n\n", differ, len(rows), worst)
	_, err := io.WriteString(w, b.String())
	return err
}
