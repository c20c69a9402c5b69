package blackbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// The helper process of TestCommandsReadNothingOfTheServer: a stand-in for
// the server, started with the secrets in its environment.
const (
	helperMode   = "BLACKBOX_TEST_SERVER" // "confined" or "plain": how it runs the spy
	helperDir    = "BLACKBOX_TEST_DIR"    // where the spy is
	helperSecret = "SETBOT_WEBHOOK_SECRET"
	secretValue  = "s3cret-webhook-value-0123456789"
)

// spy is a command that tries to read the server's secrets: the
// environment the server started with and the server's memory at the
// address it is given, and writes what it got, its own environment, its
// uid, pid and session in its working directory (the directory it is in).
// It also tries a file of the server's outside its directory (the path is
// in secretpath) and to signal the server.
const spy = `
cat "$(cat secretpath)" > secret 2> secret.err
if kill -0 $PPID 2> /dev/null; then echo yes > signal; else echo no > signal; fi
cat /proc/$PPID/environ > environ 2> environ.err
dd if=/proc/$PPID/mem of=mem bs=1 skip="$1" count=64 2> mem.err
cat /proc/$$/environ > env
id -u > uid
echo $$ > pid
cut -d' ' -f6 /proc/$$/stat > sid
echo 1
`

// TestServerHelper is not a test: run by TestCommandsReadNothingOfTheServer
// with helperMode set, it plays the server. It takes the secret from its
// environment into memory and removes it, as setbot serve does, then runs
// the spy with the secret's address, confined or plainly.
func TestServerHelper(t *testing.T) {
	mode := os.Getenv(helperMode)
	if mode == "" {
		t.Skip("run by TestCommandsReadNothingOfTheServer")
	}
	secret := []byte(os.Getenv(helperSecret))
	os.Unsetenv(helperSecret)
	run := Command
	if mode == "confined" {
		run = Confined
	}
	f := &model.Function{Name: "spy", Params: []ast.Type{ast.IntType}, Result: ast.IntType, Command: "spy"}
	addr := int64(uintptr(unsafe.Pointer(&secret[0])))
	if _, err := run(context.Background(), os.Getenv(helperDir), time.Minute)(f, []ast.Expr{&ast.IntLit{Value: addr}}); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(secret)
}

// TestCommandsReadNothingOfTheServer runs a command that reads its parent's
// /proc/PID/environ and /proc/PID/mem from a stand-in for the server that
// has the secret in the environment it started with (which os.Unsetenv
// does not erase) and in memory. Run plainly, the command gets the secret
// (so the spy works); confined, it gets neither, whether the server is
// root (the command then runs as nobody) or not (the server is then
// non-dumpable and the command its own user).
func TestCommandsReadNothingOfTheServer(t *testing.T) {
	if _, err := exec.LookPath("dd"); err != nil {
		t.Skip("no dd")
	}
	type server struct {
		name string
		as   *syscall.Credential // nil: this test's user
	}
	servers := []server{{fmt.Sprintf("uid %d", os.Geteuid()), nil}}
	if os.Geteuid() == 0 {
		servers = append(servers, server{"nobody", commandUser()})
	}
	for _, s := range servers {
		for _, mode := range []string{"plain", "confined"} {
			t.Run(s.name+"/"+mode, func(t *testing.T) {
				dir, bin := commandDir(t), helperBinary(t)
				script(t, dir, "spy", spy)
				secretFile := serverFile(t)
				if err := os.WriteFile(filepath.Join(dir, "secretpath"), []byte(secretFile), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := Prepare(dir); err != nil {
					t.Fatal(err)
				}
				if s.as != nil {
					// The server's user owns the checkout, and Prepare only
					// gives it away when this test is root.
					if err := os.Chown(dir, int(s.as.Uid), int(s.as.Gid)); err != nil {
						t.Fatal(err)
					}
				}
				cmd := exec.Command(bin, "-test.run=^TestServerHelper$", "-test.v")
				cmd.Env = append(os.Environ(), helperMode+"="+mode, helperDir+"="+dir, helperSecret+"="+secretValue)
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.as}
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("the server: %v\n%s", err, out)
				}
				read := func(name string) string {
					b, _ := os.ReadFile(filepath.Join(dir, name))
					return string(bytes.ReplaceAll(b, []byte{0}, []byte{'\n'}))
				}
				environ, mem, env, uid := read("environ"), read("mem"), read("env"), strings.TrimSpace(read("uid"))
				file, signal := read("secret"), strings.TrimSpace(read("signal"))
				t.Logf("the command ran as uid %s; environ: %d bytes %s; mem: %d bytes %s; a server file: %d bytes %s; signal: %s",
					uid, len(environ), strings.TrimSpace(read("environ.err")), len(mem), lastLine(read("mem.err")),
					len(file), strings.TrimSpace(read("secret.err")), signal)
				switch mode {
				case "plain":
					if !strings.Contains(file, secretValue) || signal != "yes" {
						t.Errorf("run plainly, the spy did not read the server's file (%q) or signal it (%s): the test shows nothing", file, signal)
					}
					if !strings.Contains(environ, secretValue) {
						t.Errorf("run plainly, the spy did not read the server's environment: the test shows nothing")
					}
					if s.as == nil && os.Geteuid() == 0 && !strings.Contains(mem, secretValue) {
						t.Errorf("run plainly by root, the spy did not read the server's memory: the test shows nothing")
					}
				case "confined":
					if strings.Contains(environ, secretValue) {
						t.Errorf("a confined command read the secret in /proc/PPID/environ")
					}
					if strings.Contains(mem, secretValue) {
						t.Errorf("a confined command read the secret in /proc/PPID/mem")
					}
					if strings.Contains(env, secretValue) {
						t.Errorf("a confined command has the secret in its environment")
					}
					for _, kv := range strings.Fields(env) {
						if name, _, _ := strings.Cut(kv, "="); name != "PATH" && name != "HOME" && name != "TMPDIR" {
							t.Errorf("a confined command's environment has %s, want PATH, HOME and TMPDIR only", name)
						}
					}
					if v := LandlockVersion(); v == 0 {
						t.Logf("this kernel has no Landlock: a confined command reads the files its user may")
					} else if strings.Contains(file, secretValue) {
						t.Errorf("a confined command read a file of the server's outside its directory (Landlock %d)", v)
					}
					if v := LandlockVersion(); v >= 6 && signal != "no" {
						t.Errorf("a confined command could signal the server (Landlock %d scopes signals)", v)
					}
					if pid, sid := strings.TrimSpace(read("pid")), strings.TrimSpace(read("sid")); pid == "" || pid != sid {
						t.Errorf("a confined command (pid %s) runs in session %s, want its own", pid, sid)
					}
					serverUID := strconv.Itoa(os.Geteuid())
					if s.as != nil {
						serverUID = strconv.Itoa(int(s.as.Uid))
					}
					if want := serverUID; serverUID == "0" {
						if want = strconv.Itoa(int(commandUser().Uid)); uid != want {
							t.Errorf("a confined command of a root server ran as uid %s, want %s", uid, want)
						}
					} else if uid != want {
						t.Errorf("a confined command of a server of uid %s ran as uid %s", want, uid)
					}
				}
			})
		}
	}
}

// serverFile is a file of the server's outside the command's directory
// that the command's user may read as far as permissions go (in a
// directory every user may enter, readable by all): only Landlock keeps a
// confined command from it.
func serverFile(t *testing.T) string {
	t.Helper()
	dir := commandDir(t)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "private-key.pem")
	if err := os.WriteFile(p, []byte(secretValue), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lastLine is the last line of s.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndex(s, "\n")+1:]
}

// helperBinary is a copy of this test binary that every user can run.
func helperBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := commandDir(t)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	bin := filepath.Join(dir, "server")
	out, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(fmt.Errorf("copying the test binary: %w", err))
	}
	return bin
}

// TestPrepareNeedsAPathOthersMayEnter: a command run as another user must
// reach its directory; Prepare says when it cannot, and how to mend it.
func TestPrepareNeedsAPathOthersMayEnter(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("commands run as another user only when setbot is root")
	}
	dir := filepath.Join(t.TempDir(), "checkout") // t.TempDir's parent lets no one else in
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Prepare(dir); err == nil || !strings.Contains(err.Error(), "TMPDIR") {
		t.Errorf("Prepare of a directory nobody can reach: %v", err)
	}
	reachable := commandDir(t)
	if err := os.WriteFile(filepath.Join(reachable, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Prepare(reachable); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{reachable, filepath.Join(reachable, "f")} {
		info, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if uid := info.Sys().(*syscall.Stat_t).Uid; uid != commandUser().Uid {
			t.Errorf("%s belongs to uid %d after Prepare, want the command user's %d", p, uid, commandUser().Uid)
		}
	}
}

// TestConfinedCommandsCannotSignalSetbot starts many confined commands,
// each trying to signal setbot. Landlock scopes signals by the thread a
// command was started from, and one of Go's threads is the process's main
// thread, whose confinement would stand for setbot's: started from it, a
// command could signal setbot, and every command after from its domain.
func TestConfinedCommandsCannotSignalSetbot(t *testing.T) {
	if v := LandlockVersion(); v < 6 {
		t.Skipf("Landlock %d does not scope signals (6 does)", v)
	}
	for i := range 30 {
		cmd := exec.Command("/bin/sh", "-c", `if kill -0 $PPID 2> /dev/null; then echo signalled; else echo refused; fi`)
		out := &capped{max: 1 << 10}
		cmd.Stdout, cmd.Stderr = out, out
		if err := startConfined(cmd, t.TempDir()); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v: %s", err, out.text())
		}
		if got := strings.TrimSpace(out.text()); got != "refused" {
			t.Fatalf("confined command %d: %s, want refused", i, got)
		}
	}
}
