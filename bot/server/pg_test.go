package server

// A real PostgreSQL for the tests: one throw-away cluster per test binary,
// started on first use in a temporary directory (initdb and pg_ctl, on a
// loopback port, as the unprivileged user nobody when the tests run as
// root, since initdb refuses root), and a database of its own for each
// test. TestMain stops it and deletes its directory when the tests end; a
// watchdog process does the same if the test binary dies first (a timeout,
// a SIGKILL), so a cluster is never left running.
//
// Where no PostgreSQL binaries exist, the tests that need one are skipped
// with a message, unless REQUIRE_POSTGRES_TESTS is set (.ci/run sets it):
// then they fail.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// requirePostgres names the environment variable that turns a missing
// PostgreSQL into a failure instead of a skip.
const requirePostgres = "REQUIRE_POSTGRES_TESTS"

// pgStartTimeout bounds the start of the cluster.
const pgStartTimeout = 60 * time.Second

// cluster is the test binary's PostgreSQL.
type cluster struct {
	dir   string // the data directory's parent, removed at the end
	data  string
	pgCtl string
	cred  *syscall.Credential // nil when not root
	port  int
	skip  string // why there is no cluster: no binaries
	err   error
	dbs   atomic.Int64
	// alive is the write end of the watchdog's pipe, open as long as this
	// process lives (kept here so that no finalizer closes it).
	alive *os.File
}

var (
	pgOnce   sync.Once
	pgShared *cluster
)

// stopPostgres stops the cluster if a test started one; TestMain calls it.
func stopPostgres() {
	if pgShared != nil {
		pgShared.stop()
	}
}

// postgresURL returns the URL of a new, empty database for t in the test
// binary's cluster, starting the cluster on first use. It skips t when no
// PostgreSQL binaries exist (and requirePostgres is not set).
func postgresURL(t testing.TB) string {
	t.Helper()
	pgOnce.Do(func() { pgShared = startCluster() })
	c := pgShared
	if c.skip != "" {
		if os.Getenv(requirePostgres) != "" {
			t.Fatalf("%s is set but %s", requirePostgres, c.skip)
		}
		t.Skipf("no PostgreSQL for this test: %s", c.skip)
	}
	if c.err != nil {
		t.Fatalf("starting the test PostgreSQL: %v", c.err)
	}
	name := fmt.Sprintf("t%d_%s", c.dbs.Add(1), sanitize(t.Name()))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.url("postgres"))
	if err != nil {
		t.Fatalf("connecting to the test PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("creating database %s: %v", name, err)
	}
	return c.url(name)
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

// sanitize makes a test name part of a database name (at most 63 bytes).
func sanitize(name string) string {
	s := unsafeChars.ReplaceAllString(strings.ToLower(name), "_")
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

func (c *cluster) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// pgBinaries finds initdb and pg_ctl: on PATH, or in Debian's versioned
// directories, newest first.
func pgBinaries() (initdb, pgCtl string, ok bool) {
	if i, err := exec.LookPath("initdb"); err == nil {
		if p, err := exec.LookPath("pg_ctl"); err == nil {
			return i, p, true
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for k := len(dirs) - 1; k >= 0; k-- {
		i, p := filepath.Join(dirs[k], "initdb"), filepath.Join(dirs[k], "pg_ctl")
		if isExec(i) && isExec(p) {
			return i, p, true
		}
	}
	return "", "", false
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// startCluster initialises and starts the cluster.
func startCluster() *cluster {
	initdb, pgCtl, ok := pgBinaries()
	if !ok {
		return &cluster{skip: "initdb and pg_ctl are neither on PATH nor in /usr/lib/postgresql/*/bin (apt-get install postgresql)"}
	}
	c := &cluster{pgCtl: pgCtl}
	if c.err = c.init(initdb); c.err != nil {
		c.stop()
	}
	return c
}

func (c *cluster) init(initdb string) error {
	parent := os.TempDir()
	if os.Geteuid() == 0 && !traversable(parent) {
		parent = "/tmp" // the unprivileged user must reach the data directory
	}
	dir, err := os.MkdirTemp(parent, "setbot-pgtest-")
	if err != nil {
		return err
	}
	c.dir = dir
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return err
		}
		c.cred = cred
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	c.data = filepath.Join(dir, "data")
	if out, err := c.run(initdb, "-D", c.data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	if c.port, err = freePort(); err != nil {
		return err
	}
	// The watchdog stops the cluster once this process is gone, however it
	// ended: its read of the pipe ends when the kernel closes the write end
	// this process holds. TestMain stops the cluster first in the normal
	// case.
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	c.alive = w
	watch := exec.Command("/bin/sh", "-c",
		`cat <&3 >/dev/null; "$1" -D "$2" -m immediate stop >/dev/null 2>&1; rm -rf "$3"`,
		"watchdog", c.pgCtl, c.data, c.dir)
	watch.ExtraFiles = []*os.File{r}
	watch.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	err = watch.Start()
	r.Close()
	if err != nil {
		return fmt.Errorf("starting the watchdog: %w", err)
	}
	go func() { _ = watch.Wait() }()
	opts := fmt.Sprintf("-h 127.0.0.1 -p %d -k '' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300", c.port)
	if out, err := c.run(c.pgCtl, "-D", c.data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", strconv.Itoa(int(pgStartTimeout/time.Second)), "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		return fmt.Errorf("pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	return nil
}

// run runs a PostgreSQL program, as the unprivileged user when root.
func (c *cluster) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.dir
	// Not the test's environment: no PG* variable of libpq, no locale.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd.CombinedOutput()
}

// stop stops the cluster and removes its directory.
func (c *cluster) stop() {
	if c.data != "" {
		if _, err := os.Stat(filepath.Join(c.data, "postmaster.pid")); err == nil {
			if out, err := c.run(c.pgCtl, "-D", c.data, "-m", "immediate", "-w", "stop"); err != nil {
				fmt.Fprintf(os.Stderr, "test PostgreSQL: pg_ctl stop: %v\n%s", err, out)
			}
		}
	}
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
}

// unprivileged is the user the cluster runs as when the tests run as
// root: nobody.
func unprivileged() (*syscall.Credential, error) {
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("initdb refuses root and there is no user nobody to run it as: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("user nobody: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// traversable reports whether every directory from dir up to the root
// lets other users through.
func traversable(dir string) bool {
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if p == filepath.Dir(p) {
			return true
		}
	}
}

// freePort asks the kernel for a loopback port no one listens on.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
