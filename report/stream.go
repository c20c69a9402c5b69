package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
)

// WriteChangeJSON writes the JSON object of an analysis of a change
// (NewChangeAnalysis of r), byte for byte as the JSON reports are written
// (encodeJSON), but writes the test delta's tests as it converts them, one
// at a time: a path-coverage delta of a large tree is hundreds of
// megabytes of JSON, which encoding the whole object first holds in
// memory three times (the report's tests, the compact encoding, the
// indented one).
func WriteChangeJSON(w io.Writer, r *incremental.Result) error {
	rest := *r
	rest.TestDelta = nil
	var head bytes.Buffer
	if err := encodeJSON(&head, NewChangeAnalysis(&rest)); err != nil {
		return err
	}
	// The delta is a member of the top-level object, so it is the one
	// line that reads so at the first level of indentation (a string
	// holding it would have its quotes escaped).
	const member = "\n  \"test_delta\": null"
	before, after, ok := bytes.Cut(head.Bytes(), []byte(member))
	if !ok {
		return errors.New("writing the analysis as JSON: no test_delta member")
	}
	out := bufio.NewWriterSize(w, 1<<16)
	out.Write(before)
	out.WriteString(member[:len(member)-len("null")])
	if err := writeDelta(out, r.TestDelta); err != nil {
		return err
	}
	out.Write(after)
	return out.Flush()
}

// writeDelta writes a test delta, as the second level of an indented
// document, a test at a time.
func writeDelta(out *bufio.Writer, d *testgen.Delta) error {
	if d == nil {
		_, err := out.WriteString("null")
		return err
	}
	// Each test is a third-level value: indented as encodeJSON indents it
	// there.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("      ", "  ")
	enc.SetEscapeHTML(false)
	var pool testPool // empty: each test gets allocations of its own
	lists := []struct {
		name  string
		tests []*testgen.Test
	}{{"retained", d.Retained}, {"changed", d.Changed}, {"obsolete", d.Obsolete}, {"new", d.New}}
	out.WriteString("{")
	for i, l := range lists {
		if i > 0 {
			out.WriteString(",")
		}
		out.WriteString("\n    \"" + l.name + "\": ")
		if len(l.tests) == 0 {
			out.WriteString("[]")
			continue
		}
		out.WriteString("[")
		for j, t := range l.tests {
			if j > 0 {
				out.WriteString(",")
			}
			out.WriteString("\n      ")
			buf.Reset()
			if err := enc.Encode(pool.test(t)); err != nil {
				return err
			}
			// Encode ends the value with a newline; the separator
			// that follows begins with its own.
			out.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		}
		out.WriteString("\n    ]")
	}
	_, err := out.WriteString("\n  }")
	return err
}
