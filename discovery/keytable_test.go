package discovery

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestKeyTable: every key added is found at its position, a key not added
// is not found, whatever the keys (rapid draws them from a small alphabet,
// so that many share hash bits).
func TestKeyTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfDistinct(rapid.StringMatching(`[ab]{0,6}`), func(s string) string { return s }).Draw(t, "keys")
		absent := rapid.StringMatching(`[abc]{0,6}`).Draw(t, "absent")
		tab := newKeyTable(len(keys))
		for i, k := range keys {
			tab.add(tab.Hash(k), i)
		}
		for i, k := range keys {
			if got := tab.find(tab.Hash(k), func(p int) bool { return keys[p] == k }); got != i {
				t.Fatalf("find(%q) = %d, want %d", k, got, i)
			}
		}
		want := slices.Index(keys, absent)
		if got := tab.find(tab.Hash(absent), func(p int) bool { return keys[p] == absent }); got != want {
			t.Fatalf("find(%q) = %d, want %d", absent, got, want)
		}
	})
}

// TestStringArena: copies are equal to the originals, across blocks.
func TestStringArena(t *testing.T) {
	var a stringArena
	for i := range 20000 {
		s := fmt.Sprintf("namespace-%d/name-%d", i, i*7)
		if got := a.copy(s); got != s {
			t.Fatalf("copy(%q) = %q", s, got)
		}
	}
	big := string(make([]byte, 3*arenaBlock))
	if a.copy(big) != big || a.copy("") != "" {
		t.Fatal("large or empty string changed")
	}
}

// TestDiscoverOutOfOrder: Discover gives the same result when the
// resources, Services and routes of the scale benchmark's cluster are
// listed in a random order, so that the look-ups that try the next object
// in the snapshot first mostly miss and go through the hash tables.
func TestDiscoverOutOfOrder(t *testing.T) {
	want := Discover(routeCluster(600, 6), routeBenchOptions())
	snap := routeCluster(600, 6)
	r := rand.New(rand.NewPCG(1, 2))
	shuffle := func(n int, swap func(i, j int)) { r.Shuffle(n, swap) }
	shuffle(len(snap.MCPServers), func(i, j int) { snap.MCPServers[i], snap.MCPServers[j] = snap.MCPServers[j], snap.MCPServers[i] })
	shuffle(len(snap.MCPRemoteProxies), func(i, j int) {
		snap.MCPRemoteProxies[i], snap.MCPRemoteProxies[j] = snap.MCPRemoteProxies[j], snap.MCPRemoteProxies[i]
	})
	shuffle(len(snap.Services), func(i, j int) { snap.Services[i], snap.Services[j] = snap.Services[j], snap.Services[i] })
	shuffle(len(snap.HTTPRoutes), func(i, j int) { snap.HTTPRoutes[i], snap.HTTPRoutes[j] = snap.HTTPRoutes[j], snap.HTTPRoutes[i] })
	got := Discover(snap, routeBenchOptions())
	if len(got.Entries) != 600 {
		t.Fatalf("%d entries", len(got.Entries))
	}
	if d := cmp.Diff(string(want.Registry.Encode()), string(got.Registry.Encode())); d != "" {
		t.Errorf("registry (-in order +shuffled):\n%s", d)
	}
	if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
		t.Errorf("diagnostics (-in order +shuffled):\n%s", d)
	}
}
