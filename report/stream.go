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

// The JSON documents are written as encodeJSON writes them, but their test
// deltas a test at a time: a path-coverage delta of a large tree is
// hundreds of megabytes of JSON, which encoding the whole object first
// holds in memory three times (the report's tests, the compact encoding,
// the indented one). The rest of the document is encoded whole with each
// delta null, and the deltas are written in place of those nulls.

// WriteChangeJSON writes the JSON object of an analysis of a change
// (NewChangeAnalysis of r), byte for byte as encodeJSON writes it, the
// test delta's tests converted and written one at a time.
func WriteChangeJSON(w io.Writer, r *incremental.Result) error {
	rest := *r
	rest.TestDelta = nil
	var head bytes.Buffer
	if err := encodeJSON(&head, NewChangeAnalysis(&rest)); err != nil {
		return err
	}
	var delta *deltaLists
	if d := r.TestDelta; d != nil {
		var pool testPool // empty: each test gets allocations of its own
		delta = &deltaLists{}
		for i, ts := range [...][]*testgen.Test{d.Retained, d.Changed, d.Obsolete, d.New} {
			delta[i] = testList{n: len(ts), test: func(j int) Test { return pool.test(ts[j]) }}
		}
	}
	return spliceDeltas(w, head.Bytes(), "  ", []*deltaLists{delta})
}

// writeAnalysisJSON writes the document of a, normalized, as encodeJSON
// writes it, each model's test delta a test at a time. It replaces a's
// models by copies without their deltas: a must be normalized's copy.
func writeAnalysisJSON(w io.Writer, a *Analysis) error {
	var deltas []*deltaLists
	for i, m := range a.Models {
		if m.ChangeAnalysis == nil {
			continue // no test_delta member at all
		}
		var delta *deltaLists
		if d := m.TestDelta; d != nil {
			delta = &deltaLists{}
			for j, ts := range [...][]Test{d.Retained, d.Changed, d.Obsolete, d.New} {
				delta[j] = testList{n: len(ts), null: ts == nil, test: func(k int) Test { return ts[k] }}
			}
		}
		deltas = append(deltas, delta)
		c, ca := *m, *m.ChangeAnalysis
		ca.TestDelta = nil
		c.ChangeAnalysis = &ca
		a.Models[i] = &c
	}
	var head bytes.Buffer
	if err := encodeJSON(&head, a); err != nil {
		return err
	}
	// A model's members are at the third level: "models", its list, the
	// model.
	return spliceDeltas(w, head.Bytes(), "      ", deltas)
}

// testList is one list of a test delta: its length and its i-th test as
// the document writes it; null for a nil list, which NewChangeAnalysis
// never makes but a hand-made object can hold.
type testList struct {
	n    int
	null bool
	test func(i int) Test
}

// deltaLists are the four lists of a test delta, in the document's order.
type deltaLists [4]testList

var deltaNames = [4]string{"retained", "changed", "obsolete", "new"}

// spliceDeltas writes doc, an indented document whose test_delta members
// are null, with deltas in place of those nulls in turn; indent is the
// indentation of the members. A delta is a member of an object, so it is
// the one line that reads so at that indentation (a string holding it
// would have its newline escaped).
func spliceDeltas(w io.Writer, doc []byte, indent string, deltas []*deltaLists) error {
	member := []byte("\n" + indent + "\"test_delta\": ")
	null := append(bytes.Clone(member), "null"...)
	out := bufio.NewWriterSize(w, 1<<16)
	for _, d := range deltas {
		before, after, ok := bytes.Cut(doc, null)
		if !ok {
			return errors.New("writing the analysis as JSON: a test_delta member is missing")
		}
		out.Write(before)
		out.Write(member)
		if err := writeDelta(out, indent, d); err != nil {
			return err
		}
		doc = after
	}
	out.Write(doc)
	return out.Flush()
}

// writeDelta writes a test delta as the value of a member at indent, a
// test at a time.
func writeDelta(out *bufio.Writer, indent string, d *deltaLists) error {
	if d == nil {
		_, err := out.WriteString("null")
		return err
	}
	// Each test is a value two levels below the member: indented as
	// encodeJSON indents it there.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(indent+"    ", "  ")
	enc.SetEscapeHTML(false)
	out.WriteString("{")
	for i, l := range d {
		if i > 0 {
			out.WriteString(",")
		}
		out.WriteString("\n" + indent + "  \"" + deltaNames[i] + "\": ")
		switch {
		case l.null:
			out.WriteString("null")
			continue
		case l.n == 0:
			out.WriteString("[]")
			continue
		}
		out.WriteString("[")
		for j := range l.n {
			if j > 0 {
				out.WriteString(",")
			}
			out.WriteString("\n" + indent + "    ")
			buf.Reset()
			if err := enc.Encode(l.test(j)); err != nil {
				return err
			}
			// Encode ends the value with a newline; the separator
			// that follows begins with its own.
			out.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		}
		out.WriteString("\n" + indent + "  ]")
	}
	_, err := out.WriteString("\n" + indent + "}")
	return err
}
