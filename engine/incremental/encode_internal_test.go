package incremental

import (
	"reflect"
	"slices"
	"testing"

	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/testgen"
)

// TestStoredMirrorsResult: the stored types have a field for every field
// of the core's types but those the encoding leaves out on purpose, and no
// other. A field added to a Result fails this test until it is stored (and
// resultFormat changed) or listed here as left out.
func TestStoredMirrorsResult(t *testing.T) {
	for _, c := range []struct {
		core, stored reflect.Type
		leftOut      []string
	}{
		{reflect.TypeFor[Result](), reflect.TypeFor[storedResult](),
			[]string{"Diff", "BaseSet", "HeadSet", "BaseTests", "HeadTests", "WholeSet"}},
		{reflect.TypeFor[testgen.Delta](), reflect.TypeFor[storedDelta](), nil},
		{reflect.TypeFor[testgen.Test](), reflect.TypeFor[storedTest](), []string{"Leaf"}},
		{reflect.TypeFor[testgen.Step](), reflect.TypeFor[storedStep](), nil},
		{reflect.TypeFor[testgen.Output](), reflect.TypeFor[storedOutput](), nil},
		{reflect.TypeFor[analysis.InvariantCheck](), reflect.TypeFor[storedInvariant](), nil},
		{reflect.TypeFor[OutputRef](), reflect.TypeFor[storedOutputRef](), nil},
		{reflect.TypeFor[Conflict](), reflect.TypeFor[storedConflict](), nil},
	} {
		core, stored := fieldNames(c.core), fieldNames(c.stored)
		for _, name := range core {
			if !slices.Contains(stored, name) && !slices.Contains(c.leftOut, name) {
				t.Errorf("%s.%s is not stored by EncodeResult", c.core, name)
			}
		}
		for _, name := range stored {
			if !slices.Contains(core, name) {
				t.Errorf("%s.%s stores no field of %s", c.stored, name, c.core)
			}
		}
	}
}

// fieldNames lists the exported fields of a struct type, those of
// embedded structs as its own.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			out = append(out, fieldNames(f.Type)...)
		case f.IsExported():
			out = append(out, f.Name)
		}
	}
	return out
}
