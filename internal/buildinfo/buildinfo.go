// Package buildinfo says which build of setbot is running: the module
// version and the commit the Go toolchain recorded in the binary.
package buildinfo

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
)

// Devel is the version of a build that records none: `go build` or `go
// run` in a checkout, as opposed to `go install module@version`.
const Devel = "(devel)"

// Info is what a binary records of its own build.
type Info struct {
	Module   string // the main module's path, "" when the build recorded none
	Version  string // the module version (v1.2.3, a pseudo-version) or Devel
	Revision string // the VCS commit, "" when the build recorded none
	Modified bool   // the working tree had uncommitted changes
}

// Read returns the running binary's build information.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: Devel}
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) Info {
	info := Info{Module: bi.Main.Path, Version: bi.Main.Version}
	if info.Version == "" {
		info.Version = Devel
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// String is the version and, when recorded, the commit:
// "v1.2.0", "(devel) 0123456789ab, modified".
func (i Info) String() string {
	if i.Revision == "" {
		return i.Version
	}
	rev := i.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	s := fmt.Sprintf("%s %s", i.Version, rev)
	if i.Modified {
		s += ", modified"
	}
	return s
}

// semver is Semantic Versioning 2.0.0's grammar (semver.org), which a Go
// module version follows after its "v".
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// SemVer is the version as a Semantic Version (without Go's "v"), or ""
// when it is none (a development build).
func (i Info) SemVer() string {
	v := strings.TrimPrefix(i.Version, "v")
	if v == i.Version || !semver.MatchString(v) {
		return ""
	}
	return v
}
