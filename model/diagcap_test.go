package model

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestSortCapsPerObjectReason: after Sort, each (object, reason) has at most
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
			want[objectReason{o, r}]++
		}
		ds.Sort()
		got := map[objectReason]int{}
		plain := map[objectReason]int{}
		for _, d := range ds {
			k := objectReason{d.Object, d.Reason}
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

// TestSummaryIsMostSevere: the summary takes the most severe severity of
// what it stands for.
func TestSummaryIsMostSevere(t *testing.T) {
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
	if len(ds) != MaxPerObjectReason+1 || ds[0].Omitted != 2 || ds[0].Severity != SeverityError {
		t.Fatalf("got %v", ds)
	}
	if !ds.HasErrors() {
		t.Fatal("an Error left out of the list is lost from HasErrors")
	}
}
