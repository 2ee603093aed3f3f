package naming

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"
)

func TestDNSSubdomain(t *testing.T) {
	tests := []struct {
		parts []string
		want  string
	}{
		{[]string{"all-teams-registry", "team-registries", "merged"}, "all-teams-registry-team-registries-merged"},
		{[]string{"a.b", "c"}, "a.b-c"},
		{[]string{"Team_A", "x"}, "team-a-x-" + hash8("Team_A-x")},
		{[]string{"-a-", "b"}, "a--b-" + hash8("-a--b")},
		{[]string{"é"}, hash8("é")},
		{[]string{strings.Repeat("a", 250), "merged"}, strings.Repeat("a", 244) + "-" + hash8(strings.Repeat("a", 250)+"-merged")},
	}
	for _, tt := range tests {
		got := DNSSubdomain(tt.parts...)
		if got != tt.want {
			t.Errorf("DNSSubdomain(%q) = %q, want %q", tt.parts, got, tt.want)
		}
	}
}

func hash8(s string) string { return dnsHash(s) }

func TestDNSSubdomainAlwaysValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.String(), 1, 3).Draw(t, "parts")
		got := DNSSubdomain(parts...)
		if errs := validation.IsDNS1123Subdomain(got); len(errs) > 0 {
			t.Fatalf("DNSSubdomain(%q) = %q: %v", parts, got, errs)
		}
		if raw := strings.Join(parts, "-"); len(validation.IsDNS1123Subdomain(raw)) == 0 && got != raw {
			t.Fatalf("valid name %q changed to %q", raw, got)
		}
	})
}
