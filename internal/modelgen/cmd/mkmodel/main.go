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
// differential test makes its pairs, and the change on stderr; the kinds
// start, invoke, table and reshape are modelgen's other edits
// (MutateStart, MutateInvoke, MutateTable, Reshape). With -functions the
// model calls a black-box function whose table mkmodel writes to -table
// (changed, with -mutate table).
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
	flag.BoolVar(&opts.HostCalls, "host-calls", false, "write host calls: SCXML.raise and SCXML.send, console.log, calls of functions the model does not define")
	flag.BoolVar(&opts.MixedKinds, "mixed-kinds", false, "add a variable that holds an int or a string")
	flag.BoolVar(&opts.Loose, "loose", false, "write ECMAScript as the models people keep write it: an input no <setbot:event> declares, an undeclared global, new Array(...), computed keys, In() of no state")
	flag.BoolVar(&opts.Start, "start", false, "give the machine a start sequence (an event raised and a timer set on entry)")
	flag.BoolVar(&opts.Invoke, "invoke", false, "give one state an <invoke> of an inline child machine")
	flag.BoolVar(&opts.Functions, "functions", false, "call a black-box function read through a table")
	tableFile := flag.String("table", modelgen.TableFile, "with -functions, where to write the function's table")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "mkmodel: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	src := modelgen.Generate(*seed, opts)
	var table []byte
	if opts.Functions {
		table = modelgen.Table(*seed)
	}
	if edit, ok := otherEdits[*mutate]; ok {
		var what string
		src, table, what, ok = edit(src, table, *seed)
		if !ok {
			fmt.Fprintf(os.Stderr, "mkmodel: no %s edit applies to the model of seed %d\n", *mutate, *seed)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "mkmodel: %s\n", what)
	} else if *mutate != "" {
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
	if table != nil {
		if err := os.WriteFile(*tableFile, table, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "mkmodel: %v\n", err)
			os.Exit(1)
		}
	}
	os.Stdout.Write(src)
}

// otherEdits are the edits of -mutate that are no change kind.
var otherEdits = map[string]func(src, table []byte, seed int64) ([]byte, []byte, string, bool){
	"start": func(src, table []byte, seed int64) ([]byte, []byte, string, bool) {
		out, e, ok := modelgen.MutateStart(src, seed)
		return out, table, e.Description, ok
	},
	"invoke": func(src, table []byte, seed int64) ([]byte, []byte, string, bool) {
		out, what, ok := modelgen.MutateInvoke(src, seed)
		return out, table, what, ok
	},
	"table": func(src, table []byte, seed int64) ([]byte, []byte, string, bool) {
		out, what, ok := modelgen.MutateTable(table, seed)
		return src, out, what, ok
	},
	"reshape": func(src, table []byte, seed int64) ([]byte, []byte, string, bool) {
		out, what, ok := modelgen.Reshape(src, seed)
		return out, table, what, ok
	},
}
