// Package xmltest checks XML that setbot writes for CI against the schemas
// CI systems hold it to, for tests.
package xmltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// JUnitSchema is Jenkins' JUnit schema, in the shared directory beside the
// repository.
func JUnitSchema(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "schemas", "junit-10.xsd")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no JUnit schema at %s", path)
	}
	return path
}

// Validate checks doc against the JUnit schema with xmllint, and skips the
// test when xmllint (Debian: libxml2-utils) or the schema is missing.
func Validate(t testing.TB, doc []byte) {
	t.Helper()
	schema := JUnitSchema(t)
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils)")
	}
	file := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", schema, file).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint --schema %s rejects the JUnit XML: %v\n%s", schema, err, out)
	}
}
