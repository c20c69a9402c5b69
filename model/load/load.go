// Package load reads a model in any supported format and flattens it: the
// one front-end entry point for the command line, the analysis pipeline
// and tests. Only SCXML is read so far.
package load

import (
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// Options bound reading and flattening.
type Options struct {
	Read    scxml.Options
	Flatten mlm.Options
}

// File reads and flattens the model at path.
func File(path string, opts Options) (*mlm.Machine, source.ErrorList) {
	m, errs := scxml.ReadFile(source.NewFileSet(), path, opts.Read)
	if len(errs) > 0 {
		return nil, errs
	}
	return mlm.Flatten(m, opts.Flatten)
}

// Bytes reads and flattens a model held in memory (a file at a git
// revision, say); name is used in positions.
func Bytes(name string, src []byte, opts Options) (*mlm.Machine, source.ErrorList) {
	m, errs := scxml.Read(source.NewFileSet(), name, src, opts.Read)
	if len(errs) > 0 {
		return nil, errs
	}
	return mlm.Flatten(m, opts.Flatten)
}
