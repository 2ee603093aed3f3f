//go:build !unix

package urlbuild

import "time"

// processCPU is not measured on this platform; benchmarks then report 0.
func processCPU() time.Duration { return 0 }
