package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// frontEndFlags are the bounds of reading and flattening a model.
type frontEndFlags struct {
	limits vocab.Limits // the bounds of the model (vocab.StageModel); nil for the defaults
}

func (f *frontEndFlags) register(cmd *cobra.Command) {
	f.limits = vocab.Limits{}
	limitFlags(cmd.Flags(), f.limits, nil, vocab.StageModel)
}

// load reads and flattens one model file; calls of script functions are
// inlined as deep as loopBound (0: the default). The model's errors are a
// source.ErrorList (modelErrors prints them); ctx stops the flattening.
func (f *frontEndFlags) load(ctx context.Context, path string, loopBound int) (*mlm.Machine, error) {
	l := f.limits.Clone()
	l[vocab.BoundLoop] = int64(loopBound)
	return load.File(ctx, path, load.Bounded(l))
}

// modelErrors prints a model's errors, one a line to w, and returns the
// exit code for them; an error that is not about the model (a flattening
// stopped) is returned as it is.
func modelErrors(w io.Writer, err error) error {
	var errs source.ErrorList
	if !errors.As(err, &errs) {
		return err
	}
	for _, e := range errs {
		fmt.Fprintln(w, e)
	}
	return exitError{code: exitFindings}
}

func newCheckCmd() *cobra.Command {
	var fe frontEndFlags
	var loopBound int
	var summary bool
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Check that models read, flatten and start without error",
		Long: `check reads each model, flattens it and starts it: the machine must complete
its initial macrostep and the events that raises (an eventless loop, a raise
loop in onentry or a loop in the action code that does not end within
--loop-bound iterations is an error at the loop's position; run-to-completion
is bounded at 100 queued events, as explore bounds it). It prints one line per error, as file:line:col: message,
and exits 1 when there is any error, 0 otherwise. It also prints, as
file:line:col: warning: message, every place where the model does what SCXML
makes an error at run time (an expression that is no ECMAScript, an assignment
to a system variable, ...): setbot raises error.execution there, as the
specification requires; and every place it reads otherwise than as written (the
initialstate of the early SCXML working drafts as initial, In() of a state the
model does not have as false, an empty event attribute as none, ...), saying
what to write. Warnings alone leave the exit status 0. To see at once which
models of a whole tree setbot reads, run setbot survey DIR (check --summary DIR
is the same, with survey's defaults).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if summary {
				survey := defaultSurvey
				survey.fe = fe
				return survey.run(cmd, args)
			}
			failed := false
			for _, path := range args {
				m, err := fe.load(cmd.Context(), path, loopBound)
				if err != nil {
					if err := modelErrors(cmd.OutOrStdout(), err); !errors.As(err, new(exitError)) {
						return err
					}
					failed = true
					continue
				}
				for _, w := range m.Source.Warnings {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: warning: %s\n", w.Pos, w.Msg)
				}
				if err := engine.CheckStart(m, engine.Options{LoopBound: loopBound}, newZ3); err != nil {
					failed = true
					fmt.Fprintln(cmd.OutOrStdout(), err)
				}
			}
			if failed {
				return exitError{code: exitFindings}
			}
			return nil
		},
	}
	fe.register(cmd)
	loop, _ := vocab.BoundLoop.Settable()
	cmd.Flags().IntVar(&loopBound, loop.Flag, int(loop.Default), "run each loop of the start's action code at most this many times, and inline calls of script functions this deep")
	cmd.Flags().BoolVar(&summary, "summary", false, "survey the directories given instead, as setbot survey DIR does with its defaults")
	return cmd
}

var mlmWriters = map[string]func(io.Writer, *mlm.Machine) error{
	"text":    mlm.WriteText,
	"json":    mlm.WriteJSON,
	"dot":     mlm.WriteDOT,
	"mermaid": mlm.WriteMermaid,
}

func newMLMCmd() *cobra.Command {
	var fe frontEndFlags
	var format string
	cmd := &cobra.Command{
		Use:   "mlm FILE",
		Short: "Print the flattened Mealy-like machine of a model",
		Long: `mlm flattens a model into its Mealy-like machine (MLM): one state per active
configuration, one transition per macrostep, each with a stable key, and a
content hash that file order, layout and comments do not change.

Formats: text (the canonical form the hash covers), json (states, transitions
with key/source/target/event/guard/action, hash), dot (Graphviz), mermaid.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			write, ok := mlmWriters[format]
			if !ok {
				return fmt.Errorf("unknown --format %q (want text, json, dot or mermaid)", format)
			}
			m, err := fe.load(cmd.Context(), args[0], 0)
			if err != nil {
				return modelErrors(cmd.ErrOrStderr(), err)
			}
			return write(cmd.OutOrStdout(), m)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, dot or mermaid")
	fe.register(cmd)
	return cmd
}
