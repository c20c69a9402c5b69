//go:build !unix

package blackbox

import "os/exec"

// credential stands for a user where there are no uids.
type credential struct{}

// commandUser is nil: commands run as setbot's user.
func commandUser() *credential { return nil }

// runAs does nothing.
func runAs(*exec.Cmd, *credential) {}

// Prepare does nothing: commands run as setbot's user.
func Prepare(string) error { return nil }
