package blackbox

import "golang.org/x/sys/unix"

// Protect makes this process non-dumpable: its /proc entries (environ,
// mem, maps, fd, ...) then belong to root, and a process of the same
// user, a command it runs included, can read none of them; neither can
// it attach a debugger. It matters for the environment the process was
// started with: /proc/PID/environ shows that block as it was, whatever
// os.Unsetenv did since. It also turns off core dumps. Root, and any
// process with CAP_SYS_PTRACE, still reads everything: see commandUser.
func Protect() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
