package pipeline

import (
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/internal/buildinfo"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Cache kinds.
const (
	kindSET    = "set"    // an encoded tree
	kindSuite  = "suite"  // the test suite of a tree, for one coverage criterion
	kindResult = "result" // the analysis of a pair of trees
)

// resultVersion names the stored form of a model's analysis
// (incremental.EncodeResult); it changes whenever what is stored under
// kindResult is encoded differently. What the analysis computes is
// engine.SemanticsVersion's business.
const resultVersion = "result-4"

// Every key starts with engine.SemanticsVersion and names the build that
// computes the entry (buildVersion): trees, suites and results computed
// under other semantics, or by other code, are never found. The version
// alone is bumped by hand, and a change of semantics without a bump once
// served a stale tree; the build's fingerprint cannot be forgotten.

// setKey is a tree's cache key (docs/architecture.md §Cache keys): the semantics version,
// the build, the tree's encoding, the canonical machine hash, and the engine
// options that shape the tree. The wall-clock budget is left out: a tree it
// did not cut is the same tree under any budget, and a tree it cut is never
// stored.
func setKey(m *mlm.Machine, o engine.Options) string {
	return digest(engine.SemanticsVersion, buildVersion(), engine.EncodingVersion, m.Hash, o.Shape())
}

// suiteKey is the key of a tree's test suite, rows the origin of the
// machine's rows (rowsOrigin).
func suiteKey(set string, coverage vocab.Coverage, rows string) string {
	return digest(engine.SemanticsVersion, set, buildVersion(), "coverage="+string(coverage), "rows="+rows)
}

// rowsOrigin says where each row of m's tables comes from: its table's
// file, line and column, or the command that computed it. A test names
// the rows it relies on with their origin (testgen), but the tree's key
// covers only their values: once a user commits the rows an analysis
// computed, the tree is the same and its suite must not be.
func rowsOrigin(m *mlm.Machine) string {
	var b strings.Builder
	for _, o := range testgen.RowOrigins(m.Source) {
		b.WriteString(o + "\x00")
	}
	return b.String()
}

// resultKey is the key of the analysis of a change: the two trees, the
// two files' contents (a result names source lines), and everything else
// that shapes the result, growth saying whether black-box functions'
// commands ran and what they computed (growthKey).
func resultKey(base, head, baseFile, headFile string, strategy vocab.Strategy, coverage vocab.Coverage, invariants []string, growth string) string {
	inv := append([]string(nil), invariants...)
	sort.Strings(inv)
	return digest(engine.SemanticsVersion, resultVersion, buildVersion(), base, head, baseFile, headFile,
		"strategy="+string(strategy), "coverage="+string(coverage), "invariants="+strings.Join(inv, "\x00"), growth)
}

// buildVersion names the build of setbot: its module and the commit it was
// built from when the build recorded one (and the tree was clean), else
// the content hash the Go toolchain wrote into the executable (goBuildID),
// else a digest of the executable (a build from a source archive, as in
// the container, or a vendored one records no commit). It is computed
// once, at the first key. Entries of another build are not trusted.
func buildVersion() string {
	buildOnce.Do(func() { build = readBuildVersion() })
	return build
}

var (
	buildOnce sync.Once
	build     string
)

func readBuildVersion() string {
	if bi := buildinfo.Read(); bi.Revision != "" && !bi.Modified {
		return bi.Module + "@" + bi.Revision
	}
	if id := goBuildID(); id != "" {
		return "go-build:" + id
	}
	if sum, err := executableDigest(); err == nil {
		return "exe:" + sum
	}
	// Nothing names this build: its entries are its own process's.
	nonce := make([]byte, 16)
	rand.Read(nonce)
	return "unnamed:" + hex.EncodeToString(nonce)
}

// goBuildID returns the content ID of the running executable's Go build
// ID, "" when it has none that is one. The go command writes the build ID
// into an ELF note (actionID/contentID, each part of a linked program
// being two base64 hashes), and the content ID is a hash of the linked
// file itself (cmd/go's updateBuildID), so two executables of one content
// ID are the same bytes: it names the build as executableDigest does,
// without reading the 40 MB of the file (a tenth of a cached analysis's
// CPU time on AQS at depth 12). A build ID set by hand (-ldflags=-buildid)
// need not have that form, and is not used.
func goBuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := elf.Open(exe)
	if err != nil {
		return "" // not ELF (macOS, Windows): the digest names it
	}
	defer f.Close()
	note := f.Section(".note.go.buildid")
	if note == nil {
		return ""
	}
	data, err := note.Data()
	// An ELF note: name size, description size and type (4 bytes each),
	// the name "Go\x00\x00", then the build ID.
	const nameLen, goBuildIDNote = 4, 4
	if err != nil || len(data) < 16 || binary.LittleEndian.Uint32(data) != nameLen ||
		binary.LittleEndian.Uint32(data[8:]) != goBuildIDNote || string(data[12:16]) != "Go\x00\x00" {
		return ""
	}
	size := int(binary.LittleEndian.Uint32(data[4:]))
	if size > len(data)-16 {
		return ""
	}
	parts := strings.Split(string(data[16:16+size]), "/")
	if len(parts) != 4 && len(parts) != 2 {
		return ""
	}
	for _, p := range parts {
		if len(p) != buildIDHashLen {
			return ""
		}
	}
	return parts[len(parts)-1]
}

// buildIDHashLen is the length of each part of a Go build ID: a hash's
// first 15 bytes in base64.
const buildIDHashLen = 20

func executableDigest() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
