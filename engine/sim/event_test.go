package sim_test

import (
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// TestParseTimerMark: a step printed as a timer reads as the timer firing,
// and only such a step does.
func TestParseTimerMark(t *testing.T) {
	for in, self := range map[string]bool{"s0.0/timeout (timer)": true, "tick  (timer)": true, "tick": false, "tick()": false} {
		ev, err := sim.ParseEvent(in)
		if err != nil || ev.Meta.Self != self {
			t.Errorf("ParseEvent(%q): Self %v, %v; want Self %v", in, ev.Meta.Self, err, self)
		}
	}
}

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
		{"s0.0/timeout", "s0.0/timeout()"},
		{"s0.0/c.1/tick", "s0.0/c.1/tick()"},
		{"s0.0/timeout (timer)", "s0.0/timeout()"},
		{"/timeout", `event "/timeout": malformed event name "/timeout" (empty name around '/')`},
		{"s0.0//timeout", `event "s0.0//timeout": malformed event name "s0.0//timeout" (empty name around '/')`},
		{"tick(timer)", `event "tick(timer)": argument "timer" is not name=value`},
		{"set(x=1", `event "set(x=1": missing ')' at the end`},
		{"set(x=1))", `event "set(x=1))": argument x: "1)" is no value: write ` + sim.ArgSyntax},
		{"set(x=1,)", `event "set(x=1,)": empty argument (a stray comma?)`},
		{"set(x)", `event "set(x)": argument "x" is not name=value`},
		{"set(x=)", `event "set(x=)": argument x has no value`},
		{"set(1x=2)", `event "set(1x=2)": malformed argument name "1x"`},
		{"load(xs.length=2, xs[0]=9, ps[1].f=true)", "load(ps[1].f=true, xs.length=2, xs[0]=9)"},
		{"set(xs[i]=2)", `event "set(xs[i]=2)": malformed argument name "xs[i]"`},
		{"set(xs.=2)", `event "set(xs.=2)": malformed argument name "xs."`},
		{"set(xs[]=2)", `event "set(xs[]=2)": malformed argument name "xs[]"`},
		{"set(x=1, x=2)", `event "set(x=1, x=2)": argument x given twice`},
		{"set(x=yes)", `event "set(x=yes)": argument x: "yes" is no value: write ` + sim.ArgSyntax},
		{"e(s=',')", "e(s=',')"},
		{`e(s='a\'b, c=1)', t = "x\"y" , u='')`, `e(s='a\'b, c=1)', t='x"y', u='')`},
		{`e(s=')')`, `e(s=')')`},
		{`e(s='\\ \n \t \r \u{e9}\u00e9 \u{1F600}')`, `e(s='\\ \n \t \r éé 😀')`},
		{`e(s='\u{0}\u{200b}')`, `e(s='\u{0}\u{200b}')`},
		{`e(s='abc)`, `event "e(s='abc)": argument s: string 'abc: unterminated string literal`},
		{`e(s='a' 'b')`, `event "e(s='a' 'b')": argument s: 'a' is followed by "'b'": put a comma between arguments`},
		{`e(s='a\q')`, `event "e(s='a\\q')": argument s: string 'a\q': unknown escape sequence \q`},
		{"e(s=undefined, n=null)", "e(n=null, s=undefined)"},
		{"e(s=undefined, _absent_s=1)", `event "e(s=undefined, _absent_s=1)": argument _absent_s given twice`},
		{"e(s=undefined, s='x')", `event "e(s=undefined, s='x')": argument s given twice`},
		{"e(_absent_s=1, s='')", "e(s=undefined)"},
		{"e(_absent_s=2, s='x')", "e(_absent_s=2, s='x')"},
		{"e(_absent_s=0, s='x')", "e(s='x')"},
		{"e(_absent_s=0)", "e(_absent_s=0)"},
		{"e(xs[1]=undefined, d=-0.25)", "e(d=-0.25, xs[1]=undefined)"},
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
	for _, s := range []string{"reset", "set(x=3, ok=true, y=-2)", "done.state.S1()", "a(p: 1)", "x(,)",
		`e(s='a\'b, c=1)', t="\u{e9}\n", u=undefined, v=null, d=1.5)`, "e(_absent_s=1, s='')", "e(xs.length=1, xs[0]=-2)"} {
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

// TestFormatArgsRoundTrip checks that ParseEvent reads back what
// FormatArgs writes, for strings of quotes, commas, parentheses,
// backslashes, controls and characters beyond ASCII.
func TestFormatArgsRoundTrip(t *testing.T) {
	alphabet := []rune("'\",\\()=: a1\n\r\t\x00\x7fé€😀\u200b\U0002FFFF")
	rng := rand.New(rand.NewSource(1))
	str := func() string {
		var b strings.Builder
		for range rng.Intn(10) {
			b.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	for range 3000 {
		args := map[string]sim.Value{"s": sim.StringValue(str()), "t": sim.StringValue(str()), "n": sim.IntValue(rng.Int63n(7) - 3)}
		if rng.Intn(2) == 0 {
			args["_absent_s"] = sim.IntValue(rng.Int63n(3))
		}
		ev := sim.Event{Name: "e", Args: args}
		got, err := sim.ParseEvent(ev.String())
		if err != nil {
			t.Fatalf("%v printed as %s, which does not parse: %v", args, ev, err)
		}
		if got.String() != ev.String() {
			t.Fatalf("%v printed as %s, read back as %s", args, ev, got)
		}
		switch tag, ok := args["_absent_s"]; {
		case ok && tag.Int == 0:
			delete(args, "_absent_s") // Complete gives it back
		case ok && args["s"].Str == "":
			delete(args, "s") // written as undefined or null; Complete gives it back
		}
		if !maps.EqualFunc(got.Args, args, sim.Value.Equal) {
			t.Fatalf("%s read back as %v, want %v", ev, got.Args, args)
		}
	}
}

func TestComplete(t *testing.T) {
	e := &model.Event{Name: "e", Params: []model.Param{
		{Name: "_absent_n", Type: ast.AbsentType}, {Name: "_absent_s", Type: ast.AbsentType},
		{Name: "k", Type: ast.RangeType(5, 9)}, {Name: "n", Type: ast.RangeType(3, 7)}, {Name: "s", Type: ast.StringType},
	}}
	tests := []struct{ in, want string }{
		{"e(s=undefined, n=null, k=5)", "_absent_n=2 _absent_s=1 k=5 n=3 s=''"},
		{"e(s='x', n=4, k=5)", "_absent_n=0 _absent_s=0 k=5 n=4 s='x'"},
		{"e(_absent_s=1, s='y')", "_absent_s=1 s='y'"},
		{"e()", ""},
	}
	for _, tt := range tests {
		ev, err := sim.ParseEvent(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Complete(e, ev.Args); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, name := range slices.Sorted(maps.Keys(ev.Args)) {
			got = append(got, name+"="+ev.Args[name].String())
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Complete(%s) = %s, want %s", tt.in, strings.Join(got, " "), tt.want)
		}
	}
}
