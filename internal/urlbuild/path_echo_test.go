package urlbuild

import (
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestPathErrorsCutValues: a path value from a route (a manifest is not held
// to the CRD's 1,024 characters) is quoted in errors cut to 200 bytes, so a
// diagnostic built from one stays short.
func TestPathErrorsCutValues(t *testing.T) {
	long := "/" + strings.Repeat("P", 5000)
	for _, m := range []gwv1.HTTPPathMatch{
		{Type: ptr(gwv1.PathMatchRegularExpression), Value: &long},
		{Type: ptr(gwv1.PathMatchType(long)), Value: ptr("/mcp")},
	} {
		_, _, err := pathMatchOf(&m)
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "…") {
			t.Errorf("error of %d bytes, want a cut value: %.80v", len(err.Error()), err)
		}
	}
	if err := checkPath(long + "\x00"); err == nil || len(err.Error()) > 300 {
		t.Errorf("checkPath: error of %d bytes", len(err.Error()))
	}
}
