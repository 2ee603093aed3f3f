package urlbuild

import (
	"regexp"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestRegexIndexAgrees: the literal-prefix index of a group's
// RegularExpression matches finds, for any path, the matches the scan of
// them all finds, in the same order, as long as no more than maxFreeRegex
// lack a prefix; beyond that the group is crowded.
func TestRegexIndexAgrees(t *testing.T) {
	pieces := []string{"/", "a", "b", "mcp", ".*", "[ab]", "(/.*)?", "|", "x+", "(?i)A"}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(smallGroup+1, 40).Draw(t, "matches")
		x := new(groupIndex)
		for i := range n {
			v := ""
			for range rapid.IntRange(1, 5).Draw(t, "pieces") {
				v += rapid.SampledFrom(pieces).Draw(t, "piece")
			}
			re, _ := regexp.Compile("^(?:" + v + ")$")
			x.regex = append(x.regex, cand{m: &matchEntry{rule: int32(i), typ: gwv1.PathMatchRegularExpression, value: v, re: re}})
		}
		x.indexRegex()
		if x.crowded != nil {
			t.Skip("crowded")
		}
		for range 20 {
			p := "/"
			for range rapid.IntRange(0, 4).Draw(t, "segments") {
				p += rapid.SampledFrom([]string{"a", "b", "mcp", "A", "x", "/", "ab"}).Draw(t, "segment")
			}
			req := &Request{Method: "POST", Path: p}
			var want []cand
			for _, c := range x.regex {
				if c.m.mayTake(req) {
					want = append(want, c)
				}
			}
			got, _ := x.mayTakeIndexed(req, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("path %q: the index finds %d matches, the scan %d", p, len(got), len(want))
			}
		}
	})
}

// TestRegexIndexCrowded: more than maxFreeRegex matches without a literal
// prefix mark the group crowded, naming the first untested one.
func TestRegexIndexCrowded(t *testing.T) {
	x := new(groupIndex)
	for i := range maxFreeRegex + 2 {
		re := regexp.MustCompile("^(?:.*x)$")
		x.regex = append(x.regex, cand{m: &matchEntry{rule: int32(i), typ: gwv1.PathMatchRegularExpression, re: re}})
	}
	x.indexRegex()
	if x.crowded == nil || x.crowded.m.rule != maxFreeRegex || len(x.reFree) != maxFreeRegex {
		t.Fatalf("crowded %v, %d tested", x.crowded, len(x.reFree))
	}
}

// TestRegexIndexCrowdedByPrefix: more than maxPrefixedRegex matches whose
// literal prefix a path starts with are not all tested: the request is
// crowded, naming the first untested one, and the ones tested are found.
func TestRegexIndexCrowdedByPrefix(t *testing.T) {
	x := new(groupIndex)
	for i := range maxPrefixedRegex + 2 {
		re := regexp.MustCompile("^(?:/p/[0-9]+x" + strconv.Itoa(i) + ")$")
		x.regex = append(x.regex, cand{m: &matchEntry{rule: int32(i), typ: gwv1.PathMatchRegularExpression, re: re}})
	}
	x.indexRegex()
	may, crowded := x.mayTakeIndexed(&Request{Method: "POST", Path: "/p/1x3"}, nil)
	if crowded == nil || crowded.m.rule != maxPrefixedRegex {
		t.Fatalf("crowded %v; want the match of rule %d", crowded, maxPrefixedRegex)
	}
	if len(may) != 1 || may[0].m.rule != 3 {
		t.Errorf("may take: %d matches; want rule 3's", len(may))
	}
	if _, crowded := x.mayTakeIndexed(&Request{Method: "POST", Path: "/q/1x3"}, nil); crowded != nil {
		t.Errorf("a path under no prefix is crowded by %v", crowded)
	}
}
