package jexl

import (
	"os"
	"strings"
	"testing"
)

// markdown writes Table as README's table.
func markdown() string {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder
	b.WriteString("| JEXL | setbot reads | where they agree, or why it is refused |\n|---|---|---|\n")
	for _, r := range Table {
		reads := "refused"
		switch r.How {
		case Refused:
		case Same:
			reads = "the same"
			if r.Setbot != "the same" {
				reads = "`" + cell(r.Setbot) + "`"
			}
		default:
			reads = "`" + cell(r.Setbot) + "`"
		}
		code := "`" + cell(r.JEXL) + "`"
		if strings.Contains(r.JEXL, "`") {
			code = "`` " + cell(r.JEXL) + " ``"
		}
		b.WriteString("| " + code + " | " + reads + " | " + cell(r.Note) + " |\n")
	}
	return b.String()
}

// TestTableInREADME keeps README's jexl table the table the translator
// reads by: it is written between the markers <!-- jexl table --> and
// <!-- end jexl table -->.
func TestTableInREADME(t *testing.T) {
	src, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(src), "<!-- jexl table -->\n")
	got, _, ok2 := strings.Cut(rest, "<!-- end jexl table -->")
	if !ok || !ok2 {
		t.Fatal("README has no jexl table between <!-- jexl table --> and <!-- end jexl table -->")
	}
	if want := markdown(); got != want {
		t.Errorf("README's jexl table differs from Table; write it as\n%s", want)
	}
}
