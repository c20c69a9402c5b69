// Command mkhostile writes one hostile input of package hostile to standard output, for
// measuring what setbot does with it:
//
//	mkhostile -shape sum -n 300000 > sum.scxml
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/setbot/setbot/internal/hostile"
)

func main() {
	shape := flag.String("shape", "", "sum, parens, alternatives, script, symbolic-script, doubles, parallel, idle, counter or greedy-config")
	n := flag.Int("n", 1000, "the size: terms, depth, bytes, statements, regions or states and events, as the shape counts")
	flag.Parse()
	var out []byte
	switch *shape {
	case "sum":
		out = hostile.Sum(*n)
	case "parens":
		out = hostile.Parens(*n)
	case "alternatives":
		out = hostile.Alternatives(*n)
	case "script":
		out = hostile.Script(*n)
	case "symbolic-script":
		out = hostile.SymbolicScript(*n)
	case "doubles":
		out = hostile.Doubles(*n)
	case "parallel":
		out = hostile.Parallel(*n)
	case "idle":
		out = hostile.Idle(*n, *n)
	case "counter":
		out = hostile.Counter()
	case "greedy-config":
		out = hostile.GreedyConfig()
	default:
		fmt.Fprintf(os.Stderr, "mkhostile: unknown shape %q (see -help)\n", *shape)
		os.Exit(2)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		fmt.Fprintln(os.Stderr, "mkhostile:", err)
		os.Exit(1)
	}
}
