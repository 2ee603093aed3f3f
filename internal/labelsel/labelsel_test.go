package labelsel

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

// TestFastAgrees: a fast selector answers as the selector it wraps, for
// every operator, with short and long value lists, on labels that have the
// key with a listed value, with another value, and not at all.
func TestFastAgrees(t *testing.T) {
	long := func(prefix string, n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return strings.Join(vs, ",")
	}
	selectors := []string{
		"a in (" + long("v", 20) + ")",
		"a notin (" + long("v", 20) + ")",
		"a in (" + long("v", 3) + ")",
		"a notin (" + long("v", 3) + ")",
		"a in (" + long("v", 20) + "),b notin (" + long("w", 30) + "),c",
		"a in (" + long("v", 20) + "),!b",
		"a in (" + long("v", 20) + "),b=w1,c!=x,d>3,e<5",
		"a,b in (" + long("w", 9) + ")",
	}
	r := rand.New(rand.NewPCG(1, 2))
	value := func(prefix string) string {
		switch r.IntN(3) {
		case 0:
			return fmt.Sprintf("%s%d", prefix, r.IntN(25))
		case 1:
			return fmt.Sprint(r.IntN(10))
		default:
			return "x"
		}
	}
	for _, text := range selectors {
		sel, err := labels.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		fast := Fast(sel)
		if fast.String() != sel.String() {
			t.Errorf("String() = %q, want %q", fast.String(), sel.String())
		}
		for range 2000 {
			ls := labels.Set{}
			for _, k := range []string{"a", "b", "c", "d", "e"} {
				if r.IntN(4) > 0 {
					ls[k] = value(map[string]string{"a": "v", "b": "w"}[k])
				}
			}
			if got, want := fast.Matches(ls), sel.Matches(ls); got != want {
				t.Fatalf("%s on %v: fast %v, selector %v", text, ls, got, want)
			}
		}
	}
}

// TestFastBounded: a selector of many values matched against as many
// label sets costs one lookup per requirement and set, not one per value.
// Counted by the requirement matches Fast leaves to apimachinery: none.
func TestFastBounded(t *testing.T) {
	const n = 20000
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("t%d", i)
	}
	sel, err := labels.Parse("team in (" + strings.Join(vs, ",") + "),zone notin (" + strings.Join(vs, ",") + ")")
	if err != nil {
		t.Fatal(err)
	}
	fast, ok := Fast(sel).(*selector)
	if !ok {
		t.Fatalf("Fast did not compile a selector of %d values", n)
	}
	for _, q := range fast.reqs {
		if q.set == nil || len(q.set) != n {
			t.Fatalf("requirement %s is matched by scanning its values", q.req.String())
		}
	}
	for i := range n {
		ls := labels.Set{"team": vs[n-1-i], "zone": "z"}
		if !fast.Matches(ls) {
			t.Fatalf("%v not matched", ls)
		}
	}
}

// TestFastNil: a nil selector and one with no requirements are returned as
// they are.
func TestFastNil(t *testing.T) {
	if Fast(nil) != nil {
		t.Error("Fast(nil) is not nil")
	}
	if _, wrapped := Fast(labels.Everything()).(*selector); wrapped {
		t.Error("Fast(Everything()) wrapped")
	}
}
