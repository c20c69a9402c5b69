package cache

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	helperNameEnv  = "SETBOT_CACHE_TEST_NAME"
	helperStartEnv = "SETBOT_CACHE_TEST_START"
	// helperOpenedEnv has a helper open the store as the child process of
	// an analysis opens the server's (Options.Opened).
	helperOpenedEnv = "SETBOT_CACHE_TEST_OPENED"

	// killAfter is how many commits the writer reports before the SIGKILL.
	killAfter = 50
	// concurrentRounds is how many rounds each concurrent writer does.
	concurrentRounds = 100
)

// helperCmd re-executes the test binary in a helper role.
func helperCmd(role, path string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, helperPathEnv+"="+path)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// helperWriter puts blobs until it is killed, printing each key once its
// transaction has committed. It stops by itself after a while in case the
// parent died.
func helperWriter() int {
	ctx := context.Background()
	s, err := Open(os.Getenv(helperPathEnv), Options{MaxBytes: -1, Logger: quiet()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		key := fmt.Sprintf("k%06d", i)
		if err := s.Put(ctx, "set", key, payload(key)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i%5 == 0 {
			if _, err := s.RecordRun(ctx, Run{Repo: "r", Head: key}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		fmt.Println(key)
	}
	return 0
}

func TestSIGKILL(t *testing.T) {
	t.Parallel()
	path := tempPath(t)
	cmd := helperCmd("writer", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var reported []string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		reported = append(reported, lines.Text())
		if len(reported) == killAfter {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Lines written before the kill and still in the pipe count too.
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("writer ended with %v after %d commits, want SIGKILL; stderr:\n%s", err, len(reported), stderr.String())
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("no WAL left behind by the killed writer, so recovery was not exercised: %v", err)
	}

	s := open(t, path, Options{MaxBytes: -1})
	if s.Rebuilt() != "" {
		t.Fatalf("store rebuilt after SIGKILL: %s", s.Rebuilt())
	}
	var check string
	if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	for _, key := range reported {
		mustGet(t, s, "set", key, payload(key))
	}
	t.Logf("%d commits reported before the kill, all present", len(reported))
}

// helperConcurrent writes, reads and logs runs against a store another
// process is using, starting at the time the parent set so that both open
// a new file together. Any error, "database is locked" included, fails it.
func helperConcurrent() int {
	ctx := context.Background()
	name := os.Getenv(helperNameEnv)
	other := "A"
	if name == "A" {
		other = "B"
	}
	start, err := strconv.ParseInt(os.Getenv(helperStartEnv), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	time.Sleep(time.Until(time.Unix(0, start)))
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	s, err := Open(os.Getenv(helperPathEnv), Options{Logger: quiet(), Opened: os.Getenv(helperOpenedEnv) != ""})
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	for i := range concurrentRounds {
		key := fmt.Sprintf("%s%04d", name, i)
		if err := s.Put(ctx, "set", key, payload(key)); err != nil {
			return fail(err)
		}
		got, ok, err := s.Get(ctx, "set", key)
		if err != nil || !ok || !bytes.Equal(got, payload(key)) {
			return fail(fmt.Errorf("reading back %s: ok %v, err %v", key, ok, err))
		}
		otherKey := fmt.Sprintf("%s%04d", other, i)
		if got, ok, err := s.Get(ctx, "set", otherKey); err != nil || ok && !bytes.Equal(got, payload(otherKey)) {
			return fail(fmt.Errorf("reading %s: ok %v, err %v", otherKey, ok, err))
		}
		if _, err := s.RecordRun(ctx, Run{Repo: name, Head: key}); err != nil {
			return fail(err)
		}
		if i%10 == 0 {
			if _, err := s.stats(ctx); err != nil {
				return fail(err)
			}
			if _, err := s.Runs(ctx, other, 5); err != nil {
				return fail(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		return fail(err)
	}
	return 0
}

// TestServerAndChildren: the server has the store open and writes to it
// while the child processes of two analyses, which open it as the server
// opened it (Options.Opened: no quick check), write and read at once. No
// one sees a locked database, and every write is there.
func TestServerAndChildren(t *testing.T) {
	t.Parallel()
	path := tempPath(t)
	server := open(t, path, Options{})
	start := time.Now().Add(300 * time.Millisecond)
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for _, name := range []string{"A", "B"} {
		cmd := helperCmd("concurrent", path, helperNameEnv+"="+name, helperStartEnv+"="+strconv.FormatInt(start.UnixNano(), 10), helperOpenedEnv+"=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	time.Sleep(time.Until(start))
	for i := range concurrentRounds {
		key := fmt.Sprintf("S%04d", i)
		mustPut(t, server, "set", key, payload(key))
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil || strings.Contains(outs[i].String(), "locked") {
			t.Errorf("child %d: %v\n%s", i, err, outs[i])
		}
	}
	st, err := server.stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 3*concurrentRounds {
		t.Errorf("%d entries, want %d", st.Entries, 3*concurrentRounds)
	}
}

func TestTwoProcesses(t *testing.T) {
	t.Parallel()
	path := tempPath(t)
	start := strconv.FormatInt(time.Now().Add(300*time.Millisecond).UnixNano(), 10)
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for _, name := range []string{"A", "B"} {
		cmd := helperCmd("concurrent", path, helperNameEnv+"="+name, helperStartEnv+"="+start)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, cmd := range cmds {
		err := cmd.Wait()
		if err != nil {
			t.Errorf("writer %d: %v\n%s", i, err, outs[i])
		}
		if strings.Contains(outs[i].String(), "locked") {
			t.Errorf("writer %d saw a locked database:\n%s", i, outs[i])
		}
	}

	ctx := context.Background()
	s := open(t, path, Options{})
	st, err := s.stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 2*concurrentRounds {
		t.Errorf("%d entries, want %d", st.Entries, 2*concurrentRounds)
	}
	runs, err := s.Runs(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2*concurrentRounds {
		t.Errorf("%d runs, want %d", len(runs), 2*concurrentRounds)
	}
	if v := userVersion(t, s); v != layoutVersion {
		t.Errorf("user_version = %d, want %d", v, layoutVersion)
	}
}
