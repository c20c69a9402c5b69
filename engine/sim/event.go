package sim

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// Value is a concrete value of the action language: an int, a decimal, a
// bool or a string. Compare values with Equal.
type Value struct {
	Kind ast.Kind // lang.Int, lang.Decimal, lang.Bool or lang.String
	Int  int64
	Bool bool
	Str  string
	Rat  *big.Rat // lang.Decimal
}

// IntValue returns the int value v.
func IntValue(v int64) Value { return Value{Kind: ast.Int, Int: v} }

// BoolValue returns the bool value b.
func BoolValue(b bool) Value { return Value{Kind: ast.Bool, Bool: b} }

// StringValue returns the string value s.
func StringValue(s string) Value { return Value{Kind: ast.String, Str: s} }

// Plain returns v as a plain Go value, int64, bool, string or Decimal, as
// tests and JSON carry it.
func (v Value) Plain() any {
	switch v.Kind {
	case ast.Bool:
		return v.Bool
	case ast.String:
		return v.Str
	case ast.Decimal:
		return Decimal(v.String())
	}
	return v.Int
}

// Decimal is a decimal value as tests carry it: its text as the language
// writes it ("1.5", "-0.25", "3.0"), which is also its JSON: a number.
type Decimal string

// MarshalJSON writes d as a JSON number.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if _, err := d.Rat(); err != nil {
		return nil, err
	}
	return []byte(d), nil
}

// Rat returns d's exact value.
func (d Decimal) Rat() (*big.Rat, error) {
	s := string(d)
	neg := strings.HasPrefix(s, "-")
	r, err := parser.ParseDecimal(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"))
	if err != nil || !strings.ContainsAny(s, ".eE") {
		return nil, fmt.Errorf("decimal %q: write it as 1.5 or 2e3", s)
	}
	if neg {
		r.Neg(r)
	}
	return r, nil
}

// DecimalOf returns r as tests carry it, or an error when r has no finite
// decimal expansion (1/3): ECMAScript would round such a value, and no
// test may carry it rounded silently.
func DecimalOf(r *big.Rat) (Decimal, error) {
	s, ok := ecma.FormatDecimal(r)
	if !ok {
		return "", fmt.Errorf("%s is %s, which no decimal writes: ECMAScript would round it", r.RatString(), s)
	}
	return Decimal(s), nil
}

// PlainArgs returns argument values as plain Go values (see Plain).
func PlainArgs(args map[string]Value) map[string]any {
	out := make(map[string]any, len(args))
	for name, v := range args {
		out[name] = v.Plain()
	}
	return out
}

// ArgsOf returns plain argument values, int64, bool, string or Decimal (as
// tests carry them), or json.Number (as JSON decoded with UseNumber does),
// as the simulator's values: the inverse of PlainArgs.
func ArgsOf(args map[string]any) (map[string]Value, error) {
	out := make(map[string]Value, len(args))
	for name, v := range args {
		value, err := ValueOf(v)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", name, err)
		}
		out[name] = value
	}
	return out, nil
}

// ValueOf returns a plain value (see ArgsOf) as the simulator's value.
func ValueOf(v any) (Value, error) {
	switch v := v.(type) {
	case int64:
		return IntValue(v), nil
	case bool:
		return BoolValue(v), nil
	case string:
		return StringValue(v), nil
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			n, err := v.Int64()
			if err != nil {
				return Value{}, fmt.Errorf("%s does not fit a 64-bit integer", v)
			}
			return IntValue(n), nil
		}
		return ValueOf(Decimal(v))
	case Decimal:
		r, err := v.Rat()
		if err != nil {
			return Value{}, err
		}
		return DecimalValue(r), nil
	}
	return Value{}, fmt.Errorf("%v (%T) is not an int64, a Decimal, a bool or a string", v, v)
}

// String returns the value as the language writes it: "3", "-2", "1.5",
// "true", "'on'" (a decimal without a finite expansion, which the checker's
// rules keep out of reach, ends in "...").
func (v Value) String() string {
	switch v.Kind {
	case ast.Int:
		return strconv.FormatInt(v.Int, 10)
	case ast.Decimal:
		s, _ := ecma.FormatDecimal(v.Rat)
		return s
	case ast.Bool:
		return strconv.FormatBool(v.Bool)
	case ast.String:
		return printer.ExprString(&ast.StrLit{Value: v.Str})
	}
	return "invalid"
}

// Event is a named event with argument values: an input the environment
// sends, or an event the machine raises or sends itself. Meta says how it
// arrived (what _event.type, .sendid, .origin and .origintype read); the
// zero Meta is an input's.
type Event struct {
	Name string
	Args map[string]Value
	Meta model.Meta
}

// String returns the event as ParseEvent reads it, arguments as FormatArgs
// writes them: "setTriangleSides(x=3, y=4, z=5)", "reset()".
func (e Event) String() string { return e.Name + "(" + FormatArgs(e.Args) + ")" }

// Output is an event the machine sends to another target (an output of
// the machine, the test oracle).
type Output struct {
	Event  string
	Target string
	Args   map[string]Value
}

// String returns the output as "lights(color=1) to #_parent".
func (o Output) String() string {
	return o.Event + "(" + FormatArgs(o.Args) + ") to " + o.Target
}

// FormatArgs returns arguments as ParseEvent reads them, sorted by name:
// "n=3, ok=true, s='a\\'b, c'". A parameter that may be undefined is
// written as the source writes it, not as its lowered pair: "s=undefined"
// and "n=null" for a tag (lower.AbsentName) of 1 or 2 whose value is the
// zero value or missing, and the value alone for a tag of 0 whose value is
// given; ParseEvent and Complete give the pair back.
func FormatArgs(args map[string]Value) string {
	type arg struct{ name, text string }
	parts := make([]arg, 0, len(args))
	mixed := mixedArgs(args)
	for name, text := range mixed {
		parts = append(parts, arg{name, text})
	}
	for name, v := range args {
		if of, _ := ast.KindOf(name); of != name {
			continue // written above
		}
		if of, tag := lower.AbsentOf(name); tag && mixed[of] != "" {
			continue
		}
		text := v.String()
		if of, tag := lower.AbsentOf(name); tag && v.Kind == ast.Int {
			w, given := args[of]
			switch {
			case v.Int == ast.AbsentValue && given:
				continue
			case v.Int == ast.AbsentUndefined && (!given || w.isZero()):
				name, text = of, "undefined"
			case v.Int == ast.AbsentNull && (!given || w.isZero()):
				name, text = of, "null"
			}
		} else if t, ok := args[lower.AbsentName(name)]; ok && t.Kind == ast.Int && (t.Int == ast.AbsentUndefined || t.Int == ast.AbsentNull) && v.isZero() {
			continue // written as undefined or null, under its tag's name
		}
		parts = append(parts, arg{name, text})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].name < parts[j].name })
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.name + "=" + p.text)
	}
	return b.String()
}

// mixedArgs returns the text of each argument of several kinds
// (lang.Mixed), by name: its value of the kind its tag says, or undefined
// or null; lowering passes it as a value per kind (ast.KindName) and a tag.
func mixedArgs(args map[string]Value) map[string]string {
	kinds := make(map[string]ast.KindSet)
	for name := range args {
		if of, k := ast.KindOf(name); k != ast.Invalid {
			kinds[of] = kinds[of].With(k)
		}
	}
	out := make(map[string]string, len(kinds))
	for of, set := range kinds {
		tag := args[lower.AbsentName(of)].Int
		ks := set.List()
		switch {
		case tag == ast.AbsentUndefined:
			out[of] = "undefined"
		case tag == ast.AbsentNull:
			out[of] = "null"
		case -tag >= 0 && -tag < int64(len(ks)):
			out[of] = args[ast.KindName(of, ks[-tag])].String()
		}
	}
	return out
}

// isZero reports whether v is the zero value of its kind, the meaningless
// value lowering pairs with an undefined or null tag (lower.ZeroValue).
func (v Value) isZero() bool {
	switch v.Kind {
	case ast.Int:
		return v.Int == 0
	case ast.Bool:
		return !v.Bool
	case ast.String:
		return v.Str == ""
	case ast.Decimal:
		return v.Rat.Sign() == 0
	}
	return false
}

func sortedNames(args map[string]Value) []string {
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// copyArgs returns a copy of args that is never nil.
func copyArgs(args map[string]Value) map[string]Value {
	out := make(map[string]Value, len(args))
	for k, v := range args {
		out[k] = v
	}
	return out
}

// ArgSyntax says what an argument of an event may be, for errors and help.
const ArgSyntax = "an integer (-2), a decimal (1.5, 2e3), true, false, a string ('on', \"it's\", with the escapes \\\\ \\' \\\" \\n \\t \\r \\u{e9}), undefined or null"

// ParseEvent reads an event as written on a command line: "name",
// "name()" or "name(x=3, ok=true, y=-2, s='a\\'b, c')". Names may be dotted
// ("done.state.S1"); an argument is name=value, or name: value as the
// action language writes arguments, and its name is a parameter's or one of
// an array or object parameter's parts (xs.length, xs[0], p.f). A value is
// one of ArgSyntax; a string is a literal of the action language, so it may
// hold commas, parentheses and (escaped) quotes. undefined and null are
// written as the lowered tag (lower.AbsentName): s=undefined gives
// _absent_s=1 and no s, which Complete fills in. The argument map is never
// nil.
//
// A test's step that fires a pending timer is printed "name (timer)"
// (testgen.FormatEvent): that reads as the timer firing (its Meta is Self),
// even where an input has the same name.
func ParseEvent(text string) (Event, error) {
	ev := Event{Args: map[string]Value{}}
	s := strings.TrimSpace(text)
	if name, ok := strings.CutSuffix(s, TimerMark); ok && strings.TrimRight(name, " \t") != name {
		ev.Meta.Self = true
		s = strings.TrimSpace(name)
	}
	name, rest, hasParen := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	if err := checkEventName(name); err != nil {
		return Event{}, fmt.Errorf("event %q: %v", text, err)
	}
	ev.Name = name
	if !hasParen {
		return ev, nil
	}
	body, ok := strings.CutSuffix(strings.TrimSpace(rest), ")")
	if !ok {
		return Event{}, fmt.Errorf("event %q: missing ')' at the end", text)
	}
	if strings.TrimSpace(body) == "" {
		return ev, nil
	}
	given := map[string]bool{}
	for {
		pname, val, after, err := parseArg(body)
		if err != nil {
			return Event{}, fmt.Errorf("event %q: %v", text, err)
		}
		if given[pname] {
			return Event{}, fmt.Errorf("event %q: argument %s given twice", text, pname)
		}
		given[pname] = true
		if val.Kind == ast.Undef {
			pname = lower.AbsentName(pname)
			val = IntValue(val.Int)
		}
		if _, dup := ev.Args[pname]; dup {
			return Event{}, fmt.Errorf("event %q: argument %s given twice", text, pname)
		}
		ev.Args[pname] = val
		if after == "" {
			return ev, nil
		}
		body = after
	}
}

// Complete fills in, for an input of event e, the pairs lowering makes of
// the parameters that may be undefined (lower.AbsentName), as ParseEvent
// leaves them to be written: the meaningless value (the zero value, as
// lower.ZeroLeaves gives it) of a parameter given as undefined or null, and
// the tag AbsentValue of one given a value. What e does not declare is left
// for CheckArgs to report.
func Complete(e *model.Event, args map[string]Value) error {
	if err := completeMixed(e, args); err != nil {
		return err
	}
	for _, p := range e.Params {
		of, tag := lower.AbsentOf(p.Name)
		if !tag {
			continue
		}
		_, hasTag := args[p.Name]
		_, hasValue := args[of]
		value, declared := e.Param(of)
		switch {
		case !declared:
		case hasTag && !hasValue:
			zero, err := (&Executor{}).Eval(lower.ZeroLeaves(value.Type, source.NoPos)[0])
			if err != nil {
				return fmt.Errorf("argument %s of event %s: %w", of, e.Name, err)
			}
			args[of] = zero
		case hasValue && !hasTag:
			args[p.Name] = IntValue(ast.AbsentValue)
		}
	}
	return nil
}

// completeMixed lowers, for an input of event e, the arguments of the
// parameters of several kinds (lang.Mixed) as written (p=3, p='a',
// p=undefined) to what lowering makes of them: the value of the kind it
// has (ast.KindName), the zero values of the others, and the tag.
func completeMixed(e *model.Event, args map[string]Value) error {
	kinds := make(map[string]ast.KindSet)
	for _, p := range e.Params {
		if of, k := ast.KindOf(p.Name); k != ast.Invalid {
			kinds[of] = kinds[of].With(k)
		}
	}
	for of, set := range kinds {
		ks := set.List()
		v, hasValue := args[of]
		if hasValue {
			if v.Kind == ast.Int && !set.Has(ast.Int) && set.Has(ast.Decimal) {
				v = DecimalValue(new(big.Rat).SetInt64(v.Int))
			}
			i := slices.Index(ks, v.Kind)
			if i < 0 {
				return fmt.Errorf("argument %s of event %s is %s, and the parameter holds %s", of, e.Name, v.Kind, ast.Type{Kind: ast.Mixed, Kinds: set})
			}
			delete(args, of)
			args[ast.KindName(of, v.Kind)] = v
			args[lower.AbsentName(of)] = IntValue(int64(-i))
		} else if _, hasTag := args[lower.AbsentName(of)]; !hasTag {
			continue // missing: CheckArgs reports it
		}
		for _, k := range ks {
			if _, ok := args[ast.KindName(of, k)]; !ok {
				args[ast.KindName(of, k)] = zeroValue(k)
			}
		}
	}
	return nil
}

// zeroValue is the zero value of kind k: the meaningless value of a kind a
// value of several kinds does not hold (lower.ZeroValue).
func zeroValue(k ast.Kind) Value {
	switch k {
	case ast.Bool:
		return BoolValue(false)
	case ast.String:
		return StringValue("")
	case ast.Decimal:
		return DecimalValue(new(big.Rat))
	}
	return IntValue(0)
}

// TimerMark marks a step that fires a pending timer, as tests print it
// after the timer's name.
const TimerMark = "(timer)"

// checkEventName accepts dot-separated segments of letters, digits, '_',
// '-' and ':', and such names joined by '/': a timer of an invoked session
// is named by the invoke's id, as in s0.0/timeout, and that is how every
// step and test prints it.
func checkEventName(name string) error {
	if name == "" {
		return fmt.Errorf("missing event name")
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" {
			return fmt.Errorf("malformed event name %q (empty name around '/')", name)
		}
		if err := checkDottedName(name, part); err != nil {
			return err
		}
	}
	return nil
}

// checkDottedName checks one '/'-separated part of the event name.
func checkDottedName(name, part string) error {
	for _, seg := range strings.Split(part, ".") {
		if seg == "" {
			return fmt.Errorf("malformed event name %q (empty segment between dots)", name)
		}
		for _, r := range seg {
			if !isWordRune(r) && r != '-' && r != ':' {
				return fmt.Errorf("malformed event name %q (unexpected %q)", name, r)
			}
		}
	}
	return nil
}

// parseArg reads the "name=value" (or "name: value") that text starts
// with, and returns the text after the comma that ends it ("" at the end).
// undefined and null are values of kind lang.Undef whose Int is their tag.
func parseArg(text string) (name string, v Value, rest string, err error) {
	text = strings.TrimLeft(text, " \t")
	i := strings.IndexAny(text, "=:,")
	if i < 0 || text[i] == ',' {
		item, _, _ := strings.Cut(text, ",")
		if strings.TrimSpace(item) == "" {
			return "", Value{}, "", fmt.Errorf("empty argument (a stray comma?)")
		}
		return "", Value{}, "", fmt.Errorf("argument %q is not name=value", strings.TrimSpace(item))
	}
	name, text = strings.TrimSpace(text[:i]), strings.TrimLeft(text[i+1:], " \t")
	if !isLeafName(name) {
		return "", Value{}, "", fmt.Errorf("malformed argument name %q", name)
	}
	var value string
	if text != "" && (text[0] == '\'' || text[0] == '"') {
		str, after, err := parser.CutString(text)
		if err != nil {
			return "", Value{}, "", fmt.Errorf("argument %s: %v", name, err)
		}
		v = StringValue(str)
		value, text = strings.TrimSpace(text[:len(text)-len(after)]), after
		if t := strings.TrimLeft(text, " \t"); t != "" && t[0] != ',' {
			return "", Value{}, "", fmt.Errorf("argument %s: %s is followed by %q: put a comma between arguments", name, value, t)
		}
	}
	value2, after, more := strings.Cut(text, ",")
	if v.Kind != ast.String {
		v, err = parseValue(name, strings.TrimSpace(value2))
		if err != nil {
			return "", Value{}, "", err
		}
	}
	if more && strings.TrimSpace(after) == "" {
		return "", Value{}, "", fmt.Errorf("empty argument (a stray comma?)")
	}
	return name, v, after, nil
}

// parseValue reads a value other than a string.
func parseValue(name, text string) (Value, error) {
	switch text {
	case "true":
		return BoolValue(true), nil
	case "false":
		return BoolValue(false), nil
	case "undefined":
		return Value{Kind: ast.Undef, Int: ast.AbsentUndefined}, nil
	case "null":
		return Value{Kind: ast.Undef, Int: ast.AbsentNull}, nil
	case "":
		return Value{}, fmt.Errorf("argument %s has no value", name)
	}
	if unsigned := strings.TrimLeft(text, "+-"); strings.ContainsAny(text, ".eE") && unsigned != "" && strings.IndexByte("0123456789.", unsigned[0]) >= 0 {
		r, err := Decimal(text).Rat()
		if err != nil {
			return Value{}, fmt.Errorf("argument %s: %v", name, err)
		}
		return DecimalValue(r), nil
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return Value{}, fmt.Errorf("argument %s: %s does not fit a 64-bit integer", name, text)
		}
		return Value{}, fmt.Errorf("argument %s: %q is no value: write %s", name, text, ArgSyntax)
	}
	return IntValue(n), nil
}

// isLeafName accepts a parameter's name, or the name of a part of an
// array or object parameter as lowering names it (lower.Leaves): xs.length,
// xs[0], p.f, ps[1].f.
func isLeafName(s string) bool {
	i := strings.IndexAny(s, ".[")
	if i < 0 {
		return isIdent(s)
	}
	if !isIdent(s[:i]) {
		return false
	}
	for rest := s[i:]; rest != ""; {
		switch rest[0] {
		case '.':
			j := strings.IndexAny(rest[1:], ".[")
			if j < 0 {
				j = len(rest) - 1
			}
			if !isIdent(rest[1 : j+1]) {
				return false
			}
			rest = rest[j+1:]
		case '[':
			j := strings.IndexByte(rest, ']')
			if j < 2 || strings.Trim(rest[1:j], "0123456789") != "" {
				return false
			}
			rest = rest[j+1:]
		default:
			return false
		}
	}
	return true
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !isWordRune(r) {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
