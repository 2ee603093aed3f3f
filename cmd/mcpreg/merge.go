package main

// runMerge is the 'merge' verb. It is not implemented yet: it says so and exits
// cleanly, so the README's first command works on every commit.
func runMerge(e *env, args []string) int {
	_ = args
	_, _ = e.stderr.Write([]byte("mcpreg merge: not yet implemented\n"))
	return exitOK
}
