package pipeline

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestGoBuildID checks that the build is named by the content ID the go
// command wrote into the executable (here the test's), as `go tool
// buildid` reads it, without hashing the file.
func TestGoBuildID(t *testing.T) {
	id := goBuildID()
	if runtime.GOOS != "linux" {
		t.Skip("the build ID is read from ELF executables only")
	}
	if len(id) != buildIDHashLen {
		t.Fatalf("goBuildID() = %q, want a content ID of %d characters", id, buildIDHashLen)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to compare with")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goTool, "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	parts := strings.Split(strings.TrimSpace(string(out)), "/")
	if want := parts[len(parts)-1]; id != want {
		t.Errorf("goBuildID() = %q, want %q (go tool buildid: %s)", id, want, out)
	}
	if v := readBuildVersion(); v != "go-build:"+id && !strings.Contains(v, "@") {
		t.Errorf("readBuildVersion() = %q, want the content ID or a commit", v)
	}
}
