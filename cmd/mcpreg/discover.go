package main

// runDiscover is the 'discover' verb. It is not implemented yet: it says so and exits
// cleanly, so the README's first command works on every commit.
func runDiscover(e *env, args []string) int {
	_ = args
	_, _ = e.stderr.Write([]byte("mcpreg discover: not yet implemented\n"))
	return exitOK
}
