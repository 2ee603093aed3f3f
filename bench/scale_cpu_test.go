package bench

import "time"

// rusage is the CPU time a process has used, user and system apart, and the
// page faults it has taken.
type rusage struct {
	user, sys time.Duration
	faults    int64
}

func (a rusage) sub(b rusage) rusage {
	return rusage{user: a.user - b.user, sys: a.sys - b.sys, faults: a.faults - b.faults}
}
