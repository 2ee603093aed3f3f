package bench

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	upstreamv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
	regmodel "github.com/modelcontextprotocol/registry/pkg/model"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// The round trip through ToolHive's registry server (thv-registry-api,
// checked against v1.5.1). serverModel is what the server does to a
// document it syncs and lists back, written with the server's own types
// (the upstream registry's ServerJSON, which it decodes every entry into):
// members it has no field for are dropped, _meta keeps only the
// publisher-provided block (numbers through float64), "$schema" is set when
// missing, remotes come back in (type, URL) order, packages by version,
// newest first, and _meta is always there. The property: mcpreg's canonical
// form of a document (each entry as written, repeated packages and remotes
// settled), passed through the server and canonicalised again, is the same
// document, except for what the README lists as the server's own rewrites
// ("$schema" added, remote and package order, number spelling, an empty
// _meta), and the server stores the same thing for both.

// serverModel returns the servers of an upstream document as the registry
// server stores and lists them, in a new upstream document.
func serverModel(t tb, doc []byte) []byte {
	t.Helper()
	var in struct {
		Data struct {
			Servers []upstreamv0.ServerJSON `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal(doc, &in); err != nil {
		t.Fatalf("the server cannot read the document: %v", err)
	}
	for i := range in.Data.Servers {
		s := &in.Data.Servers[i]
		// What fails the whole sync.
		type pkgKey struct{ registryType, identifier, transport string }
		seen := map[pkgKey]bool{}
		for _, p := range s.Packages {
			k := pkgKey{p.RegistryType, p.Identifier, p.Transport.Type}
			if seen[k] {
				t.Fatalf("the server fails the sync: server %s repeats package %v", s.Name, k)
			}
			seen[k] = true
		}
		if s.Meta != nil && len(s.Meta.PublisherProvided) > 0 {
			b, err := json.Marshal(s.Meta.PublisherProvided)
			if err != nil || len(b) > model.DefaultMaxMetaSize {
				t.Fatalf("the server fails the sync: server %s has publisher-provided metadata of %d bytes (%v)", s.Name, len(b), err)
			}
		}
		if s.Schema == "" {
			s.Schema = regmodel.CurrentSchemaURL
		}
		slices.SortStableFunc(s.Remotes, func(a, b regmodel.Transport) int {
			return cmp.Or(strings.Compare(a.Type, b.Type), strings.Compare(a.URL, b.URL))
		})
		slices.SortStableFunc(s.Packages, func(a, b regmodel.Package) int { return strings.Compare(b.Version, a.Version) })
		if s.Meta == nil {
			s.Meta = &upstreamv0.ServerMeta{}
		}
	}
	servers, err := json.Marshal(in.Data.Servers)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return fmt.Appendf(nil, `{"version":"1.0.0","meta":{"last_updated":%q},"data":{"servers":%s}}`, oracleNow, servers)
}

// documentView is a document as compared across the round trip: decoded
// (so numbers are float64 and key order does not count), with each
// server's packages and remotes as sets, an empty _meta as none and a
// missing "$schema" as the one the server adds.
func documentView(t tb, doc []byte) []any {
	t.Helper()
	var v struct {
		Data struct {
			Servers []map[string]any `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("%v", err)
	}
	out := make([]any, len(v.Data.Servers))
	for i, s := range v.Data.Servers {
		if m, ok := s[model.KeyMeta].(map[string]any); ok && len(m) == 0 {
			delete(s, model.KeyMeta)
		}
		if _, ok := s[model.KeySchema]; !ok {
			s[model.KeySchema] = regmodel.CurrentSchemaURL
		}
		for _, key := range []string{model.KeyPackages, model.KeyRemotes} {
			if list, ok := s[key].([]any); ok {
				slices.SortFunc(list, func(a, b any) int {
					x, _ := json.Marshal(a)
					y, _ := json.Marshal(b)
					return bytes.Compare(x, y)
				})
			}
		}
		out[i] = s
	}
	return out
}

// The generator's pools: few values, so that repeats happen.
var (
	rtRemotes = []string{
		`{"type":"streamable-http","url":"https://a.example/mcp"}`,
		`{"type":"streamable-http","url":"https://a.example/mcp","headers":[{"name":"X-Team","value":"b"}]}`,
		`{"type":"sse","url":"https://a.example/sse"}`,
		`{"type":"streamable-http","url":"https://b.example/mcp"}`,
		`{"type":"sse","url":"https://a.example/mcp"}`,
	}
	rtPackages = []string{
		`{"registryType":"npm","identifier":"@ex/a","version":"1.2.0","transport":{"type":"stdio"}}`,
		`{"registryType":"npm","identifier":"@ex/a","version":"1.10.0","transport":{"type":"stdio"},"environmentVariables":[{"name":"TOKEN","isSecret":true}]}`,
		`{"registryType":"npm","identifier":"@ex/a","version":"1.2.0","transport":{"type":"streamable-http","url":"http://localhost:8080/mcp"}}`,
		`{"registryType":"pypi","identifier":"ex-a","version":"0.9.0","transport":{"type":"stdio"}}`,
		`{"registryType":"oci","identifier":"ghcr.io/ex/a:1.0.0","transport":{"type":"stdio"}}`,
	}
	// rtNumbers are _meta values: exact, spelled otherwise than encoding/json
	// writes them, and (the last two) changed by a float64.
	rtNumbers      = []string{`7`, `2.0`, `1e3`, `0.5`, `-0`, `1.50`, `"<b>&</b>"`, `12345678901234567890`, `1.00000000000000000001`}
	rtInexactFirst = 7
)

type rtServer struct {
	json    string
	inexact bool
}

func drawServer(t *rapid.T, i int) rtServer {
	label := func(s string) string { return fmt.Sprintf("%s%d", s, i) }
	var b strings.Builder
	var inexact bool
	b.WriteString(`{`)
	if rapid.Bool().Draw(t, label("schema")) {
		b.WriteString(`"$schema":"` + model.ServerSchemaURL + `",`)
	}
	fmt.Fprintf(&b, `"name":"io.example/server-%d","description":"Server %d","version":"1.0.%d"`, i, i, i)
	if rs := rapid.SliceOfN(rapid.SampledFrom(rtRemotes), 0, 4).Draw(t, label("remotes")); len(rs) > 0 {
		b.WriteString(`,"remotes":[` + strings.Join(rs, ",") + `]`)
	}
	if ps := rapid.SliceOfN(rapid.SampledFrom(rtPackages), 0, 4).Draw(t, label("packages")); len(ps) > 0 {
		b.WriteString(`,"packages":[` + strings.Join(ps, ",") + `]`)
	}
	if ks := rapid.SliceOfNDistinct(rapid.IntRange(0, len(rtNumbers)-1), 0, 4, rapid.ID[int]).Draw(t, label("meta")); len(ks) > 0 {
		var fields []string
		for j, k := range ks {
			fields = append(fields, fmt.Sprintf(`"k%d":%s`, j, rtNumbers[k]))
			inexact = inexact || k >= rtInexactFirst
		}
		b.WriteString(`,"_meta":{"` + model.PublisherProvidedKey + `":{"com.example":{` + strings.Join(fields, ",") + `}}}`)
	}
	b.WriteString(`}`)
	return rtServer{json: b.String(), inexact: inexact}
}

// TestRoundTripThroughServer is the round-trip property.
func TestRoundTripThroughServer(t *testing.T) {
	src := model.ObjectRef{Kind: "File", Name: "input.json"}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "servers")
		var entries []string
		inexact := false
		for i := range n {
			s := drawServer(t, i)
			entries = append(entries, s.json)
			inexact = inexact || s.inexact
		}
		input := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[` + strings.Join(entries, ",") + `]}}`

		// mcpreg's canonical form, which ToolHive accepts.
		reg, ds := model.Convert([]byte(input), model.ParseOptions{Source: src}, oracleNow)
		if reg == nil || len(reg.Servers) != n {
			t.Fatalf("convert lost servers: %v", ds)
		}
		canonical := reg.Encode()
		checkEmitted(t, reg, canonical)
		if got := len(ds.WithReason(model.ReasonInexactNumber)) > 0; got != inexact {
			t.Fatalf("InexactNumber %v, want %v: %v", got, inexact, ds)
		}
		// Each entry as written: "$schema" only where the input had it,
		// and the remotes in their order, later repeats removed.
		for i, s := range reg.Servers {
			if _, ok := s.Get(model.KeySchema); ok != strings.Contains(entries[i], `"$schema"`) {
				t.Fatalf("server %s: $schema %v, in the input %v", s.Name(), ok, !ok)
			}
			var in struct{ Remotes []model.Remote }
			if err := json.Unmarshal([]byte(entries[i]), &in); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range in.Remotes {
				if k := r.Type + " " + r.URL; !slices.Contains(want, k) {
					want = append(want, k)
				}
			}
			var got []string
			for _, r := range s.Remotes() {
				got = append(got, r.Type+" "+r.URL)
			}
			// A remote another server claimed first is removed
			// (DuplicateRemoteURL); the others keep their order.
			kept := slices.DeleteFunc(slices.Clone(want), func(k string) bool { return !slices.Contains(got, k) })
			if !slices.Equal(got, kept) {
				t.Fatalf("server %s: remotes %q, want %q (the input's order, repeats removed)", s.Name(), got, kept)
			}
			if len(got) < len(want) && !slices.ContainsFunc(ds.WithReason(model.ReasonDuplicateRemoteURL), func(d model.Diagnostic) bool {
				return strings.HasPrefix(d.Field, fmt.Sprintf("data.servers[%d]", i))
			}) {
				t.Fatalf("server %s: remotes %q of %q lost without DuplicateRemoteURL: %v", s.Name(), got, want, ds)
			}
		}

		// Through the server and back.
		served := serverModel(t, canonical)
		again, ds2 := model.Convert(served, model.ParseOptions{Source: src}, oracleNow)
		if again == nil {
			t.Fatalf("the served document does not convert: %v", ds2)
		}
		for _, d := range ds2 {
			if d.Severity != model.SeverityInfo && d.Reason != model.ReasonInexactNumber {
				t.Fatalf("the served document loses data on the way back: %v", d)
			}
		}
		if !reflect.DeepEqual(documentView(t, canonical), documentView(t, again.Encode())) {
			t.Fatalf("the round trip changed the document beyond the server's own rewrites:\ncanonical %s\nserved    %s\nagain     %s", canonical, served, again.Encode())
		}
		// The server stores the same thing for both.
		if twice := serverModel(t, again.Encode()); !bytes.Equal(twice, served) {
			t.Fatalf("the server stores the canonical form of its own output otherwise:\n%s\n%s", served, twice)
		}
	})
}

// TestOracleVersions: a merge with StrategyVersions lists one name in
// several versions, and ToolHive's validator accepts that document.
func TestOracleVersions(t *testing.T) {
	labels := map[string]string{"registry": "true"}
	cm := func(name, servers string) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: labels},
			Data:       map[string]string{"registry.json": `{"data":{"servers":[` + servers + `]}}`},
		}
	}
	entry := func(version, url string) string {
		return fmt.Sprintf(`{"name":"io.example/search","description":"Search %s","version":%q,"remotes":[{"type":"streamable-http","url":%q}]}`, version, version, url)
	}
	res := merge.Merge(merge.Source{Namespace: "ns", Selector: &metav1.LabelSelector{MatchLabels: labels}, Strategy: merge.StrategyVersions},
		[]*corev1.ConfigMap{
			cm("team-a", entry("1.0.0", "https://search.example/mcp")),
			cm("team-b", entry("2.0.0", "https://search.example/mcp")+","+entry("2.1.0", "https://search.example/v2")),
		}, merge.Options{})
	if res.Registry == nil || len(res.Registry.Servers) != 3 {
		t.Fatalf("want three versions: %v", res.Diagnostics)
	}
	for _, s := range res.Registry.Servers {
		if s.Name() != "io.example/search" {
			t.Fatalf("renamed: %s", s.Name())
		}
	}
	checkEmitted(t, res.Registry, res.Document())
	// The server keeps them as versions of one name; its view of the
	// document is what was written.
	if served := serverModel(t, res.Document()); len(documentView(t, served)) != 3 {
		t.Fatalf("served %s", served)
	}
}
