package lower

import (
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
)

func TestUnlower(t *testing.T) {
	tests := []struct {
		name   string
		leaves map[string]any
		want   string // the JSON of Unlower's result
	}{
		{"scalars", map[string]any{"n": int64(3), "s": "a", "ok": true}, `{"n":3,"ok":true,"s":"a"}`},
		{"undefined and null", map[string]any{"_absent_s": int64(1), "s": "", "_absent_n": int64(2), "n": int64(0), "_absent_m": int64(0), "m": int64(4)},
			`{"m":4,"n":null}`},
		{"a tag without its value", map[string]any{"_absent_s": int64(1)}, `{}`},
		{"an array of its length", map[string]any{"xs.length": int64(2), "xs[0]": int64(9), "xs[1]": int64(4), "xs[2]": int64(0)}, `{"xs":[9,4]}`},
		{"an empty array", map[string]any{"xs.length": int64(0), "xs[0]": int64(0)}, `{"xs":[]}`},
		{"undefined elements", map[string]any{"xs.length": int64(2), "xs[0]": int64(0), "_absent_xs[0]": int64(1), "xs[1]": int64(0), "_absent_xs[1]": int64(2)},
			`{"xs":[null,null]}`},
		{"objects in arrays", map[string]any{"ps.length": int64(1), "ps[0].f": "x", "ps[0].g.length": int64(1), "ps[0].g[0]": false, "ps[1].f": "", "ps[1].g.length": int64(0), "ps[1].g[0]": false},
			`{"ps":[{"f":"x","g":[false]}]}`},
		{"an object", map[string]any{"o.a": int64(1), "o.b": "", "_absent_o.b": int64(1), "o.c.d": int64(2)}, `{"o":{"a":1,"c":{"d":2}}}`},
		{"values of several kinds", map[string]any{"_as_int_v": int64(7), "_as_string_v": "", "_absent_v": int64(0), "_as_int_w": int64(0), "_as_string_w": "7", "_absent_w": int64(-1),
			"_as_bool_u": false, "_as_string_u": "", "_absent_u": int64(1)}, `{"v":7,"w":"7"}`},
		{"ten elements", map[string]any{"xs.length": int64(11), "xs[0]": int64(0), "xs[1]": int64(1), "xs[2]": int64(2), "xs[3]": int64(3), "xs[4]": int64(4), "xs[5]": int64(5),
			"xs[6]": int64(6), "xs[7]": int64(7), "xs[8]": int64(8), "xs[9]": int64(9), "xs[10]": int64(10)}, `{"xs":[0,1,2,3,4,5,6,7,8,9,10]}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(Unlower(tt.leaves))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Unlower = %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}

// TestUnlowerLeaves checks Unlower against Leaves: the leaves of a value
// of every shape the types allow rebuild it.
func TestUnlowerLeaves(t *testing.T) {
	obj := ast.Type{Kind: ast.Object, Comp: &ast.Composite{Fields: []ast.Field{{Name: "a", Type: ast.IntType}, {Name: "b", Type: ast.Type{Kind: ast.String, Absent: true}}}}}
	arr := ast.Type{Kind: ast.Array, Comp: &ast.Composite{Elem: obj, Len: 2}}
	leaves := map[string]any{}
	for _, f := range Leaves(arr) {
		var v any
		switch {
		case f.Tag:
			v = int64(ast.AbsentValue)
		case f.Type.Kind == ast.String:
			v = "s" + f.Suffix
		default:
			v = int64(1)
		}
		leaves[f.Name("p")] = v
	}
	got, _ := json.Marshal(Unlower(leaves))
	if want := `{"p":[{"a":1,"b":"s[0].b"}]}`; string(got) != want {
		t.Errorf("Unlower(%v) = %s, want %s", leaves, got, want)
	}
}

func TestEventData(t *testing.T) {
	tests := []struct {
		args map[string]any
		want string // the JSON of the data, or "none"
	}{
		{nil, "none"},
		{map[string]any{"_absent_s": int64(1), "s": ""}, `{}`},
		{map[string]any{"_data": "text"}, `"text"`},
		{map[string]any{"_data": int64(0), "_absent__data": int64(2)}, `null`},
		{map[string]any{"_data": int64(0), "_absent__data": int64(1)}, "none"},
		{map[string]any{"n": int64(1)}, `{"n":1}`},
	}
	for _, tt := range tests {
		data, ok := EventData(tt.args)
		got := "none"
		if ok {
			b, _ := json.Marshal(data)
			got = string(b)
		}
		if got != tt.want {
			t.Errorf("EventData(%v) = %s, want %s", tt.args, got, tt.want)
		}
	}
}
