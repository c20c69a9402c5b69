// Package config reads a repository's setbot configuration, the file .setbot.yml at its root:
// which files are models, how to explore them, which invariants to check, and which findings
// block a merge.
//
// Parse is strict: an unknown key, a value of the wrong type or an unknown choice is an error
// naming its file, line, column and key path, so a typo never silently falls back to a default.
package config

import (
	"maps"
	"slices"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/setbot/setbot/vocab"
)

// FileName is the configuration file's name, at the root of the repository.
const FileName = ".setbot.yml"

// Defaults of functions: growing black-box functions' tables.
const (
	// DefaultGrowRounds is the rounds of SolveTab (the paper's m) when
	// functions.run_commands allows commands and grow_rounds is absent.
	DefaultGrowRounds = 2
	// DefaultCommandTimeout bounds one run of a command.
	DefaultCommandTimeout = 10 * time.Second
	// MaxGrowRounds and MaxCommandTimeout are the most a configuration
	// may ask for: the settings come from the commit under analysis, and
	// a job must end.
	MaxGrowRounds     = 100
	MaxCommandTimeout = 10 * time.Minute
)

// The valid values, in documentation order.
var (
	strategies = vocab.Names(vocab.Strategies)
	coverages  = vocab.Names(vocab.Coverages)
	times      = vocab.Names(vocab.Times)
	gateRules  = vocab.Names(vocab.Rules)
	actions    = vocab.Names(vocab.Actions)
)

// Config is a repository's configuration.
type Config struct {
	Models     []string // doublestar globs of model files, repository-relative slash paths
	Ignore     []string // globs excluded even when they match Models
	Strategy   vocab.Strategy
	Coverage   vocab.Coverage
	Time       vocab.Time   // how delays are read
	Bounds     vocab.Limits // yaml: bounds, one key per row of the bounds table (vocab.Settings)
	Invariants []string     // predicates over the machine variables, checked on every model
	// ExpectUnreachable are globs of state ids that no execution is meant
	// to enter (yaml: expect_unreachable), in every model: the gate
	// reports them as expected, and gates them only when one is entered.
	ExpectUnreachable []string
	PerModel          []ModelRule // yaml: models_config; applied in order to each model they match
	Gate              vocab.RuleActions
	Schedule          string // cron spec of the scheduled full re-analysis; "" for none
	Functions         Functions
}

// Functions says whether and how an analysis runs the commands of black-box
// functions (setbot:function command=...) to grow their tables (SolveTab,
// Boudhiba et al., TAP 2017). A command is code from the repository: an
// analysis runs it only when RunCommands is true both in the
// configuration it analyses (the head's) and in the one its gate comes
// from (the base's), so that a pull request cannot allow itself to run
// code in the analysis.
type Functions struct {
	RunCommands bool          // yaml: run_commands
	GrowRounds  int           // yaml: grow_rounds, the paper's m
	Timeout     time.Duration // yaml: timeout, of one run of a command
}

// A ModelRule adjusts the settings of the models whose path matches one of its globs.
type ModelRule struct {
	Match []string
	// Bounds are the bounds the rule sets; one it leaves out stays as it was, so an explicit
	// zero is told apart from an absent key.
	Bounds     vocab.Limits
	Invariants []string // appended to the global ones
	// ExpectUnreachable are appended to the global ones.
	ExpectUnreachable []string
	Coverage          vocab.Coverage // "" leaves it as it was
	Strategy          vocab.Strategy // "" leaves it as it was
	Time              vocab.Time     // "" leaves it as it was
}

// ModelConfig is the effective configuration of one model file.
type ModelConfig struct {
	Strategy   vocab.Strategy
	Coverage   vocab.Coverage
	Time       vocab.Time
	Bounds     vocab.Limits
	Invariants []string
	// ExpectUnreachable are the globs of the ids of the model's states
	// that no execution is meant to enter.
	ExpectUnreachable []string
}

// ExpectedBy returns the first of the globs of the states meant to be
// unreachable that the state id matches, and whether there is one.
func (mc ModelConfig) ExpectedBy(id string) (string, bool) {
	for _, g := range mc.ExpectUnreachable {
		if ok, _ := doublestar.Match(g, id); ok {
			return g, true
		}
	}
	return "", false
}

// Default returns the configuration of a repository without .setbot.yml.
func Default() *Config {
	return &Config{
		Models:   []string{"**/*.scxml"},
		Strategy: vocab.StrategyAuto,
		// A pull request's report lists tests: transition coverage keeps
		// them to the few that fire every transition, where path
		// coverage gives thousands on the benchmark models.
		Coverage:  vocab.CoverageTransition,
		Time:      vocab.TimeTimed,
		Bounds:    vocab.DefaultLimits(),
		Gate:      vocab.DefaultRuleActions(),
		Functions: Functions{GrowRounds: DefaultGrowRounds, Timeout: DefaultCommandTimeout},
	}
}

// IsModel reports whether the file at path (repository-relative, with forward slashes, as git
// names it) matches one of the model globs and none of the ignore globs.
func (c *Config) IsModel(path string) bool {
	return matchAny(c.Models, path) && !matchAny(c.Ignore, path)
}

// For returns the effective settings of the model at path: the global ones, adjusted by every
// rule of PerModel that matches path, in order. Later rules win; invariants accumulate.
func (c *Config) For(path string) ModelConfig {
	mc := ModelConfig{
		Strategy:   c.Strategy,
		Coverage:   c.Coverage,
		Time:       c.Time,
		Bounds:     c.Bounds.Clone(),
		Invariants: slices.Clone(c.Invariants),

		ExpectUnreachable: slices.Clone(c.ExpectUnreachable),
	}
	for _, r := range c.PerModel {
		if !matchAny(r.Match, path) {
			continue
		}
		maps.Copy(mc.Bounds, r.Bounds)
		mc.Invariants = append(mc.Invariants, r.Invariants...)
		mc.ExpectUnreachable = append(mc.ExpectUnreachable, r.ExpectUnreachable...)
		if r.Coverage != "" {
			mc.Coverage = r.Coverage
		}
		if r.Strategy != "" {
			mc.Strategy = r.Strategy
		}
		if r.Time != "" {
			mc.Time = r.Time
		}
	}
	return mc
}

// Rules returns a copy of the gate: rule -> action.
func (c *Config) Rules() vocab.RuleActions {
	return maps.Clone(c.Gate)
}

// matchAny reports whether name matches one of the globs. Parse has validated the globs, so a
// pattern error (only possible in a Config built by hand) counts as no match.
func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, name); ok {
			return true
		}
	}
	return false
}
