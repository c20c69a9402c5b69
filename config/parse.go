package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/robfig/cron/v3"
	"go.yaml.in/yaml/v3"

	"github.com/setbot/setbot/vocab"
)

// maxVisits bounds the values Parse walks. An alias lets a short file name a long list many
// times over, and the head of a pull request is untrusted input, so the walk (and the Config it
// builds) must stay bounded whatever the file.
const maxVisits = 1 << 20

// The keys of each mapping, in documentation order (which is also the order of "known: ...").
var (
	topKeys    = []string{"models", "ignore", "strategy", "coverage", "time", "bounds", "invariants", "expect_unreachable", "models_config", "gate", "schedule", "functions"}
	boundsKeys = boundKeys()
	ruleKeys   = []string{"match", "bounds", "invariants", "expect_unreachable", "coverage", "strategy", "time"}
	funcKeys   = []string{"run_commands", "grow_rounds", "timeout"}
)

// Parse reads a configuration file. filename is used only in error messages. Empty data, or a
// file of comments only, gives Default(). A key whose value is null (`key:` with nothing after
// it) is the same as an absent key.
//
// On any problem Parse returns a nil Config and an ErrorList holding every problem found, each
// with its position and key path.
func Parse(filename string, data []byte) (*Config, error) {
	p := &parser{file: filename, data: data}
	c := Default()
	if root := p.document(); root != nil {
		p.walk(func() { p.config(root, c) })
	}
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	return c, nil
}

type parser struct {
	file   string
	data   []byte
	errs   ErrorList
	visits int
}

// bailout stops the walk when it has gone too far to be worth continuing (see maxVisits).
type bailout struct{}

// walk runs read, the walk of a document, until the end or a bailout.
func (p *parser) walk(read func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	read()
}

func (p *parser) errorAt(line, col int, path, format string, args ...any) {
	p.errs = append(p.errs, &Error{
		Pos:  Position{Filename: p.file, Line: max(line, 1), Column: col},
		Path: path,
		Msg:  fmt.Sprintf(format, args...),
	})
}

func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) {
	p.errorAt(n.Line, n.Column, path, format, args...)
}

// document decodes the one YAML document of the file and returns its root, or nil when the file
// is empty or did not decode.
func (p *parser) document() *yaml.Node {
	if !p.checkText() {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(p.data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err != io.EOF {
			p.syntaxError(err)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		p.errorf(&next, "", "a second YAML document; the configuration is a single document")
	case err != io.EOF:
		p.syntaxError(err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// checkText reports, with its exact position, the first byte sequence YAML refuses: invalid UTF-8
// or a non-printable character. (yaml.v3 reports these without a position.)
func (p *parser) checkText() bool {
	line, col := 1, 1
	for i := 0; i < len(p.data); {
		r, size := utf8.DecodeRune(p.data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			p.errorAt(line, col, "", "invalid UTF-8 (the file must be UTF-8 text)")
			return false
		case !printable(r):
			p.errorAt(line, col, "", "character %U is not allowed in YAML", r)
			return false
		}
		i += size
		line, col = advance(line, col, r, p.data[i:])
	}
	return true
}

// printable is YAML's c-printable set.
func printable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7E, r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD:
		return true
	}
	return r >= 0x10000 && r <= utf8.MaxRune
}

// advance returns the position after the character r, which rest follows, counting lines as YAML
// does: a CR LF pair is one break.
func advance(line, col int, r rune, rest []byte) (int, int) {
	switch r {
	case '\r':
		if len(rest) > 0 && rest[0] == '\n' {
			return line, col + 1
		}
		return line + 1, 1
	case '\n', 0x85, 0x2028, 0x2029:
		return line + 1, 1
	}
	return line, col + 1
}

// position returns the line and column of byte offset off in the file, which checkText accepted.
func (p *parser) position(off int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < off; {
		r, size := utf8.DecodeRune(p.data[i:])
		i += size
		line, col = advance(line, col, r, p.data[i:])
	}
	return line, col
}

var (
	yamlError     = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)
	unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
)

// parserProblems are the messages of yaml.v3's parser (as opposed to its scanner). The parser
// reports 0-based line numbers, the scanner 1-based ones; neither reports a column.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected '-' indicator",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// syntaxError turns an error of yaml.v3, which carries at most a line, into an Error.
func (p *parser) syntaxError(err error) {
	m := yamlError.FindStringSubmatch(err.Error())
	if m == nil {
		p.errorAt(1, 0, "", "invalid YAML: %v", err)
		return
	}
	msg := m[2]
	if a := unknownAnchor.FindStringSubmatch(msg); a != nil {
		line, col := 1, 0
		if off := bytes.Index(p.data, []byte("*"+a[1])); off >= 0 {
			line, col = p.position(off)
		}
		p.errorAt(line, col, "", "invalid YAML: alias *%s names no anchor (&%s) before it", a[1], a[1])
		return
	}
	line := 1
	if m[1] != "" {
		line, _ = strconv.Atoi(m[1])
		if slices.Contains(parserProblems, msg) {
			line++
		}
	}
	// The end of the stream is reported on the line after the last one when the file does not
	// end in a line break.
	last, _ := p.position(len(p.data))
	p.errorAt(min(line, last), 0, "", "invalid YAML: %s", msg)
}

// value follows an alias to the node it names, and counts the visit.
func (p *parser) value(n *yaml.Node) *yaml.Node {
	p.visits++
	if p.visits > maxVisits {
		p.errorf(n, "", "more than %d values (too large, or too many aliases)", maxVisits)
		panic(bailout{})
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func isString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str"
}

// describe names what a node is, for "expected X, found Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch tag := n.ShortTag(); tag {
		case "!!str":
			return "the string " + quote(n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!null":
			return "null"
		default:
			return "a value tagged " + tag
		}
	}
	return "an unexpected YAML node"
}

// quote quotes s for a message, shortened when long.
func quote(s string) string {
	const maxRunes = 60
	if utf8.RuneCountInString(s) > maxRunes {
		s = string([]rune(s)[:maxRunes-3]) + "..."
	}
	return strconv.Quote(s)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}

// fields checks that n is a mapping whose keys are known (noun says what a key is: "key",
// "rule"), none repeated, and calls f with each key and its value, skipping null values as if
// the key were absent. It returns whether n is a mapping.
func (p *parser) fields(n *yaml.Node, path, noun string, known []string, f func(key string, v *yaml.Node)) bool {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, path, "expected a mapping, found %s", describe(n))
		return false
	}
	seen := make(map[string]*yaml.Node)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := p.value(n.Content[i]), n.Content[i+1]
		switch {
		case k.Kind != yaml.ScalarNode:
			p.errorf(k, path, "expected a %s, found %s", noun, describe(k))
			continue
		case k.ShortTag() == "!!merge":
			p.errorf(k, path, "merge keys (<<) are not supported; alias the whole value instead")
			continue
		case seen[k.Value] != nil:
			first := seen[k.Value]
			p.errorf(k, path, "duplicate %s %s (first at %d:%d)", noun, quote(k.Value), first.Line, first.Column)
			continue
		}
		seen[k.Value] = k
		if !slices.Contains(known, k.Value) {
			p.errorf(k, path, "unknown %s %s%s (known: %s)", noun, quote(k.Value), didYouMean(k.Value, known), strings.Join(known, ", "))
			continue
		}
		if v = p.value(v); !isNull(v) {
			f(k.Value, v)
		}
	}
	return true
}

// str returns the string n holds; want says what was expected, for the error.
func (p *parser) str(n *yaml.Node, path, want string) (string, bool) {
	if !isString(n) {
		p.errorf(n, path, "expected %s, found %s", want, describe(n))
		return "", false
	}
	return n.Value, true
}

// list checks that n is a list and returns the strings elem accepts among its elements.
func (p *parser) list(n *yaml.Node, path, what string, elem func(e *yaml.Node, path string) (string, bool)) []string {
	if n.Kind != yaml.SequenceNode {
		msg := fmt.Sprintf("expected a list of %s, found %s", what, describe(n))
		if isString(n) {
			msg += fmt.Sprintf("; write [%s]", quote(n.Value))
		}
		p.errorf(n, path, "%s", msg)
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		if s, ok := elem(p.value(e), index(path, i)); ok {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) globs(n *yaml.Node, path string) []string {
	return p.list(n, path, "globs", p.glob)
}

func (p *parser) stateGlobs(n *yaml.Node, path string) []string {
	return p.list(n, path, "state-name globs", p.stateGlob)
}

// stateGlob accepts a glob of state ids: a state's id, or a pattern with
// *, ?, [...] or {a,b}.
func (p *parser) stateGlob(n *yaml.Node, path string) (string, bool) {
	s, ok := p.str(n, path, "a state-name glob")
	if !ok {
		return "", false
	}
	switch {
	case strings.TrimSpace(s) == "":
		p.errorf(n, path, "empty state-name glob")
	case !doublestar.ValidatePattern(s):
		p.errorf(n, path, "invalid state-name glob %s (an unclosed [ or {, or a trailing \\)", quote(s))
	default:
		return s, true
	}
	return "", false
}

func (p *parser) glob(n *yaml.Node, path string) (string, bool) {
	s, ok := p.str(n, path, "a glob")
	if !ok {
		return "", false
	}
	switch {
	case s == "":
		p.errorf(n, path, "empty glob")
	case strings.HasPrefix(s, "/"), strings.HasPrefix(s, "./"):
		p.errorf(n, path, "glob %s never matches: paths are relative to the repository root, with no leading / or ./", quote(s))
	case !doublestar.ValidatePattern(s):
		p.errorf(n, path, "invalid glob %s (an unclosed [ or {, or a trailing \\)", quote(s))
	default:
		return s, true
	}
	return "", false
}

// choice returns n's value if it is one of allowed; what names the setting, for the error.
func (p *parser) choice(n *yaml.Node, path, what string, allowed []string) string {
	s, ok := p.str(n, path, orList(allowed))
	if !ok {
		return ""
	}
	if !slices.Contains(allowed, s) {
		p.errorf(n, path, "unknown %s %s%s (want %s)", what, quote(s), didYouMean(s, allowed), orList(allowed))
		return ""
	}
	return s
}

// orList formats {a, b, c} as "a, b or c".
func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func (p *parser) invariants(n *yaml.Node, path string) []string {
	return p.list(n, path, "predicates", p.invariant)
}

// invariant accepts a non-empty string, or a boolean: true and false are predicates too. The
// predicate itself is parsed later, against each model's variables.
func (p *parser) invariant(n *yaml.Node, path string) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		return n.Value, true
	}
	s, ok := p.str(n, path, "a predicate")
	if ok && strings.TrimSpace(s) == "" {
		p.errorf(n, path, "empty predicate")
		return "", false
	}
	return s, ok
}

// boundKeys are the keys of bounds: one per row of the bounds table, in its order.
func boundKeys() []string {
	var keys []string
	for _, s := range vocab.Settings() {
		keys = append(keys, s.Key)
	}
	return keys
}

// setting returns the row of the bounds table whose key is key.
func setting(key string) vocab.Setting {
	i := slices.Index(boundsKeys, key)
	return vocab.Settings()[i]
}

// bounds reads a mapping of bounds: the bounds it sets, each at least its row's minimum (or
// 0, for the default, where the row allows it).
func (p *parser) bounds(n *yaml.Node, path string) vocab.Limits {
	o := vocab.Limits{}
	p.fields(n, path, "key", boundsKeys, func(key string, v *yaml.Node) {
		s, path := setting(key), join(path, key)
		if s.Unit == vocab.UnitDuration {
			if d := p.duration(v, path); d != nil {
				o[s.Bound] = int64(*d)
			}
			return
		}
		least := s.Min
		if s.ZeroKey {
			least = 0
		}
		if c := p.count(v, path, int(least)); c != nil {
			o[s.Bound] = cmp.Or(int64(*c), s.Default)
		}
	})
	return o
}

// count returns the integer n holds, at least least, or nil after
// reporting why not. The exploration bounds start at 1: a tree of depth 0
// or of no states analyses nothing, and the engine takes 0 for "default".
func (p *parser) count(n *yaml.Node, path string, least int) *int {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		p.errorf(n, path, "expected a non-negative integer, found %s", describe(n))
		return nil
	}
	var v int
	if err := n.Decode(&v); err != nil {
		p.errorf(n, path, "integer %s out of range", n.Value)
		return nil
	}
	if v < least {
		p.errorf(n, path, "bound %d too small (want %d or more)", v, least)
		return nil
	}
	return &v
}

// duration returns the non-negative Go duration n holds. A plain 0 is accepted: no timeout.
func (p *parser) duration(n *yaml.Node, path string) *time.Duration {
	tag := n.ShortTag()
	if n.Kind != yaml.ScalarNode || tag != "!!str" && tag != "!!int" {
		p.errorf(n, path, "expected a duration such as 90s or 5m, found %s", describe(n))
		return nil
	}
	d, err := time.ParseDuration(n.Value)
	switch {
	case err != nil && tag == "!!int":
		p.errorf(n, path, "duration %s has no unit; write %ss for seconds", n.Value, n.Value)
	case err != nil:
		p.errorf(n, path, "invalid duration %s (want a Go duration such as 90s or 5m)", quote(n.Value))
	case d < 0:
		p.errorf(n, path, "negative duration %s", n.Value)
	default:
		return &d
	}
	return nil
}

func (p *parser) rules(n *yaml.Node, path string) []ModelRule {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, path, "expected a list of rules, found %s", describe(n))
		return nil
	}
	rules := make([]ModelRule, 0, len(n.Content))
	for i, e := range n.Content {
		path := index(path, i)
		e = p.value(e)
		var r ModelRule
		matched := false
		ok := p.fields(e, path, "key", ruleKeys, func(key string, v *yaml.Node) {
			path := join(path, key)
			switch key {
			case "match":
				matched = true
				r.Match = p.match(v, path)
			case "bounds":
				r.Bounds = p.bounds(v, path)
			case "invariants":
				r.Invariants = p.invariants(v, path)
			case "expect_unreachable":
				r.ExpectUnreachable = p.stateGlobs(v, path)
			case "coverage":
				r.Coverage = vocab.Coverage(p.choice(v, path, "coverage", coverages))
			case "strategy":
				r.Strategy = vocab.Strategy(p.choice(v, path, "strategy", strategies))
			case "time":
				r.Time = vocab.Time(p.choice(v, path, "time", times))
			}
		})
		if ok && !matched {
			p.errorf(e, path, "missing match: the glob, or list of globs, of the models the rule applies to")
		}
		rules = append(rules, r)
	}
	return rules
}

// match accepts one glob or a non-empty list of globs.
func (p *parser) match(n *yaml.Node, path string) []string {
	if n.Kind == yaml.ScalarNode {
		if g, ok := p.glob(n, path); ok {
			return []string{g}
		}
		return nil
	}
	if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
		p.errorf(n, path, "empty list: the rule would match nothing")
		return nil
	}
	return p.globs(n, path)
}

func (p *parser) gate(n *yaml.Node, path string, gate vocab.RuleActions) {
	p.fields(n, path, "rule", gateRules, func(rule string, v *yaml.Node) {
		if a := p.choice(v, join(path, rule), "action", actions); a != "" {
			gate[vocab.Rule(rule)] = vocab.Action(a)
		}
	})
}

func (p *parser) schedule(n *yaml.Node, path string) string {
	s, ok := p.str(n, path, "a cron spec")
	if !ok || s == "" {
		return ""
	}
	if err := checkCron(s); err != nil {
		p.errorf(n, path, "invalid cron spec %s: %v", quote(s), err)
		return ""
	}
	return s
}

// checkCron parses a spec as the scheduler will: five fields, or a descriptor such as @daily.
func checkCron(spec string) (err error) {
	// robfig/cron v3.0.1 slices out of range on a time zone with no schedule after it.
	if (strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=")) && !strings.Contains(spec, " ") {
		return errors.New("a time zone must be followed by a schedule")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unparsable (%v)", r)
		}
	}()
	_, err = cron.ParseStandard(spec)
	return err
}

func (p *parser) config(n *yaml.Node, c *Config) {
	if isNull(n) {
		return
	}
	p.fields(n, "", "key", topKeys, func(key string, v *yaml.Node) {
		switch key {
		case "models":
			c.Models = p.globs(v, key)
		case "ignore":
			c.Ignore = p.globs(v, key)
		case "strategy":
			c.Strategy = vocab.Strategy(p.choice(v, key, "strategy", strategies))
		case "coverage":
			c.Coverage = vocab.Coverage(p.choice(v, key, "coverage", coverages))
		case "time":
			c.Time = vocab.Time(p.choice(v, key, "time", times))
		case "bounds":
			maps.Copy(c.Bounds, p.bounds(v, key))
		case "invariants":
			c.Invariants = p.invariants(v, key)
		case "expect_unreachable":
			c.ExpectUnreachable = p.stateGlobs(v, key)
		case "models_config":
			c.PerModel = p.rules(v, key)
		case "gate":
			p.gate(v, key, c.Gate)
		case "schedule":
			c.Schedule = p.schedule(v, key)
		case "functions":
			p.functions(v, key, &c.Functions)
		}
	})
}

func (p *parser) functions(n *yaml.Node, path string, f *Functions) {
	p.fields(n, path, "key", funcKeys, func(key string, v *yaml.Node) {
		path := join(path, key)
		switch key {
		case "run_commands":
			if b, ok := p.boolean(v, path); ok {
				f.RunCommands = b
			}
		case "grow_rounds":
			n := p.count(v, path, 1)
			if n != nil && *n > MaxGrowRounds {
				p.errorf(v, path, "%d rounds are too many (want at most %d)", *n, MaxGrowRounds)
				n = nil
			}
			set(&f.GrowRounds, n)
		case "timeout":
			d := p.duration(v, path)
			switch {
			case d == nil:
			case *d == 0:
				p.errorf(v, path, "a command needs a time limit: want a duration such as 10s")
				d = nil
			case *d > MaxCommandTimeout:
				p.errorf(v, path, "a command's time limit of %v is too long (want at most %v)", *d, MaxCommandTimeout)
				d = nil
			}
			set(&f.Timeout, d)
		}
	})
}

// boolean returns the boolean n holds.
func (p *parser) boolean(n *yaml.Node, path string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		p.errorf(n, path, "expected true or false, found %s", describe(n))
		return false, false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		p.errorf(n, path, "expected true or false, found %s", describe(n))
		return false, false
	}
	return b, true
}

// didYouMean returns `, did you mean "x"?` for the known word closest to s, when it is close
// enough to be a likely typo, and "" otherwise. The known words are lower case.
func didYouMean(s string, known []string) string {
	return suggest(closest(strings.ToLower(s), known))
}

// suggest returns `, did you mean "word"?`, or "" when word is "".
func suggest(word string) string {
	if word == "" {
		return ""
	}
	return fmt.Sprintf(", did you mean %q?", word)
}

// closest returns the known word closest to s, when it is close enough to be a likely typo, and
// "" otherwise.
func closest(s string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := distance(s, k); d < bestDist && 3*d <= len(k) {
			best, bestDist = k, d
		}
	}
	return best
}

// distance is the optimal-string-alignment edit distance (insertions, deletions, substitutions
// and transpositions of adjacent characters), capped: anything above 3 is reported as 3.
func distance(a, b string) int {
	const limit = 3
	ra, rb := []rune(a), []rune(b)
	if abs(len(ra)-len(rb)) >= limit {
		return limit
	}
	// rows i-2, i-1 and i of the dynamic programme
	prev2, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], limit)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// set sets *dst to *src when src holds a value.
func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}
