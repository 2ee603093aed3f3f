package merge

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"
)

// urlIndex is what an index of remote URLs says: the URLs several entries
// use, each with its entries (by ConfigMap and position read) and count.
func urlIndex(m *merger) map[string][]string {
	out := make(map[string][]string)
	for u := range m.shared {
		h := m.urls[u]
		es := []string{fmt.Sprintf("n=%d", h.n), fmt.Sprintf("%s#%d", h.one.part.ref.Name, h.one.pos)}
		for _, e := range h.more {
			es = append(es, fmt.Sprintf("%s#%d", e.part.ref.Name, e.pos))
		}
		slices.Sort(es[1:])
		out[u] = es
	}
	return out
}

// TestSharedURLIndexProperty checks the sparse index of remote URLs, keyed
// by the URLs' hashes as read computed them, against the full index keyed
// by the URLs: the same shared URLs with the same entries, duplicates a
// ConfigMap drops left out. It checks it too with hashes that collide (all
// equal, or two values), where URLs are told apart by their bytes, and with
// a part whose URLs were not hashed as read.
func TestSharedURLIndexProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nCM := rapid.IntRange(1, 5).Draw(t, "configmaps")
		urls := []string{"https://a.example.com/mcp", "https://b.example.com/mcp", "https://c.example.com/sse", "https://d.example.com/x"}
		var cms []*corev1.ConfigMap
		for i := range nCM {
			n := rapid.IntRange(0, 8).Draw(t, fmt.Sprintf("n%d", i))
			var servers []testServer
			for j := range n {
				servers = append(servers, testServer{
					// Few names, so that a ConfigMap repeats one (dropped as
					// a duplicate) and ConfigMaps share them.
					Name: rapid.SampledFrom([]string{"io.x/a", "io.x/b", "io.x/c", "io.y/a"}).Draw(t, fmt.Sprintf("name%d_%d", i, j)),
					ID:   fmt.Sprintf("%d-%d", i, j),
					URL:  rapid.SampledFrom(append([]string{""}, urls...)).Draw(t, fmt.Sprintf("url%d_%d", i, j)),
				})
			}
			cms = append(cms, configMap(fmt.Sprintf("cm-%d", i), regLabels, upstreamDoc(servers...)))
		}
		collide := rapid.IntRange(0, 2).Draw(t, "collide")
		// Hashes are made up only where every part has them.
		unhashed := -1
		if collide == 0 {
			unhashed = rapid.IntRange(-1, nCM-1).Draw(t, "unhashed")
		}
		index := func(once bool) map[string][]string {
			m := newMerger(Source{Namespace: testNS, Selector: regSelector}, Options{})
			m.once = once
			parts := make([]*part, len(cms))
			for i, cm := range cms {
				parts[i] = m.read(cm)
				if once && unhashed == i {
					// A part read without hashes is indexed by its
					// entries' URLs.
					parts[i].urlRefs, parts[i].hashed = nil, false
				}
				for k := range parts[i].urlRefs {
					r := &parts[i].urlRefs[k]
					switch collide {
					case 1:
						r.hash = 7
					case 2:
						r.hash = uint64(len(r.url) % 2)
					}
				}
			}
			if once && collide == 0 {
				for _, p := range parts {
					for _, r := range p.urlRefs {
						if want := maphash.String(m.seed, r.url); r.hash != want {
							t.Fatalf("hash of %q is %d, want %d", r.url, r.hash, want)
						}
					}
				}
			}
			m.reindex(parts)
			return urlIndex(m)
		}
		sparse, full := index(true), index(false)
		if !maps.EqualFunc(sparse, full, slices.Equal) {
			t.Fatalf("sparse index by hash (collide %d):\n%v\nfull index:\n%v", collide, sparse, full)
		}
	})
}
