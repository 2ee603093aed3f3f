package main

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// readParallel is the merge's Options.Parallel: the ConfigMaps are read on
// up to GOMAXPROCS goroutines, each taking the next unread one, so a large
// ConfigMap does not hold up the others. The merge's output does not depend
// on it.
func readParallel(n int, read func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			read(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				read(i)
			}
		})
	}
	wg.Wait()
}
