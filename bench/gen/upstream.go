package gen

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// Upstream server entries and documents for property tests: half of them
// well-formed, the other half broken in one or more places, covering every
// field the upstream server schema and ToolHive's publisher-provided schema
// constrain. Each choice lists its well-formed options first, so that rapid
// shrinks a failing entry towards a valid one and the counterexample shows
// only what matters.

// UpstreamServer generates one upstream server entry (server.json) as JSON.
// It is a string so that rapid prints a counterexample readably.
func UpstreamServer() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		g := newUpstreamGen(t)
		return string(mustJSON(g.server()))
	})
}

// UpstreamDocument generates an upstream registry document with up to eight
// entries like UpstreamServer's, drawn from small pools of names and URLs so
// that duplicates occur. Its "version" and "meta.last_updated" are sometimes
// invalid and "data" sometimes has members other than "servers".
func UpstreamDocument() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		g := newUpstreamGen(t)
		var doc Object
		if g.pick("doc.$schema", 2, 4, 1) == 0 {
			doc.Set("$schema", "https://raw.githubusercontent.com/stacklok/toolhive-core/main/registry/types/data/upstream-registry.schema.json")
		}
		doc.Set("version", g.from("doc.version", 2, "1.0.0", "1.2.3", "v1", "", "1.0"))
		doc.Set("meta", Object{{"last_updated", g.from("doc.last_updated", 2, "2025-09-01T12:00:00Z", "2025-09-01T12:00:00.123+02:00", "2025-09-01", "yesterday")}})
		var data Object
		n := rapid.IntRange(0, 8).Draw(t, "servers")
		servers := make([]any, n)
		for i := range servers {
			g.clean = rapid.IntRange(0, 1).Draw(t, "clean") == 0
			servers[i] = g.server()
		}
		data.Set("servers", servers)
		switch g.pick("doc.data.extra", 3, 6, 1, 1) {
		case 1:
			data.Set("x-catalog", Object{{"owner", "platform-team"}, {"count", n}})
		case 2:
			data.Set("skills", []any{})
		}
		doc.Set("data", data)
		return string(mustJSON(doc))
	})
}

type upstreamGen struct {
	t *rapid.T
	// clean restricts every choice to its well-formed options.
	clean bool
}

func newUpstreamGen(t *rapid.T) *upstreamGen {
	return &upstreamGen{t: t, clean: rapid.IntRange(0, 1).Draw(t, "clean") == 0}
}

// pick draws an index with the given relative weights. The first good
// options are well-formed; the others are faults, never drawn when g.clean.
// Index 0 is what rapid shrinks to.
func (g *upstreamGen) pick(label string, good int, weights ...int) int {
	if g.clean && good > 0 {
		weights = weights[:good]
	}
	total := 0
	for _, w := range weights {
		total += w
	}
	r := rapid.IntRange(0, total-1).Draw(g.t, label)
	for i, w := range weights {
		if r < w {
			return i
		}
		r -= w
	}
	return len(weights) - 1
}

// from draws one of the values, the first most often; the first good ones
// are well-formed (see pick).
func (g *upstreamGen) from(label string, good int, values ...any) any {
	w := make([]int, len(values))
	for i := range w {
		w[i] = 1
	}
	w[0] = len(values) * 2
	return values[g.pick(label, good, w...)]
}

// str draws one of the strings, all of them well-formed.
func (g *upstreamGen) str(label string, values ...string) string {
	return values[rapid.IntRange(0, len(values)-1).Draw(g.t, label)]
}

// maybe reports whether to include an optional field, with probability p/10.
func (g *upstreamGen) maybe(label string, p int) bool {
	return rapid.IntRange(0, 9).Draw(g.t, label) < p
}

func (g *upstreamGen) list(label string, max int, item func() any) []any {
	n := rapid.IntRange(0, max).Draw(g.t, label+".len")
	out := make([]any, n)
	for i := range out {
		out[i] = item()
	}
	return out
}

var (
	namespaces  = []string{"io.github.acme", "com.example", "io.github.stacklok", "dev.tools", "a.b", "io.github.my-org"}
	serverParts = []string{"github", "fetch-2", "my_server", "x.y", "ab", "postgres", "k8s"}
	remoteURLs  = []string{"https://mcp.example.com/mcp", "https://api.acme.dev/sse", "http://localhost:8080/mcp", "https://mcp.example.com/mcp/v2", "https://tools.example.org/{tenant}/mcp"}
)

func (g *upstreamGen) server() Object {
	var s Object
	switch g.pick("$schema", 2, 6, 2, 1, 1, 1) {
	case 0:
		s.Set("$schema", "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json")
	case 1: // absent
	case 2:
		s.Set("$schema", "not a uri")
	case 3:
		s.Set("$schema", `https://example.com/schemas\server.json`)
	case 4:
		s.Set("$schema", 7)
	}
	if v, ok := g.name(); ok {
		s.Set("name", v)
	}
	if v, ok := g.description(); ok {
		s.Set("description", v)
	}
	switch g.pick("title", 2, 6, 3, 1, 1, 1) {
	case 1:
		s.Set("title", g.str("title.value", "GitHub", "Fetch (beta)", "Ünïcödé ✓"))
	case 2:
		s.Set("title", "")
	case 3:
		s.Set("title", strings.Repeat("Long title ", 11))
	case 4:
		s.Set("title", false)
	}
	switch g.pick("version", 2, 8, 2, 1, 1, 1, 1) {
	case 0:
		s.Set("version", "1.0.0")
	case 1:
		s.Set("version", g.str("version.value", "2.3.4-beta.1", "0.0.1", "2025.09.01", "v1"))
	case 2:
		s.Set("version", "latest")
	case 3:
		s.Set("version", "")
	case 4:
		s.Set("version", strings.Repeat("9", 256))
	case 5: // absent
	}
	switch g.pick("websiteUrl", 2, 6, 2, 1, 1, 1) {
	case 1:
		s.Set("websiteUrl", g.str("websiteUrl.value", "https://example.com/docs", "mailto:team@example.com"))
	case 2:
		s.Set("websiteUrl", "example.com")
	case 3:
		s.Set("websiteUrl", `https://example.com/docs\v1`)
	case 4:
		s.Set("websiteUrl", 1)
	}
	if g.maybe("repository?", 4) {
		s.Set("repository", g.repository())
	}
	if g.maybe("icons?", 2) {
		s.Set("icons", g.list("icons", 3, g.icon))
	}
	if g.maybe("packages?", 5) {
		s.Set("packages", g.list("packages", 2, g.pkg))
	}
	if g.maybe("remotes?", 5) {
		s.Set("remotes", g.list("remotes", 3, g.remote))
	}
	if g.maybe("_meta?", 6) {
		s.Set("_meta", g.meta())
	}
	if g.maybe("unknown?", 2) {
		s.Set(g.str("unknown.key", "x-vendor", "status", "license", "_internal"), g.from("unknown.value", 5, "value", 1, nil, []any{1, "a"}, Object{{"k", true}}))
	}
	return s
}

func (g *upstreamGen) name() (any, bool) {
	switch g.pick("name", 4, 12, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) {
	case 0:
		return g.str("name.ns", namespaces...) + "/" + g.str("name.part", serverParts...), true
	case 1:
		return "a/b", true // shortest valid
	case 2:
		return "-./_", true // valid pattern, fails the official registry's stricter rule
	case 3:
		return "io.github.acme/" + strings.Repeat("n", 185), true // 200 characters
	case 4:
		return "io.github.acme/" + strings.Repeat("n", 186), true // 201 characters
	case 5:
		return g.str("name.noslash", "noslash", "ab", ""), true
	case 6:
		return "io.github.acme/a/b", true
	case 7:
		return g.str("name.chars", "io.github.acme/has space", "io.github.acme/ü", "io_github/x", "io.github.acme/x@y"), true
	case 8:
		return 42, true
	case 9:
		return nil, false
	default:
		return nil, true // JSON null
	}
}

func (g *upstreamGen) description() (any, bool) {
	switch g.pick("description", 2, 10, 2, 4, 2, 1, 1, 1) {
	case 0:
		return g.str("description.short", "Fetch web pages", "Manage GitHub issues and pull requests", "x", " "), true
	case 1:
		return strings.Repeat("é", 99) + "✓", true // 100 characters, 201 bytes
	case 2:
		// Over 100 characters: Finish shortens it.
		n := rapid.IntRange(101, 400).Draw(g.t, "description.len")
		return strings.Repeat("Search and summarise documents. ", 13)[:n], true
	case 3:
		return strings.Repeat("é", 99) + "✓✓", true // 101 characters
	case 4:
		return "", true
	case 5:
		return nil, false
	default:
		return 3.5, true
	}
}

func (g *upstreamGen) repository() any {
	switch g.pick("repository", 1, 6, 1, 1, 1, 1, 1) {
	case 0:
		r := Object{{"url", "https://github.com/acme/mcp-server"}, {"source", "github"}}
		if g.maybe("repository.extra", 3) {
			r.Set("subfolder", "servers/fetch")
			r.Set("id", "b94b5f7e-c7c6-d760-2c78-a5e9b8a5b8c9")
		}
		return r
	case 1:
		return Object{{"url", "https://github.com/acme/mcp-server"}}
	case 2:
		return Object{{"url", "github.com/acme"}, {"source", "github"}}
	case 3:
		return Object{{"url", "https://github.com/acme/mcp-server"}, {"source", "github"}, {"id", 5}}
	case 4:
		return Object{{"url", `https://github.com/acme\mcp-server`}, {"source", "github"}}
	default:
		return "https://github.com/acme/mcp-server"
	}
}

func (g *upstreamGen) icon() any {
	ic := Object{{"src", "https://example.com/icon.png"}}
	switch g.pick("icon", 1, 6, 1, 1, 1, 1, 1, 1) {
	case 0:
		if g.maybe("icon.full", 5) {
			ic.Set("mimeType", "image/png")
			ic.Set("sizes", []any{"48x48", "any"})
			ic.Set("theme", "dark")
		}
	case 1:
		ic = Object{{"mimeType", "image/png"}}
	case 2:
		ic = Object{{"src", "icon.png"}}
	case 3:
		ic.Set("mimeType", "image/gif")
	case 4:
		ic.Set("sizes", []any{"48"})
	case 5:
		ic.Set("theme", "blue")
	case 6:
		ic = Object{{"src", "https://example.com/" + strings.Repeat("i", 240) + ".png"}}
	}
	return ic
}

// keyValues generates headers or environment variables (KeyValueInput).
func (g *upstreamGen) keyValues(label string) []any {
	return g.list(label, 2, func() any {
		kv := Object{{"name", g.str(label+".name", "API_KEY", "Authorization", "X-Region", "LOG_LEVEL")}}
		switch g.pick(label+".kind", 1, 6, 1, 1, 1, 1, 1) {
		case 0:
			if g.maybe(label+".full", 5) {
				kv.Set("description", "What the value is for")
				kv.Set("isRequired", true)
				kv.Set("isSecret", g.from(label+".secret", 2, true, false))
				kv.Set("format", "string")
			}
			if g.maybe(label+".choices", 2) {
				kv.Set("default", "us")
				kv.Set("choices", []any{"us", "eu"})
			}
		case 1:
			kv = Object{{"description", "no name"}}
		case 2:
			kv.Set("isRequired", "yes")
		case 3:
			kv.Set("format", "json")
		case 4:
			kv.Set("choices", []any{1, 2})
		case 5:
			kv.Set("variables", Object{{"region", Object{{"default", "eu"}, {"isSecret", "no"}}}})
		}
		return kv
	})
}

func (g *upstreamGen) transport(label string, remote bool) Object {
	var tr Object
	goodTypes := 3 // a package may use stdio
	if remote {
		goodTypes = 2
	}
	typ := g.from(label+".type", goodTypes, "streamable-http", "sse", "stdio", "http", "", nil)
	if typ != nil {
		tr.Set("type", typ)
	}
	if typ == "stdio" && !remote && g.pick(label+".stdio-url", 2, 4, 1) == 0 {
		return tr
	}
	switch g.pick(label+".url", 1, 8, 1, 1, 1, 1, 1) {
	case 0:
		tr.Set("url", g.str(label+".url.value", remoteURLs...))
	case 1:
		tr.Set("url", "ftp://files.example.com/mcp")
	case 2:
		tr.Set("url", "https://mcp.example.com/has space")
	case 3:
		tr.Set("url", "")
	case 4:
		tr.Set("url", 8080)
	case 5: // absent
	}
	if g.maybe(label+".headers?", 3) {
		tr.Set("headers", g.keyValues(label+".headers"))
	}
	if remote && g.maybe(label+".variables?", 1) {
		switch g.pick(label+".variables", 1, 3, 1) {
		case 0:
			tr.Set("variables", Object{{"tenant", Object{{"description", "Tenant ID"}, {"isRequired", true}}}})
		case 1:
			tr.Set("variables", Object{{"tenant", Object{{"isRequired", "yes"}}}})
		}
	}
	return tr
}

func (g *upstreamGen) remote() any { return g.transport("remote", true) }

func (g *upstreamGen) pkg() any {
	var p Object
	if g.pick("package.registryType", 1, 8, 1) == 0 {
		p.Set("registryType", g.str("package.registryType.value", "oci", "npm", "pypi", "nuget"))
	}
	if g.pick("package.identifier", 1, 8, 1) == 0 {
		p.Set("identifier", g.str("package.identifier.value", "ghcr.io/acme/fetch:1.2.3", "@acme/mcp-server", "acme-mcp"))
	}
	switch g.pick("package.version", 2, 6, 2, 1, 1) {
	case 1:
		p.Set("version", "1.2.3")
	case 2:
		p.Set("version", "latest")
	case 3:
		p.Set("version", "")
	}
	if g.pick("package.transport", 1, 8, 1) == 0 {
		p.Set("transport", g.transport("package.transport", false))
	}
	if g.maybe("package.env?", 4) {
		p.Set("environmentVariables", g.keyValues("package.env"))
	}
	switch g.pick("package.extra", 4, 8, 1, 1, 1, 1, 1, 1, 1) {
	case 1:
		p.Set("fileSha256", "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce")
	case 2:
		p.Set("runtimeHint", "npx")
		p.Set("runtimeArguments", []any{Object{{"type", "named"}, {"name", "--port"}, {"value", "8080"}}, Object{{"type", "positional"}, {"valueHint", "path"}}})
	case 3:
		p.Set("registryBaseUrl", "https://registry.npmjs.org")
	case 4:
		p.Set("fileSha256", "FE333E")
	case 5:
		p.Set("registryBaseUrl", "registry.npmjs.org")
	case 6:
		p.Set("packageArguments", []any{Object{{"type", "positional"}}})
	case 7:
		p.Set("packageArguments", []any{Object{{"type", "flag"}, {"name", "-v"}}})
	}
	return p
}

func (g *upstreamGen) meta() any {
	switch g.pick("_meta", 2, 10, 1, 1, 1, 1) {
	case 1:
		return Object{{"io.modelcontextprotocol.registry/official", Object{{"status", "active"}}}}
	case 2:
		return "not an object"
	case 3:
		return Object{{"io.modelcontextprotocol.registry/publisher-provided", "not an object"}}
	case 4:
		return Object{{"io.modelcontextprotocol.registry/publisher-provided", Object{{"com.example", "not an object"}}}}
	}
	var pubs Object
	if g.maybe("_meta.other?", 2) {
		pubs.Set("com.example", Object{{"build", Object{{"commit", "abc123"}}}})
	}
	if g.maybe("_meta.toolhive?", 9) {
		var th Object
		n := rapid.IntRange(1, 2).Draw(g.t, "_meta.toolhive.len")
		for i := range n {
			key := g.str("_meta.toolhive.key", "ghcr.io/acme/fetch:1.2.3", "https://mcp.example.com/mcp", "docker.io/mcp/time:latest")
			if i > 0 {
				key += fmt.Sprintf("#%d", i)
			}
			th.Set(key, g.extensions())
		}
		pubs.Set("io.github.stacklok", th)
	}
	return Object{{"io.modelcontextprotocol.registry/publisher-provided", pubs}}
}

// extensions generates ToolHive's publisher extensions for one image or URL.
func (g *upstreamGen) extensions() any {
	if g.pick("ext.kind", 1, 12, 1) == 1 {
		return g.from("ext.notobject", 0, "active", []any{"active"}, nil)
	}
	var e Object
	switch g.pick("ext.status", 1, 8, 1, 1, 1) {
	case 0:
		e.Set("status", g.str("ext.status.value", "active", "deprecated", "Active", "Deprecated"))
	case 1: // absent; status is required
	case 2:
		e.Set("status", "Inactive")
	case 3:
		e.Set("status", 1)
	}
	if g.maybe("ext.tier?", 5) {
		e.Set("tier", g.from("ext.tier", 2, "Official", "Community", "official", "Partner"))
	}
	if g.maybe("ext.tools?", 5) {
		e.Set("tools", g.from("ext.tools", 1, []any{"get_issue", "create-issue", "search"}, []any{"has space"}, []any{"dup", "dup"}, []any{1}))
	}
	if g.maybe("ext.tags?", 5) {
		e.Set("tags", g.from("ext.tags", 1, []any{"github", "ci-cd", "k8s_tools"}, []any{"Upper"}, []any{"a"}, []any{"-x"}, []any{"dup", "dup"}))
	}
	if g.maybe("ext.overview?", 3) {
		e.Set("overview", g.from("ext.overview", 1, "## Fetch\n\nFetches pages.", 5))
	}
	if g.maybe("ext.metadata?", 4) {
		e.Set("metadata", g.metadata())
	}
	if g.maybe("ext.custom?", 2) {
		e.Set("custom_metadata", g.from("ext.custom", 1, Object{{"license", "MIT"}, {"rating", 4.5}}, []any{1}, nil, "x"))
	}
	if g.maybe("ext.permissions?", 4) {
		e.Set("permissions", g.permissions())
	}
	if g.maybe("ext.args?", 2) {
		// Repeated flags are ordinary in args; the schema allows them.
		e.Set("args", g.from("ext.args", 2, []any{"--read-only"}, []any{"--header", "A", "--header", "B"}, []any{1}))
	}
	if g.maybe("ext.provenance?", 3) {
		e.Set("provenance", g.provenance())
	}
	if g.maybe("ext.docker_tags?", 2) {
		e.Set("docker_tags", g.from("ext.docker_tags", 1, []any{"1.2.3", "latest"}, []any{"latest", "latest"}, []any{1}))
	}
	if g.maybe("ext.proxy_port?", 2) {
		e.Set("proxy_port", g.from("ext.proxy_port", 1, 8080, 0, 70000, "8080", 80.5))
	}
	if g.maybe("ext.stateless?", 2) {
		e.Set("stateless", g.from("ext.stateless", 1, true, "yes"))
	}
	if g.maybe("ext.oauth?", 3) {
		e.Set("oauth_config", g.oauth())
	}
	if g.maybe("ext.env_vars?", 3) {
		e.Set("env_vars", g.envVars())
	}
	if g.maybe("ext.tool_definitions?", 2) {
		e.Set("tool_definitions", g.toolDefinitions())
	}
	if g.maybe("ext.unknown?", 1) {
		e.Set("x-custom", 1)
	}
	return e
}

func (g *upstreamGen) metadata() any {
	if g.pick("metadata.kind", 1, 10, 1) == 1 {
		return "not an object"
	}
	var m Object
	if g.maybe("metadata.stars?", 7) {
		m.Set("stars", g.from("metadata.stars", 2, 1200, 0, -1, 2.5, "many"))
	}
	if g.maybe("metadata.last_updated?", 7) {
		m.Set("last_updated", g.from("metadata.last_updated", 2, "2025-08-01T10:00:00Z", "2025-08-01", "last week"))
	}
	if g.maybe("metadata.kubernetes?", 3) {
		k := Object{{"kind", "MCPServer"}}
		k.Set("namespace", g.from("k8s.namespace", 1, "toolhive-system", "Bad_NS"))
		k.Set("name", g.from("k8s.name", 1, "fetch", "Fetch!"))
		k.Set("uid", g.from("k8s.uid", 1, "0b5e8c3a-1f2d-4c4b-9a7e-3d2c1b0a9f8e", "not-a-uid"))
		k.Set("transport", g.from("k8s.transport", 3, "streamable-http", "stdio", "http", "grpc"))
		m.Set("kubernetes", k)
	}
	return m
}

func (g *upstreamGen) permissions() any {
	var p Object
	if g.maybe("permissions.name?", 5) {
		p.Set("name", g.from("permissions.name", 1, "network", 3))
	}
	if g.maybe("permissions.read?", 4) {
		p.Set("read", g.from("permissions.read", 1, []any{"/etc/ssl/certs", "/home/u/.kube:/root/.kube"}, []any{"relative/path"}, []any{"/data", "/data"}, []any{"/"}))
	}
	if g.maybe("permissions.write?", 3) {
		p.Set("write", g.from("permissions.write", 1, []any{"/data"}, []any{`C:\data`}))
	}
	if g.maybe("permissions.privileged?", 2) {
		p.Set("privileged", g.from("permissions.privileged", 1, false, "no"))
	}
	if g.maybe("permissions.network?", 6) {
		var out Object
		if g.maybe("outbound.hosts?", 7) {
			out.Set("allow_host", g.from("outbound.hosts", 1, []any{"api.github.com", ".githubusercontent.com"}, []any{"bad host!"}, []any{"a.com", "a.com"}, []any{"https://api.github.com"}))
		}
		if g.maybe("outbound.ports?", 6) {
			out.Set("allow_port", g.from("outbound.ports", 1, []any{443, 80}, []any{0}, []any{70000}, []any{"443"}, []any{443, 443}))
		}
		if g.maybe("outbound.all?", 3) {
			out.Set("insecure_allow_all", g.from("outbound.all", 1, true, "true"))
		}
		p.Set("network", Object{{"outbound", out}})
	}
	return p
}

func (g *upstreamGen) provenance() any {
	p := Object{
		{"sigstore_url", g.from("prov.sigstore", 1, "tuf-repo-cdn.sigstore.dev", "https://tuf-repo-cdn.sigstore.dev", "")},
		{"repository_uri", g.from("prov.repo", 1, "https://github.com/acme/fetch", "github.com/acme/fetch", "")},
		{"signer_identity", g.from("prov.signer", 1, "/.github/workflows/release.yml", 7)},
		{"runner_environment", "github-hosted"},
		{"cert_issuer", g.from("prov.issuer", 1, "https://token.actions.githubusercontent.com", "token.actions.githubusercontent.com")},
	}
	if g.maybe("prov.ref?", 5) {
		p.Set("repository_ref", "refs/tags/v1.2.3")
	}
	if g.maybe("prov.attestation?", 4) {
		p.Set("attestation", Object{
			{"predicate_type", g.from("prov.predtype", 1, "https://slsa.dev/provenance/v1", "slsa-v1")},
			{"predicate", g.from("prov.pred", 3, Object{{"buildType", "x"}}, nil, "opaque")},
		})
	}
	return p
}

func (g *upstreamGen) oauth() any {
	var o Object
	if g.maybe("oauth.issuer?", 6) {
		o.Set("issuer", g.from("oauth.issuer", 1, "https://auth.example.com", "auth.example.com"))
	}
	if g.maybe("oauth.urls?", 4) {
		o.Set("authorize_url", g.from("oauth.authorize", 1, "https://example.com/oauth/authorize", "/oauth/authorize"))
		o.Set("token_url", g.from("oauth.token", 1, "https://example.com/oauth/token", `https://example.com/oauth\token`))
	}
	if g.maybe("oauth.client?", 5) {
		o.Set("client_id", g.from("oauth.client", 1, "toolhive-client", 12345))
	}
	if g.maybe("oauth.scopes?", 5) {
		o.Set("scopes", g.from("oauth.scopes", 1, []any{"read", "offline_access"}, []any{1}, "read"))
	}
	if g.maybe("oauth.pkce?", 5) {
		o.Set("use_pkce", g.from("oauth.pkce", 1, true, "true"))
	}
	if g.maybe("oauth.params?", 3) {
		o.Set("oauth_params", g.from("oauth.params", 1, Object{{"prompt", "consent"}}, Object{{"max_age", 5}}))
	}
	if g.maybe("oauth.callback?", 3) {
		o.Set("callback_port", g.from("oauth.callback", 1, 8765, 0, "8765"))
	}
	if g.maybe("oauth.resource?", 3) {
		o.Set("resource", g.from("oauth.resource", 1, "https://mcp.example.com", 1))
	}
	return o
}

func (g *upstreamGen) envVars() any {
	if g.pick("env.kind", 1, 10, 1) == 1 {
		return Object{{"name", "NOT_A_LIST"}}
	}
	return g.list("env", 2, func() any {
		e := Object{{"name", g.from("env.name", 2, "API_KEY", "_X1", "1BAD", "has-dash", 5)}}
		switch g.pick("env.extra", 2, 6, 1, 1, 1, 1, 1) {
		case 0:
			e.Set("description", "The API key")
			e.Set("required", true)
			e.Set("secret", true)
		case 1:
			e.Set("default", "info")
		case 2:
			e.Set("description", 5)
		case 3:
			e.Set("required", "yes")
		case 4:
			e.Set("default", 1)
		case 5:
			e = Object{{"description", "no name"}}
		}
		return e
	})
}

func (g *upstreamGen) toolDefinitions() any {
	switch g.pick("tooldefs", 2, 8, 1, 1, 1, 1, 1, 1) {
	case 0:
		return []any{Object{
			{"name", "get_issue"},
			{"description", "Get an issue"},
			{"inputSchema", Object{{"type", "object"}, {"properties", Object{{"id", Object{{"type", "integer"}}}}}}},
			{"annotations", Object{{"readOnlyHint", true}}},
		}}
	case 1:
		return []any{}
	case 2:
		return []any{Object{{"description", "no name"}}}
	case 3:
		return []any{Object{{"name", 1}}}
	case 4:
		return []any{Object{{"name", "x"}, {"inputSchema", "not an object"}}}
	case 5:
		return []any{"get_issue"}
	default:
		return Object{{"name", "x"}}
	}
}
