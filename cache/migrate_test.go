package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var ctx = context.Background()

func count(t *testing.T, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// bookkept lists schema_migrations as "schema version name" lines, in order.
func bookkept(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.db.Query("SELECT schema, version, name FROM schema_migrations ORDER BY schema, version")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var schema, name string
		var version int
		if err := rows.Scan(&schema, &version, &name); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d %s", schema, version, name))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// loadLegacy writes the store of testdata/legacy-v110.sql, made by a setbot
// whose packages shared one migration sequence, to a new file.
func loadLegacy(t *testing.T) string {
	t.Helper()
	dump, err := os.ReadFile(filepath.Join("testdata", "legacy-v110.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "legacy.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(dump)); err != nil {
		t.Fatalf("loading the legacy store: %v", err)
	}
	return path
}

func TestMigrate(t *testing.T) {
	path := tempPath(t)
	s := open(t, path, Options{})
	if v := userVersion(t, s); v != layoutVersion {
		t.Errorf("user_version = %d, want %d", v, layoutVersion)
	}
	if n := count(t, s, "PRAGMA application_id"); n != applicationID {
		t.Errorf("application_id = %#x, want %#x", n, applicationID)
	}
	deliveries := Migration{Version: 1, Name: "deliveries", SQL: `
CREATE TABLE deliveries (id TEXT PRIMARY KEY);
INSERT INTO deliveries (id) VALUES ('first');`}
	jobs := Migration{Version: 2, Name: "jobs", SQL: "CREATE TABLE jobs (id INTEGER PRIMARY KEY)"}
	broken := Migration{Version: 3, Name: "broken", SQL: "CREATE TABLE ok (x); CREATE TABLE jobs (x)"}

	migrate := func(ms ...Migration) error { return s.Migrate(ctx, Schema{Name: "queue", Migrations: ms}) }
	if err := migrate(deliveries); err != nil {
		t.Fatal(err)
	}
	// Applying again changes nothing (a second INSERT would add a row, a
	// second CREATE TABLE would fail), in this process or after reopening.
	if err := migrate(deliveries); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path, Options{})
	if err := migrate(deliveries); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM deliveries"); n != 1 {
		t.Errorf("deliveries has %d rows, want 1", n)
	}

	// A later migration is applied on top.
	if err := migrate(deliveries, jobs); err != nil {
		t.Fatal(err)
	}
	// A failing migration leaves the schema at the previous version.
	if err := migrate(deliveries, jobs, broken); err == nil || !strings.Contains(err.Error(), "migration 3 (broken) of queue") {
		t.Errorf("Migrate with a failing migration: %v, want an error naming it", err)
	}
	if n := count(t, s, "SELECT count(*) FROM sqlite_master WHERE name = 'ok'"); n != 0 {
		t.Error("the failed migration's first statement was kept")
	}
	// Another schema numbers its migrations from 1 as well.
	if err := s.Migrate(ctx, Schema{Name: "schedules", Migrations: []Migration{{Version: 1, Name: "schedules", SQL: "CREATE TABLE repo_schedules (x)"}}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"cache 1 blobs and runs", "queue 1 deliveries", "queue 2 jobs", "schedules 1 schedules"}
	if got := bookkept(t, s); !equal(got, want) {
		t.Errorf("schema_migrations = %q, want %q", got, want)
	}

	// A schema whose migrations were renumbered is refused rather than
	// taken as applied.
	renamed := jobs
	renamed.Name = "checks"
	if err := migrate(deliveries, renamed); err == nil || !strings.Contains(err.Error(), `applied "jobs"`) {
		t.Errorf("Migrate with a renumbered migration: %v", err)
	}
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func TestMigrateRefusesBadSchemas(t *testing.T) {
	s := open(t, tempPath(t), Options{})
	for name, sc := range map[string]Schema{
		"no name":           {Migrations: []Migration{{Version: 1, Name: "x", SQL: "SELECT 1"}}},
		"starts at 2":       {Name: "x", Migrations: []Migration{{Version: 2, Name: "x", SQL: "SELECT 1"}}},
		"a gap":             {Name: "x", Migrations: []Migration{{Version: 1, Name: "x", SQL: "SELECT 1"}, {Version: 3, Name: "y", SQL: "SELECT 1"}}},
		"no SQL":            {Name: "x", Migrations: []Migration{{Version: 1, Name: "x"}}},
		"no migration name": {Name: "x", Migrations: []Migration{{Version: 1, SQL: "SELECT 1"}}},
		"legacy twice": {Name: "x", Migrations: []Migration{
			{Version: 1, Name: "x", SQL: "SELECT 1", Legacy: 100}, {Version: 2, Name: "y", SQL: "SELECT 1", Legacy: 100}}},
		"legacy after the layout": {Name: "x", Migrations: []Migration{{Version: 1, Name: "x", SQL: "SELECT 1", Legacy: layoutVersion}}},
	} {
		if err := s.Migrate(ctx, sc); err == nil {
			t.Errorf("%s: Migrate accepted %+v", name, sc)
		}
	}
	if n := count(t, s, "SELECT count(*) FROM schema_migrations WHERE schema <> 'cache'"); n != 0 {
		t.Errorf("refused schemas left %d rows of bookkeeping", n)
	}
}

func TestNewerSchema(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string // what a newer setbot leaves behind
		want  []string // in the error, besides the path
	}{
		{"newer layout", []string{fmt.Sprintf("PRAGMA user_version = %d", layoutVersion+7)},
			[]string{fmt.Sprint(layoutVersion + 7), fmt.Sprint(layoutVersion)}},
		{"newer cache schema", []string{"INSERT INTO schema_migrations VALUES ('cache', 2, 'from the future', 0)"},
			[]string{"cache schema is at version 2", "newer than 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tempPath(t)
			s := open(t, path, Options{})
			for _, stmt := range tc.stmts {
				if _, err := s.db.Exec(stmt); err != nil {
					t.Fatal(err)
				}
			}
			mustPut(t, s, "set", "k", []byte("kept"))
			s.Close()

			_, err := Open(path, Options{Logger: quiet()})
			if !errors.Is(err, ErrNewerSchema) {
				t.Fatalf("Open = %v, want ErrNewerSchema", err)
			}
			for _, want := range append(tc.want, path) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %s", err, want)
				}
			}
			if moved, _ := filepath.Glob(path + ".damaged-*"); len(moved) != 0 {
				t.Errorf("a newer store was moved aside: %v", moved)
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatal(err)
			}
		})
	}

	// Another package's schema that is newer fails that package's Migrate,
	// not Open.
	s := open(t, tempPath(t), Options{})
	if _, err := s.db.Exec("INSERT INTO schema_migrations VALUES ('queue', 1, 'jobs', 0), ('queue', 2, 'from the future', 0)"); err != nil {
		t.Fatal(err)
	}
	queue := Schema{Name: "queue", Migrations: []Migration{{Version: 1, Name: "jobs", SQL: "CREATE TABLE jobs (x)"}}}
	if err := s.Migrate(ctx, queue); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Migrate of a newer schema = %v, want ErrNewerSchema", err)
	}
}

// TestLegacyStore opens a store written when every package's migrations
// shared one sequence: its data stays, its bookkeeping moves to the
// per-schema layout, and each package claims its own migrations without
// applying them again.
func TestLegacyStore(t *testing.T) {
	path := loadLegacy(t)
	s := open(t, path, Options{})
	if s.Rebuilt() != "" {
		t.Fatalf("the legacy store was not trusted: %s", s.Rebuilt())
	}
	if v := userVersion(t, s); v != layoutVersion {
		t.Errorf("user_version = %d, want %d", v, layoutVersion)
	}
	mustGet(t, s, "set", "k1", []byte("a symbolic execution tree"))
	runs, err := s.Runs(ctx, "octo/triangle", 0)
	if err != nil || len(runs) != 1 || runs[0].HeadStates != 4 {
		t.Errorf("legacy runs = %+v, %v", runs, err)
	}
	want := []string{" 100 webhook deliveries and jobs", " 101 jobs remember their checks", " 110 repositories' own schedules", "cache 1 blobs and runs"}
	if got := bookkept(t, s); !equal(got, want) {
		t.Errorf("schema_migrations after conversion = %q, want %q", got, want)
	}

	// The packages that own the other rows claim them; their SQL, which
	// would fail on tables that exist, does not run again. A migration
	// added since is applied.
	queue := Schema{Name: "queue", Migrations: []Migration{
		{Version: 1, Name: "webhook deliveries and jobs", SQL: "CREATE TABLE jobs (x)", Legacy: 100},
		{Version: 2, Name: "jobs remember their checks", SQL: "ALTER TABLE jobs ADD COLUMN check_run INTEGER", Legacy: 101},
		{Version: 3, Name: "new since", SQL: "CREATE TABLE queue_new (x)"},
	}}
	for range 2 {
		if err := s.Migrate(ctx, queue); err != nil {
			t.Fatal(err)
		}
	}
	want = []string{" 110 repositories' own schedules", "cache 1 blobs and runs",
		"queue 1 webhook deliveries and jobs", "queue 2 jobs remember their checks", "queue 3 new since"}
	if got := bookkept(t, s); !equal(got, want) {
		t.Errorf("schema_migrations after the queue's Migrate = %q, want %q", got, want)
	}
	if n := count(t, s, "SELECT count(*) FROM jobs"); n != 2 {
		t.Errorf("legacy jobs: %d rows, want 2", n)
	}
	s.Close()

	// Reopening converts nothing again.
	s = open(t, path, Options{})
	if got := bookkept(t, s); !equal(got, want) {
		t.Errorf("schema_migrations after reopening = %q, want %q", got, want)
	}
	if n := count(t, s, "SELECT count(*) FROM sqlite_master WHERE name = 'legacy_migrations'"); n != 0 {
		t.Error("the legacy bookkeeping table was kept")
	}
}
