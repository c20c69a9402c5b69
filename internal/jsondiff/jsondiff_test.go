package jsondiff

import (
	"encoding/json"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFirst(t *testing.T) {
	for _, c := range []struct{ want, got, diff string }{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, ""},
		{`{"a":1,"b":[1,2]}`, `{"a":1,"b":[1,3]}`, "b[1]: want 2, got 3"},
		{`{"a":1}`, `{"a":1,"c":true}`, "c: want null, got true"},
		{`{"a":[1]}`, `{"a":[1,2]}`, "a: want [1], got [1,2]"},
		{`{"b":1,"a":2}`, `{"b":2,"a":3}`, "a: want 2, got 3"},
	} {
		if d := First(decode(t, c.want), decode(t, c.got)); d != c.diff {
			t.Errorf("First(%s, %s) = %q, want %q", c.want, c.got, d, c.diff)
		}
	}
}

func TestWithout(t *testing.T) {
	v := decode(t, `{"ms":3,"a":[{"ms":1,"b":2}],"c":{"ms":0}}`)
	got := Without(v, map[string]bool{"ms": true})
	if d := First(decode(t, `{"a":[{"b":2}],"c":{}}`), got); d != "" {
		t.Error(d)
	}
	if d := First(decode(t, `{"ms":3,"a":[{"ms":1,"b":2}],"c":{"ms":0}}`), v); d != "" {
		t.Errorf("Without changed its argument: %s", d)
	}
}
