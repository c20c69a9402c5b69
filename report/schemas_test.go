package report

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sharedSchema is a schema in the shared directory beside the repository;
// the test is skipped when it is absent.
func sharedSchema(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "schemas", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no schema %s", path)
	}
	return path
}

// validateJUnit checks doc against Jenkins' JUnit schema with xmllint
// (Debian: libxml2-utils), and skips when xmllint is missing.
func validateJUnit(t *testing.T, doc []byte) {
	t.Helper()
	schema := sharedSchema(t, "junit-10.xsd")
	xmllint, err := osexec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils)")
	}
	file := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := osexec.Command(xmllint, "--noout", "--schema", schema, file).CombinedOutput(); err != nil {
		t.Errorf("xmllint --schema %s rejects the JUnit XML: %v\n%s", schema, err, out)
	}
}

// validateSARIF checks doc against the SARIF 2.1.0 JSON schema.
func validateSARIF(t *testing.T, doc []byte) {
	t.Helper()
	path := sharedSchema(t, "sarif-schema-2.1.0.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	// The shared copy keeps the log's own schema under definitions/Root and
	// nothing at its top level, so compiling the file alone would accept
	// any JSON: validate against Root when the top level constrains nothing.
	loc := "sarif-schema-2.1.0.json"
	if top, ok := schemaDoc.(map[string]any); ok && top["properties"] == nil && top["$ref"] == nil && top["type"] == nil {
		loc += "#/definitions/Root"
	}
	schema, err := c.Compile(loc)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("the SARIF is not JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("the SARIF does not validate against %s: %v", path, err)
	}
}
