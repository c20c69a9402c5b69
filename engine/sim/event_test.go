package sim_test

import (
	"testing"

	"github.com/setbot/setbot/engine/sim"
)

func TestParseEvent(t *testing.T) {
	tests := []struct {
		in   string
		want string // Event.String(), or the error
	}{
		{"reset", "reset()"},
		{"reset()", "reset()"},
		{"  reset ( )  ", "reset()"},
		{"done.state.S1", "done.state.S1()"},
		{"error.io-x:y", "error.io-x:y()"},
		{"set(x=3, ok=true, y=-2)", "set(ok=true, x=3, y=-2)"},
		{"set( z = +4 ,a=false )", "set(a=false, z=4)"},
		{"set(p: 1)", "set(p=1)"},
		{"set(m=-9223372036854775808)", "set(m=-9223372036854775808)"},
		{"", `event "": missing event name`},
		{"(x=1)", `event "(x=1)": missing event name`},
		{"a..b", `event "a..b": malformed event name "a..b" (empty segment between dots)`},
		{".a", `event ".a": malformed event name ".a" (empty segment between dots)`},
		{"a b", `event "a b": malformed event name "a b" (unexpected ' ')`},
		{"set(x=1", `event "set(x=1": missing ')' at the end`},
		{"set(x=1))", `event "set(x=1))": argument x: "1)" is neither an integer nor true/false`},
		{"set(x=1,)", `event "set(x=1,)": empty argument (a stray comma?)`},
		{"set(x)", `event "set(x)": argument "x" is not name=value`},
		{"set(x=)", `event "set(x=)": argument x has no value`},
		{"set(1x=2)", `event "set(1x=2)": malformed argument name "1x"`},
		{"load(xs.length=2, xs[0]=9, ps[1].f=true)", "load(ps[1].f=true, xs.length=2, xs[0]=9)"},
		{"set(xs[i]=2)", `event "set(xs[i]=2)": malformed argument name "xs[i]"`},
		{"set(xs.=2)", `event "set(xs.=2)": malformed argument name "xs."`},
		{"set(xs[]=2)", `event "set(xs[]=2)": malformed argument name "xs[]"`},
		{"set(x=1, x=2)", `event "set(x=1, x=2)": argument x given twice`},
		{"set(x=yes)", `event "set(x=yes)": argument x: "yes" is neither an integer nor true/false`},
		{"set(x=9223372036854775808)", `event "set(x=9223372036854775808)": argument x: 9223372036854775808 does not fit a 64-bit integer`},
	}
	for _, tt := range tests {
		ev, err := sim.ParseEvent(tt.in)
		got := ev.String()
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ParseEvent(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzParseEvent checks that ParseEvent never panics and that what it
// accepts prints to text it reads back the same.
func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{"reset", "set(x=3, ok=true, y=-2)", "done.state.S1()", "a(p: 1)", "x(,)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ev, err := sim.ParseEvent(text)
		if err != nil {
			return
		}
		again, err := sim.ParseEvent(ev.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", text, ev.String(), err)
		}
		if again.String() != ev.String() {
			t.Fatalf("%q printed as %q, read back as %q", text, ev.String(), again.String())
		}
	})
}
