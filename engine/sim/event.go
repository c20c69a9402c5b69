package sim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
)

// Value is a concrete value of the action language: an int, a bool or a
// string.
type Value struct {
	Kind lang.Kind // lang.Int, lang.Bool or lang.String
	Int  int64
	Bool bool
	Str  string
}

// IntValue returns the int value v.
func IntValue(v int64) Value { return Value{Kind: lang.Int, Int: v} }

// BoolValue returns the bool value b.
func BoolValue(b bool) Value { return Value{Kind: lang.Bool, Bool: b} }

// StringValue returns the string value s.
func StringValue(s string) Value { return Value{Kind: lang.String, Str: s} }

// Plain returns v as a plain Go value, int64, bool or string, as tests
// and JSON carry it.
func (v Value) Plain() any {
	switch v.Kind {
	case lang.Bool:
		return v.Bool
	case lang.String:
		return v.Str
	}
	return v.Int
}

// PlainArgs returns argument values as plain Go values (see Plain).
func PlainArgs(args map[string]Value) map[string]any {
	out := make(map[string]any, len(args))
	for name, v := range args {
		out[name] = v.Plain()
	}
	return out
}

// ArgsOf returns plain argument values, int64, bool or string (as tests
// and JSON carry them), as the simulator's values: the inverse of
// PlainArgs.
func ArgsOf(args map[string]any) (map[string]Value, error) {
	out := make(map[string]Value, len(args))
	for name, v := range args {
		switch v := v.(type) {
		case int64:
			out[name] = IntValue(v)
		case bool:
			out[name] = BoolValue(v)
		case string:
			out[name] = StringValue(v)
		default:
			return nil, fmt.Errorf("argument %s is %v (%T), not an int64, a bool or a string", name, v, v)
		}
	}
	return out, nil
}

// String returns the value as the language writes it: "3", "-2", "true",
// "'on'".
func (v Value) String() string {
	switch v.Kind {
	case lang.Int:
		return strconv.FormatInt(v.Int, 10)
	case lang.Bool:
		return strconv.FormatBool(v.Bool)
	case lang.String:
		return lang.ExprString(&lang.StrLit{Value: v.Str})
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

// String returns the event as ParseEvent reads it, arguments sorted by
// name: "setTriangleSides(x=3, y=4, z=5)", "reset()".
func (e Event) String() string { return e.Name + "(" + argsString(e.Args) + ")" }

// Output is an event the machine sends to another target (an output of
// the machine, the test oracle).
type Output struct {
	Event  string
	Target string
	Args   map[string]Value
}

// String returns the output as "lights(color=1) to #_parent".
func (o Output) String() string {
	return o.Event + "(" + argsString(o.Args) + ") to " + o.Target
}

// argsString returns "x=3, y=4" with the names sorted.
func argsString(args map[string]Value) string {
	var b strings.Builder
	for i, name := range sortedNames(args) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name + "=" + args[name].String())
	}
	return b.String()
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

// ParseEvent reads an event as written on a command line: "name",
// "name()" or "name(x=3, ok=true, y=-2, s='on')". Names may be dotted
// ("done.state.S1"); values are decimal integers (with an optional sign),
// true/false or quoted strings without commas; "p: 3" is accepted for
// "p=3", as the action language writes arguments. The argument map is
// never nil.
func ParseEvent(text string) (Event, error) {
	ev := Event{Args: map[string]Value{}}
	s := strings.TrimSpace(text)
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
	for _, item := range strings.Split(body, ",") {
		pname, val, err := parseArg(item)
		if err != nil {
			return Event{}, fmt.Errorf("event %q: %v", text, err)
		}
		if _, dup := ev.Args[pname]; dup {
			return Event{}, fmt.Errorf("event %q: argument %s given twice", text, pname)
		}
		ev.Args[pname] = val
	}
	return ev, nil
}

// checkEventName accepts dot-separated segments of letters, digits, '_',
// '-' and ':'.
func checkEventName(name string) error {
	if name == "" {
		return fmt.Errorf("missing event name")
	}
	for _, seg := range strings.Split(name, ".") {
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

// parseArg reads one "name=value" (or "name: value").
func parseArg(item string) (string, Value, error) {
	item = strings.TrimSpace(item)
	if item == "" {
		return "", Value{}, fmt.Errorf("empty argument (a stray comma?)")
	}
	i := strings.IndexAny(item, "=:")
	if i < 0 {
		return "", Value{}, fmt.Errorf("argument %q is not name=value", item)
	}
	name, text := strings.TrimSpace(item[:i]), strings.TrimSpace(item[i+1:])
	if !isLeafName(name) {
		return "", Value{}, fmt.Errorf("malformed argument name %q", name)
	}
	switch text {
	case "true":
		return name, BoolValue(true), nil
	case "false":
		return name, BoolValue(false), nil
	case "":
		return "", Value{}, fmt.Errorf("argument %s has no value", name)
	}
	if q := text[0]; q == '\'' || q == '"' {
		if len(text) < 2 || text[len(text)-1] != q {
			return "", Value{}, fmt.Errorf("argument %s: string %s has no closing %c", name, text, q)
		}
		return name, StringValue(text[1 : len(text)-1]), nil
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return "", Value{}, fmt.Errorf("argument %s: %s does not fit a 64-bit integer", name, text)
		}
		return "", Value{}, fmt.Errorf("argument %s: %q is neither an integer nor true/false", name, text)
	}
	return name, IntValue(n), nil
}

// isLeafName accepts a parameter's name, or the name of a part of an
// array or object parameter as lowering names it (lang.Leaves): xs.length,
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
