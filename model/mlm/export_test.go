package mlm

// SetCheckHook makes hook run at every look of a flattening at its
// context, until restore is called.
func SetCheckHook(hook func()) (restore func()) {
	checkHook = hook
	return func() { checkHook = nil }
}
