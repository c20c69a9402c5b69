package ast

import (
	"regexp"
	"strconv"
)

// InlinedName is the name of a parameter or local of a function (or of
// its result) in its n-th inlined call: name$n. The inliner gives each
// call its own names so that the calls' locals stay apart.
func InlinedName(name string, n int) string { return name + "$" + strconv.Itoa(n) }

// inlinedSuffix matches the suffix InlinedName adds.
var inlinedSuffix = regexp.MustCompile(`([A-Za-z0-9_])\$[0-9]+\b`)

// SourceNames rewrites the inlined names in a message to the names the
// source gives them (t$16 to t): a message about a function's code points
// at the function, where its locals have the names its author wrote. A
// name the source itself spells with $ and digits at its end (ECMAScript
// allows it, few write it) loses them in messages only.
func SourceNames(msg string) string { return inlinedSuffix.ReplaceAllString(msg, "$1") }
