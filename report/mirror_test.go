package report

import (
	"reflect"
	"slices"
	"testing"

	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
)

// TestReportMirrorsCore: the report's tests and findings are views of the
// core's (their lists never null in JSON, their witnesses report tests),
// so each has a field for every field of the core's type but those left
// out on purpose, with the same JSON name, and no other field. A field
// added to the core fails this test until the report writes it (and
// convert.go fills it) or it is listed here as left out.
func TestReportMirrorsCore(t *testing.T) {
	for _, c := range []struct {
		core, view reflect.Type
		leftOut    []string // the core's fields the report leaves out
	}{
		{reflect.TypeFor[testgen.Test](), reflect.TypeFor[Test](), []string{"Leaf"}},
		{reflect.TypeFor[testgen.Delta](), reflect.TypeFor[TestDelta](), nil},
		{reflect.TypeFor[analysis.InvariantCheck](), reflect.TypeFor[InvariantCheck](), nil},
		{reflect.TypeFor[incremental.OutputRef](), reflect.TypeFor[OutputRef](), nil},
		{reflect.TypeFor[incremental.Conflict](), reflect.TypeFor[Conflict](), nil},
	} {
		core, view := mirrorFields(c.core), mirrorFields(c.view)
		for name, tag := range core {
			if slices.Contains(c.leftOut, name) {
				continue
			}
			switch vt, ok := view[name]; {
			case !ok:
				t.Errorf("%s.%s has no field in the report's %s", c.core, name, c.view)
			case tag != "" && vt != tag:
				t.Errorf("%s.%s is %q in JSON, the report's %s writes %q", c.core, name, tag, c.view, vt)
			}
		}
		for name := range view {
			if _, ok := core[name]; !ok {
				t.Errorf("the report's %s.%s mirrors no field of %s", c.view, name, c.core)
			}
		}
	}
}

// mirrorFields maps the exported fields of a struct type, those of
// embedded structs as its own, to their JSON names ("" where untagged).
func mirrorFields(t reflect.Type) map[string]string {
	out := make(map[string]string)
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			for k, v := range mirrorFields(f.Type) {
				out[k] = v
			}
		case f.IsExported():
			out[f.Name] = f.Tag.Get("json")
		}
	}
	return out
}
