package cache

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"strings"
	"testing"
)

// TestMisfiledBlob moves and copies rows to another kind or key through SQL,
// as a bug in a caller's key or a hand-edited store would: a blob is never
// returned under a kind and key other than those it was stored under.
func TestMisfiledBlob(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		stmt      string // moves or copies the row of set/a
		readKind  string
		readKey   string
		originals int // rows still readable as set/a afterwards (0 or 1)
	}{
		{"key moved", "UPDATE blobs SET key = 'b' WHERE kind = 'set' AND key = 'a'", "set", "b", 0},
		{"kind moved", "UPDATE blobs SET kind = 'suite' WHERE kind = 'set' AND key = 'a'", "suite", "a", 0},
		{"row copied", `INSERT INTO blobs (kind, key, data, size, stored, sum, written, last_used)
			SELECT kind, 'b', data, size, stored, sum, written, last_used FROM blobs WHERE kind = 'set' AND key = 'a'`,
			"set", "b", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs logBuffer
			s := open(t, tempPath(t), Options{Logger: logs.logger()})
			mustPut(t, s, "set", "a", payload("a"))
			if _, err := s.db.ExecContext(ctx, tc.stmt); err != nil {
				t.Fatal(err)
			}
			mustGet(t, s, tc.readKind, tc.readKey, nil)
			log := logs.String()
			if !strings.Contains(log, "stored under another key") || !strings.Contains(log, `stored as set \"a\"`) ||
				!strings.Contains(log, "key="+tc.readKey) {
				t.Errorf("the misfiled blob was not logged with both keys:\n%s", log)
			}
			if st, _ := s.stats(ctx); st.Entries != tc.originals {
				t.Errorf("%d entries left, want %d: the misfiled row is deleted, nothing else", st.Entries, tc.originals)
			}
			if tc.originals == 1 {
				mustGet(t, s, "set", "a", payload("a"))
			}
			// The key can be stored again and read back.
			mustPut(t, s, tc.readKind, tc.readKey, []byte("its own"))
			mustGet(t, s, tc.readKind, tc.readKey, []byte("its own"))
		})
	}
}

// TestBlobFormats checks that blobs of the format before keys were recorded
// are misses (and deleted), and that blobs of a newer format are misses left
// in place for the setbot that wrote them.
func TestBlobFormats(t *testing.T) {
	ctx := context.Background()
	var logs logBuffer
	s := open(t, tempPath(t), Options{Logger: logs.logger()})
	insert := func(key string, data, sum []byte, size int) {
		t.Helper()
		_, err := s.db.ExecContext(ctx, `INSERT INTO blobs (kind, key, data, size, stored, sum, written, last_used)
			VALUES ('set', ?, ?, ?, ?, ?, 1, 1)`, key, data, size, len(data), sum)
		if err != nil {
			t.Fatal(err)
		}
	}

	// Format 1: raw DEFLATE, SHA-256 of the caller's bytes.
	old := payload("old")
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.DefaultCompression)
	w.Write(old)
	w.Close()
	sum := sha256.Sum256(old)
	insert("old", z.Bytes(), sum[:], len(old))
	mustGet(t, s, "set", "old", nil)
	if !strings.Contains(logs.String(), "older format") {
		t.Errorf("the format 1 blob was not logged:\n%s", logs.String())
	}
	if st, _ := s.stats(ctx); st.Entries != 0 {
		t.Errorf("%d entries left, want the format 1 blob deleted", st.Entries)
	}

	// A newer format: kept.
	frame, fsum, err := pack(context.Background(), "set", "new", []byte("from the future"))
	if err != nil {
		t.Fatal(err)
	}
	frame[len(blobMagic)] = blobFormat + 1
	insert("new", frame, fsum, len("from the future"))
	mustGet(t, s, "set", "new", nil)
	if !strings.Contains(logs.String(), "newer format") {
		t.Errorf("the newer blob was not logged:\n%s", logs.String())
	}
	if st, _ := s.stats(ctx); st.Entries != 1 {
		t.Errorf("%d entries left, want the newer blob kept", st.Entries)
	}
}

// TestFrameHeader damages the frame's header: a cut or changed header is
// damage, never a blob of another key.
func TestFrameHeader(t *testing.T) {
	ctx := context.Background()
	var logs logBuffer
	s := open(t, tempPath(t), Options{Logger: logs.logger()})
	damage := map[string]string{
		"magic only":    "UPDATE blobs SET data = substr(data, 1, 8) WHERE key = ?",
		"no key":        "UPDATE blobs SET data = substr(data, 1, 13) WHERE key = ?",
		"key changed":   "UPDATE blobs SET data = CAST(substr(data, 1, 14) || 'X' || substr(data, 16) AS BLOB) WHERE key = ?",
		"format zero":   "UPDATE blobs SET data = CAST(substr(data, 1, 8) || x'00' || substr(data, 10) AS BLOB) WHERE key = ?",
		"magic changed": "UPDATE blobs SET data = CAST(x'ff' || 'SETBLUB' || substr(data, 9) AS BLOB) WHERE key = ?",
	}
	for name, stmt := range damage {
		mustPut(t, s, "set", name, payload(name))
		if _, err := s.db.ExecContext(ctx, stmt, name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		before := len(logs.String())
		mustGet(t, s, "set", name, nil)
		if got := logs.String()[before:]; !strings.Contains(got, "damaged") || !strings.Contains(got, name) {
			t.Errorf("%s: not logged as damage:\n%s", name, got)
		}
	}
	if st, _ := s.stats(ctx); st.Entries != 0 {
		t.Errorf("%d entries left, want every damaged blob deleted", st.Entries)
	}
}
