package model

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestVersionRange holds versionRange to the official registry's examples
// and to versions it accepts.
func TestVersionRange(t *testing.T) {
	for _, v := range []string{"^1.2.3", "~1.2.3", ">=1.2.3", "<=1.0.0", ">1.0.0", "<1.0.0", "=1.0.0", " ^ v1.2.3-rc.1 ",
		"1.x", "1.2.*", "1.2.X", "x.1", "*.*", "1 - 2", "1.2.3 - 2.0.0", "1.2 || 1.3", "1||2", "\v^1.2.3", "\u00a01.x",
		// As the registry's patterns read them: a prerelease "x" makes a
		// wildcard, a space before "-" a hyphen range.
		"1.2.3-x", "1.0.0-rc1 - 2", "1 -2"} {
		if !versionRange([]byte(v)) {
			t.Errorf("versionRange(%q) = false, want true", v)
		}
	}
	for _, v := range []string{"1.2.3", "2.17.6", "1.0.0-beta.1", "v1.2.3", "1.2.3+build", "2024-01-01", "x", "*",
		"1.2.3.4.x", "latest-x", "1-2", "^", ""} {
		if versionRange([]byte(v)) {
			t.Errorf("versionRange(%q) = true, want false", v)
		}
	}
}

// TestVersionRangeWarns: an entry or package version that reads as a range
// is kept with an InvalidEntry warning (the official registry refuses it;
// the upstream schema and ToolHive accept it), and the lean reading leaves
// it to the checks that give the warning.
func TestVersionRangeWarns(t *testing.T) {
	for _, c := range []struct{ entry, field string }{
		{`{"name":"io.example/srv","description":"d","version":"^1.2.3"}`, "version"},
		{`{"name":"io.example/srv","description":"d","version":"1.0.0","packages":[{"registryType":"npm","identifier":"x","version":"1.x","transport":{"type":"stdio"}}]}`, "packages[0].version"},
	} {
		reg, pds := Parse([]byte(`{"data":{"servers":[`+c.entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: %v", c.entry, pds)
		}
		ok, ds := NormalizeWith(reg.Servers[0], ObjectRef{Kind: "File", Name: "f"}, "", NormalizeOptions{})
		if !ok || len(ds) != 1 || ds[0].Severity != SeverityWarning || ds[0].Reason != ReasonInvalidEntry ||
			ds[0].Field != c.field || !strings.Contains(ds[0].Message, "range") {
			t.Errorf("%s: ok %v, %v; want kept with one range warning at %s", c.entry, ok, ds, c.field)
		}
	}
}

// TestVersionRangeAgreesWithRegistry holds versionRange (a pass before the
// patterns) to the registry's function as written there, over versions
// drawn from the bytes that matter to it.
func TestVersionRangeAgreesWithRegistry(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.StringOfN(rapid.SampledFrom([]rune("0123456789.-vxX*^~<>=| \t\v\u00a0ab")), 0, 16, -1).Draw(t, "version")
		if got, want := versionRange([]byte(v)), oracleVersionRange(v); got != want {
			t.Fatalf("versionRange(%q) = %v, the registry's %v", v, got, want)
		}
	})
}
