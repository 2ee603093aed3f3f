package naming

import (
	"fmt"
	"testing"
	"time"
)

// sameCopies is n copies of one name from one source: the prefixed and the
// qualified names collide for all of them, so every copy is suffixed from
// one base.
func sameCopies(n int) []Copy {
	copies := make([]Copy, n)
	for i := range copies {
		copies[i] = Copy{Name: "io.example/same", Source: "team-a"}
	}
	return copies
}

// TestAssignManyCopiesOfOneBase is the regression test for the suffix
// search, which restarted at "-2" for every copy (quadratic): 50,000 copies
// must be named well within the deadline.
func TestAssignManyCopiesOfOneBase(t *testing.T) {
	const n = 50000
	done := make(chan []Assigned, 1)
	go func() { done <- Assign(sameCopies(n), nil) }()
	select {
	case out := <-done:
		seen := make(map[string]bool, n)
		for _, a := range out {
			if seen[a.Name] {
				t.Fatalf("name %q given twice", a.Name)
			}
			seen[a.Name] = true
		}
		for _, want := range []string{"team-a.io.example/same-2", fmt.Sprintf("team-a.io.example/same-%d", n+1)} {
			if !seen[want] {
				t.Errorf("no copy is named %q", want)
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("naming %d copies of one name did not finish in 30 s", n)
	}
}

// BenchmarkAssignCopiesOfOneBase shows the suffix search near-linear in the
// copies of one base: compare n and 4n.
func BenchmarkAssignCopiesOfOneBase(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		copies := sameCopies(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Assign(copies, nil)
			}
		})
	}
}
