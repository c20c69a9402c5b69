package blackbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is the Linux security module through which an unprivileged
// process restricts itself, and every process it starts after, to the
// files it names (landlock(7)). A confined command gets:
//   - its checkout (the directory it runs in): everything;
//   - the system's programs and libraries (systemDirs): read and run;
//   - the few files of /etc that programs read to start (etcFiles), and
//     /proc: read;
//   - /dev/null and the random and zero devices: read and write;
//   - and where the kernel scopes them (Landlock 6), no signal to and no
//     abstract Unix socket of a process outside its own confinement: not
//     setbot, not the commands of other analyses.
//
// Nothing else: not the server's configuration, secret files, database,
// clones or the checkouts of other analyses, whoever owns them. The
// network is left as the host allows it.
//
// The syscalls are made here rather than through go-landlock: that
// library's syscall package brings in libcap's psx, which with cgo (the Z3
// binding) wraps thread creation of the whole binary, and its restricting
// of every thread of the process is the opposite of what a command needs.
var (
	systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store"}
	etcFiles   = []string{"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/passwd", "/etc/group",
		"/etc/nsswitch.conf", "/etc/hosts", "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/localtime",
		"/etc/timezone", "/etc/ssl", "/etc/ca-certificates", "/etc/mime.types", "/etc/protocols", "/etc/services",
		"/etc/locale.alias", "/etc/alternatives"}
	devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}
)

// The access rights Landlock knows, by the version that brought them.
const (
	fsRightsV1 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	// fileRights are those a rule on a file (not a directory) may hold.
	fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	readRun   = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	readOnly  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	readWrite = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE
)

// LandlockVersion is the version of Landlock this kernel offers, 0 where
// it offers none (too old, or the module is off): confined commands then
// read every file their user may.
var LandlockVersion = sync.OnceValue(func() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
})

// handledRights are the file-system rights a ruleset of version v
// restricts: all it knows, so that what no rule grants is refused.
func handledRights(v int) uint64 {
	rights := uint64(fsRightsV1)
	if v >= 2 {
		rights |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if v >= 3 {
		rights |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if v >= 5 {
		rights |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return rights
}

// startConfined starts cmd confined to root as the package comment above
// says. Landlock restricts a thread and what it starts after; so cmd is
// started from an OS thread of its own, restricted first (confinedStart).
func startConfined(cmd *exec.Cmd, root string) error {
	v := LandlockVersion()
	if v == 0 {
		return cmd.Start()
	}
	errc := make(chan error, 1)
	go confinedStart(cmd, v, root, errc)
	return <-errc
}

// confinedStart confines the OS thread it runs on and starts cmd from it.
// The thread is never given back to Go's scheduler: it ends with this
// goroutine, so that no other goroutine of setbot runs confined. It must
// not be the process's main thread, which Go never ends and whose
// credentials stand for the process when another process signals it: a
// command could then signal setbot. So on the main thread, the goroutine
// holds it while another goroutine, on another thread, does the work.
func confinedStart(cmd *exec.Cmd, v int, root string, errc chan<- error) {
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		defer runtime.UnlockOSThread()
		done := make(chan struct{})
		go func() {
			defer close(done)
			confinedStart(cmd, v, root, errc)
		}()
		<-done
		return
	}
	if err := confineThread(v, root); err != nil {
		errc <- fmt.Errorf("confining the command to %s: %w", root, err)
		return
	}
	errc <- cmd.Start()
}

// confineThread restricts the calling OS thread with a ruleset of
// Landlock version v.
func confineThread(v int, root string) error {
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handledRights(v)}
	if v >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return fmt.Errorf("creating a ruleset: %w", errno)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	grants := []struct {
		paths  []string
		rights uint64
	}{{[]string{abs}, attr.Handled_access_fs}, {systemDirs, readRun}, {etcFiles, readOnly}, {[]string{"/proc"}, readOnly}, {devices, readWrite}}
	for _, g := range grants {
		for _, p := range g.paths {
			if err := allow(ruleset, p, g.rights&attr.Handled_access_fs); err != nil {
				return err
			}
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return fmt.Errorf("restricting: %w", errno)
	}
	return nil
}

// allow grants rights beneath path; a path this system does not have is
// skipped.
func allow(ruleset int, path string, rights uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= fileRights
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("allowing %s: %w", path, errno)
	}
	return nil
}
