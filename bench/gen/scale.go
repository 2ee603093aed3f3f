package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// ScaleOptions describes a set of upstream registry files, one per
// ConfigMap, at the scale of the official MCP registry: what an operator
// merges when many teams each publish a ConfigMap of servers.
type ScaleOptions struct {
	// Seed selects the data; the same options give the same bytes.
	Seed uint64
	// Files is the number of files (ConfigMaps), named "team-000",
	// "team-001", ...
	Files int
	// Servers is the number of server entries over all files, spread
	// evenly.
	Servers int
	// Shared is the number of server names each pair of neighbouring files
	// (team-000 and team-001, team-002 and team-003, ...) both define: the
	// conflicts a merge settles. Each file holds at most Servers/Files
	// entries, so Shared is capped at that.
	Shared int
	// Indent writes two-space indented JSON, as hand-maintained files are;
	// otherwise compact, as a file must be for 1,000 entries to fit in a
	// ConfigMap (1 MiB).
	Indent bool
}

// DefaultScale is the merge benchmark's size: 100 ConfigMaps holding 100,000
// servers, each file under the 1 MiB a ConfigMap can hold, 1% of the entries
// in conflict (500 names defined by two files each).
var DefaultScale = ScaleOptions{Seed: 1, Files: 100, Servers: 100_000, Shared: 5}

// ScaleExclude is the name filter the scale benchmark applies (an
// MCPRegistry's filter.names.exclude): deprecated servers and test servers,
// about 3% of the entries. Both patterns select the same servers whether or
// not a conflicting name was prefixed with its ConfigMap's name, and whether
// a pattern without "/" is matched against the whole name (ToolHive's
// registry server) or also against the part after the namespace (mcpreg).
var ScaleExclude = []string{"*-deprecated", "*/test-*"}

// File is one generated registry file.
type File struct {
	// Name is the ConfigMap name, "team-NNN".
	Name string
	// Data is the upstream registry document.
	Data []byte
	// Servers is the number of entries in Data.
	Servers int
}

// UpstreamFiles generates the files of o: upstream registry documents
// ({"$schema","version","meta","data":{"servers":[...]}}) whose entries look
// like the official registry's: a $schema, a reverse-DNS name, description,
// version, often a title, website and repository; OCI, npm or PyPI packages
// with a stdio transport and environment variables, streamable-http or SSE
// remotes with headers, or both; and mostly ToolHive's publisher-provided
// extensions in _meta (status, tier, tools, tags, metadata), sometimes
// another publisher's too. Every entry is valid by the upstream schema and
// ToolHive's publisher extensions schema; names and remote URLs are unique
// across all files except the Shared names.
func UpstreamFiles(o ScaleOptions) []File {
	if o.Files <= 0 {
		return nil
	}
	g := &catalogGen{rng: rand.New(rand.NewPCG(o.Seed, 0x6d63707265672e32))}
	per, extra := o.Servers/o.Files, o.Servers%o.Files
	shared := min(o.Shared, per)
	files := make([]File, o.Files)
	seq := 0
	for f := range files {
		n := per
		if f < extra {
			n++
		}
		team := fmt.Sprintf("team-%03d", f)
		servers := make([]any, n)
		for i := range servers {
			common := -1
			if i < shared && (f^1) < o.Files {
				common = (f/2)*shared + i // the neighbouring file defines it too
			}
			e := g.entry(team, f, seq, common)
			servers[i] = e.object()
			seq++
		}
		doc := Object{
			{"$schema", "https://raw.githubusercontent.com/stacklok/toolhive-core/main/registry/types/data/upstream-registry.schema.json"},
			{"version", "1.0.0"},
			{"meta", Object{{"last_updated", g.timestamp(30 * 24 * time.Hour)}}},
			{"data", Object{{"servers", servers}}},
		}
		data := mustJSON(doc)
		if o.Indent {
			data = marshalIndent(json.RawMessage(data))
		}
		files[f] = File{Name: team, Data: data, Servers: n}
	}
	return files
}

// scaleEntry is one server entry being drawn.
type scaleEntry struct {
	g      *catalogGen
	svc    *service
	name   string
	ver    string
	team   string
	seq    int
	pkg    string // "oci", "npm", "pypi" or ""
	remote string // "streamable-http", "sse" or ""
}

// corps are the companies whose internal namespaces teams publish under.
var corps = []string{"acme", "globex", "initech", "umbrella", "hooli", "stark"}

// entry draws the entry of sequence number seq in file f of team; common,
// when not negative, numbers a name defined by two files.
func (g *catalogGen) entry(team string, f, seq, common int) *scaleEntry {
	svc := &services[g.rng.IntN(len(services))]
	if common >= 0 {
		svc = &services[common%len(services)]
	}
	e := &scaleEntry{g: g, svc: svc, team: team, seq: seq,
		ver: fmt.Sprintf("%d.%d.%d", g.rng.IntN(3), g.rng.IntN(20), g.rng.IntN(10))}
	ns := "io.github." + svc.org
	if g.chance(0.5) {
		ns = fmt.Sprintf("com.%s.%s", corps[f%len(corps)], strings.ReplaceAll(team, "-", ""))
	}
	part := fmt.Sprintf("%s-mcp-%d", svc.key, seq)
	switch r := g.rng.Float64(); {
	case r < 0.02:
		part += "-deprecated"
	case r < 0.03:
		part = "test-" + part
	}
	e.name = ns + "/" + part
	if common >= 0 {
		e.name = fmt.Sprintf("io.github.stacklok/%s-%d", svc.key, common)
	}
	switch r := g.rng.Float64(); {
	case r < 0.6:
		e.pkg = pick(g, []string{"oci", "oci", "oci", "npm", "npm", "pypi"})
	case r < 0.85:
		e.remote = "streamable-http"
	default:
		e.pkg, e.remote = "oci", "streamable-http"
	}
	if e.remote != "" && g.chance(0.2) {
		e.remote = "sse"
	}
	return e
}

// object renders the entry in the member order server.json uses.
func (e *scaleEntry) object() Object {
	g, svc := e.g, e.svc
	s := Object{
		{"$schema", "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"},
		{"name", e.name},
		{"description", svc.summary},
	}
	if g.chance(0.7) {
		s.Set("title", svc.title)
	}
	s.Set("version", e.ver)
	repo := fmt.Sprintf("https://github.com/%s/%s-mcp-server", svc.org, svc.key)
	if g.chance(0.4) {
		s.Set("websiteUrl", "https://"+svc.domain+"/mcp")
	}
	if g.chance(0.85) {
		r := Object{{"url", repo}, {"source", "github"}}
		if g.chance(0.2) {
			r.Set("subfolder", "servers/"+svc.key)
		}
		s.Set("repository", r)
	}
	var extKey string
	if e.pkg != "" {
		p := Object{{"registryType", e.pkg}}
		switch e.pkg {
		case "oci":
			p.Set("identifier", fmt.Sprintf("ghcr.io/%s/%s-mcp-server:%s", svc.org, svc.key, e.ver))
			extKey = fmt.Sprintf("ghcr.io/%s/%s-mcp-server:%s", svc.org, svc.key, e.ver)
		case "npm":
			p.Set("registryBaseUrl", "https://registry.npmjs.org")
			p.Set("identifier", fmt.Sprintf("@%s/%s-mcp", svc.org, svc.key))
			p.Set("version", e.ver)
			p.Set("runtimeHint", "npx")
		case "pypi":
			p.Set("identifier", fmt.Sprintf("%s-mcp-server", svc.key))
			p.Set("version", e.ver)
			p.Set("runtimeHint", "uvx")
		}
		p.Set("transport", Object{{"type", "stdio"}})
		if envs := e.envs(); len(envs) > 0 {
			p.Set("environmentVariables", envs)
		}
		s.Set("packages", []any{p})
	}
	if e.remote != "" {
		path := "/mcp"
		if e.remote == "sse" {
			path = "/sse"
		}
		url := fmt.Sprintf("https://mcp.%s/%s/%d%s", svc.domain, e.team, e.seq, path)
		r := Object{{"type", e.remote}, {"url", url}}
		if !svc.oauth || g.chance(0.3) {
			r.Set("headers", []any{Object{
				{"name", "Authorization"},
				{"description", "Bearer token for the " + svc.title + " API"},
				{"isRequired", true},
				{"isSecret", true},
			}})
		}
		s.Set("remotes", []any{r})
		if extKey == "" {
			extKey = url
		}
	}
	if meta := e.meta(extKey); meta != nil {
		s.Set("_meta", meta)
	}
	return s
}

// envs lists the package's environment variables: the required ones and
// some optional ones.
func (e *scaleEntry) envs() []any {
	var out []any
	for _, ev := range e.svc.envs {
		if !ev.required && e.g.chance(0.5) {
			continue
		}
		v := Object{{"name", ev.name}, {"description", ev.description}}
		if ev.required {
			v.Set("isRequired", true)
		}
		if ev.secret {
			v.Set("isSecret", true)
		}
		if ev.def != "" {
			v.Set("default", ev.def)
		}
		out = append(out, v)
	}
	return out
}

// meta is _meta: ToolHive's publisher extensions for most entries, another
// publisher's build information for some.
func (e *scaleEntry) meta(key string) any {
	g, svc := e.g, e.svc
	var pubs Object
	if g.chance(0.1) {
		pubs.Set("com.example.ci", Object{{"build", Object{{"commit", fmt.Sprintf("%07x", g.rng.UintN(1<<28))}, {"pipeline", e.team}}}})
	}
	if g.chance(0.75) {
		ext := Object{{"status", pick(g, []string{"active", "active", "active", "deprecated"})}}
		ext.Set("tier", pick(g, []string{"Official", "Community", "Community"}))
		ext.Set("tools", subsetScale(g, svc.tools, 1, 4))
		ext.Set("tags", subsetScale(g, svc.tags, 1, 3))
		if g.chance(0.6) {
			ext.Set("metadata", Object{{"stars", int(g.rng.ExpFloat64() * 800)}, {"last_updated", g.timestamp(400 * 24 * time.Hour)}})
		}
		pubs.Set("io.github.stacklok", Object{{key, ext}})
	}
	if len(pubs) == 0 {
		return nil
	}
	return Object{{"io.modelcontextprotocol.registry/publisher-provided", pubs}}
}

// subsetScale returns between lo and hi elements of xs, in their order.
func subsetScale(g *catalogGen, xs []string, lo, hi int) []string {
	hi = min(hi, len(xs))
	n := lo
	if hi > lo {
		n += g.rng.IntN(hi - lo + 1)
	}
	idx := g.rng.Perm(len(xs))[:n]
	out := make([]string, 0, n)
	for i, x := range xs {
		for _, j := range idx {
			if i == j {
				out = append(out, x)
			}
		}
	}
	return out
}
