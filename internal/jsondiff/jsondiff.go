// Package jsondiff compares JSON documents as encoding/json decodes them
// into any (maps, slices, strings, float64s, bools, nil), for the tests
// that hold one report against another.
package jsondiff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// clip is how much of a value First shows.
const clip = 300

// First names the first place, in sorted key order, where got differs
// from want, with both values (cut after 300 bytes), as
// "path: want X, got Y"; "" when they are equal.
func First(want, got any) string {
	return strings.TrimPrefix(first("", want, got), ".")
}

func first(path string, want, got any) string {
	switch x := want.(type) {
	case map[string]any:
		y, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if d := first(path+"."+k, x[k], y[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := got.([]any)
		if !ok || len(x) != len(y) {
			break
		}
		for i := range x {
			if d := first(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("%s: want %s, got %s", path, clipped(want), clipped(got))
}

// clipped is v as JSON, cut after clip bytes.
func clipped(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > clip {
		return string(b[:clip]) + "..."
	}
	return string(b)
}

// Without returns a copy of v without the object members whose names drop
// holds, at every level.
func Without(v any, drop map[string]bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if !drop[k] {
				out[k] = Without(e, drop)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Without(e, drop)
		}
		return out
	}
	return v
}
