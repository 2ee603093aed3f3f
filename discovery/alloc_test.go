package discovery

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// The tests of this file check the compact forms discovery keeps its
// per-resource and per-entry data in against the plain forms they stand
// for.

// annotationKeys are the annotations readAnnotations records, and two it
// does not.
var annotationKeys = []string{
	AnnotationExport, AnnotationURL, AnnotationDescription, AnnotationTitle,
	AnnotationVersion, AnnotationTier, AnnotationName,
	AnnotationPrefix + "registry-other", "example.com/registry-url",
}

// TestReadAnnotations: whatever annotations a resource has, annotation
// answers for each key what a look-up in the map answers, for resources
// whose values share one slab, and no resource's values can be appended to
// over another's.
func TestReadAnnotations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var slab stringSlab
		n := rapid.IntRange(1, 40).Draw(t, "resources")
		anns := make([]map[string]string, n)
		rs := make([]resource, n)
		for i := range rs {
			ann := map[string]string{}
			for _, k := range annotationKeys {
				if rapid.Bool().Draw(t, "present") {
					ann[k] = rapid.SampledFrom([]string{"", "true", "false", "x", fmt.Sprintf("v%d", i)}).Draw(t, "value")
				}
			}
			if rapid.Bool().Draw(t, "nil") && len(ann) == 0 {
				ann = nil
			}
			anns[i] = ann
			var s *stringSlab
			if rapid.IntRange(0, 3).Draw(t, "own") > 0 {
				s = &slab
			}
			rs[i].readAnnotations(ann, s)
		}
		for i := range rs {
			r := &rs[i]
			if len(r.anns) != cap(r.anns) {
				t.Fatalf("resource %d: anns of length %d and capacity %d", i, len(r.anns), cap(r.anns))
			}
			for _, k := range append(annotationKeys, "") {
				v, ok := r.annotation(k)
				wv, wok := anns[i][k]
				if k != "" && k != annotationKeys[7] && k != annotationKeys[8] {
					if v != wv || ok != wok {
						t.Fatalf("resource %d: annotation(%q) = %q, %v; the map has %q, %v", i, k, v, ok, wv, wok)
					}
				} else if v != "" || ok {
					t.Fatalf("resource %d: annotation(%q) = %q, %v; it is not recorded", i, k, v, ok)
				}
			}
		}
	})
}

// TestServerTemplatesBuild: the entries serverTemplates.build writes, one
// after another with the values of many in one chunk, are those
// buildServer writes, byte for byte, and stay so when later entries are
// built and when a caller appends to a value of one of them.
func TestServerTemplatesBuild(t *testing.T) {
	text := rapid.SampledFrom([]string{"a", "b", "desc", "A \"quoted\" text", "tab\there", "é", "\u2028", "1.0.0", "2.1.0-rc.1"})
	rapid.Check(t, func(t *rapid.T) {
		tmpl := newServerTemplates()
		n := rapid.IntRange(1, 300).Draw(t, "entries")
		var built []*model.Server
		var want [][]byte
		for i := range n {
			d := &draft{
				resources:   []*resource{{ref: model.ObjectRef{Kind: model.KindMCPServer, Namespace: "ns", Name: fmt.Sprint("s", i)}}},
				name:        fmt.Sprintf("dev.example/%s-%d", text.Draw(t, "name"), i),
				description: text.Draw(t, "description"),
				version:     text.Draw(t, "version"),
			}
			if rapid.IntRange(0, 3).Draw(t, "titled") == 0 {
				d.title = text.Draw(t, "title")
			}
			if rapid.IntRange(0, 5).Draw(t, "tiered") == 0 {
				d.tier = rapid.SampledFrom([]string{TierOfficial, TierCommunity}).Draw(t, "tier")
			}
			for range rapid.IntRange(1, 4).Draw(t, "remotes") {
				d.remotes = append(d.remotes, Remote{
					Type: rapid.SampledFrom([]string{model.TransportSSE, model.TransportStreamableHTTP}).Draw(t, "type"),
					URL:  "https://example.com/" + text.Draw(t, "path"),
				})
			}
			if rapid.Bool().Draw(t, "deduped") {
				// As dedupeRemoteURLs leaves them.
				slices.SortFunc(d.remotes, compareRemotes)
				d.remotes = slices.CompactFunc(d.remotes, func(a, b Remote) bool { return a.Type == b.Type && a.URL == b.URL })
			}
			if rapid.IntRange(0, 20).Draw(t, "long") == 0 {
				// Values longer than a chunk.
				d.description = string(bytes.Repeat([]byte("\""), serverChunkSize))
			}
			w, err := d.buildServer().MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			s := tmpl.build(d)
			got, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, w) {
				t.Fatalf("entry %d:\nbuild       %s\nbuildServer %s", i, got, w)
			}
			if s.Name() != d.name {
				t.Fatalf("entry %d: name %q, want %q", i, s.Name(), d.name)
			}
			built, want = append(built, s), append(want, w)
		}
		// A caller appending to the values of one entry changes no other.
		for _, s := range built[:len(built)/2] {
			for _, k := range s.Keys() {
				v, _ := s.Get(k)
				_ = append(v, "garbage"...)
			}
		}
		for i, s := range built {
			got, _ := s.MarshalJSON()
			if !bytes.Equal(got, want[i]) {
				t.Fatalf("entry %d changed after building the others:\nnow  %s\nwas  %s", i, got, want[i])
			}
		}
	})
}

// TestGroupExports: groupExports returns the exports of its lists in the
// order of a stable sort by resource order, then by resource, whatever the
// orders (shared between resources, negative).
func TestGroupExports(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nres := rapid.IntRange(1, 30).Draw(t, "resources")
		shared := rapid.Bool().Draw(t, "shared")
		res := make([]*resource, nres)
		for i := range res {
			res[i] = &resource{ref: model.ObjectRef{Kind: model.KindMCPServer, Namespace: "ns", Name: fmt.Sprint("r", rapid.IntRange(0, 40).Draw(t, "name"))}, order: i}
			if shared {
				res[i].order = rapid.IntRange(-1, 5).Draw(t, "order")
			}
		}
		lists := make([][]export, rapid.IntRange(0, 3).Draw(t, "lists"))
		var all []*export
		for l := range lists {
			lists[l] = make([]export, rapid.IntRange(0, 40).Draw(t, "exports"))
			for k := range lists[l] {
				lists[l][k] = export{res: rapid.SampledFrom(res).Draw(t, "res"), annotated: rapid.Bool().Draw(t, "annotated")}
			}
		}
		for l := range lists {
			for k := range lists[l] {
				all = append(all, &lists[l][k])
			}
		}
		slices.SortStableFunc(all, func(a, b *export) int {
			return cmp.Or(cmp.Compare(a.res.order, b.res.order), a.res.compare(b.res))
		})
		got := groupExports(lists...)
		if len(got) != len(all) {
			t.Fatalf("%d exports, want %d", len(got), len(all))
		}
		for i := range got {
			if got[i] != all[i] {
				t.Fatalf("export %d is %v of order %d, want %v of order %d", i, got[i].res.ref, got[i].res.order, all[i].res.ref, all[i].res.order)
			}
		}
	})
}

// TestNameIn: nameIn writes the name Name returns, for either scheme (and
// an unknown one), across arena blocks, and leaves earlier names as they
// were.
func TestNameIn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var a stringArena
		// Fill the first block up to a few bytes, so that the names
		// cross into the next.
		a.copy(string(make([]byte, arenaBlock-rapid.IntRange(1, 64).Draw(t, "room"))))
		part := rapid.StringMatching(`[a-z0-9.\-/]{0,20}`)
		var got, want []string
		for range rapid.IntRange(1, 50).Draw(t, "names") {
			scheme := rapid.SampledFrom([]NamingScheme{NamingToolHiveOperator, NamingToolHiveRegistryServer, 7}).Draw(t, "scheme")
			ns, name := part.Draw(t, "namespace"), part.Draw(t, "name")
			got, want = append(got, scheme.nameIn(&a, ns, name)), append(want, scheme.Name(ns, name))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("names %q, want %q", got, want)
		}
	})
}
