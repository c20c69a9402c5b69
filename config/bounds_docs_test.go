package config

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/vocab"
)

// TestDocsFollowTheBoundsTable: the tables of docs/config.md (bounds) and
// docs/server.md (ceilings) give each bound's key, type, default and
// ceiling as its row of the bounds table does, so that a new row, or a
// changed default, cannot leave the documentation behind.
func TestDocsFollowTheBoundsTable(t *testing.T) {
	config, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	server, err := os.ReadFile("../docs/server.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range vocab.Settings() {
		typ, ceilingType := "Go duration", "duration"
		if s.Unit == vocab.UnitCount {
			least := s.Min
			if s.ZeroKey {
				least = 0
			}
			typ, ceilingType = "integer ≥ "+s.Format(least), "integer, at least 1"
		}
		def, ceiling := s.Format(s.Default), s.Format(s.Ceiling)
		if s.Unit == vocab.UnitDuration {
			def, ceiling = docDuration(s.Default), docDuration(s.Ceiling)
		}
		row := "| `" + s.Key + "` | " + typ + " | `" + def + "` | "
		if !strings.Contains(string(config), "\n"+row) {
			t.Errorf("docs/config.md has no row %q", row)
		}
		row = "| `ceilings." + s.Key + "` | " + ceilingType + " | `" + ceiling + "` | "
		if !strings.Contains(string(server), "\n"+row) {
			t.Errorf("docs/server.md has no row %q", row)
		}
	}
}

// docDuration writes a duration as the documentation does: 0, 90s, 10m, 2h.
func docDuration(v int64) string {
	if v == 0 {
		return "0"
	}
	d := time.Duration(v).String()
	if strings.HasSuffix(d, "m0s") {
		d = strings.TrimSuffix(d, "0s")
	}
	if strings.HasSuffix(d, "h0m") {
		d = strings.TrimSuffix(d, "0m")
	}
	return d
}
