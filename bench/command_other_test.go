//go:build !unix

package bench

import "os"

// maxRSS is not measured where there is no rusage.
func maxRSS(*os.ProcessState) int64 { return 0 }

func selfMaxRSS() int64 { return 0 }
