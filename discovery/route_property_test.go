package discovery

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/urlbuild"
)

// routeRemotes lists the remotes of a result that an HTTPRoute gave, as
// "resource url" strings, sorted.
func routeRemotes(res Result) []string {
	var out []string
	for _, e := range res.Entries {
		for _, r := range e.Remotes {
			if r.Via.Kind == urlbuild.KindHTTPRoute {
				out = append(out, r.Resource.String()+" "+r.URL)
			}
		}
	}
	slices.Sort(out)
	return out
}

// registryURLs lists every remote URL of a registry, sorted.
func registryURLs(reg *model.Registry) []string {
	var out []string
	for _, s := range reg.Servers {
		for _, r := range s.Remotes() {
			out = append(out, r.URL)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestPropertyRouteGeneratorReachesURLs guards the properties below against
// a generator that never makes a route give a URL (they would hold
// vacuously). It draws a fixed set of examples, one per seed, rather than
// counting within a rapid run: the count is then the same on every run, and
// a generator change that lowers it fails every time instead of now and then.
func TestPropertyRouteGeneratorReachesURLs(t *testing.T) {
	reaches := rapid.Custom(func(t *rapid.T) bool {
		return len(routeRemotes(Discover(genSnapshot(t), genOptions(t)))) > 0
	})
	const draws = 200
	withURL := 0
	for seed := range draws {
		if reaches.Example(seed) {
			withURL++
		}
	}
	if withURL*10 < draws {
		t.Errorf("only %d of %d generated snapshots have a URL from a route", withURL, draws)
	}
	t.Logf("%d of %d generated snapshots have a URL from a route", withURL, draws)
}

// listenerAdmits is the test's own reading of Listener.AllowedRoutes: does
// the listener admit HTTPRoutes from namespace ns?
func listenerAdmits(l gwv1.Listener, gatewayNS, ns string, snap Snapshot) bool {
	from := gwv1.NamespacesFromSame
	if l.AllowedRoutes != nil && l.AllowedRoutes.Namespaces != nil && l.AllowedRoutes.Namespaces.From != nil {
		from = *l.AllowedRoutes.Namespaces.From
	}
	if l.AllowedRoutes != nil && len(l.AllowedRoutes.Kinds) > 0 &&
		!slices.ContainsFunc(l.AllowedRoutes.Kinds, func(k gwv1.RouteGroupKind) bool {
			return k.Kind == "HTTPRoute" && (k.Group == nil || *k.Group == gwv1.GroupName)
		}) {
		return false
	}
	switch from {
	case gwv1.NamespacesFromAll:
		return true
	case gwv1.NamespacesFromSame:
		return ns == gatewayNS
	case gwv1.NamespacesFromSelector:
		sel := labels.SelectorFromSet(l.AllowedRoutes.Namespaces.Selector.MatchLabels)
		for _, n := range snap.Namespaces {
			if n.Name == ns && sel.Matches(labels.Set(n.Labels)) {
				return true
			}
		}
	}
	return false
}

// TestPropertyRouteURLsOnlyThroughAdmittingListeners (discovery by HTTPRoute):
// every URL a route gives comes through a listener of one of its parent
// Gateways whose allowedRoutes admit the route's namespace, with the listener's
// scheme and port — never through one that excludes it.
func TestPropertyRouteURLsOnlyThroughAdmittingListeners(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		res := Discover(snap, opts)
		for _, e := range res.Entries {
			for _, rm := range e.Remotes {
				if rm.Via.Kind != urlbuild.KindHTTPRoute {
					continue
				}
				u, err := url.Parse(rm.URL)
				if err != nil {
					t.Fatalf("remote %q: %v", rm.URL, err)
				}
				port := u.Port()
				if port == "" {
					port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
				}
				ok := false
				for _, r := range snap.HTTPRoutes {
					if r.Namespace != rm.Via.Namespace || r.Name != rm.Via.Name {
						continue
					}
					for _, p := range r.Spec.ParentRefs {
						gk, isGW := urlbuild.ParentGateway(p, r.Namespace)
						for _, g := range snap.Gateways {
							if !isGW || g.Namespace != gk.Namespace || g.Name != gk.Name {
								continue
							}
							for _, l := range g.Spec.Listeners {
								scheme := map[gwv1.ProtocolType]string{gwv1.HTTPProtocolType: "http", gwv1.HTTPSProtocolType: "https"}[l.Protocol]
								ok = ok || scheme == u.Scheme && strconv.Itoa(int(l.Port)) == port &&
									(p.SectionName == nil || *p.SectionName == l.Name) &&
									listenerAdmits(l, g.Namespace, r.Namespace, snap)
							}
						}
					}
				}
				if !ok {
					t.Fatalf("URL %s of %s via %s comes through no listener admitting the route's namespace", rm.URL, rm.Resource, rm.Via)
				}
			}
		}
	})
}

// TestPropertyRemovingGrantNeverAddsURL (a guarantee of docs/decisions.md):
// taking a ReferenceGrant away never gives a resource a URL from a route it did
// not have, and puts a new URL in the registry only through an entry that
// was not exported before because another resource, exported through the
// grant, took its only discovered URL (DuplicateRemoteURL): the entry comes
// back with its other remotes, those of the source registry's entry say.
func TestPropertyRemovingGrantNeverAddsURL(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		for range rapid.IntRange(1, 3).Draw(t, "moreGrants") {
			snap.ReferenceGrants = append(snap.ReferenceGrants, genGrant(t))
		}
		i := rapid.IntRange(0, len(snap.ReferenceGrants)-1).Draw(t, "removed")
		gone := snap.ReferenceGrants[i]
		fewer := snap
		// Every copy of the grant goes: two objects of one namespace and
		// name are two versions of one grant (Discover uses one of them).
		fewer.ReferenceGrants = slices.DeleteFunc(slices.Clone(snap.ReferenceGrants), func(g *gwv1.ReferenceGrant) bool {
			return g.Namespace == gone.Namespace && g.Name == gone.Name
		})
		before, after := Discover(snap, opts), Discover(fewer, opts)
		for _, r := range routeRemotes(after) {
			if !slices.Contains(routeRemotes(before), r) {
				t.Fatalf("removing ReferenceGrant %s/%s added %s", snap.ReferenceGrants[i].Namespace, snap.ReferenceGrants[i].Name, r)
			}
		}
		revived := slices.ContainsFunc(before.Diagnostics, func(d model.Diagnostic) bool {
			return d.Reason == model.ReasonDuplicateRemoteURL && strings.Contains(d.Message, "the entry has no remote left and is not exported")
		})
		names := func(reg *model.Registry) []string {
			var out []string
			for _, s := range reg.Servers {
				out = append(out, s.Name())
			}
			return out
		}
		for _, s := range after.Registry.Servers {
			for _, r := range s.Remotes() {
				if slices.Contains(registryURLs(before.Registry), r.URL) {
					continue
				}
				if !revived || slices.Contains(names(before.Registry), s.Name()) {
					t.Fatalf("removing ReferenceGrant %s/%s added URL %s to the registry (entry %s)", snap.ReferenceGrants[i].Namespace, snap.ReferenceGrants[i].Name, r.URL, s.Name())
				}
			}
		}
	})
}

// TestPropertyRoutesNeverExportUnselected: a route never exports a resource
// that Options.Namespaces or the label selector leaves out, and a route
// diagnostic always names a route of a chosen namespace.
func TestPropertyRoutesNeverExportUnselected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		opts.Namespaces = rapid.SliceOfNDistinct(rapid.SampledFrom(propNamespaces), 1, 2, func(s string) string { return s }).Draw(t, "only")
		res := Discover(snap, opts)
		cfg, _ := compile(opts)
		ix, _ := indexResources(&snap, cfg)
		for _, e := range res.Entries {
			for _, r := range e.Resources {
				if res := ix.lookup(r.Kind, r.Namespace, r.Name, ""); res == nil || !res.selected || !slices.Contains(opts.Namespaces, r.Namespace) {
					t.Fatalf("%s exported but not selected", r)
				}
			}
		}
		for _, d := range res.Diagnostics {
			if d.Object.Kind == urlbuild.KindHTTPRoute && !slices.Contains(opts.Namespaces, d.Object.Namespace) {
				t.Fatalf("diagnostic about a route outside the namespaces: %s", d)
			}
		}
	})
}
