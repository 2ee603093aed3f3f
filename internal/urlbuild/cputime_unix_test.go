//go:build unix

package urlbuild

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used (user + system). On a
// shared machine it measures work where wall time measures the neighbours.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
