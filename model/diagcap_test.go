package model

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestSortCapsPerObjectReason: after Sort, each (object, reason, severity) has at most
// MaxPerObjectReason plain diagnostics and one summary, the counts add up to
// what went in, and sorting again changes nothing.
func TestSortCapsPerObjectReason(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objects := []ObjectRef{{Kind: "ConfigMap", Namespace: "a", Name: "x"}, {Kind: "ConfigMap", Namespace: "a", Name: "y"}}
		reasons := []Reason{ReasonInvalidEntry, ReasonDuplicateServer}
		n := rapid.IntRange(0, 4*MaxPerObjectReason).Draw(t, "n")
		var ds Diagnostics
		want := map[objectReason]int{}
		for i := range n {
			o := rapid.SampledFrom(objects).Draw(t, "object")
			r := rapid.SampledFrom(reasons).Draw(t, "reason")
			sev := rapid.SampledFrom([]Severity{SeverityWarning, SeverityError, SeverityInfo}).Draw(t, "severity")
			ds = append(ds, Diagnostic{Severity: sev, Reason: r, Object: o, Field: fmt.Sprintf("servers[%d]", i), Message: "skipped"})
			want[objectReason{o, r, sev}]++
		}
		ds.Sort()
		got := map[objectReason]int{}
		plain := map[objectReason]int{}
		for _, d := range ds {
			k := objectReason{d.Object, d.Reason, d.Severity}
			got[k] += d.Count()
			if d.Omitted == 0 {
				plain[k]++
			}
		}
		for k, w := range want {
			if got[k] != w {
				t.Fatalf("%v: counted %d, want %d", k, got[k], w)
			}
			if plain[k] > MaxPerObjectReason {
				t.Fatalf("%v: %d diagnostics listed", k, plain[k])
			}
		}
		again := slices.Clone(ds)
		again.Sort()
		if !slices.Equal(ds, again) {
			t.Fatalf("sorting a capped list changed it:\n%v\n%v", ds, again)
		}
	})
}

// TestSummaryKeepsSeverities: diagnostics of one reason and object but of
// different severities are capped apart, so a summary never stands for an
// Error among Infos (nor counts Infos as the Warnings of dropped entries).
func TestSummaryKeepsSeverities(t *testing.T) {
	o := ObjectRef{Kind: "ConfigMap", Namespace: "a", Name: "x"}
	var ds Diagnostics
	for i := range MaxPerObjectReason + 2 {
		sev := SeverityInfo
		if i == MaxPerObjectReason+1 {
			sev = SeverityError
		}
		ds = append(ds, Diagnostic{Severity: sev, Reason: ReasonInvalidEntry, Object: o, Field: fmt.Sprintf("f%02d", i), Message: "m"})
	}
	ds.Sort()
	var errors, infos, summaries int
	for _, d := range ds {
		switch {
		case d.Omitted > 0:
			summaries++
			if d.Severity != SeverityInfo || d.Omitted != 1 {
				t.Errorf("summary %v, want an Info standing for 1", d)
			}
		case d.Severity == SeverityError:
			errors++
		default:
			infos++
		}
	}
	if errors != 1 || infos != MaxPerObjectReason || summaries != 1 {
		t.Fatalf("%d errors, %d infos, %d summaries listed, want 1, %d, 1: %v", errors, infos, summaries, MaxPerObjectReason, ds)
	}
}
