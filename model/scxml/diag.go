package scxml

import "github.com/setbot/setbot/model/source"

// diag collects what reading one document and the phases after it report:
// errors (the model is not returned) and warnings (kept in the model).
// Every phase reports through it, so that the lists keep the order in
// which the phases ran, which Read sorts stably by position.
type diag struct {
	fset  *source.FileSet
	file  *source.File // the document: offsets are into it
	errs  source.ErrorList
	warns source.ErrorList
}

func (d *diag) pos(off int) source.Pos { return d.file.Pos(off) }

func (d *diag) errorf(off int, format string, args ...any) {
	d.errs.Add(d.file.Position(d.file.Pos(off)), format, args...)
}

// refusef reports, at an offset of the file being read, a construct that
// is valid SCXML (or valid for another tool) which setbot does not support.
func (d *diag) refusef(off int, format string, args ...any) {
	d.errs.Refuse(d.file.Position(d.file.Pos(off)), format, args...)
}

// warnf reports a warning: the model loads, and the warning is kept in it.
func (d *diag) warnf(off int, format string, args ...any) {
	d.warns.Add(d.file.Position(d.file.Pos(off)), format, args...)
}
