package config

import (
	"errors"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/vocab"
)

func TestParseDefaults(t *testing.T) {
	for _, src := range []string{
		"",
		"\n\n",
		"# only a comment\n   # and another\n",
		"---\n",
		"--- # a document marker and nothing else\n...\n",
		"~\n",
		"\ufeff# a byte order mark\n",
		// null values are absent keys
		"models:\nignore:\nstrategy:\ncoverage: ~\nbounds:\ninvariants:\nmodels_config:\ngate:\nschedule: null\n",
		"bounds: {depth: ~, timeout: }\ngate: {bound_hit: }\n",
		// the defaults written out
		"models: ['**/*.scxml']\nstrategy: auto\ncoverage: transition\nbounds: {depth: 10, max_states: 200000, loop_bound: 10, max_microsteps: 100, max_mlm_states: 0, max_mlm_transitions: 0, timeout: 0}\nschedule: ''\n" +
			"functions: {run_commands: false, grow_rounds: 2, timeout: 10s}\n",
		"functions:\n", "functions: {run_commands: }\n",
	} {
		c, err := Parse(FileName, []byte(src))
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if want := Default(); !reflect.DeepEqual(c, want) {
			t.Errorf("Parse(%q) =\n%+v, want the defaults\n%+v", src, c, want)
		}
	}
}

func TestParseFull(t *testing.T) {
	const src = `# every key
models: ["models/**/*.scxml", "charts/*.scxml"]
ignore: ["**/testdata/**"]
strategy: dse
coverage: state
time: untimed
bounds:
  depth: 12
  max_states: 0x10000
  loop_bound: 1_000
  max_microsteps: 50
  max_mlm_states: 5000
  max_mlm_transitions: 400000
  timeout: 1m30s
invariants:
  - volume <= 10
  - "mode != 3"
models_config:
  - match: "models/radio*.scxml"
    bounds: {depth: 1, timeout: 2m}
    invariants: ["band >= 0"]
    coverage: transition
    strategy: full
  - match: [a.scxml, "b/**"]
gate:
  unreachable_state: warn
  bound_hit: off
schedule: "0 3 * * *"
functions:
  run_commands: true
  grow_rounds: 5
  timeout: 3s
`
	want := &Config{
		Models:   []string{"models/**/*.scxml", "charts/*.scxml"},
		Ignore:   []string{"**/testdata/**"},
		Strategy: "dse",
		Coverage: "state",
		Time:     "untimed",
		Bounds: bounds(vocab.Limits{
			vocab.BoundDepth: 12, vocab.BoundStates: 65536, vocab.BoundLoop: 1000, vocab.BoundMicrosteps: 50, vocab.BoundMLMStates: 5000, vocab.BoundMLMTransitions: 400_000,
			vocab.BoundTime: int64(90 * time.Second),
		}),
		Invariants: []string{"volume <= 10", "mode != 3"},
		PerModel: []ModelRule{
			{
				Match:      []string{"models/radio*.scxml"},
				Bounds:     vocab.Limits{vocab.BoundDepth: 1, vocab.BoundTime: int64(2 * time.Minute)},
				Invariants: []string{"band >= 0"},
				Coverage:   "transition",
				Strategy:   "full",
			},
			{Match: []string{"a.scxml", "b/**"}},
		},
		Gate: vocab.RuleActions{
			"unreachable_state":   "warn",
			"transient_state":     "off",
			"invariant_violation": "block",
			"bound_hit":           "off",
			"model_error":         "block",
			"runtime_error":       "warn",
			"output_lost":         "warn",
			"nondeterminism":      "warn",

			"model_refused":                "warn",
			"expected_unreachable_reached": "block",
			"new_model_unreachable":        "warn",
			"new_model_error":              "warn",
		},
		Schedule:  "0 3 * * *",
		Functions: Functions{RunCommands: true, GrowRounds: 5, Timeout: 3 * time.Second},
	}
	c, err := Parse(FileName, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Parse =\n%+v\nwant\n%+v", c, want)
	}
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(*Config) bool
	}{
		{"explicit empty models", "models: []\n", func(c *Config) bool { return c.Models != nil && len(c.Models) == 0 }},
		{"descriptor", "schedule: '@daily'\n", func(c *Config) bool { return c.Schedule == "@daily" }},
		{"every", "schedule: '@every 6h'\n", func(c *Config) bool { return c.Schedule == "@every 6h" }},
		{"time zone", "schedule: 'CRON_TZ=UTC 30 2 * * 1-5'\n", func(c *Config) bool { return c.Schedule != "" }},
		{"quoted keys", `"strategy": "full"` + "\n", func(c *Config) bool { return c.Strategy == "full" }},
		{"flow style", "{strategy: mse, gate: {model_error: warn}}\n", func(c *Config) bool {
			return c.Strategy == "mse" && c.Gate[vocab.RuleModelError] == "warn" && len(c.Gate) == len(gateRules)
		}},
		{"alias", "bounds: &b {depth: 3}\nmodels_config: [{match: a, bounds: *b}, {match: b, bounds: *b}]\n", func(c *Config) bool {
			return c.Bounds[vocab.BoundDepth] == 3 && c.PerModel[1].Bounds[vocab.BoundDepth] == 3
		}},
		{"boolean invariant", "invariants: [false]\n", func(c *Config) bool { return c.Invariants[0] == "false" }},
		{"crlf", "strategy: full\r\ncoverage: state\r\n", func(c *Config) bool { return c.Coverage == "state" }},
		{"integer zero timeout", "bounds: {timeout: 0}\n", func(c *Config) bool { return c.Bounds.Duration(vocab.BoundTime) == 0 }},
		{"expected unreachable states", "expect_unreachable: [fail, '*.fail']\nmodels_config: [{match: 'w3c/**', expect_unreachable: ['err{1,2}']}]\n", func(c *Config) bool {
			w3c, other := c.For("w3c/t1.scxml"), c.For("app.scxml")
			expected := func(mc ModelConfig, id, want string) bool {
				g, ok := mc.ExpectedBy(id)
				return g == want && ok == (want != "")
			}
			return expected(w3c, "fail", "fail") && expected(w3c, "s1.fail", "*.fail") && expected(w3c, "err2", "err{1,2}") &&
				expected(w3c, "pass", "") && expected(w3c, "failed", "") && expected(other, "fail", "fail") && expected(other, "err1", "")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(FileName, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("unexpected result %+v", c)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const known = " (known: models, ignore, strategy, coverage, time, bounds, invariants, expect_unreachable, models_config, gate, schedule, functions)"
	tests := []struct {
		name, src string
		want      []string // every error, in order
	}{
		// unknown keys, at every level
		{"unknown key", "models: [a]\nstrategy: full\nmodles: [b]\n", []string{
			`.setbot.yml:3:1: unknown key "modles", did you mean "models"?` + known}},
		{"unknown key, no suggestion", "colour: red\n", []string{
			`.setbot.yml:1:1: unknown key "colour"` + known}},
		{"unknown bounds key", "bounds:\n  dpeth: 3\n", []string{
			`.setbot.yml:2:3: bounds: unknown key "dpeth", did you mean "depth"? (known: depth, max_states, loop_bound, max_microsteps, max_mlm_states, max_mlm_transitions, timeout)`}},
		{"unknown rule key", "models_config:\n  - match: a\n    invariant: [x]\n", []string{
			`.setbot.yml:3:5: models_config[0]: unknown key "invariant", did you mean "invariants"? (known: match, bounds, invariants, expect_unreachable, coverage, strategy, time)`}},
		{"unknown rule bounds key", "models_config:\n  - match: a\n    bounds: {timout: 1s}\n", []string{
			`.setbot.yml:3:14: models_config[0].bounds: unknown key "timout", did you mean "timeout"? (known: depth, max_states, loop_bound, max_microsteps, max_mlm_states, max_mlm_transitions, timeout)`}},
		{"unknown gate rule", "gate:\n  unreachable_states: warn\n", []string{
			`.setbot.yml:2:3: gate: unknown rule "unreachable_states", did you mean "unreachable_state"? (known: unreachable_state, transient_state, invariant_violation, bound_hit, model_error, model_refused, runtime_error, output_lost, nondeterminism, expected_unreachable_reached, new_model_unreachable, new_model_error)`}},
		{"unknown functions key", "functions:\n  run_command: true\n  rounds: 3\n", []string{
			`.setbot.yml:2:3: functions: unknown key "run_command", did you mean "run_commands"? (known: run_commands, grow_rounds, timeout)`,
			`.setbot.yml:3:3: functions: unknown key "rounds" (known: run_commands, grow_rounds, timeout)`}},
		{"functions of the wrong types", "functions:\n  run_commands: yes\n  grow_rounds: 0\n  timeout: 0s\n", []string{
			`.setbot.yml:2:17: functions.run_commands: expected true or false, found the string "yes"`,
			`.setbot.yml:3:16: functions.grow_rounds: bound 0 too small (want 1 or more)`,
			`.setbot.yml:4:12: functions.timeout: a command needs a time limit: want a duration such as 10s`}},
		{"functions beyond their caps", "functions:\n  grow_rounds: 101\n  timeout: 11m\n", []string{
			`.setbot.yml:2:16: functions.grow_rounds: 101 rounds are too many (want at most 100)`,
			`.setbot.yml:3:12: functions.timeout: a command's time limit of 11m0s is too long (want at most 10m0s)`}},
		{"functions not a mapping", "functions: true\n", []string{
			`.setbot.yml:1:12: functions: expected a mapping, found the boolean true`}},
		{"merge key", "bounds:\n  <<: {depth: 3}\n", []string{
			`.setbot.yml:2:3: bounds: merge keys (<<) are not supported; alias the whole value instead`}},
		{"non-scalar key", "? [a]\n: 1\n", []string{
			`.setbot.yml:1:3: expected a key, found a list`}},

		// wrong types
		{"string for a list", "models: \"**/*.scxml\"\n", []string{
			`.setbot.yml:1:9: models: expected a list of globs, found the string "**/*.scxml"; write ["**/*.scxml"]`}},
		{"mapping for a list", "ignore: {a: b}\n", []string{
			`.setbot.yml:1:9: ignore: expected a list of globs, found a mapping`}},
		{"integer glob", "models: [1]\n", []string{
			`.setbot.yml:1:10: models[0]: expected a glob, found the integer 1`}},
		{"mapping for a scalar", "strategy: {a: 1}\n", []string{
			`.setbot.yml:1:11: strategy: expected auto, mse, dse or full, found a mapping`}},
		{"list for a mapping", "bounds: [1]\n", []string{
			`.setbot.yml:1:9: bounds: expected a mapping, found a list`}},
		{"top level list", "- models\n", []string{
			`.setbot.yml:1:1: expected a mapping, found a list`}},
		{"top level string", "models\n", []string{
			`.setbot.yml:1:1: expected a mapping, found the string "models"`}},
		{"non-integer depth", "bounds:\n  depth: ten\n  max_states: 1.5\n  loop_bound: true\n", []string{
			`.setbot.yml:2:10: bounds.depth: expected a non-negative integer, found the string "ten"`,
			`.setbot.yml:3:15: bounds.max_states: expected a non-negative integer, found the number 1.5`,
			`.setbot.yml:4:15: bounds.loop_bound: expected a non-negative integer, found the boolean true`}},
		{"quoted integer", "bounds: {depth: '10'}\n", []string{
			`.setbot.yml:1:17: bounds.depth: expected a non-negative integer, found the string "10"`}},
		{"integer out of range", "bounds: {max_states: 18446744073709551615}\n", []string{
			`.setbot.yml:1:22: bounds.max_states: integer 18446744073709551615 out of range`}},
		{"zero depth", "bounds:\n  depth: 0\n", []string{
			`.setbot.yml:2:10: bounds.depth: bound 0 too small (want 1 or more)`}},
		{"negative bound", "bounds:\n  max_microsteps: -1\n", []string{
			`.setbot.yml:2:19: bounds.max_microsteps: bound -1 too small (want 1 or more)`}},
		{"negative bound in a rule", "models_config:\n- match: a\n  bounds:\n    max_mlm_states: -5\n", []string{
			`.setbot.yml:4:21: models_config[0].bounds.max_mlm_states: bound -5 too small (want 0 or more)`}},
		{"unparsable duration", "bounds:\n  timeout: soon\n", []string{
			`.setbot.yml:2:12: bounds.timeout: invalid duration "soon" (want a Go duration such as 90s or 5m)`}},
		{"duration without unit", "bounds: {timeout: 60}\n", []string{
			`.setbot.yml:1:19: bounds.timeout: duration 60 has no unit; write 60s for seconds`}},
		{"negative duration", "bounds: {timeout: -1s}\n", []string{
			`.setbot.yml:1:19: bounds.timeout: negative duration -1s`}},
		{"list duration", "bounds: {timeout: [1s]}\n", []string{
			`.setbot.yml:1:19: bounds.timeout: expected a duration such as 90s or 5m, found a list`}},
		{"bad expected unreachable states", "expect_unreachable: [fail, '', 'a[b', 3]\n", []string{
			`.setbot.yml:1:28: expect_unreachable[1]: empty state-name glob`,
			`.setbot.yml:1:32: expect_unreachable[2]: invalid state-name glob "a[b" (an unclosed [ or {, or a trailing \)`,
			`.setbot.yml:1:39: expect_unreachable[3]: expected a state-name glob, found the integer 3`}},
		{"invariants not a list", "invariants: x > 0\n", []string{
			`.setbot.yml:1:13: invariants: expected a list of predicates, found the string "x > 0"; write ["x > 0"]`}},
		{"bad invariants", "invariants: ['', '  ', 3, {a: b}, ~]\n", []string{
			`.setbot.yml:1:14: invariants[0]: empty predicate`,
			`.setbot.yml:1:18: invariants[1]: empty predicate`,
			`.setbot.yml:1:24: invariants[2]: expected a predicate, found the integer 3`,
			`.setbot.yml:1:27: invariants[3]: expected a predicate, found a mapping`,
			`.setbot.yml:1:35: invariants[4]: expected a predicate, found null`}},
		{"tagged value", "strategy: !!binary YWJj\n", []string{
			`.setbot.yml:1:11: strategy: expected auto, mse, dse or full, found a value tagged !!binary`}},
		{"rules not a list", "models_config: {match: a}\n", []string{
			`.setbot.yml:1:16: models_config: expected a list of rules, found a mapping`}},
		{"rule not a mapping", "models_config: [a]\n", []string{
			`.setbot.yml:1:17: models_config[0]: expected a mapping, found the string "a"`}},
		{"rule without match", "models_config:\n  - coverage: state\n", []string{
			`.setbot.yml:2:5: models_config[0]: missing match: the glob, or list of globs, of the models the rule applies to`}},
		{"rule with empty match", "models_config:\n  - match: []\n", []string{
			`.setbot.yml:2:12: models_config[0].match: empty list: the rule would match nothing`}},
		{"rule with mapping match", "models_config:\n  - match: {a: b}\n", []string{
			`.setbot.yml:2:12: models_config[0].match: expected a list of globs, found a mapping`}},

		// unknown choices
		{"unknown strategy", "strategy: fast\n", []string{
			`.setbot.yml:1:11: strategy: unknown strategy "fast" (want auto, mse, dse or full)`}},
		{"strategy typo", "strategy: FULL\n", []string{
			`.setbot.yml:1:11: strategy: unknown strategy "FULL", did you mean "full"? (want auto, mse, dse or full)`}},
		{"unknown coverage", "coverage: transitions\n", []string{
			`.setbot.yml:1:11: coverage: unknown coverage "transitions", did you mean "transition"? (want path, transition or state)`}},
		{"empty strategy", "strategy: ''\n", []string{
			`.setbot.yml:1:11: strategy: unknown strategy "" (want auto, mse, dse or full)`}},
		{"rule strategy and coverage", "models_config:\n  - match: a\n    strategy: dfs\n    coverage: 1\n", []string{
			`.setbot.yml:3:15: models_config[0].strategy: unknown strategy "dfs" (want auto, mse, dse or full)`,
			`.setbot.yml:4:15: models_config[0].coverage: expected path, transition or state, found the integer 1`}},
		{"unknown action", "schedule: ''\n\n\n\ngate:\n  model_error: block\n  bound_hit: maybe\n", []string{
			`.setbot.yml:7:14: gate.bound_hit: unknown action "maybe" (want block, warn or off)`}},
		{"boolean action", "gate: {unreachable_state: false}\n", []string{
			`.setbot.yml:1:27: gate.unreachable_state: expected block, warn or off, found the boolean false`}},
		{"action typo", "gate: {model_error: blok}\n", []string{
			`.setbot.yml:1:21: gate.model_error: unknown action "blok", did you mean "block"? (want block, warn or off)`}},

		// globs
		{"invalid glob", "models: ['models/[ab.scxml']\n", []string{
			`.setbot.yml:1:10: models[0]: invalid glob "models/[ab.scxml" (an unclosed [ or {, or a trailing \)`}},
		{"invalid brace", "ignore:\n  - ok/**\n  - '{a,b'\n", []string{
			`.setbot.yml:3:5: ignore[1]: invalid glob "{a,b" (an unclosed [ or {, or a trailing \)`}},
		{"absolute glob", "models: [/models/*.scxml, ./x.scxml]\n", []string{
			`.setbot.yml:1:10: models[0]: glob "/models/*.scxml" never matches: paths are relative to the repository root, with no leading / or ./`,
			`.setbot.yml:1:27: models[1]: glob "./x.scxml" never matches: paths are relative to the repository root, with no leading / or ./`}},
		{"empty glob", "models: ['']\n", []string{
			`.setbot.yml:1:10: models[0]: empty glob`}},
		{"invalid match glob", "models_config:\n  - match: 'a/[b'\n", []string{
			`.setbot.yml:2:12: models_config[0].match: invalid glob "a/[b" (an unclosed [ or {, or a trailing \)`}},
		{"invalid glob in match list", "models_config:\n  - match: [a, 'b/{c']\n", []string{
			`.setbot.yml:2:16: models_config[0].match[1]: invalid glob "b/{c" (an unclosed [ or {, or a trailing \)`}},

		// cron
		{"invalid cron", "schedule: '0 3 * *'\n", []string{
			`.setbot.yml:1:11: schedule: invalid cron spec "0 3 * *": expected exactly 5 fields, found 4: [0 3 * *]`}},
		{"cron out of range", "schedule: '0 25 * * *'\n", []string{
			`.setbot.yml:1:11: schedule: invalid cron spec "0 25 * * *": end of range (25) above maximum (23): 25`}},
		{"unknown descriptor", "schedule: '@sometimes'\n", []string{
			`.setbot.yml:1:11: schedule: invalid cron spec "@sometimes": unrecognized descriptor: @sometimes`}},
		{"time zone only", "schedule: TZ=UTC\n", []string{
			`.setbot.yml:1:11: schedule: invalid cron spec "TZ=UTC": a time zone must be followed by a schedule`}},
		{"cron not a string", "schedule: 3\n", []string{
			`.setbot.yml:1:11: schedule: expected a cron spec, found the integer 3`}},

		// duplicates and documents
		{"duplicate key", "models: [a]\nstrategy: mse\nmodels: [b]\n", []string{
			`.setbot.yml:3:1: duplicate key "models" (first at 1:1)`}},
		{"duplicate nested key", "bounds:\n  depth: 1\n  depth: 2\n", []string{
			`.setbot.yml:3:3: bounds: duplicate key "depth" (first at 2:3)`}},
		{"duplicate gate rule", "gate: {bound_hit: warn, bound_hit: block}\n", []string{
			`.setbot.yml:1:25: gate: duplicate rule "bound_hit" (first at 1:8)`}},
		{"two documents", "strategy: full\n---\nstrategy: mse\n", []string{
			`.setbot.yml:2:1: a second YAML document; the configuration is a single document`}},
		{"empty second document", "strategy: full\n---\n", []string{
			`.setbot.yml:2:1: a second YAML document; the configuration is a single document`}},

		// text and syntax
		{"control character", "strategy: full\ncoverage: \x01\n", []string{
			`.setbot.yml:2:11: character U+0001 is not allowed in YAML`}},
		{"invalid UTF-8", "# é\nstrategy: \xff\n", []string{
			`.setbot.yml:2:11: invalid UTF-8 (the file must be UTF-8 text)`}},
		{"column counts characters", "# ééé\ninvariants: [\"ééé\", \x7f]\n", []string{
			`.setbot.yml:2:21: character U+007F is not allowed in YAML`}},
		{"node columns count characters", "# ééé\ninvariants: [\"ééé\", 5]\n", []string{
			`.setbot.yml:2:21: invariants[1]: expected a predicate, found the integer 5`}},
		{"unknown anchor", "models: [a]\nbounds: *b\n", []string{
			`.setbot.yml:2:9: invalid YAML: alias *b names no anchor (&b) before it`}},
		{"bad indentation", "bounds:\n  depth: 1\n max_states: 2\n", []string{
			`.setbot.yml:3: invalid YAML: did not find expected key`}},
		{"unclosed flow", "models: [a,\n", []string{
			`.setbot.yml:2: invalid YAML: did not find expected node content`}},
		{"end of a file without a final line break", "strategy: full\nmodels: [", []string{
			`.setbot.yml:2: invalid YAML: did not find expected node content`}},
		{"mapping in a plain scalar", "strategy: a: b\n", []string{
			`.setbot.yml:1: invalid YAML: mapping values are not allowed in this context`}},
		{"tab", "bounds:\n\tdepth: 1\n", []string{
			`.setbot.yml:2: invalid YAML: found character that cannot start any token`}},
		{"unquoted descriptor", "schedule: @daily\n", []string{
			`.setbot.yml:1: invalid YAML: found character that cannot start any token`}},

		// every error is reported, in file order
		{"many", "strategy: x\nbounds: {depth: -1, loop_bound: y}\nfoo: 1\ngate: {bound_hit: z}\n", []string{
			`.setbot.yml:1:11: strategy: unknown strategy "x" (want auto, mse, dse or full)`,
			`.setbot.yml:2:17: bounds.depth: bound -1 too small (want 1 or more)`,
			`.setbot.yml:2:33: bounds.loop_bound: expected a non-negative integer, found the string "y"`,
			`.setbot.yml:3:1: unknown key "foo"` + known,
			`.setbot.yml:4:19: gate.bound_hit: unknown action "z" (want block, warn or off)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(FileName, []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; parsed %+v", c)
			}
			if c != nil {
				t.Errorf("a Config along with the error")
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != len(tt.want) {
				t.Fatalf("error is %T with %d entries, want an ErrorList of %d", err, len(list), len(tt.want))
			}
		})
	}
}

func TestErrorFields(t *testing.T) {
	_, err := Parse("repo/.setbot.yml", []byte("gate:\n  bound_hit: maybe\n"))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	want := &Error{
		Pos:  Position{Filename: "repo/.setbot.yml", Line: 2, Column: 14},
		Path: "gate.bound_hit",
		Msg:  `unknown action "maybe" (want block, warn or off)`,
	}
	if len(list) != 1 || !reflect.DeepEqual(list[0], want) {
		t.Errorf("errors = %+v, want [%+v]", list, want)
	}
}

// Aliases can make a short file name a long list many times over; the walk stops at maxVisits.
func TestParseAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("invariants: &i [")
	for i := range 2000 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("x")
	}
	b.WriteString("]\nmodels_config:\n")
	for range 2000 {
		b.WriteString("- {match: a, invariants: *i}\n")
	}
	_, err := Parse(FileName, []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "too many aliases") {
		t.Fatalf("err = %v, want the walk to stop", err)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"depth", "depth", 0},
		{"dpeth", "depth", 1},
		{"modles", "models", 1},
		{"model", "models", 1},
		{"ful", "full", 1},
		{"abc", "xyz", 3},
		{"a", "abcdefgh", 3},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// The reference in docs/config.md must stay true: its YAML examples parse, and it names every
// key, rule, action and choice.
func TestDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) == 0 {
		t.Fatal("no yaml examples in docs/config.md")
	}
	for _, b := range blocks {
		if _, err := Parse("docs/config.md example", b[1]); err != nil {
			t.Errorf("example does not parse:\n%s\n%v", b[1], err)
		}
	}
	// The worked example of models_config.
	if c, err := Parse(FileName, blocks[0][1]); err == nil {
		got := c.For("models/radio_fm.scxml")
		if got.Bounds[vocab.BoundDepth] != 12 || got.Bounds.Duration(vocab.BoundTime) != time.Minute || got.Coverage != "transition" ||
			got.Strategy != "auto" || !reflect.DeepEqual(got.Invariants, []string{"mode >= 0", "volume <= 10"}) {
			t.Errorf("For(models/radio_fm.scxml) = %+v, not as docs/config.md says", got)
		}
	}
	for _, words := range [][]string{topKeys, boundsKeys, ruleKeys, funcKeys, gateRules, actions, strategies, coverages, times} {
		for _, w := range words {
			if !strings.Contains(string(doc), "`"+w+"`") {
				t.Errorf("docs/config.md does not mention `%s`", w)
			}
		}
	}
}

// TestBoundSettingsNameTheKeys: where a finding tells the user to raise a
// bound, it names a key this package reads.
func TestBoundSettingsNameTheKeys(t *testing.T) {
	for _, b := range vocab.Bounds {
		if b == vocab.BoundArray || b == vocab.BoundKeys || b == vocab.BoundInterrupt || b == vocab.BoundMemory || b == vocab.BoundTable || b == vocab.BoundConcretised || b == vocab.BoundNumber || b == vocab.BoundTerm || b == vocab.BoundSessions || b == vocab.BoundIndex {
			continue // declared on the array itself, fixed, or the server's; no setting in .setbot.yml
		}
		s := b.Setting()
		if !slices.ContainsFunc(boundsKeys, func(k string) bool { return strings.Contains(s, "bounds."+k+" ") }) {
			t.Errorf("bound %s: setting %q names no key of bounds", b, s)
		}
	}
}
