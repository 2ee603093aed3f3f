//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, all
// threads (the garbage collector's included).
func cpuTime() time.Duration {
	u := selfUsage()
	return u.user + u.sys
}

// selfUsage is what the process has used so far, split: the system time is
// mostly the kernel's work of mapping pages the process touches for the
// first time (faults), which json.Valid, allocating nothing, never pays.
func selfUsage() rusage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return rusage{}
	}
	return rusage{user: time.Duration(ru.Utime.Nano()), sys: time.Duration(ru.Stime.Nano()), faults: int64(ru.Minflt + ru.Majflt)}
}
