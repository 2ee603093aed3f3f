package discovery

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

var propNamespaces = []string{"a", "b", "c"}

// maybe draws one of the values or, with the empty key "", no annotation.
func maybe(t *rapid.T, ann map[string]string, key string, values ...string) {
	v := rapid.SampledFrom(append([]string{"\x00absent"}, values...)).Draw(t, key)
	if v != "\x00absent" {
		ann[key] = v
	}
}

// genMeta draws the metadata of an MCP resource. URLs and name overrides
// are drawn from a pool of the resource's own namespace and from one all
// namespaces share (a URL on the shared host, another namespace's source
// entry's remote, a name or its DuplicateName rename), so that two
// namespaces claim one name or one URL.
func genMeta(t *rapid.T, ns string) metav1.ObjectMeta {
	ann := map[string]string{}
	maybe(t, ann, AnnotationExport, "true", "true", "true", "True", "false", "")
	maybe(t, ann, AnnotationURL,
		"https://"+ns+".example.com/0", "https://"+ns+".example.com/1", "https://"+ns+".example.com/2",
		"HTTPS://"+strings.ToUpper(ns)+".EXAMPLE.com/1", "http://"+ns+".example.com/3",
		"https://user:hunter2@"+ns+".example.com/", "javascript:alert(1)", "file:///etc/passwd",
		"https://"+ns+".example.com/\x07", "https://"+ns+".example.com/#x", "not a url",
		"https://shared.example.com/0", "https://shared.example.com/0", "https://shared.example.com/1",
		"https://shared.example.com/1", "https://remote-a.example/mcp", "https://remote-a.example/mcp")
	maybe(t, ann, AnnotationDescription, "Described", "", strings.Repeat("long description ", 8))
	maybe(t, ann, AnnotationTitle, "Title", "", strings.Repeat("long title ", 12))
	maybe(t, ann, AnnotationVersion, "1.2.3", "v1", "latest", "2.0.0-rc.1")
	maybe(t, ann, AnnotationTier, "Official", "Community", "gold")
	// Half the resources have no name override: resources enriching one
	// source entry share an entry only under the same name.
	if rapid.Bool().Draw(t, "nameOverride") {
		maybe(t, ann, AnnotationName, "com."+ns+"/s", "com."+ns+"/t", "com."+ns+"/s-2", "bad",
			"com.shared/s", "com.shared/s-2", "dev.stacklok.toolhive/a.x")
	}
	return metav1.ObjectMeta{
		Namespace:   ns,
		Name:        rapid.SampledFrom([]string{"x", "y", "web", "web-2"}).Draw(t, "name"),
		UID:         typesUID(rapid.SampledFrom([]string{"", "u1", "u2"}).Draw(t, "uid")),
		Labels:      map[string]string{"team": rapid.SampledFrom([]string{"red", "blue"}).Draw(t, "team")},
		Annotations: ann,
	}
}

// genResource draws an MCP resource of kind 0 (MCPServer), 1
// (MCPRemoteProxy) or 2 (VirtualMCPServer) in namespace ns.
func genResource(t *rapid.T, kind int, ns string) any {
	meta := genMeta(t, ns)
	switch kind {
	case 0:
		s := &model.MCPServer{ObjectMeta: meta}
		s.Spec.Image = rapid.SampledFrom([]string{"", "reg.io/" + ns + "/img:1", "reg.io/" + ns + "/img:2", "reg.io/" + ns + "/img", "other/" + ns,
			sharedImage, sharedImage, sharedImage}).Draw(t, "image")
		s.Spec.Transport = rapid.SampledFrom([]string{"", "stdio", "sse", "streamable-http", "http"}).Draw(t, "transport")
		s.Spec.ProxyMode = rapid.SampledFrom([]string{"", "sse", "streamable-http"}).Draw(t, "proxyMode")
		return s
	case 1:
		p := &model.MCPRemoteProxy{ObjectMeta: meta}
		p.Spec.RemoteURL = rapid.SampledFrom([]string{"", "https://remote-" + ns + ".example/mcp", "https://remote-" + ns + ".example/other",
			sharedRemote, sharedRemote}).Draw(t, "remoteURL")
		p.Spec.Transport = rapid.SampledFrom([]string{"", "sse", "streamable-http"}).Draw(t, "transport")
		return p
	}
	return &model.VirtualMCPServer{ObjectMeta: meta}
}

// genSnapshot draws a snapshot of MCP resources in propNamespaces, and of
// Gateway API objects around them (genGatewayAPI).
func genSnapshot(t *rapid.T) Snapshot {
	var snap Snapshot
	n := rapid.IntRange(0, 14).Draw(t, "resources")
	for i := 0; i < n; i++ {
		ns := rapid.SampledFrom(propNamespaces).Draw(t, "namespace")
		switch r := genResource(t, rapid.IntRange(0, 2).Draw(t, "kind"), ns).(type) {
		case *model.MCPServer:
			snap.MCPServers = append(snap.MCPServers, r)
		case *model.MCPRemoteProxy:
			snap.MCPRemoteProxies = append(snap.MCPRemoteProxies, r)
		case *model.VirtualMCPServer:
			snap.VirtualMCPServers = append(snap.VirtualMCPServers, r)
		}
	}
	// Copies of resources in another namespace claim what the original
	// claims: its registry-url, its registry-name, its source entry (the
	// same image or remote URL, one entry enriched from two namespaces).
	// Some get a URL of their own, so that a name is claimed by two
	// entries that keep their URLs.
	copies := rapid.IntRange(0, 3).Draw(t, "crossNamespaceCopies")
	for i := 0; i < copies && len(snap.MCPServers)+len(snap.MCPRemoteProxies) > 0; i++ {
		ns := rapid.SampledFrom(propNamespaces).Draw(t, "copyNamespace")
		var meta *metav1.ObjectMeta
		if k := rapid.IntRange(0, len(snap.MCPServers)+len(snap.MCPRemoteProxies)-1).Draw(t, "copyOf"); k < len(snap.MCPServers) {
			c := snap.MCPServers[k].DeepCopy()
			snap.MCPServers, meta = append(snap.MCPServers, c), &c.ObjectMeta
		} else {
			c := snap.MCPRemoteProxies[k-len(snap.MCPServers)].DeepCopy()
			snap.MCPRemoteProxies, meta = append(snap.MCPRemoteProxies, c), &c.ObjectMeta
		}
		meta.Namespace, meta.UID = ns, ""
		if _, ok := meta.Annotations[AnnotationURL]; ok && rapid.Bool().Draw(t, "copyOwnURL") {
			meta.Annotations[AnnotationURL] = "https://" + ns + ".example.com/copy-" + strconv.Itoa(i)
		}
	}
	genGatewayAPI(t, &snap)
	return snap
}

// sharedImage and sharedRemote are the image and remote URL of the source
// entries resources of every namespace may enrich (one catalog server
// deployed in several namespaces).
const (
	sharedImage  = "reg.io/shared/img:1"
	sharedRemote = "https://remote-shared.example/mcp"
)

// propSource is a source registry with entries per namespace, and entries
// of sharedImage and sharedRemote.
func propSource(t *rapid.T) *model.Registry {
	if !rapid.Bool().Draw(t, "withSource") {
		return nil
	}
	var items []string
	for _, ns := range propNamespaces {
		items = append(items,
			fmt.Sprintf(`{"name":"io.test/%s-img","image":"reg.io/%s/img:1","description":"Image of %s","tier":"Official"}`, ns, ns, ns),
			fmt.Sprintf(`{"name":"io.test/%s-remote","url":"https://remote-%s.example/mcp","transport":"sse","description":"Remote of %s"}`, ns, ns, ns))
	}
	items = append(items,
		`{"name":"io.test/shared-img","image":"`+sharedImage+`","description":"Image shared by all"}`,
		`{"name":"io.test/shared-remote","url":"`+sharedRemote+`","transport":"sse","description":"Remote shared by all"}`)
	reg, ds := model.Parse([]byte(`{"servers":[`+strings.Join(items, ",")+`]}`), model.ParseOptions{})
	if reg == nil || len(ds) > 0 {
		t.Fatalf("source registry: %v", ds)
	}
	return reg
}

func genOptions(t *rapid.T) Options {
	return Options{
		SourceRegistry:     propSource(t),
		Naming:             NamingScheme(rapid.IntRange(0, 1).Draw(t, "naming")),
		URLAloneExports:    rapid.Bool().Draw(t, "urlAlone"),
		RequireDescription: rapid.Bool().Draw(t, "requireDescription"),
		RequireHTTPS:       rapid.Bool().Draw(t, "requireHTTPS"),
		LabelSelector:      rapid.SampledFrom([]string{"", "", "team=red"}).Draw(t, "labelSelector"),
		EndpointPaths: rapid.SampledFrom([]map[string]string{
			nil, {model.TransportStreamableHTTP: "/mcp", model.TransportSSE: "/sse"},
		}).Draw(t, "endpointPaths"),
		LastUpdated: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func shuffled(t *rapid.T, s Snapshot) Snapshot {
	return Snapshot{
		MCPServers:        rapid.Permutation(s.MCPServers).Draw(t, "servers"),
		MCPRemoteProxies:  rapid.Permutation(s.MCPRemoteProxies).Draw(t, "proxies"),
		VirtualMCPServers: rapid.Permutation(s.VirtualMCPServers).Draw(t, "virtual"),
		MCPGroups:         rapid.Permutation(s.MCPGroups).Draw(t, "groups"),
		MCPServerEntries:  rapid.Permutation(s.MCPServerEntries).Draw(t, "entries"),
		Services:          rapid.Permutation(s.Services).Draw(t, "services"),
		Namespaces:        rapid.Permutation(s.Namespaces).Draw(t, "namespaces"),
		Gateways:          rapid.Permutation(s.Gateways).Draw(t, "gateways"),
		HTTPRoutes:        rapid.Permutation(s.HTTPRoutes).Draw(t, "routes"),
		ReferenceGrants:   rapid.Permutation(s.ReferenceGrants).Draw(t, "grants"),
	}
}

// TestPropertyPermutation: the same snapshot in any order gives
// byte-identical output, diagnostics and provenance.
func TestPropertyPermutation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		a := Discover(snap, opts)
		b := Discover(shuffled(t, snap), opts)
		if !bytes.Equal(encodeResult(a), encodeResult(b)) {
			t.Fatalf("registry differs:\n%s\n%s", encodeResult(a), encodeResult(b))
		}
		if !bytes.Equal(diagnosticsText(a.Diagnostics), diagnosticsText(b.Diagnostics)) {
			t.Fatalf("diagnostics differ:\n%s\n%s", diagnosticsText(a.Diagnostics), diagnosticsText(b.Diagnostics))
		}
		for i := range a.Entries {
			if !slices.Equal(a.Entries[i].Resources, b.Entries[i].Resources) || !slices.Equal(a.Entries[i].Remotes, b.Entries[i].Remotes) {
				t.Fatalf("provenance of %s differs", a.Entries[i].Name)
			}
		}
	})
}

// TestPropertyNamespaceLocality: discovery restricted to one namespace
// equals the full result restricted to that namespace (entries built from
// its resources, diagnostics about its objects), names and URLs that two
// namespaces claim included: they are settled as in the full run.
//
// The one exception is an entry enriching a source-registry entry from
// several namespaces (the shared image or remote): restricted, it is built
// from the namespace's resources alone. Its name is the full entry's, its
// resources and discovered remotes are the full entry's of the namespace
// (it is left out when it has none), and no remote of its comes from
// another namespace. Its annotation overrides are absorbed among the
// namespace's resources only, and its first resource there is its primary,
// so the diagnostics about building it are not compared (see
// sharedOverrideDiagnostics).
func TestPropertyNamespaceLocality(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		full := Discover(snap, opts)
		for _, ns := range propNamespaces {
			o := opts
			o.Namespaces = []string{ns}
			local := Discover(snap, o)
			localByName := map[string]Entry{}
			for _, e := range local.Entries {
				localByName[e.Name] = e
			}
			var servers []*model.Server
			mixed := map[string]bool{}
			for _, e := range full.Entries {
				var resources []model.ObjectRef
				for _, r := range e.Resources {
					if r.Namespace == ns {
						resources = append(resources, r)
					}
				}
				switch {
				case len(resources) == 0:
					continue
				case len(resources) == len(e.Resources):
					servers = append(servers, e.Server)
					continue
				}
				if e.SourceEntry == "" {
					t.Fatalf("entry %s mixes namespaces without a source entry: %v", e.Name, e.Resources)
				}
				mixed[e.Name] = true
				var remotes []Remote
				for _, r := range e.Remotes {
					if r.Resource.Namespace == ns {
						remotes = append(remotes, r)
					}
				}
				// The part shows every remote of the entry credited to the
				// namespace's resources, and may show one credited to
				// another namespace's resource when a resource of this
				// namespace claimed the same URL: its own URL, which the
				// entry kept (the full result credits a URL once).
				l, ok := localByName[e.Name]
				if !ok {
					if len(remotes) > 0 {
						t.Fatalf("namespace %s: entry %s, enriched from several namespaces, is missing", ns, e.Name)
					}
					continue
				}
				if !slices.Equal(l.Resources, resources) || l.SourceEntry != e.SourceEntry {
					t.Fatalf("namespace %s: entry %s: resources %v; want %v", ns, e.Name, l.Resources, resources)
				}
				for _, r := range remotes {
					if !slices.Contains(l.Remotes, r) {
						t.Fatalf("namespace %s: entry %s: remotes %v lack %v", ns, e.Name, l.Remotes, r)
					}
				}
				for _, r := range l.Remotes {
					if r.Resource.Namespace != ns || !slices.ContainsFunc(e.Remotes, func(x Remote) bool { return x.Type == r.Type && x.URL == r.URL }) {
						t.Fatalf("namespace %s: entry %s shows %v, not a URL of the full entry claimed by the namespace", ns, e.Name, r)
					}
				}
				remotes = l.Remotes
				for _, r := range l.Server.Remotes() {
					found := slices.ContainsFunc(remotes, func(x Remote) bool { return x.Type == r.Type && x.URL == r.URL })
					if !found && !slices.ContainsFunc(sourceEntryRemotes(opts.SourceRegistry, e.SourceEntry), func(x model.Remote) bool { return x.URL == r.URL }) {
						t.Fatalf("namespace %s: entry %s publishes %s, which is neither the namespace's nor the source entry's", ns, e.Name, r.URL)
					}
				}
			}
			var localServers []*model.Server
			for _, e := range local.Entries {
				if !mixed[e.Name] {
					localServers = append(localServers, e.Server)
				}
			}
			want := model.NewRegistry(full.Registry.LastUpdated, servers).Encode()
			if got := model.NewRegistry(local.Registry.LastUpdated, localServers).Encode(); !bytes.Equal(got, want) {
				t.Fatalf("namespace %s: restricted discovery\n%s\nfull result restricted\n%s", ns, got, want)
			}
			ds := sharedOverrideDiagnostics(snap, opts, full.Diagnostics, ns, false)
			localDs := sharedOverrideDiagnostics(snap, opts, local.Diagnostics, ns, true)
			// A namespace without servers has an EmptyRegistry error of
			// its own, about the options: the full result may have none.
			if len(local.Entries) == 0 {
				localDs = slices.DeleteFunc(localDs, func(d model.Diagnostic) bool { return d.Reason == model.ReasonEmptyRegistry })
			}
			if !bytes.Equal(diagnosticsText(localDs), diagnosticsText(ds)) {
				t.Fatalf("namespace %s: diagnostics\n%s\nwant\n%s", ns, diagnosticsText(localDs), diagnosticsText(ds))
			}
		}
	})
}

// sharedOverrideDiagnostics returns the diagnostics of ds about objects of
// namespace ns (all of them when restricted is set: a restricted result
// has no others but those about the options) without the diagnostics about
// building an entry that resources of several namespaces enrich (see
// mixedSourceResources): the ConflictingExport diagnostics between their
// annotation overrides, MissingDescription, and the checks of the entry
// (fields of the entry, not of the resource), which name the entry's
// primary resource. A restricted result builds such an entry from the
// namespace's resources alone.
func sharedOverrideDiagnostics(snap Snapshot, opts Options, ds model.Diagnostics, ns string, restricted bool) model.Diagnostics {
	mixed := mixedSourceResources(snap, opts)
	overrides := []string{annotationField(AnnotationDescription), annotationField(AnnotationTitle), annotationField(AnnotationVersion), annotationField(AnnotationTier)}
	var out model.Diagnostics
	for _, d := range ds {
		if !restricted && d.Object.Namespace != ns {
			continue
		}
		if mixed[d.Object] {
			switch {
			case d.Reason == model.ReasonConflictingExport && slices.Contains(overrides, d.Field),
				d.Reason == model.ReasonMissingDescription,
				!strings.HasPrefix(d.Field, "metadata.") && !strings.HasPrefix(d.Field, "spec."):
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// mixedSourceResources are the MCP resources that may enrich one
// source-registry entry under one name together with a resource of another
// namespace (whether they export or not).
func mixedSourceResources(snap Snapshot, opts Options) map[model.ObjectRef]bool {
	cfg, _ := compile(opts)
	if cfg == nil {
		return nil
	}
	ix, _ := indexResources(&snap, cfg)
	type key struct{ source, name string }
	groups := map[key][]*resource{}
	for _, r := range ix.all {
		if src, _, _ := cfg.source.match(r); src != nil && r.selected {
			meta, _ := readMetadata(r)
			keepSourceMetadata(r, &meta, src) // an enriching resource's registry-name does not count
			k := key{src.Name(), meta.name}
			groups[k] = append(groups[k], r)
		}
	}
	out := map[model.ObjectRef]bool{}
	for _, g := range groups {
		if slices.ContainsFunc(g, func(r *resource) bool { return r.ref.Namespace != g[0].ref.Namespace }) {
			for _, r := range g {
				out[r.ref] = true
			}
		}
	}
	return out
}

// sourceEntryRemotes are the remotes of the source entry named name.
func sourceEntryRemotes(reg *model.Registry, name string) []model.Remote {
	if reg == nil {
		return nil
	}
	for _, s := range reg.Servers {
		if s.Name() == name {
			return s.Remotes()
		}
	}
	return nil
}

// TestPropertyOutput: every output passes the upstream registry rules
// (model.ValidateRegistry), has unique names, and every entry has at least one
// remote, each with a URL CheckURL accepts; the provenance matches the
// registry.
func TestPropertyOutput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		res := Discover(snap, opts)
		if res.Registry == nil {
			t.Fatalf("no registry: %v", res.Diagnostics)
		}
		if ds := model.ValidateJSON(res.Registry.Encode(), model.ObjectRef{Kind: "Test"}); ds.HasErrors() {
			t.Fatalf("invalid output:\n%s\n%s", diagnosticsText(ds), res.Registry.Encode())
		}
		names := map[string]bool{}
		for i, s := range res.Registry.Servers {
			if names[s.Name()] {
				t.Fatalf("name %s twice", s.Name())
			}
			names[s.Name()] = true
			rs := s.Remotes()
			if len(rs) == 0 || len(res.Entries[i].Remotes) == 0 {
				t.Fatalf("entry %s without a remote", s.Name())
			}
			for _, r := range rs {
				if n, _, err := CheckURL(r.URL); err != nil || n != r.URL {
					t.Fatalf("entry %s: remote URL %q: %v", s.Name(), r.URL, err)
				}
				if opts.RequireHTTPS && strings.HasPrefix(r.URL, "http:") {
					t.Fatalf("entry %s: http URL %q under RequireHTTPS", s.Name(), r.URL)
				}
			}
			if res.Entries[i].Server != s {
				t.Fatalf("entries out of step with the registry")
			}
		}
		// An empty result, and only an empty one, says so once, as a
		// warning: good options allow no error.
		errs := res.Diagnostics.WithSeverity(model.SeverityError)
		empty := res.Diagnostics.WithReason(model.ReasonEmptyRegistry)
		if len(res.Registry.Servers) == 0 {
			if len(empty) != 1 || empty[0].Severity != model.SeverityWarning {
				t.Fatalf("an empty result wants exactly one EmptyRegistry warning: %v", empty)
			}
		} else if len(empty) != 0 {
			t.Fatalf("EmptyRegistry beside %d servers: %v", len(res.Registry.Servers), empty)
		}
		if len(errs) > 0 {
			t.Fatalf("error diagnostics with good options: %v", res.Diagnostics)
		}
		if !slices.IsSortedFunc(res.Diagnostics, model.Diagnostic.Compare) {
			t.Fatalf("diagnostics not sorted")
		}
	})
}
