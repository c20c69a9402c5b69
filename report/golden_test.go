package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestGolden(t *testing.T) {
	a := fixtureAnalysis(t)
	t.Run("markdown", func(t *testing.T) {
		golden(t, "analysis.md", []byte(Markdown(a, Options{CheckRunURL: "https://github.com/acme/controllers/runs/42"})))
	})
	t.Run("json", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteJSON(&b, a); err != nil {
			t.Fatal(err)
		}
		golden(t, "analysis.json", b.Bytes())
	})
	t.Run("junit", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteJUnit(&b, a); err != nil {
			t.Fatal(err)
		}
		golden(t, "analysis.junit.xml", b.Bytes())
	})
	t.Run("checkrun", func(t *testing.T) {
		out := CheckRun(a, Options{})
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Title       string
			Annotations []Annotation
		}{out.Title, out.Annotations}); err != nil {
			t.Fatal(err)
		}
		golden(t, "analysis.checkrun.json", b.Bytes())
		golden(t, "analysis.checkrun.md", []byte(out.Summary))
	})
}

// TestGoldenS2Off is the comment for the one change that makes a state
// unreachable, under the default rules.
func TestGoldenS2Off(t *testing.T) {
	m := s2OffModel(t)
	a := &Analysis{Base: baseSHA, Head: headSHA, Models: []*Model{m}, Gate: judge(nil, []*Model{m})}
	golden(t, "triangle_s2_off.md", []byte(Markdown(a, Options{})))
}
