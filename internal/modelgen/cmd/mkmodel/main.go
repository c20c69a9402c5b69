// Command mkmodel writes the random model that modelgen generates for a
// seed and options: the model a differential or random test names when it
// fails ("seed 42" with the options the test lists), to read, simulate or
// shrink by hand.
//
//	go run ./internal/modelgen/cmd/mkmodel -seed 42 -parallel -history > m.scxml
//	go run ./cmd/setbot simulate --reference m.scxml ...
//
// With -mutate KIND it writes, instead, the model changed by one change of
// that kind (modelgen.Mutate with the same seed), as the incremental
// differential test makes its pairs, and the change on stderr.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/setbot/setbot/internal/modelgen"
)

func main() {
	var opts modelgen.Options
	seed := flag.Int64("seed", 1, "the seed")
	mutate := flag.String("mutate", "", "write the model changed by one change of this kind (a diffmap kind, e.g. guard_changed)")
	flag.IntVar(&opts.States, "states", 0, "approximate number of states (0: the default)")
	flag.IntVar(&opts.Events, "events", 0, "number of input events (0: the default)")
	flag.IntVar(&opts.Vars, "vars", 0, "number of int variables (0: the default)")
	flag.IntVar(&opts.Unused, "unused", 0, "number of extra variables no code uses")
	flag.BoolVar(&opts.Parallel, "parallel", false, "allow parallel regions")
	flag.BoolVar(&opts.History, "history", false, "allow history states")
	flag.BoolVar(&opts.Loops, "loops", false, "allow bounded loops in actions")
	flag.BoolVar(&opts.Internal, "internal", false, "allow raised events and final states")
	flag.BoolVar(&opts.Timers, "timers", false, "allow delayed sends")
	flag.BoolVar(&opts.SelfSends, "self-sends", false, "allow sends to the machine's own queue")
	flag.BoolVar(&opts.Halt, "halt", false, "add a top-level final state")
	flag.BoolVar(&opts.Completion, "completion", false, "let parallel states complete")
	flag.BoolVar(&opts.EventFields, "event-fields", false, "let conditions test how an event arrived")
	flag.BoolVar(&opts.Values, "values", false, "add strings, undefined, typeof and bit operators")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "mkmodel: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	src := modelgen.Generate(*seed, opts)
	if *mutate != "" {
		kind := modelgen.Kind(*mutate)
		if !slices.Contains(modelgen.Kinds, kind) {
			fmt.Fprintf(os.Stderr, "mkmodel: unknown change kind %q (want one of %v)\n", *mutate, modelgen.Kinds)
			os.Exit(2)
		}
		out, ch, ok := modelgen.Mutate(src, kind, *seed)
		if !ok {
			fmt.Fprintf(os.Stderr, "mkmodel: no change of kind %s applies to the model of seed %d\n", kind, *seed)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "mkmodel: %s %s\n", ch.Kind, ch.Subject)
		src = out
	}
	os.Stdout.Write(src)
}
