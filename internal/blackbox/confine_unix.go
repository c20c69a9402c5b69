//go:build unix

package blackbox

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// CommandUser is the user confined commands run as when setbot runs as
// root: root reads every process's /proc entries and every file, so its
// commands must not be root.
const CommandUser = "nobody"

// nobodyID is nobody's uid and gid where the user database does not name
// it (a minimal container).
const nobodyID = 65534

// commandUser is who a confined command runs as: nil for setbot's own user
// when it is not root, CommandUser's ids when it is.
func commandUser() *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	cred := &syscall.Credential{Uid: nobodyID, Gid: nobodyID}
	if u, err := user.Lookup(CommandUser); err == nil {
		uid, uerr := strconv.ParseUint(u.Uid, 10, 32)
		gid, gerr := strconv.ParseUint(u.Gid, 10, 32)
		if uerr == nil && gerr == nil {
			cred.Uid, cred.Gid = uint32(uid), uint32(gid)
		}
	}
	return cred // no supplementary groups: root's are not passed on
}

// runAs has cmd run as cred (nil: setbot's user).
func runAs(cmd *exec.Cmd, cred *syscall.Credential) {
	cmd.SysProcAttr.Credential = cred
}

// Prepare makes dir, a directory made for confined commands (a checkout),
// theirs: when setbot runs as root, dir and everything in it is given to
// CommandUser, so that its commands can read, run and write their checkout
// and nothing else of root's. Call it before any command runs in dir: the
// walk follows no symbolic link, but a command running beside it could
// swap a directory for one. Elsewhere it does nothing.
func Prepare(dir string) error {
	cred := commandUser()
	if cred == nil {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	// The command must be able to reach dir.
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		if info.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("commands run as %s cannot reach %s: %s (mode %v) lets no other user in; set TMPDIR to a directory they may enter", CommandUser, dir, p, info.Mode().Perm())
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	err = filepath.WalkDir(abs, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(cred.Uid), int(cred.Gid))
	})
	if err != nil {
		return fmt.Errorf("giving %s to %s for its commands: %w", dir, CommandUser, err)
	}
	return nil
}
