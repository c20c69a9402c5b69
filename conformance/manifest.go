package conformance

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// ManifestName is the file of a test directory that lists its tests.
const ManifestName = "manifest.xml"

// Test is one test of the manifest.
type Test struct {
	ID        string
	Mandatory bool // conformance="mandatory" (otherwise "optional")
	Manual    bool // manual="true": a person judges it, not the final states
	// Starts are the start documents as the manifest names them
	// ("355/test355.txml"); most tests have one, test 403 has three.
	Starts []string
}

// File is the converted document a start URI names in the test directory:
// "355/test355.txml" is test355.scxml.
func File(start string) string {
	base := path.Base(start)
	return strings.TrimSuffix(base, path.Ext(base)) + ".scxml"
}

// ReadManifest reads the tests of the manifest at file, in manifest order.
// Every error names the file (and the line of the test at fault).
func ReadManifest(file string) ([]Test, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	defer f.Close()
	return parseManifest(file, f)
}

type testXML struct {
	ID          string `xml:"id,attr"`
	Conformance string `xml:"conformance,attr"`
	Manual      string `xml:"manual,attr"`
	Starts      []struct {
		URI string `xml:"uri,attr"`
	} `xml:"start"`
}

func parseManifest(file string, r io.Reader) ([]Test, error) {
	dec := xml.NewDecoder(r)
	var tests []Test
	seen := make(map[string]bool)
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: malformed XML: %w", file, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "test" {
			continue
		}
		var tx testXML
		if err := dec.DecodeElement(&tx, &se); err != nil {
			return nil, fmt.Errorf("%s:%d: malformed <test>: %w", file, line, err)
		}
		t, err := tx.test()
		if err == nil && seen[t.ID] {
			err = fmt.Errorf("a second test with id %q", t.ID)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		seen[t.ID] = true
		tests = append(tests, t)
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("%s: no <test> elements: not a W3C IRP manifest", file)
	}
	return tests, nil
}

func (tx testXML) test() (Test, error) {
	t := Test{ID: strings.TrimSpace(tx.ID)}
	if t.ID == "" {
		return t, errors.New("<test> without an id")
	}
	switch tx.Conformance {
	case "mandatory":
		t.Mandatory = true
	case "optional":
	default:
		return t, fmt.Errorf("test %s: conformance=%q, want mandatory or optional", t.ID, tx.Conformance)
	}
	switch tx.Manual {
	case "true":
		t.Manual = true
	case "false":
	default:
		return t, fmt.Errorf("test %s: manual=%q, want true or false", t.ID, tx.Manual)
	}
	for _, s := range tx.Starts {
		if s.URI == "" {
			return t, fmt.Errorf("test %s: <start> without a uri", t.ID)
		}
		t.Starts = append(t.Starts, s.URI)
	}
	if len(t.Starts) == 0 {
		return t, fmt.Errorf("test %s: no <start>", t.ID)
	}
	return t, nil
}
