package conformance

import "maps"

// knownWrong lists the tests setbot is known to judge wrong, with why.
// The list only shrinks: the W3C test of this package fails when a test on
// it is no longer wrong, asking for its removal, and when a test off it is
// wrong.
var knownWrong = map[string]string{}

// KnownWrong returns the ids of the tests setbot is known to get wrong,
// each with why. A known-wrong test is still judged wrong.
func KnownWrong() map[string]string { return maps.Clone(knownWrong) }
