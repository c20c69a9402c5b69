package cache

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filledStore writes a closed store with n incompressible blobs at path and
// returns the keys. Closing checkpoints the WAL into the file.
func filledStore(t *testing.T, path string, n int) []string {
	t.Helper()
	s, err := Open(path, Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i := range n {
		key := fmt.Sprintf("blob%02d", i)
		if err := s.Put(context.Background(), "set", key, stream(key, 20_000)); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the WAL outlived Close; the file does not hold every page")
	}
	return keys
}

// foreignDB writes a SQLite file of some other program.
func foreignDB(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
}

// TestForeignFilesUntouched checks that a file that is not a setbot store,
// say a model passed to --cache by mistake, is refused and left byte for
// byte as it was, with nothing moved or created beside it.
func TestForeignFilesUntouched(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T, path string)
		why  string // in the error
	}{
		{"random bytes", func(t *testing.T, path string) {
			b := make([]byte, 64<<10)
			rand.Read(b)
			writeFile(t, path, b)
		}, "not a SQLite database"},
		{"short text", func(t *testing.T, path string) {
			writeFile(t, path, []byte("hello\n"))
		}, "not a SQLite database"},
		{"a statechart model", func(t *testing.T, path string) {
			writeFile(t, path, []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">`+
				strings.Repeat(`<state id="a"><transition event="go" target="a"/></state>`, 10)+`</scxml>`))
		}, "not a SQLite database"},
		{"SQLite header then garbage", func(t *testing.T, path string) {
			b := make([]byte, 8192)
			rand.Read(b)
			copy(b, sqliteMagic)
			writeFile(t, path, b)
		}, "not a SQLite database (damaged header)"},
		{"another program's database", func(t *testing.T, path string) {
			foreignDB(t, path,
				"CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
				"INSERT INTO users (name) VALUES ('ada'), ('grace')")
		}, "another program (tables but no setbot application_id)"},
		{"another program's stamped database", func(t *testing.T, path string) {
			foreignDB(t, path, "PRAGMA application_id = 1234", "CREATE TABLE t (x)")
		}, "another program (application_id 0x000004d2)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "file")
			tc.make(t, path)
			orig := readFile(t, path)
			before, _ := os.ReadDir(dir)

			s, err := Open(path, Options{Logger: quiet()})
			if err == nil {
				s.Close()
				t.Fatal("Open accepted a file that is not a setbot store")
			}
			if !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("error %q, want ErrNotStore saying %q", err, tc.why)
			}
			if !bytes.Equal(readFile(t, path), orig) {
				t.Error("the file was changed")
			}
			if after, _ := os.ReadDir(dir); len(after) != len(before) {
				t.Errorf("files beside it: %v, want %v", after, before)
			}
		})
	}
}

// TestDamagedStores checks that each kind of damaged setbot store is moved
// aside byte for byte and replaced by a working store.
func TestDamagedStores(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T, path string)
		why  string // in Rebuilt()
	}{
		{"SQLite header then garbage pages", func(t *testing.T, path string) {
			full := filepath.Join(t.TempDir(), "full.db")
			filledStore(t, full, 2)
			b := make([]byte, 8192)
			rand.Read(b)
			copy(b, readFile(t, full)[:100])
			writeFile(t, path, b)
		}, "SQLite database"},
		{"truncated store", func(t *testing.T, path string) {
			full := filepath.Join(t.TempDir(), "full.db")
			filledStore(t, full, 20)
			b := readFile(t, full)
			writeFile(t, path, b[:len(b)/2])
		}, "SQLite database"},
		{"damaged header", func(t *testing.T, path string) {
			full := filepath.Join(t.TempDir(), "full.db")
			filledStore(t, full, 2)
			b := readFile(t, full)
			b[21] = 0 // a payload fraction no SQLite file has
			writeFile(t, path, b)
		}, "not a SQLite database (damaged header)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tempPath(t)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			tc.make(t, path)
			orig := readFile(t, path)

			// A process that opens the file another has open (the child of
			// an analysis) refuses it and leaves it where it is.
			if s, err := Open(path, Options{Opened: true, Logger: quiet()}); err == nil || !strings.Contains(err.Error(), tc.why) {
				if s != nil {
					s.Close()
				}
				t.Errorf("Open with Opened: %v, want an error saying %q", err, tc.why)
			}
			if moved := damagedFiles(t, path); len(moved) != 0 || !bytes.Equal(readFile(t, path), orig) {
				t.Errorf("Open with Opened moved or changed the file: %v", moved)
			}

			var logs logBuffer
			s := open(t, path, Options{Logger: logs.logger()})
			t.Logf("Rebuilt: %s", s.Rebuilt())
			if !strings.Contains(s.Rebuilt(), tc.why) {
				t.Errorf("Rebuilt() = %q, want it to say %q", s.Rebuilt(), tc.why)
			}
			moved := damagedFiles(t, path)
			if len(moved) != 1 {
				t.Fatalf("moved-aside files %v, want one", moved)
			}
			if !strings.Contains(s.Rebuilt(), moved[0]) {
				t.Errorf("Rebuilt() = %q does not name %s", s.Rebuilt(), moved[0])
			}
			if !bytes.Equal(readFile(t, moved[0]), orig) {
				t.Errorf("%s does not hold the original bytes", moved[0])
			}
			if !strings.Contains(logs.String(), "not trusted") {
				t.Errorf("nothing logged; log:\n%s", logs.String())
			}

			mustPut(t, s, "set", "k", []byte("fresh"))
			mustGet(t, s, "set", "k", []byte("fresh"))
			if st, _ := s.stats(context.Background()); st.Entries != 1 {
				t.Errorf("rebuilt store has %d entries, want 1", st.Entries)
			}
			s.Close()
			again := open(t, path, Options{})
			if again.Rebuilt() != "" {
				t.Errorf("the rebuilt store was rebuilt again: %s", again.Rebuilt())
			}
			mustGet(t, again, "set", "k", []byte("fresh"))
		})
	}
}

func TestEmptyFile(t *testing.T) {
	path := tempPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, nil)
	s := open(t, path, Options{})
	if s.Rebuilt() != "" {
		t.Errorf("Rebuilt() = %q for an empty file", s.Rebuilt())
	}
	if moved := damagedFiles(t, path); len(moved) != 0 {
		t.Errorf("moved aside: %v", moved)
	}
	mustPut(t, s, "set", "k", []byte("v"))
	mustGet(t, s, "set", "k", []byte("v"))
}

// TestOverwrittenPages damages a closed store's file in place. SQLite's
// quick_check sees the b-tree structure but not the bytes of a blob, so
// either Open moves the file aside or Get notices through the blob's
// checksum; no path may hand back wrong bytes.
func TestOverwrittenPages(t *testing.T) {
	const pageSize = 4096
	cases := []struct {
		name string
		// damage changes file and returns the key whose bytes it hit, or "".
		damage func(t *testing.T, file []byte, keys []string) string
	}{
		{"inside a blob", func(t *testing.T, file []byte, keys []string) string {
			// Find a stretch of one blob's stored bytes well inside an
			// overflow page (past its 4-byte next-page pointer) and flip it.
			key := keys[len(keys)/2]
			z, _, err := pack(context.Background(), "set", key, stream(key, 20_000))
			if err != nil {
				t.Fatal(err)
			}
			for off := len(z) / 2; off+64 < len(z); off += 97 {
				at := bytes.Index(file, z[off:off+64])
				if at < 0 || at%pageSize < 16 || at%pageSize > pageSize-80 {
					continue
				}
				for i := at + 8; i < at+56; i++ {
					file[i] ^= 0x5a
				}
				return key
			}
			t.Fatal("no blob bytes found inside a page")
			return ""
		}},
		{"a whole middle page", func(t *testing.T, file []byte, keys []string) string {
			mid := len(file) / pageSize / 2 * pageSize
			copy(file[mid:mid+pageSize], bytes.Repeat([]byte{0xa5}, pageSize))
			return ""
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tempPath(t)
			keys := filledStore(t, path, 20)
			file := readFile(t, path)
			hit := tc.damage(t, file, keys)
			writeFile(t, path, file)

			var logs logBuffer
			s := open(t, path, Options{Logger: logs.logger()})
			if s.Rebuilt() != "" {
				t.Logf("quick_check caught it: %s", s.Rebuilt())
				moved := damagedFiles(t, path)
				if len(moved) != 1 || !bytes.Equal(readFile(t, moved[0]), file) {
					t.Fatalf("moved-aside files %v, want one with the damaged bytes", moved)
				}
				for _, key := range keys {
					mustGet(t, s, "set", key, nil)
				}
				return
			}
			misses := 0
			for _, key := range keys {
				got, ok, err := s.Get(context.Background(), "set", key)
				if err != nil {
					// Damage SQLite notices only when it reads the page is an
					// error, never data.
					t.Logf("Get(%s): %v", key, err)
					continue
				}
				if !ok {
					misses++
					continue
				}
				if !bytes.Equal(got, stream(key, 20_000)) {
					t.Fatalf("Get(%s) returned wrong bytes", key)
				}
			}
			if hit != "" {
				mustGet(t, s, "set", hit, nil)
				if !strings.Contains(logs.String(), hit) || !strings.Contains(logs.String(), "damaged") {
					t.Errorf("the damaged blob was not logged:\n%s", logs.String())
				}
			}
			t.Logf("quick_check passed; %d of %d blobs reported missing", misses, len(keys))
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// damagedFiles lists the files moved aside from path (not their -wal/-shm).
func damagedFiles(t *testing.T, path string) []string {
	t.Helper()
	all, err := filepath.Glob(path + ".damaged-*")
	if err != nil {
		t.Fatal(err)
	}
	var main []string
	for _, f := range all {
		if !strings.HasSuffix(f, "-wal") && !strings.HasSuffix(f, "-shm") && !strings.HasSuffix(f, "-journal") {
			main = append(main, f)
		}
	}
	return main
}
