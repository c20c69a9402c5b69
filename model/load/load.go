// Package load reads a model in any supported format and flattens it: the
// one front-end entry point for the command line, the analysis pipeline
// and tests. Only SCXML is read so far.
package load

import (
	"context"

	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Options bound reading and flattening.
type Options struct {
	Read    scxml.Options
	Flatten mlm.Options
}

// Bounded returns the options that read and flatten a model within the
// bounds l sets: those of the model (vocab.StageModel), and the loop bound,
// as deep as which the reader inlines calls of script functions. What l
// leaves unset takes the default.
func Bounded(l vocab.Limits) Options {
	return Options{Read: scxml.Options{CallDepth: l.Int(vocab.BoundLoop)}, Flatten: mlm.Options{}.Bounded(l)}
}

// File reads and flattens the model at path. What is wrong with the model
// is a source.ErrorList; a flattening that ctx stops returns ctx's error
// (mlm.Flatten).
func File(ctx context.Context, path string, opts Options) (*mlm.Machine, error) {
	m, errs := scxml.ReadFile(source.NewFileSet(), path, opts.Read)
	if len(errs) > 0 {
		return nil, errs
	}
	return mlm.Flatten(ctx, m, opts.Flatten)
}

// Bytes reads and flattens a model held in memory (a file at a git
// revision, say); name is used in positions. Errors are File's.
func Bytes(ctx context.Context, name string, src []byte, opts Options) (*mlm.Machine, error) {
	m, errs := scxml.Read(source.NewFileSet(), name, src, opts.Read)
	if len(errs) > 0 {
		return nil, errs
	}
	return mlm.Flatten(ctx, m, opts.Flatten)
}
