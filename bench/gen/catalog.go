package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// CatalogOptions describes a ToolHive legacy catalog to generate.
type CatalogOptions struct {
	// Seed selects the catalog; the same options give the same bytes.
	Seed uint64
	// Containers and Remotes are the numbers of top-level "servers" and
	// "remote_servers" entries.
	Containers, Remotes int
	// GroupOnly is the number of extra entries (alternately container and
	// remote) listed only inside "groups". When it is not zero, the group also
	// repeats a few top-level entries unchanged, as real catalogs do.
	GroupOnly int
	// BareNames is the number of top-level container entries whose "name" is
	// set but has no "/" (ToolHive's converter leaves such a name bare).
	BareNames int
}

// DefaultCatalog is a catalog of the size of ToolHive's own: 60 servers, two
// thirds of them containers, plus a group with entries of its own.
var DefaultCatalog = CatalogOptions{Seed: 1, Containers: 40, Remotes: 20, GroupOnly: 4, BareNames: 2}

// The legacy shape (ToolHive's registry.json). The fields ToolHive's own
// tooling always writes (description, tier, status, transport, tools) have no
// omitempty, as in the files it publishes.

type catalog struct {
	Schema        string                  `json:"$schema"`
	Version       string                  `json:"version"`
	LastUpdated   string                  `json:"last_updated"`
	Servers       map[string]*imageEntry  `json:"servers"`
	RemoteServers map[string]*remoteEntry `json:"remote_servers,omitempty"`
	Groups        []*group                `json:"groups,omitempty"`
}

type group struct {
	Name          string                  `json:"name"`
	Description   string                  `json:"description"`
	Servers       map[string]*imageEntry  `json:"servers,omitempty"`
	RemoteServers map[string]*remoteEntry `json:"remote_servers,omitempty"`
}

type baseEntry struct {
	Name            string         `json:"name,omitempty"`
	Title           string         `json:"title,omitempty"`
	Description     string         `json:"description"`
	Tier            string         `json:"tier"`
	Status          string         `json:"status"`
	Transport       string         `json:"transport"`
	Stateless       bool           `json:"stateless,omitempty"`
	Tools           []string       `json:"tools"`
	Metadata        *metadata      `json:"metadata,omitempty"`
	RepositoryURL   string         `json:"repository_url,omitempty"`
	Tags            []string       `json:"tags,omitempty"`
	Overview        string         `json:"overview,omitempty"`
	ToolDefinitions []toolDef      `json:"tool_definitions,omitempty"`
	CustomMetadata  map[string]any `json:"custom_metadata,omitempty"`
}

type imageEntry struct {
	baseEntry
	Image       string       `json:"image"`
	TargetPort  int          `json:"target_port,omitempty"`
	ProxyPort   int          `json:"proxy_port,omitempty"`
	Permissions *permissions `json:"permissions,omitempty"`
	EnvVars     []envVar     `json:"env_vars,omitempty"`
	Args        []string     `json:"args,omitempty"`
	DockerTags  []string     `json:"docker_tags,omitempty"`
	Provenance  *provenance  `json:"provenance,omitempty"`
}

type remoteEntry struct {
	baseEntry
	URL         string       `json:"url"`
	ProxyPort   int          `json:"proxy_port,omitempty"`
	Headers     []header     `json:"headers,omitempty"`
	OAuthConfig *oauthConfig `json:"oauth_config,omitempty"`
	EnvVars     []envVar     `json:"env_vars,omitempty"`
}

type metadata struct {
	Stars       int         `json:"stars,omitempty"`
	LastUpdated string      `json:"last_updated,omitempty"`
	Kubernetes  *kubernetes `json:"kubernetes,omitempty"`
}

type kubernetes struct {
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	UID       string `json:"uid,omitempty"`
	Image     string `json:"image,omitempty"`
	Transport string `json:"transport,omitempty"`
}

type permissions struct {
	Name       string   `json:"name,omitempty"`
	Read       []string `json:"read,omitempty"`
	Write      []string `json:"write,omitempty"`
	Network    *network `json:"network,omitempty"`
	Privileged bool     `json:"privileged,omitempty"`
}

type network struct {
	Outbound *outbound `json:"outbound,omitempty"`
}

type outbound struct {
	InsecureAllowAll bool     `json:"insecure_allow_all,omitempty"`
	AllowHost        []string `json:"allow_host,omitempty"`
	AllowPort        []int    `json:"allow_port,omitempty"`
}

type provenance struct {
	SigstoreURL       string       `json:"sigstore_url"`
	RepositoryURI     string       `json:"repository_uri"`
	RepositoryRef     string       `json:"repository_ref,omitempty"`
	SignerIdentity    string       `json:"signer_identity"`
	RunnerEnvironment string       `json:"runner_environment"`
	CertIssuer        string       `json:"cert_issuer"`
	Attestation       *attestation `json:"attestation,omitempty"`
}

type attestation struct {
	PredicateType string `json:"predicate_type,omitempty"`
	Predicate     any    `json:"predicate,omitempty"`
}

type envVar struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Default     string `json:"default,omitempty"`
	Secret      bool   `json:"secret,omitempty"`
}

type header struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     string   `json:"default,omitempty"`
	Secret      bool     `json:"secret,omitempty"`
	Choices     []string `json:"choices,omitempty"`
}

type oauthConfig struct {
	Issuer       string            `json:"issuer,omitempty"`
	AuthorizeURL string            `json:"authorize_url,omitempty"`
	TokenURL     string            `json:"token_url,omitempty"`
	ClientID     string            `json:"client_id,omitempty"`
	Scopes       []string          `json:"scopes,omitempty"`
	UsePKCE      bool              `json:"use_pkce,omitempty"`
	OAuthParams  map[string]string `json:"oauth_params,omitempty"`
	CallbackPort int               `json:"callback_port,omitempty"`
	Resource     string            `json:"resource,omitempty"`
}

type toolDef struct {
	Name        string           `json:"name"`
	Description string           `json:"description,omitempty"`
	InputSchema map[string]any   `json:"inputSchema"`
	Annotations *toolAnnotations `json:"annotations,omitempty"`
}

type toolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// catalogTime is the "now" of every generated catalog; timestamps lie before it.
var catalogTime = time.Date(2025, time.September, 1, 12, 0, 0, 0, time.UTC)

// ToolHiveCatalog returns a ToolHive legacy catalog (registry.json) as
// two-space indented JSON. Entries are realistic: container servers with
// images, docker tags, args, ports, environment variables, permission
// profiles and provenance; remote servers with headers and OAuth; titles,
// overviews, tools and tool definitions, tags, tiers, statuses, metadata and
// custom metadata, in varying combinations. Every value satisfies ToolHive's
// schemas (tags, tool names, hosts, mount paths, URIs, ports); descriptions
// may exceed the upstream limit of 100 characters, as in real catalogs.
func ToolHiveCatalog(o CatalogOptions) []byte {
	return marshalIndent(buildCatalog(o))
}

// ToolHiveList returns the servers of ToolHiveCatalog(o) in the list
// shorthand, {"servers": [...]}: container servers, then remote servers, each
// by key, then the groups' own servers, every item with an explicit "name"
// (the catalog's, or else its key), so that it converts to the same upstream
// entries as the catalog.
func ToolHiveList(o CatalogOptions) []byte {
	c := buildCatalog(o)
	var items []any
	addImages := func(m map[string]*imageEntry) {
		for _, k := range sortedKeys(m) {
			e := *m[k]
			if e.Name == "" {
				e.Name = k
			}
			items = append(items, &e)
		}
	}
	addRemotes := func(m map[string]*remoteEntry) {
		for _, k := range sortedKeys(m) {
			e := *m[k]
			if e.Name == "" {
				e.Name = k
			}
			items = append(items, &e)
		}
	}
	addImages(c.Servers)
	addRemotes(c.RemoteServers)
	for _, g := range c.Groups {
		own := func(k string) bool { _, top := c.Servers[k]; _, rtop := c.RemoteServers[k]; return !top && !rtop }
		images, remotes := map[string]*imageEntry{}, map[string]*remoteEntry{}
		for k, e := range g.Servers {
			if own(k) {
				images[k] = e
			}
		}
		for k, e := range g.RemoteServers {
			if own(k) {
				remotes[k] = e
			}
		}
		addImages(images)
		addRemotes(remotes)
	}
	return marshalIndent(Object{{"version", c.Version}, {"last_updated", c.LastUpdated}, {"servers", items}})
}

func marshalIndent(v any) []byte {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		// Only the plain types of this package are marshalled.
		panic(fmt.Sprintf("gen: marshal catalog: %v", err))
	}
	return append(out, '\n')
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// buildCatalog draws the catalog of o.
func buildCatalog(o CatalogOptions) *catalog {
	g := &catalogGen{rng: rand.New(rand.NewPCG(o.Seed, 0x6d63707265672e31))}
	c := &catalog{
		Schema:        "https://raw.githubusercontent.com/stacklok/toolhive/main/pkg/registry/data/schema.json",
		Version:       "1.0.0",
		LastUpdated:   catalogTime.Format(time.RFC3339),
		Servers:       map[string]*imageEntry{},
		RemoteServers: map[string]*remoteEntry{},
	}
	groupContainers, groupRemotes := (o.GroupOnly+1)/2, o.GroupOnly/2

	order := g.rng.Perm(len(services))
	var images []*imageEntry
	var imageKeys []string
	for i := range o.Containers + groupContainers {
		svc := &services[order[i%len(services)]]
		key := roundKey(svc.key, i/len(services))
		images = append(images, g.image(svc, key, i/len(services)))
		imageKeys = append(imageKeys, key)
	}
	var remoteSvcs []*service
	for _, i := range order {
		if services[i].remote {
			remoteSvcs = append(remoteSvcs, &services[i])
		}
	}
	var remotes []*remoteEntry
	var remoteKeys []string
	for i := range o.Remotes + groupRemotes {
		svc := remoteSvcs[i%len(remoteSvcs)]
		round := i / len(remoteSvcs)
		key := roundKey(svc.key+"-remote", round)
		remotes = append(remotes, g.remote(svc, key, round))
		remoteKeys = append(remoteKeys, key)
	}

	// Some explicit names without a namespace, as hand-written catalogs have.
	for _, i := range g.rng.Perm(o.Containers)[:min(o.BareNames, o.Containers)] {
		images[i].Name = imageKeys[i]
	}

	for i := range o.Containers {
		c.Servers[imageKeys[i]] = images[i]
	}
	for i := range o.Remotes {
		c.RemoteServers[remoteKeys[i]] = remotes[i]
	}
	if o.GroupOnly > 0 {
		grp := &group{Name: "devtools", Description: "Servers for day-to-day software development",
			Servers: map[string]*imageEntry{}, RemoteServers: map[string]*remoteEntry{}}
		// Repeat a few top-level entries unchanged.
		for _, i := range g.rng.Perm(o.Containers)[:min(3, o.Containers)] {
			grp.Servers[imageKeys[i]] = images[i]
		}
		for _, i := range g.rng.Perm(o.Remotes)[:min(1, o.Remotes)] {
			grp.RemoteServers[remoteKeys[i]] = remotes[i]
		}
		// And the group's own entries.
		for i := o.Containers; i < len(images); i++ {
			grp.Servers[imageKeys[i]] = images[i]
		}
		for i := o.Remotes; i < len(remotes); i++ {
			grp.RemoteServers[remoteKeys[i]] = remotes[i]
		}
		c.Groups = append(c.Groups, grp)
	}
	return c
}

func roundKey(key string, round int) string {
	if round == 0 {
		return key
	}
	return fmt.Sprintf("%s-%d", key, round+1)
}

type catalogGen struct {
	rng *rand.Rand
}

// chance reports true with probability p.
func (g *catalogGen) chance(p float64) bool { return g.rng.Float64() < p }

func pick[T any](g *catalogGen, xs []T) T { return xs[g.rng.IntN(len(xs))] }

// subset returns between lo and len(xs) elements of xs, in their order.
func subset[T any](g *catalogGen, xs []T, lo int) []T {
	if len(xs) <= lo {
		return slices.Clone(xs)
	}
	n := lo + g.rng.IntN(len(xs)-lo+1)
	idx := g.rng.Perm(len(xs))[:n]
	slices.Sort(idx)
	out := make([]T, n)
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

func (g *catalogGen) timestamp(maxAge time.Duration) string {
	return catalogTime.Add(-time.Duration(g.rng.Int64N(int64(maxAge)))).Truncate(time.Second).Format(time.RFC3339)
}

func (g *catalogGen) version() string {
	return fmt.Sprintf("%d.%d.%d", g.rng.IntN(3), g.rng.IntN(20), g.rng.IntN(10))
}

func (g *catalogGen) uuid() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(g.rng.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (g *catalogGen) base(svc *service, key string, round int) baseEntry {
	b := baseEntry{
		Description: svc.summary,
		Tier:        "Community",
		Status:      "Active",
		Tools:       subset(g, svc.tools, 1),
		Tags:        subset(g, svc.tags, 2),
	}
	if svc.detail != "" && g.chance(0.3) {
		b.Description += ". " + svc.detail // often over 100 characters
	}
	if g.chance(0.8) {
		b.Title = svc.title
		if round > 0 {
			b.Title = fmt.Sprintf("%s (%d)", svc.title, round+1)
		}
	}
	if g.chance(0.4) {
		b.Tier = "Official"
	}
	switch r := g.rng.Float64(); {
	case r < 0.08:
		b.Status = "Deprecated"
	case r < 0.15:
		b.Status = "" // ToolHive's converter writes "active"
	case r < 0.22:
		b.Status = "active"
	}
	if g.chance(0.9) {
		b.RepositoryURL = fmt.Sprintf("https://github.com/%s/%s-mcp-server", svc.org, svc.key)
	}
	if g.chance(0.9) {
		b.Metadata = &metadata{LastUpdated: g.timestamp(400 * 24 * time.Hour)}
		if g.chance(0.85) {
			b.Metadata.Stars = int(g.rng.ExpFloat64() * 1500)
		}
	}
	if g.chance(0.5) {
		b.Overview = g.overview(svc)
	}
	if g.chance(0.3) {
		b.CustomMetadata = map[string]any{
			"license":  pick(g, licenses),
			"language": pick(g, languages),
			"verified": g.chance(0.5),
		}
		if g.chance(0.5) {
			b.CustomMetadata["rating"] = float64(30+g.rng.IntN(21)) / 10
			b.CustomMetadata["maintainers"] = []any{svc.org, "mcp-" + svc.key + "-maintainers"}
		}
		if g.chance(0.3) {
			b.CustomMetadata["homepage"] = "https://" + svc.domain + "/mcp"
		}
	}
	if g.chance(0.2) {
		b.ToolDefinitions = g.toolDefs(b.Tools)
	}
	return b
}

func (g *catalogGen) overview(svc *service) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "## %s MCP server\n\n%s.", svc.title, svc.summary)
	if svc.detail != "" {
		sb.WriteString(" " + svc.detail)
	}
	sb.WriteString("\n\n### Tools\n\n")
	for _, t := range svc.tools {
		fmt.Fprintf(&sb, "- `%s`\n", t)
	}
	if len(svc.envs) > 0 {
		fmt.Fprintf(&sb, "\n### Configuration\n\nSet `%s` before starting the server.\n", svc.envs[0].name)
	}
	return sb.String()
}

func (g *catalogGen) toolDefs(tools []string) []toolDef {
	var defs []toolDef
	for _, t := range tools[:min(len(tools), 1+g.rng.IntN(3))] {
		readOnly := !strings.HasPrefix(t, "create") && !strings.HasPrefix(t, "update") && !strings.HasPrefix(t, "write")
		d := toolDef{
			Name:        t,
			Description: "Runs " + strings.ReplaceAll(t, "_", " ") + ".",
			InputSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"query": map[string]any{"type": "string", "description": "What to look for"},
					"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
				},
				"required": []any{"query"},
			},
		}
		if g.chance(0.7) {
			d.Annotations = &toolAnnotations{ReadOnlyHint: &readOnly}
			if g.chance(0.5) {
				d.Annotations.Title = strings.ReplaceAll(t, "_", " ")
				openWorld := true
				d.Annotations.OpenWorldHint = &openWorld
			}
		}
		defs = append(defs, d)
	}
	return defs
}

func (g *catalogGen) image(svc *service, key string, round int) *imageEntry {
	e := &imageEntry{baseEntry: g.base(svc, key, round)}
	switch r := g.rng.Float64(); {
	case r < 0.4:
		e.Name = fmt.Sprintf("io.github.%s/%s", svc.org, key)
	case r < 0.55:
		e.Name = "io.github.stacklok/" + key
	} // else: no name; the key gives it
	ver := g.version()
	reg := pick(g, registries)
	repo := svc.org + "/" + svc.key + "-mcp-server"
	if reg == "docker.io" && g.chance(0.5) {
		repo = "mcp/" + svc.key
	}
	tag := ver
	if g.chance(0.5) {
		tag = "v" + ver
	}
	e.Image = fmt.Sprintf("%s/%s:%s", reg, repo, tag)
	if round > 0 {
		e.Image = fmt.Sprintf("%s/%s-%d:%s", reg, repo, round+1, tag)
	}
	if g.chance(0.7) {
		e.DockerTags = []string{tag, "latest"}
		if g.chance(0.4) {
			e.DockerTags = append(e.DockerTags, "sha-"+fmt.Sprintf("%07x", g.rng.UintN(1<<28)))
		}
	}
	switch r := g.rng.Float64(); {
	case r < 0.6:
		e.Transport = "stdio"
	case r < 0.9:
		e.Transport = "streamable-http"
	default:
		e.Transport = "sse"
	}
	if e.Transport != "stdio" {
		if g.chance(0.8) {
			e.TargetPort = pick(g, []int{8080, 8000, 3000, 9090, 8081})
		}
		e.Stateless = e.Transport == "streamable-http" && g.chance(0.2)
	}
	if g.chance(0.15) {
		e.ProxyPort = 8000 + g.rng.IntN(2000)
	}
	for _, ev := range svc.envs {
		if !ev.required && g.chance(0.3) {
			continue
		}
		e.EnvVars = append(e.EnvVars, envVar{Name: ev.name, Description: ev.description, Required: ev.required, Default: ev.def, Secret: ev.secret})
	}
	if g.chance(0.3) {
		e.Args = slices.Clone(pick(g, commonArgs))
	}
	if g.chance(0.85) {
		e.Permissions = g.permissions(svc)
	}
	if g.chance(0.5) {
		e.Provenance = g.provenance(svc, ver)
	}
	if e.Metadata != nil && g.chance(0.1) {
		e.Metadata.Kubernetes = &kubernetes{Kind: "MCPServer", Namespace: "toolhive-system", Name: key,
			UID: g.uuid(), Image: e.Image, Transport: e.Transport}
	}
	return e
}

func (g *catalogGen) permissions(svc *service) *permissions {
	p := &permissions{Name: "network"}
	if g.chance(0.1) {
		p.Name = "none"
	}
	out := &outbound{}
	switch r := g.rng.Float64(); {
	case r < 0.1:
		out.InsecureAllowAll = true
	case r < 0.15:
		// no outbound access at all
		out = nil
	default:
		out.AllowHost = []string{"api." + svc.domain, "." + svc.domain}
		if g.chance(0.3) {
			out.AllowHost = append(out.AllowHost, "objects.githubusercontent.com")
		}
		out.AllowPort = []int{443}
		if g.chance(0.2) {
			out.AllowPort = append(out.AllowPort, 80)
		}
	}
	if out != nil {
		p.Network = &network{Outbound: out}
	}
	if g.chance(0.2) {
		p.Read = subset(g, mountsRead, 1)
	}
	if g.chance(0.15) {
		p.Write = subset(g, mountsWrite, 1)
	}
	p.Privileged = g.chance(0.03)
	return p
}

func (g *catalogGen) provenance(svc *service, ver string) *provenance {
	repo := fmt.Sprintf("https://github.com/%s/%s-mcp-server", svc.org, svc.key)
	p := &provenance{
		SigstoreURL:       "tuf-repo-cdn.sigstore.dev",
		RepositoryURI:     repo,
		SignerIdentity:    "/.github/workflows/" + pick(g, workflows),
		RunnerEnvironment: pick(g, runners),
		CertIssuer:        "https://token.actions.githubusercontent.com",
	}
	if g.chance(0.2) {
		p.SigstoreURL = "tuf-repo.github.com"
	}
	if g.chance(0.8) {
		p.RepositoryRef = "refs/tags/v" + ver
	}
	if g.chance(0.5) {
		p.Attestation = &attestation{
			PredicateType: "https://slsa.dev/provenance/v1",
			Predicate: map[string]any{
				"buildDefinition": map[string]any{
					"buildType": "https://actions.github.io/buildtypes/workflow/v1",
					"externalParameters": map[string]any{
						"workflow": map[string]any{"ref": p.RepositoryRef, "repository": repo, "path": p.SignerIdentity[1:]},
					},
				},
				"runDetails": map[string]any{
					"builder":  map[string]any{"id": "https://github.com/actions/runner/github-hosted"},
					"metadata": map[string]any{"invocationId": fmt.Sprintf("%s/actions/runs/%d/attempts/1", repo, 1e9+g.rng.IntN(1e9))},
				},
			},
		}
	}
	return p
}

func (g *catalogGen) remote(svc *service, key string, round int) *remoteEntry {
	e := &remoteEntry{baseEntry: g.base(svc, key, round)}
	switch r := g.rng.Float64(); {
	case r < 0.5:
		e.Name = fmt.Sprintf("com.%s/%s", strings.Split(svc.domain, ".")[0], key)
	case r < 0.6:
		e.Name = "io.github.stacklok/" + key
	}
	e.Transport = "streamable-http"
	path := "/mcp"
	if g.chance(0.2) {
		e.Transport, path = "sse", "/sse"
	}
	if round > 0 {
		path = fmt.Sprintf("/r%d%s", round+1, path)
	}
	e.URL = "https://mcp." + svc.domain + path
	if svc.oauth {
		e.OAuthConfig = g.oauth(svc, e.URL)
		e.Stateless = g.chance(0.1)
	} else {
		e.Headers = append(e.Headers, header{Name: "Authorization", Description: "Bearer token for the " + svc.title + " API", Required: true, Secret: true})
	}
	if g.chance(0.25) {
		e.Headers = append(e.Headers, header{Name: "X-Region", Description: "Data residency region", Default: "us", Choices: slices.Clone(headerRegion)})
	}
	if g.chance(0.2) {
		for _, ev := range svc.envs {
			if !ev.secret {
				e.EnvVars = append(e.EnvVars, envVar{Name: ev.name, Description: ev.description, Required: ev.required, Default: ev.def})
			}
		}
	}
	if g.chance(0.1) {
		e.ProxyPort = 8000 + g.rng.IntN(2000)
	}
	return e
}

func (g *catalogGen) oauth(svc *service, url string) *oauthConfig {
	o := &oauthConfig{Scopes: subset(g, oauthScopes, 1), UsePKCE: g.chance(0.8)}
	if g.chance(0.5) {
		o.Issuer = "https://auth." + svc.domain
	} else {
		o.AuthorizeURL = "https://" + svc.domain + "/oauth/authorize"
		o.TokenURL = "https://api." + svc.domain + "/oauth/token"
	}
	if g.chance(0.6) {
		o.ClientID = fmt.Sprintf("toolhive-%s-%04d", svc.key, g.rng.IntN(10000))
	}
	if g.chance(0.3) {
		o.OAuthParams = map[string]string{"prompt": "consent"}
		if g.chance(0.5) {
			o.OAuthParams["access_type"] = "offline"
		}
	}
	if g.chance(0.3) {
		o.CallbackPort = 8600 + g.rng.IntN(400)
	}
	if g.chance(0.4) {
		o.Resource = url
	}
	return o
}
