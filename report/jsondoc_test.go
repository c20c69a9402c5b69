package report

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const jsonDoc = "../docs/report-json.md"

// docObjects maps each object of docs/report-json.md to the type of package
// report that writes it: the document is written from these alone.
var docObjects = map[string]reflect.Type{
	"analysis":         reflect.TypeFor[Analysis](),
	"model":            reflect.TypeFor[Model](),
	"diagnostic":       reflect.TypeFor[Diagnostic](),
	"capped":           reflect.TypeFor[Capped](),
	"table_growth":     reflect.TypeFor[TableGrowth](),
	"grown_row":        reflect.TypeFor[GrownRow](),
	"change":           reflect.TypeFor[Change](),
	"position":         reflect.TypeFor[Position](),
	"transition_place": reflect.TypeFor[TransitionPlace](),
	"impact":           reflect.TypeFor[Impact](),
	"size":             reflect.TypeFor[Size](),
	"counts":           reflect.TypeFor[Counts](),
	"test_delta":       reflect.TypeFor[TestDelta](),
	"test":             reflect.TypeFor[Test](),
	"step":             reflect.TypeFor[Step](),
	"output":           reflect.TypeFor[Output](),
	"fired":            reflect.TypeFor[Fired](),
	"state_ref":        reflect.TypeFor[StateRef](),
	"output_ref":       reflect.TypeFor[OutputRef](),
	"conflict":         reflect.TypeFor[Conflict](),
	"bound_hit":        reflect.TypeFor[BoundHit](),
	"invariant_check":  reflect.TypeFor[InvariantCheck](),
	"gate":             reflect.TypeFor[Verdict](),
	"finding":          reflect.TypeFor[Finding](),
}

// docField is one row of an object's table.
type docField struct {
	typ    string // the Type column
	object string // the object it links to, if any
	isMap  bool   // a map with data-dependent keys: not walked
}

var (
	docHeading = regexp.MustCompile("^### ([a-z_]+)$")
	docRow     = regexp.MustCompile("^\\| `([a-z_0-9]+)` \\| ([^|]+) \\|")
	docLink    = regexp.MustCompile(`\[[a-z_]+\]\(#([a-z_]+)\)`)
	docExample = regexp.MustCompile("(?s)```json\n(.*?)```")
)

// readDoc parses the object tables of docs/report-json.md.
func readDoc(t *testing.T) (map[string]map[string]docField, []byte) {
	t.Helper()
	src, err := os.ReadFile(jsonDoc)
	if err != nil {
		t.Fatal(err)
	}
	objects := make(map[string]map[string]docField)
	var cur map[string]docField
	for _, line := range strings.Split(string(src), "\n") {
		if m := docHeading.FindStringSubmatch(line); m != nil {
			cur = make(map[string]docField)
			objects[m[1]] = cur
			continue
		}
		if strings.HasPrefix(line, "## ") {
			cur = nil
		}
		if m := docRow.FindStringSubmatch(line); m != nil && cur != nil {
			f := docField{typ: m[2], isMap: strings.HasPrefix(m[2], "map of")}
			if l := docLink.FindStringSubmatch(m[2]); l != nil {
				f.object = l[1]
			}
			cur[m[1]] = f
		}
	}
	ex := docExample.FindSubmatch(src)
	if ex == nil {
		t.Fatal("the doc has no JSON example")
	}
	return objects, ex[1]
}

// walk follows a decoded JSON value through the doc's tables, collecting
// the path of every field (models[].impact.m1) and those not documented.
func walk(objects map[string]map[string]docField, object, path string, v any, seen map[string]bool, missing *[]string) {
	switch v := v.(type) {
	case map[string]any:
		fields := objects[object]
		for k, x := range v {
			p := strings.TrimPrefix(path+"."+k, ".")
			seen[p] = true
			f, ok := fields[k]
			if !ok {
				*missing = append(*missing, p+" (not in the table of "+object+")")
				continue
			}
			if f.isMap {
				continue
			}
			walk(objects, f.object, p, x, seen, missing)
		}
	case []any:
		for _, x := range v {
			walk(objects, object, path+"[]", x, seen, missing)
		}
	default:
		if object != "" && v != nil {
			*missing = append(*missing, path+" is a scalar, documented as object "+object)
		}
	}
}

// TestJSONDocumented renders a real analysis to JSON and checks that every
// field path in it is documented, that the example in the doc is too, and
// that the doc's tables list exactly the fields of the Go types, with
// links to the right objects.
func TestJSONDocumented(t *testing.T) {
	objects, example := readDoc(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, fixtureAnalysis(t)); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string][]byte{"the rendered analysis": buf.Bytes(), "the doc's example": example} {
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			t.Fatalf("%s does not parse: %v", name, err)
		}
		seen := make(map[string]bool)
		var missing []string
		walk(objects, "analysis", "", v, seen, &missing)
		sort.Strings(missing)
		for _, p := range missing {
			t.Errorf("%s: %s is not documented in %s", name, p, jsonDoc)
		}
		if name == "the rendered analysis" {
			for _, p := range []string{"models[].impact.m1", "models[].test_delta.new[].steps[].outputs[].event",
				"models[].invariants[].witness.steps[].fired[].key", "models[].errors[].column", "gate.findings[].subject"} {
				if !seen[p] {
					t.Errorf("the fixture does not exercise %s", p)
				}
			}
		}
	}

	for name, typ := range docObjects {
		doc, ok := objects[name]
		if !ok {
			t.Errorf("%s has no section for %s (%s)", jsonDoc, name, typ)
			continue
		}
		fields := jsonFields(typ)
		for k, ft := range fields {
			f, ok := doc[k]
			if !ok {
				t.Errorf("%s.%s (%s) is not documented", name, k, typ)
				continue
			}
			want := ""
			if st := structOf(ft); st != nil {
				for obj, ty := range docObjects {
					if ty == st {
						want = obj
					}
				}
				if want == "" {
					t.Errorf("%s.%s is a %s, which has no section in the doc", name, k, st)
				}
			}
			if f.object != want {
				t.Errorf("%s.%s links to %q, want %q", name, k, f.object, want)
			}
		}
		for k := range doc {
			if _, ok := fields[k]; !ok {
				t.Errorf("%s documents %s.%s, which %s does not have", jsonDoc, name, k, typ)
			}
		}
	}
	for name := range objects {
		if _, ok := docObjects[name]; !ok {
			t.Errorf("%s documents an object %s that the test does not know", jsonDoc, name)
		}
	}
}

// jsonFields lists the JSON fields of a struct type as encoding/json sees
// them, embedded structs flattened.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := make(map[string]reflect.Type)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			for k, v := range jsonFields(et) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// structOf returns the struct type a field holds (through pointers and
// slices), or nil.
func structOf(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		return t
	}
	return nil
}
