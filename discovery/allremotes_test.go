package discovery

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/mcpreg/mcpreg/model"
	"pgregory.net/rapid"
)

// TestAllRemotesSet: the set allRemotes uses past 16 remotes keeps what the
// scan of the list keeps: the source entry's remotes, then each discovered
// (type, URL) not yet there, sorted.
func TestAllRemotesSet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &draft{enrich: &enrichment{}}
		for i := range rapid.IntRange(0, 5).Draw(t, "source") {
			d.enrich.remotes = append(d.enrich.remotes, model.Remote{Type: model.TransportSSE, URL: fmt.Sprintf("https://s.example/%d", i%3)})
		}
		for range rapid.IntRange(0, 60).Draw(t, "discovered") {
			typ := rapid.SampledFrom([]string{model.TransportSSE, model.TransportStreamableHTTP}).Draw(t, "type")
			d.remotes = append(d.remotes, Remote{Type: typ, URL: fmt.Sprintf("https://s.example/%d", rapid.IntRange(0, 20).Draw(t, "url"))})
		}
		want := slices.Clone(d.enrich.remotes)
		for _, r := range d.remotes {
			if !slices.ContainsFunc(want, func(o model.Remote) bool { return o.Type == r.Type && o.URL == r.URL }) {
				want = append(want, model.Remote{Type: r.Type, URL: r.URL})
			}
		}
		slices.SortStableFunc(want, func(a, b model.Remote) int { return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.URL, b.URL)) })
		if got := d.allRemotes(); !slices.EqualFunc(got, want, func(a, b model.Remote) bool { return a.Type == b.Type && a.URL == b.URL }) {
			t.Fatalf("allRemotes = %v, want %v", got, want)
		}
	})
}
