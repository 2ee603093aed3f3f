package urlbuild

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/internal/manifest"
	"github.com/mcpreg/mcpreg/model"
)

// goldenDir holds one directory per case: manifests (HTTPRoutes, Gateways,
// Namespaces), a README line saying what the case shows, an optional
// endpoint-path.txt, and want.txt.
const goldenDir = "../../testdata/urlbuild"

// TestGolden renders, for every HTTPRoute of every case, its origins, the
// URLs of each rule (base paths, and with endpoint-path.txt the paths that
// reach that endpoint) and all diagnostics, and compares with want.txt.
// Run with -update to rewrite the want files.
func TestGolden(t *testing.T) {
	for _, dir := range golden.Cases(t, goldenDir) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			objs := golden.LoadObjects(t, dir)
			if len(objs.HTTPRoutes) == 0 {
				t.Fatal("the case has no HTTPRoute")
			}
			if _, err := os.Stat(filepath.Join(dir, "README")); err != nil {
				t.Errorf("every case says what it shows in a README line: %v", err)
			}
			endpoint := ""
			if b, err := os.ReadFile(filepath.Join(dir, "endpoint-path.txt")); err == nil {
				endpoint = strings.TrimSpace(string(b))
			}
			got := renderCase(t, objs, endpoint)
			golden.Check(t, filepath.Join(dir, "want.txt"), []byte(got))

			// The output does not depend on the order objects were read in.
			rev := &manifest.Objects{
				Gateways:   slices.Clone(objs.Gateways),
				Namespaces: slices.Clone(objs.Namespaces),
				HTTPRoutes: slices.Clone(objs.HTTPRoutes),
			}
			slices.Reverse(rev.Gateways)
			slices.Reverse(rev.Namespaces)
			slices.Reverse(rev.HTTPRoutes)
			if again := renderCase(t, rev, endpoint); again != got {
				t.Errorf("reversed input order changes the output:\n%s", again)
			}
		})
	}
}

func renderCase(t *testing.T, objs *manifest.Objects, endpoint string) string {
	t.Helper()
	ix := NewIndex(objs.Gateways, objs.Namespaces)
	routes := slices.Clone(objs.HTTPRoutes)
	slices.SortFunc(routes, func(a, b *gwv1.HTTPRoute) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	var b strings.Builder
	for ri, route := range routes {
		if ri > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "HTTPRoute %s/%s\n", route.Namespace, route.Name)
		a := ix.Attach(route)
		for _, o := range a.Origins {
			fmt.Fprintf(&b, "  origin %s  <- %s\n", o, provenance(o))
		}
		ds := slices.Clone(a.Diagnostics)
		modes := []string{""}
		if endpoint != "" {
			modes = append(modes, endpoint)
		}
		for i := range DefaultRules(route) {
			for _, ep := range modes {
				urls, rds := a.RuleURLs(i, RuleOptions{EndpointPath: ep})
				ds = append(ds, rds...)
				label := fmt.Sprintf("rule %d", i)
				if ep != "" {
					label += " endpoint " + ep
				}
				if len(urls) == 0 {
					fmt.Fprintf(&b, "  %s: no URL\n", label)
				}
				for _, u := range urls {
					if !model.RemoteURLPattern().MatchString(u.URL) {
						t.Errorf("%s does not match %s", u.URL, model.RemoteURLPattern())
					}
					match := "default match"
					if u.Match >= 0 {
						match = fmt.Sprintf("match %d", u.Match)
					}
					fmt.Fprintf(&b, "  %s: %s  <- %s, %s\n", label, u.URL, provenance(u.Origin), match)
				}
			}
		}
		ds.Sort()
		for _, d := range ds {
			if d.Object != a.Route {
				t.Errorf("diagnostic names %v, not the route %v", d.Object, a.Route)
			}
			fmt.Fprintf(&b, "  %s\n", d)
		}
	}
	return b.String()
}

func provenance(o Origin) string {
	s := fmt.Sprintf("spec.parentRefs[%d] Gateway %s listener %s", o.ParentIndex, o.Gateway, o.Listener)
	if o.FromAddress {
		s += " (host from status.addresses)"
	}
	return s
}
