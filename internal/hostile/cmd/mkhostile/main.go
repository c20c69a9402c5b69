// Command mkhostile writes one hostile input of package hostile to standard output, for
// measuring what setbot does with it:
//
//	mkhostile -shape sum -n 300000 > sum.scxml
//
// With -states, the condition of sum, parens or alternatives, the script of script, or
// counter's assignment is repeated in a ring of that many states (hostile.Guards,
// Scripts, Assigns): a model as large as one likes, made of pieces the limits accept.
//
//	mkhostile -shape sum -n 998 -states 256 > sums.scxml
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/setbot/setbot/internal/hostile"
)

func main() {
	shape := flag.String("shape", "", "sum, parens, alternatives, script, symbolic-script, doubles, parallel, idle, busy, counter or greedy-config")
	n := flag.Int("n", 1000, "the size: terms, depth, bytes, statements, regions or states and events, as the shape counts")
	states := flag.Int("states", 0, "repeat the shape's condition, script or assignment in a ring of this many states (sum, parens, alternatives, script, counter)")
	flag.Parse()
	var out []byte
	switch {
	case *states <= 0:
		out = single(*shape, *n)
	case *shape == "sum":
		out = hostile.Guards(*states, hostile.SumCond(*n))
	case *shape == "parens":
		out = hostile.Guards(*states, hostile.ParensCond(*n))
	case *shape == "alternatives":
		out = hostile.Guards(*states, hostile.AlternativesCond(*n))
	case *shape == "script":
		out = hostile.Scripts(*states, *n)
	case *shape == "counter":
		out = hostile.Assigns(*states)
	}
	if out == nil {
		fmt.Fprintf(os.Stderr, "mkhostile: unknown shape %q (see -help)\n", *shape)
		os.Exit(2)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		fmt.Fprintln(os.Stderr, "mkhostile:", err)
		os.Exit(1)
	}
}

// single returns the shape at size n, or nil for a shape it does not know.
func single(shape string, n int) []byte {
	switch shape {
	case "sum":
		return hostile.Sum(n)
	case "parens":
		return hostile.Parens(n)
	case "alternatives":
		return hostile.Alternatives(n)
	case "script":
		return hostile.Script(n)
	case "symbolic-script":
		return hostile.SymbolicScript(n)
	case "doubles":
		return hostile.Doubles(n)
	case "parallel":
		return hostile.Parallel(n)
	case "idle":
		return hostile.Idle(n, n)
	case "busy":
		return hostile.Busy(n, n)
	case "counter":
		return hostile.Counter()
	case "greedy-config":
		return hostile.GreedyConfig()
	}
	return nil
}
