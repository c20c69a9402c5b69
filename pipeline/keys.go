package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/mlm"
)

// Cache kinds.
const (
	kindSET    = "set"    // an encoded tree
	kindSuite  = "suite"  // the test suite of a tree, for one coverage criterion
	kindResult = "result" // the analysis of a pair of trees
)

// resultVersion names the stored form of a model's analysis; it changes
// whenever what is stored under kindResult changes meaning.
const resultVersion = "result-1"

// setKey is a tree's cache key (ARCHITECTURE.md §7): the canonical machine
// hash, the engine options that shape the tree, and the engine version.
// The wall-clock budget is left out: a tree it did not cut is the same
// tree under any budget, and a tree it cut is never stored.
func setKey(m *mlm.Machine, o engine.Options) string {
	return digest(engine.Version, m.Hash,
		fmt.Sprintf("depth=%d states=%d loop=%d micro=%d", o.MaxDepth, o.MaxStates, o.LoopBound, o.MaxMicrosteps))
}

// suiteKey is the key of a tree's test suite.
func suiteKey(set, coverage string) string { return digest(set, "coverage="+coverage) }

// resultKey is the key of the analysis of a change: the two trees, and
// everything else that shapes the result.
func resultKey(base, head, strategy, coverage string, invariants []string) string {
	inv := append([]string(nil), invariants...)
	sort.Strings(inv)
	return digest(resultVersion, base, head, "strategy="+strategy, "coverage="+coverage, "invariants="+strings.Join(inv, "\x00"))
}

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
