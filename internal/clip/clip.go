// Package clip cuts text to a size in bytes without splitting a character,
// for what setbot passes on from elsewhere (a command's error output, an
// error in a pull-request comment) and must keep bounded.
package clip

import "unicode/utf8"

// Cut returns s when it is at most n bytes long; otherwise its longest
// prefix of at most n bytes that ends on a character boundary, followed by
// mark.
func Cut(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}
