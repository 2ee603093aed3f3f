package urlbuild

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func sp(s string) *string { return &s }

// TestIntersect is the truth table of HTTPRouteSpec.Hostnames and
// Listener.Hostname: every pairing of empty, exact and wildcard on each side,
// with equal, unequal, subdomain, multi-label, label-boundary and case rows.
// The rows quoting the spec's own examples say so.
func TestIntersect(t *testing.T) {
	type row struct {
		name     string
		route    []string
		listener *string
		want     []string
		anyHost  bool
	}
	rows := []row{
		// Both empty: any host the Gateway answers on.
		{name: "empty/nil", route: nil, listener: nil, anyHost: true},
		{name: "empty/empty-string", route: nil, listener: sp(""), anyHost: true},
		{name: "empty-slice/nil", route: []string{}, listener: nil, anyHost: true},
		{name: "only-empty-strings/nil", route: []string{""}, listener: nil, anyHost: true},

		// Route empty: the listener's hostname, whatever it is.
		{name: "empty/exact", route: nil, listener: sp("test.example.com"), want: []string{"test.example.com"}},
		{name: "empty/wildcard", route: nil, listener: sp("*.example.com"), want: []string{"*.example.com"}},
		{name: "empty/exact-upper", route: nil, listener: sp("Test.Example.COM"), want: []string{"test.example.com"}},

		// Listener empty: the route's hostnames, all of them.
		{name: "exact/nil", route: []string{"foo.example.com"}, listener: nil, want: []string{"foo.example.com"}},
		{name: "wildcard/nil", route: []string{"*.example.com"}, listener: nil, want: []string{"*.example.com"}},
		{name: "mixed/empty-string", route: []string{"b.example.com", "*.example.com", "a.example.net"}, listener: sp(""),
			want: []string{"*.example.com", "a.example.net", "b.example.com"}},
		{name: "duplicates-and-case/nil", route: []string{"a.com", "A.com", "a.com"}, listener: nil, want: []string{"a.com"}},

		// Exact route, exact listener.
		{name: "exact/exact-equal", route: []string{"test.example.com"}, listener: sp("test.example.com"), want: []string{"test.example.com"}},
		{name: "exact/exact-unequal", route: []string{"test.example.com"}, listener: sp("other.example.com"), want: nil},
		{name: "exact/exact-subdomain", route: []string{"a.test.example.com"}, listener: sp("test.example.com"), want: nil},
		{name: "exact/exact-parent", route: []string{"example.com"}, listener: sp("test.example.com"), want: nil},
		{name: "exact/exact-case", route: []string{"Test.Example.com"}, listener: sp("test.EXAMPLE.com"), want: []string{"test.example.com"}},

		// Exact route, wildcard listener: the route's name when the wildcard matches it.
		// Spec: listener *.example.com matches test.example.com and foo.test.example.com, not example.com or test.example.net.
		{name: "exact/wildcard-one-label", route: []string{"test.example.com"}, listener: sp("*.example.com"), want: []string{"test.example.com"}},
		{name: "exact/wildcard-two-labels", route: []string{"foo.test.example.com"}, listener: sp("*.example.com"), want: []string{"foo.test.example.com"}},
		{name: "exact/wildcard-bare-domain", route: []string{"example.com"}, listener: sp("*.example.com"), want: nil},
		{name: "exact/wildcard-other-domain", route: []string{"test.example.net"}, listener: sp("*.example.com"), want: nil},
		{name: "exact/wildcard-label-boundary", route: []string{"fooexample.com"}, listener: sp("*.example.com"), want: nil},
		{name: "exact/wildcard-case", route: []string{"FOO.example.com"}, listener: sp("*.Example.com"), want: []string{"foo.example.com"}},
		// Spec: "if a Listener specified *.example.com, and the HTTPRoute specified
		// test.example.com and test.example.net, test.example.net must not be considered".
		{name: "exacts/wildcard-spec-example", route: []string{"test.example.com", "test.example.net"}, listener: sp("*.example.com"), want: []string{"test.example.com"}},

		// Wildcard route, exact listener: the listener's name when the route's wildcard matches it.
		// Spec: listener test.example.com matches routes with *.example.com.
		{name: "wildcard/exact-one-label", route: []string{"*.example.com"}, listener: sp("test.example.com"), want: []string{"test.example.com"}},
		{name: "wildcard/exact-two-labels", route: []string{"*.example.com"}, listener: sp("a.b.example.com"), want: []string{"a.b.example.com"}},
		{name: "wildcard/exact-bare-domain", route: []string{"*.example.com"}, listener: sp("example.com"), want: nil},
		{name: "wildcard/exact-other-domain", route: []string{"*.example.com"}, listener: sp("test.example.net"), want: nil},
		{name: "wildcard/exact-label-boundary", route: []string{"*.ample.com"}, listener: sp("example.com"), want: nil},
		{name: "wildcard/exact-case", route: []string{"*.EXAMPLE.com"}, listener: sp("Test.example.com"), want: []string{"test.example.com"}},

		// Wildcard route, wildcard listener: the narrower wildcard.
		{name: "wildcard/wildcard-equal", route: []string{"*.example.com"}, listener: sp("*.example.com"), want: []string{"*.example.com"}},
		{name: "wildcard/wildcard-route-narrower", route: []string{"*.foo.example.com"}, listener: sp("*.example.com"), want: []string{"*.foo.example.com"}},
		{name: "wildcard/wildcard-listener-narrower", route: []string{"*.example.com"}, listener: sp("*.foo.example.com"), want: []string{"*.foo.example.com"}},
		{name: "wildcard/wildcard-route-much-narrower", route: []string{"*.a.b.example.com"}, listener: sp("*.example.com"), want: []string{"*.a.b.example.com"}},
		{name: "wildcard/wildcard-disjoint", route: []string{"*.example.com"}, listener: sp("*.example.net"), want: nil},
		{name: "wildcard/wildcard-label-boundary", route: []string{"*.ample.com"}, listener: sp("*.example.com"), want: nil},
		{name: "wildcard/wildcard-case", route: []string{"*.Example.com"}, listener: sp("*.example.COM"), want: []string{"*.example.com"}},

		// Several route hostnames: the overlapping ones, narrowed, sorted, deduplicated.
		{name: "many/exact-listener", route: []string{"non.matching.com", "*.nonmatchingwildcard.io", "very.specific.com"}, listener: sp("very.specific.com"),
			want: []string{"very.specific.com"}},
		{name: "many/wildcard-listener", route: []string{"non.matching.com", "wildcard.io", "foo.wildcard.io", "bar.wildcard.io", "foo.bar.wildcard.io"}, listener: sp("*.wildcard.io"),
			want: []string{"bar.wildcard.io", "foo.bar.wildcard.io", "foo.wildcard.io"}},
		{name: "many/wildcard-and-exact-to-one", route: []string{"*.specific.com", "very.specific.com"}, listener: sp("very.specific.com"),
			want: []string{"very.specific.com"}},
		{name: "many/wildcard-and-exact-kept", route: []string{"*.example.com", "foo.example.com"}, listener: sp("*.example.com"),
			want: []string{"*.example.com", "foo.example.com"}},
		{name: "many/none", route: []string{"specific.but.wrong.com", "wildcard.io"}, listener: sp("*.wildcard.io"), want: nil},
		{name: "many/with-empty-string", route: []string{"", "a.example.com"}, listener: sp("*.example.com"), want: []string{"a.example.com"}},

		// Malformed wildcards are exact names: they match only themselves.
		{name: "star-alone/exact", route: []string{"*"}, listener: sp("example.com"), want: nil},
		{name: "star-dot/wildcard", route: []string{"*."}, listener: sp("*.example.com"), want: nil},
		{name: "wildcard/star-alone", route: []string{"a.example.com"}, listener: sp("*"), want: nil},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, anyHost := Intersect(r.route, r.listener)
			if anyHost != r.anyHost || !slices.Equal(got, r.want) {
				t.Errorf("Intersect(%q, %v) = %q, %v; want %q, %v", r.route, deref(r.listener), got, anyHost, r.want, r.anyHost)
			}
			// Intersection is symmetric in which hosts both accept: with a single
			// route hostname and a listener hostname, swapping the sides gives
			// the same answer.
			if len(r.route) == 1 && r.route[0] != "" && r.listener != nil && *r.listener != "" {
				back, _ := Intersect([]string{*r.listener}, &r.route[0])
				if !slices.Equal(back, got) {
					t.Errorf("swapped sides: Intersect(%q, %q) = %q; want %q", *r.listener, r.route[0], back, got)
				}
			}
		})
	}
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func TestMatchHostname(t *testing.T) {
	rows := []struct {
		pattern, host string
		want          bool
	}{
		{"", "anything.example.com", true},
		{"example.com", "example.com", true},
		{"example.com", "EXAMPLE.com", true},
		{"example.com", "www.example.com", false},
		{"*.example.com", "www.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", ".example.com", false},
		{"*.example.com", "wwwexample.com", false},
		{"*.example.com", "*.example.com", false}, // a wildcard is not a host
		{"*", "example.com", false},
	}
	for _, r := range rows {
		if got := MatchHostname(r.pattern, r.host); got != r.want {
			t.Errorf("MatchHostname(%q, %q) = %v; want %v", r.pattern, r.host, got, r.want)
		}
	}
}

func TestValidHostname(t *testing.T) {
	rows := []struct {
		h    string
		want bool
	}{
		{"example.com", true},
		{"a", true},
		{"a-b.c0", true},
		{"xn--bcher-kva.example", true},
		{"", false},
		{"-a.com", false},
		{"a-.com", false},
		{"a..com", false},
		{".a.com", false},
		{"a.com.", false},
		{"A.com", false}, // callers lower-case first
		{"*.example.com", false},
		{"a_b.com", false},
		{"a b.com", false},
		{"a/b", false},
		{string(make([]byte, 64)), false},
		// The last label a number: an IPv4 address to a URL reader.
		{"10.0.0.1", false},
		{"1.2.3", false},
		{"example.123", false},
		{"example.0x1f", false},
		{"example.0x", false},
		{"7", false},
		{"1.example.com", true},
		{"0x1f.example.com", true},
		{"example.0xg", true},
		{"example.1a", true},
		{"example.a1", true},
	}
	for _, r := range rows {
		if got := ValidHostname(r.h); got != r.want {
			t.Errorf("ValidHostname(%q) = %v; want %v", r.h, got, r.want)
		}
	}
}

func TestSplitHostnames(t *testing.T) {
	concrete, wild := SplitHostnames([]string{"*.a.com", "b.com", "*.c.com", "d.com"})
	if diff := cmp.Diff([]string{"b.com", "d.com"}, concrete); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"*.a.com", "*.c.com"}, wild); diff != "" {
		t.Error(diff)
	}
}

// TestValidHostnameOnePass: ValidHostname, which reads the name once,
// agrees with the way it was written before (label by label) on names made
// of labels that sit on every edge of the rule, 63 and 253 bytes included,
// and last labels that are numbers.
func TestValidHostnameOnePass(t *testing.T) {
	reference := func(h string) bool {
		if h == "" || len(h) > 253 {
			return false
		}
		for label := range strings.SplitSeq(h, ".") {
			if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
				return false
			}
			for i := 0; i < len(label); i++ {
				if c := label[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
					return false
				}
			}
		}
		// The WHATWG URL standard's "ends in a number".
		return !regexp.MustCompile(`(^|\.)([0-9]+|0[xX][0-9a-fA-F]*)$`).MatchString(h)
	}
	rapid.Check(t, func(t *rapid.T) {
		label := rapid.OneOf(rapid.StringMatching(`[a-z0-9A-Z_*-]{0,4}`), rapid.StringMatching(`[0-9]{1,3}|0x[0-9a-f]{0,2}`),
			rapid.Custom(func(t *rapid.T) string { return strings.Repeat("a", rapid.IntRange(60, 66).Draw(t, "n")) }))
		labels := rapid.SliceOfN(label, 1, 6).Draw(t, "labels")
		if rapid.IntRange(0, 10).Draw(t, "long") == 0 {
			for len(strings.Join(labels, ".")) < 250 {
				labels = append(labels, strings.Repeat("b", 60))
			}
			labels = append(labels, rapid.SampledFrom([]string{"c", "cc", "ccc", "cccc"}).Draw(t, "tail"))
		}
		h := strings.Join(labels, rapid.SampledFrom([]string{".", ".."}).Draw(t, "sep"))
		if got, want := ValidHostname(h), reference(h); got != want {
			t.Fatalf("ValidHostname(%q) = %v, the reference says %v", h, got, want)
		}
	})
}
