package conformance

import "testing"

// SetKnownWrong replaces the known-wrong list until t ends, so that the
// handling of a known-wrong test can be tested once the real list is empty.
func SetKnownWrong(t *testing.T, m map[string]string) {
	old := knownWrong
	knownWrong = m
	t.Cleanup(func() { knownWrong = old })
}
