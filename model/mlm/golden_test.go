package mlm_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// flatten reads and flattens one file, failing the test on any error.
func flatten(t *testing.T, path string) *mlm.Machine {
	t.Helper()
	mach, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s:\n%v", path, err)
	}
	return mach
}

// TestGolden compares the text form of the MLM of every feature model and
// every example with its golden file.
func TestGolden(t *testing.T) {
	features, _ := filepath.Glob("testdata/features/*.scxml")
	examples, _ := filepath.Glob("../../examples/*.scxml")
	if len(features) == 0 || len(examples) == 0 {
		t.Fatal("no models found")
	}
	for _, path := range append(features, examples...) {
		name := strings.TrimSuffix(filepath.Base(path), ".scxml")
		golden := filepath.Join("testdata/golden", name+".mlm")
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := mlm.WriteText(&buf, flatten(t, path)); err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("MLM of %s differs from %s (go test -update rewrites it):\n%s", path, golden, buf.String())
			}
		})
	}
}
