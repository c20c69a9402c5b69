package blackbox

import (
	"errors"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// wait waits for the command and kills, best effort, what is left of its
// process group: a child it put in the background would otherwise outlive
// the analysis (and may hold its output open). The group is killed while
// the command is a zombie not yet reaped (WNOWAIT), so that its id, the
// group's, cannot have been given to another process.
func wait(cmd *exec.Cmd) error {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Wait()
}
