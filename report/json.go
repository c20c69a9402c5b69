package report

import (
	"encoding/json"
	"io"
	"sort"
)

// WriteJSON writes the analysis as the stable JSON document of `setbot
// analyze --format json` and of the bot's stored result
// (docs/report-json.md): indented by two spaces, no HTML escaping, models
// sorted by path, and empty lists as [] rather than null. The models' test
// deltas are written a test at a time (writeAnalysisJSON), so that the
// document is never held in memory whole.
func WriteJSON(w io.Writer, a *Analysis) error {
	return writeAnalysisJSON(w, normalized(a))
}

// encodeJSON writes v as every JSON report of setbot is written: indented
// by two spaces, without HTML escaping (a message quotes "<scxml>" and
// "&&" as they are).
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// normalized returns a shallow copy of a with the schema version, whose
// lists are sorted and never nil; a is not changed.
func normalized(a *Analysis) *Analysis {
	c := *a
	c.SchemaVersion = SchemaVersion
	c.Models = sortedModels(a.Models)
	if c.Gate.Findings == nil {
		c.Gate.Findings = []Finding{}
	}
	if c.Gate.NotGated == nil {
		c.Gate.NotGated = []Finding{}
	}
	return &c
}

// sortedModels returns the models sorted by path, never nil.
func sortedModels(ms []*Model) []*Model {
	out := make([]*Model, 0, len(ms))
	for _, m := range ms {
		if m != nil {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
