package main

// runGroups is the 'groups' verb. It is not implemented yet: it says so and exits
// cleanly, so the README's first command works on every commit.
func runGroups(e *env, args []string) int {
	_ = args
	_, _ = e.stderr.Write([]byte("mcpreg groups: not yet implemented\n"))
	return exitOK
}
