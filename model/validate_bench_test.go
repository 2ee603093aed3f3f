package model

import (
	"os"
	"testing"
)

// BenchmarkValidateParsed checks, per op, the 64 entries of
// testdata/validate/entries.json (the first of one ConfigMap of the bench
// module's 100,000-server merge, as gen.UpstreamFiles draws them) read by
// Parse, so with the index Parse records, as a merge checks them: "now" with
// ValidateServer, "before" with the validator it replaced (the oracle of
// validate_oracle_test.go), for the ratio on one machine in one run.
func BenchmarkValidateParsed(b *testing.B) {
	data, reg := validateFixture(b)
	obj := ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "team-000"}
	for _, s := range reg.Servers {
		if ds := ValidateServer(s, obj, "data.servers[0]"); len(ds) != 0 {
			b.Fatalf("fixture entry %s is invalid: %v", s.Name(), ds)
		}
	}
	for _, run := range []struct {
		name     string
		validate func(*Server, ObjectRef, string) Diagnostics
	}{
		{"now", ValidateServer},
		{"before", oldPubValidateServer},
	} {
		b.Run(run.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range reg.Servers {
					run.validate(s, obj, "data.servers[0]")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reg.Servers)), "ns/entry")
		})
	}
}

// BenchmarkNormalizeParsed is BenchmarkValidateParsed for NormalizeWith as a
// merge calls it: every check of an entry, validation among them. The
// fixture's entries are valid and already canonical, so normalising them
// changes nothing and the same entries serve every round.
func BenchmarkNormalizeParsed(b *testing.B) {
	data, reg := validateFixture(b)
	obj := ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "team-000"}
	for _, s := range reg.Servers {
		if ok, ds := NormalizeWith(s, obj, "data.servers[0]", NormalizeOptions{}); !ok || len(ds) != 0 {
			b.Fatalf("fixture entry %s is not kept as is: %v", s.Name(), ds)
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range reg.Servers {
			NormalizeWith(s, obj, "data.servers[0]", NormalizeOptions{})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reg.Servers)), "ns/entry")
}

// validateFixture reads testdata/validate/entries.json with Parse.
func validateFixture(tb testing.TB) (data []byte, reg *Registry) {
	tb.Helper()
	data, err := os.ReadFile("testdata/validate/entries.json")
	if err != nil {
		tb.Fatal(err)
	}
	reg, ds := Parse(data, ParseOptions{Format: FormatUpstream})
	if reg == nil || len(reg.Servers) == 0 {
		tb.Fatalf("no entries: %v", ds)
	}
	return data, reg
}
