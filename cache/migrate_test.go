package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// withRegistry lets a test register migrations and forgets them afterwards.
func withRegistry(t *testing.T) {
	registry.Lock()
	saved := slices.Clone(registry.extra)
	registry.Unlock()
	t.Cleanup(func() {
		registry.Lock()
		registry.extra = saved
		registry.Unlock()
	})
}

func count(t *testing.T, s *Store, query string) int {
	t.Helper()
	var n int
	if err := s.DB().QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestMigrations(t *testing.T) {
	withRegistry(t)
	path := tempPath(t)
	Register(Migration{Version: 100, Name: "deliveries", SQL: `
CREATE TABLE deliveries (id TEXT PRIMARY KEY);
INSERT INTO deliveries (id) VALUES ('first');`})

	s := open(t, path, Options{})
	if v := userVersion(t, s); v != 100 {
		t.Errorf("user_version = %d, want 100", v)
	}
	if n := count(t, s, "SELECT count(*) FROM deliveries"); n != 1 {
		t.Errorf("deliveries has %d rows, want 1", n)
	}
	if n := count(t, s, "SELECT count(*) FROM schema_migrations"); n != 2 {
		t.Errorf("schema_migrations has %d rows, want 2", n)
	}
	if n := count(t, s, "PRAGMA application_id"); n != applicationID {
		t.Errorf("application_id = %#x, want %#x", n, applicationID)
	}
	s.Close()

	// Reopening applies nothing again (a second INSERT would add a row, a
	// second CREATE TABLE would fail).
	s = open(t, path, Options{})
	if n := count(t, s, "SELECT count(*) FROM deliveries"); n != 1 {
		t.Errorf("after reopening, deliveries has %d rows, want 1", n)
	}
	s.Close()

	// A later migration is applied on top.
	Register(Migration{Version: 101, Name: "jobs", SQL: "CREATE TABLE jobs (id INTEGER PRIMARY KEY)"})
	s = open(t, path, Options{})
	if v := userVersion(t, s); v != 101 {
		t.Errorf("user_version = %d, want 101", v)
	}
	s.Close()

	// A failing migration leaves the store at the previous version.
	Register(Migration{Version: 102, Name: "broken", SQL: "CREATE TABLE ok (x); CREATE TABLE jobs (x)"})
	if _, err := Open(path, Options{Logger: quiet()}); err == nil || !strings.Contains(err.Error(), "migration 102 (broken)") {
		t.Errorf("Open with a failing migration: %v, want an error naming it", err)
	}
	withRegistry(t)
	registry.Lock()
	registry.extra = registry.extra[:2]
	registry.Unlock()
	s = open(t, path, Options{})
	if v := userVersion(t, s); v != 101 {
		t.Errorf("user_version = %d after a failed migration, want 101", v)
	}
	if n := count(t, s, "SELECT count(*) FROM sqlite_master WHERE name = 'ok'"); n != 0 {
		t.Error("the failed migration's first statement was kept")
	}
	s.Close()

	// A migration numbered below the store's version would be skipped
	// silently; Open refuses instead.
	Register(Migration{Version: 50, Name: "late", SQL: "CREATE TABLE late (x)"})
	if _, err := Open(path, Options{Logger: quiet()}); err == nil || !strings.Contains(err.Error(), "migration 50 (late) was never applied") {
		t.Errorf("Open with a migration numbered too low: %v", err)
	}
}

func TestNewerSchema(t *testing.T) {
	path := tempPath(t)
	s := open(t, path, Options{})
	newer := latestVersion() + 7
	// What a newer setbot leaves behind.
	if _, err := s.DB().Exec(fmt.Sprintf("PRAGMA user_version = %d", newer)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec("INSERT INTO schema_migrations VALUES (?, 'from the future', 0)", newer); err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "set", "k", []byte("kept"))
	s.Close()

	_, err := Open(path, Options{Logger: quiet()})
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open = %v, want ErrNewerSchema", err)
	}
	for _, want := range []string{path, fmt.Sprint(newer), fmt.Sprint(latestVersion())} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if moved, _ := filepath.Glob(path + ".damaged-*"); len(moved) != 0 {
		t.Errorf("a newer store was moved aside: %v", moved)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}

	// A setbot that knows the version opens it, data intact.
	withRegistry(t)
	Register(Migration{Version: newer, Name: "from the future", SQL: "SELECT 1"})
	s = open(t, path, Options{})
	mustGet(t, s, "set", "k", []byte("kept"))
}

func TestRegisterPanics(t *testing.T) {
	withRegistry(t)
	Register(Migration{Version: 200, Name: "taken", SQL: "SELECT 1"})
	for name, m := range map[string]Migration{
		"cache's own version": {Version: 1, Name: "x", SQL: "SELECT 1"},
		"below the cache's":   {Version: -3, Name: "x", SQL: "SELECT 1"},
		"duplicate":           {Version: 200, Name: "again", SQL: "SELECT 1"},
		"no SQL":              {Version: 201, Name: "x"},
		"no name":             {Version: 202, SQL: "SELECT 1"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(m)
		}()
	}
}
