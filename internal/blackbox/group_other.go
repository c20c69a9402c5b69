//go:build !unix

package blackbox

import "os/exec"

// killGroup does nothing where there are no process groups: a timeout
// kills the command, and waitDelay stops waiting for its children.
func killGroup(*exec.Cmd) {}

// wait waits for the command; its children are left to waitDelay.
func wait(cmd *exec.Cmd) error { return cmd.Wait() }
