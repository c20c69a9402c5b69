package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, c := range []struct {
		name         string
		bi           debug.BuildInfo
		str, semver  string
		wantRev      string
		wantModified bool
	}{
		{name: "go install module@version", bi: debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			str: "v1.4.0", semver: "1.4.0"},
		{name: "pseudo-version", bi: debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128135331-8c31ebc0a1b2"}},
			str: "v0.0.0-20261128135331-8c31ebc0a1b2", semver: "0.0.0-20261128135331-8c31ebc0a1b2"},
		{name: "build in a checkout", bi: debug.BuildInfo{Main: debug.Module{Path: "github.com/setbot/setbot", Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "8c31ebc0a1b2c3d4e5f60718293a4b5c6d7e8f90"}, {Key: "vcs.modified", Value: "true"}}},
			str: "(devel) 8c31ebc0a1b2, modified", wantRev: "8c31ebc0a1b2c3d4e5f60718293a4b5c6d7e8f90", wantModified: true},
		{name: "nothing recorded", str: "(devel)"},
		{name: "incompatible major", bi: debug.BuildInfo{Main: debug.Module{Version: "v2.0.1+incompatible"}},
			str: "v2.0.1+incompatible", semver: "2.0.1+incompatible"},
	} {
		t.Run(c.name, func(t *testing.T) {
			i := fromBuildInfo(&c.bi)
			if got := i.String(); got != c.str {
				t.Errorf("String() = %q, want %q", got, c.str)
			}
			if got := i.SemVer(); got != c.semver {
				t.Errorf("SemVer() = %q, want %q", got, c.semver)
			}
			if i.Module != c.bi.Main.Path || i.Revision != c.wantRev || i.Modified != c.wantModified {
				t.Errorf("revision %q modified %v, want %q %v", i.Revision, i.Modified, c.wantRev, c.wantModified)
			}
		})
	}
}
