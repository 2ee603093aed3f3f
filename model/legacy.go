package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The legacy ToolHive registry types, as far as conversion reads them. Field
// names, JSON tags and omitempty rules mirror toolhive-core v0.0.43
// (registry/types), so that conversion normalises exactly as ToolHive does.
// Values ToolHive keeps as opaque Go values (custom_metadata, tool_definitions,
// attestation predicates) are kept as raw JSON instead.

// optionalRaw is raw JSON for a field ToolHive keeps as an opaque Go value. A
// JSON null means "absent", as it does for ToolHive's any-typed fields, which
// omitempty then drops.
type optionalRaw json.RawMessage

// UnmarshalJSON keeps the bytes, or nothing for null.
func (r *optionalRaw) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*r = nil
		return nil
	}
	*r = append((*r)[:0], b...)
	return nil
}

// MarshalJSON writes the bytes back unchanged.
func (r optionalRaw) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// optionalMap is optionalRaw for a field ToolHive decodes into a map with
// omitempty (custom_metadata): an empty object is absent too, and ToolHive
// writes no member for it.
type optionalMap optionalRaw

// UnmarshalJSON keeps the bytes, or nothing for null or {}.
func (r *optionalMap) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	if string(t) == "null" || len(t) >= 2 && t[0] == '{' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0 {
		*r = nil
		return nil
	}
	*r = append((*r)[:0], b...)
	return nil
}

// MarshalJSON writes the bytes back unchanged.
func (r optionalMap) MarshalJSON() ([]byte, error) { return optionalRaw(r).MarshalJSON() }

type legacyBase struct {
	Name            string          `json:"name,omitempty"`
	Title           string          `json:"title,omitempty"`
	Description     string          `json:"description"`
	Tier            string          `json:"tier"`
	Status          string          `json:"status"`
	Transport       string          `json:"transport"`
	Stateless       bool            `json:"stateless,omitempty"`
	Tools           []string        `json:"tools"`
	Metadata        *legacyMetadata `json:"metadata,omitempty"`
	RepositoryURL   string          `json:"repository_url,omitempty"`
	Tags            []string        `json:"tags,omitempty"`
	Overview        string          `json:"overview,omitempty"`
	ToolDefinitions optionalRaw     `json:"tool_definitions,omitempty"`
	CustomMetadata  optionalMap     `json:"custom_metadata,omitempty"`
}

// fixTier writes a tier that names one of ToolHive's tiers in another case
// ("community") the way its schemas spell it, and returns the spelling read,
// or "" when the tier needed no change. ToolHive's own example catalogs
// write the tier in lower case, which its schemas refuse; keeping the entry
// with the tier spelled right loses nothing the catalog meant.
func (b *legacyBase) fixTier() string {
	if tier := canonicalTier(b.Tier); tier != "" && tier != b.Tier {
		was := b.Tier
		b.Tier = tier
		return was
	}
	return ""
}

// canonicalTier is the tier of ToolHive's schemas that t names in any case,
// or "".
func canonicalTier(t string) string {
	for _, tier := range extTiers {
		if strings.EqualFold(t, tier) {
			return tier
		}
	}
	return ""
}

type legacyImage struct {
	legacyBase
	Image       string             `json:"image"`
	TargetPort  int                `json:"target_port,omitempty"`
	ProxyPort   int                `json:"proxy_port,omitempty"`
	Permissions *legacyPermissions `json:"permissions,omitempty"`
	EnvVars     []*legacyEnvVar    `json:"env_vars,omitempty"`
	Args        []string           `json:"args,omitempty"`
	DockerTags  []string           `json:"docker_tags,omitempty"`
	Provenance  *legacyProvenance  `json:"provenance,omitempty"`
}

type legacyRemote struct {
	legacyBase
	URL         string             `json:"url"`
	ProxyPort   int                `json:"proxy_port,omitempty"`
	Headers     []*legacyHeader    `json:"headers,omitempty"`
	OAuthConfig *legacyOAuthConfig `json:"oauth_config,omitempty"`
	EnvVars     []*legacyEnvVar    `json:"env_vars,omitempty"`
}

type legacyMetadata struct {
	Stars       int               `json:"stars,omitempty"`
	LastUpdated string            `json:"last_updated,omitempty"`
	Kubernetes  *legacyKubernetes `json:"kubernetes,omitempty"`
}

type legacyKubernetes struct {
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	UID       string `json:"uid,omitempty"`
	Image     string `json:"image,omitempty"`
	Transport string `json:"transport,omitempty"`
}

type legacyPermissions struct {
	Name       string                    `json:"name,omitempty"`
	Read       []string                  `json:"read,omitempty"`
	Write      []string                  `json:"write,omitempty"`
	Network    *legacyNetworkPermissions `json:"network,omitempty"`
	Privileged bool                      `json:"privileged,omitempty"`
}

type legacyNetworkPermissions struct {
	Mode     string          `json:"mode,omitempty"`
	Outbound *legacyOutbound `json:"outbound,omitempty"`
	Inbound  *legacyInbound  `json:"inbound,omitempty"`
}

type legacyOutbound struct {
	InsecureAllowAll bool     `json:"insecure_allow_all,omitempty"`
	AllowHost        []string `json:"allow_host,omitempty"`
	AllowPort        []int    `json:"allow_port,omitempty"`
}

type legacyInbound struct {
	AllowHost []string `json:"allow_host,omitempty"`
}

type legacyProvenance struct {
	SigstoreURL       string             `json:"sigstore_url"`
	RepositoryURI     string             `json:"repository_uri"`
	RepositoryRef     string             `json:"repository_ref,omitempty"`
	SignerIdentity    string             `json:"signer_identity"`
	RunnerEnvironment string             `json:"runner_environment"`
	CertIssuer        string             `json:"cert_issuer"`
	Attestation       *legacyAttestation `json:"attestation,omitempty"`
}

type legacyAttestation struct {
	PredicateType string      `json:"predicate_type,omitempty"`
	Predicate     optionalRaw `json:"predicate,omitempty"`
}

type legacyEnvVar struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Default     string `json:"default,omitempty"`
	Secret      bool   `json:"secret,omitempty"`
}

type legacyHeader struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     string   `json:"default,omitempty"`
	Secret      bool     `json:"secret,omitempty"`
	Choices     []string `json:"choices,omitempty"`
}

type legacyOAuthConfig struct {
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

// serverExtensions mirrors toolhive-core's ServerExtensions: what ToolHive keeps
// under _meta.publisher-provided["io.github.stacklok"][<image or url>].
type serverExtensions struct {
	Status          string             `json:"status"`
	Tier            string             `json:"tier,omitempty"`
	Tools           []string           `json:"tools,omitempty"`
	Tags            []string           `json:"tags,omitempty"`
	Overview        string             `json:"overview,omitempty"`
	Metadata        *legacyMetadata    `json:"metadata,omitempty"`
	CustomMetadata  optionalMap        `json:"custom_metadata,omitempty"`
	Permissions     *legacyPermissions `json:"permissions,omitempty"`
	Args            []string           `json:"args,omitempty"`
	Provenance      *legacyProvenance  `json:"provenance,omitempty"`
	DockerTags      []string           `json:"docker_tags,omitempty"`
	ProxyPort       int                `json:"proxy_port,omitempty"`
	Stateless       bool               `json:"stateless,omitempty"`
	OAuthConfig     *legacyOAuthConfig `json:"oauth_config,omitempty"`
	EnvVars         []*legacyEnvVar    `json:"env_vars,omitempty"`
	ToolDefinitions optionalRaw        `json:"tool_definitions,omitempty"`
}

// keyValueInput mirrors the upstream KeyValueInput as ToolHive's converter fills it.
type keyValueInput struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	IsRequired  bool     `json:"isRequired,omitempty"`
	IsSecret    bool     `json:"isSecret,omitempty"`
	Default     string   `json:"default,omitempty"`
	Choices     []string `json:"choices,omitempty"`
}

type transport struct {
	Type    string          `json:"type"`
	URL     string          `json:"url,omitempty"`
	Headers []keyValueInput `json:"headers,omitempty"`
}

type ociPackage struct {
	RegistryType         string          `json:"registryType"`
	Identifier           string          `json:"identifier"`
	EnvironmentVariables []keyValueInput `json:"environmentVariables,omitempty"`
	Transport            transport       `json:"transport"`
}

type repository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

// legacyName is the upstream name of a legacy entry: its own name if set, else
// <namespace>/<key>; a name without "/" gets the namespace too (ToolHive leaves
// it bare, which the upstream name pattern rejects).
func legacyName(entryName, key, namespace string) string {
	n := entryName
	if n == "" {
		n = key
	}
	if !strings.Contains(n, "/") {
		n = namespace + "/" + n
	}
	return n
}

func marshal(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(v); err != nil {
		// Only the mirror types above are marshalled; they always encode.
		panic(fmt.Sprintf("model: marshal %T: %v", v, err))
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func newConvertedServer(b *legacyBase, name string) *Server {
	// Members in the order of upstream ServerJSON: $schema, name, description,
	// title, repository, version; packages, remotes and _meta follow.
	s := &Server{}
	s.Set(KeySchema, jsonx.Quote(ServerSchemaURL))
	s.SetName(name)
	s.SetDescription(b.Description)
	if b.Title != "" {
		s.Set(KeyTitle, jsonx.Quote(b.Title))
	}
	if b.RepositoryURL != "" {
		s.Set("repository", marshal(repository{URL: b.RepositoryURL, Source: "github"}))
	}
	s.SetVersion("1.0.0")
	return s
}

func publisherMeta(key string, ext serverExtensions) json.RawMessage {
	if ext.Status == "" {
		ext.Status = "active"
	}
	b := []byte(`{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{`)
	b = jsonx.AppendQuote(b, key)
	b = append(b, ':')
	b = append(b, marshal(ext)...)
	return append(b, "}}}"...)
}

// conversionNotes is what a conversion changed in an entry without losing
// anything, for the Info that says so.
type conversionNotes struct {
	// tierWas is the tier as written when fixTier respelled it.
	tierWas string
	// transport is the remote type given to a remote entry without one.
	transport string
}

// defaultRemoteTransport is the type of a remote entry that names none:
// ToolHive's default for a remote server (MCPRemoteProxy's spec.transport).
const defaultRemoteTransport = "streamable-http"

func convertImage(key string, raw json.RawMessage, namespace string) (*Server, conversionNotes, error) {
	var m legacyImage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, conversionNotes{}, fmt.Errorf("cannot read container server entry: %v", err)
	}
	tierWas := m.fixTier()
	s := newConvertedServer(&m.legacyBase, legacyName(m.Name, key, namespace))
	tr := m.Transport
	if tr == "" {
		tr = "stdio"
	}
	t := transport{Type: tr}
	if tr == "streamable-http" || tr == "sse" {
		// ToolHive's converter points local HTTP transports at localhost.
		t.URL = "http://localhost"
		if m.TargetPort > 0 {
			t.URL = fmt.Sprintf("http://localhost:%d", m.TargetPort)
		}
	}
	pkg := ociPackage{RegistryType: "oci", Identifier: m.Image, Transport: t}
	if i := slices.Index(m.EnvVars, nil); i >= 0 {
		return nil, conversionNotes{}, fmt.Errorf("env_vars[%d] is null", i)
	}
	for _, ev := range m.EnvVars {
		pkg.EnvironmentVariables = append(pkg.EnvironmentVariables, keyValueInput{
			Name: ev.Name, Description: ev.Description, IsRequired: ev.Required, IsSecret: ev.Secret, Default: ev.Default,
		})
	}
	s.Set(KeyPackages, marshal([]ociPackage{pkg}))
	s.Set(KeyMeta, publisherMeta(m.Image, serverExtensions{
		Status: m.Status, Tier: m.Tier, Tools: m.Tools, Tags: m.Tags, Overview: m.Overview,
		Metadata: m.Metadata, CustomMetadata: m.CustomMetadata, Permissions: m.Permissions,
		Args: m.Args, Provenance: m.Provenance, DockerTags: m.DockerTags, ProxyPort: m.ProxyPort,
		Stateless: m.Stateless, ToolDefinitions: m.ToolDefinitions,
	}))
	return s, conversionNotes{tierWas: tierWas}, nil
}

func convertRemote(key string, raw json.RawMessage, namespace string) (*Server, conversionNotes, error) {
	var m legacyRemote
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, conversionNotes{}, fmt.Errorf("cannot read remote server entry: %v", err)
	}
	notes := conversionNotes{tierWas: m.fixTier()}
	if m.Transport == "" {
		// ToolHive's converter would write a remote of type "", which the
		// upstream schema refuses; the list shorthand's items rarely say.
		m.Transport, notes.transport = defaultRemoteTransport, defaultRemoteTransport
	}
	if m.URL != "" {
		// The URL is the server, and a key of its _meta too: an entry whose
		// URL the URL policy refuses is not converted at all.
		if err := checkRemoteURL(m.URL, nil); err != nil { // a legacy remote declares no variables
			return nil, conversionNotes{}, urlError{err}
		}
	}
	s := newConvertedServer(&m.legacyBase, legacyName(m.Name, key, namespace))
	t := transport{Type: m.Transport, URL: m.URL}
	if i := slices.Index(m.Headers, nil); i >= 0 {
		return nil, conversionNotes{}, fmt.Errorf("headers[%d] is null", i)
	}
	if i := slices.Index(m.EnvVars, nil); i >= 0 {
		return nil, conversionNotes{}, fmt.Errorf("env_vars[%d] is null", i)
	}
	for _, h := range m.Headers {
		t.Headers = append(t.Headers, keyValueInput{
			Name: h.Name, Description: h.Description, IsRequired: h.Required, IsSecret: h.Secret,
			Default: h.Default, Choices: h.Choices,
		})
	}
	s.Set(KeyRemotes, marshal([]transport{t}))
	s.Set(KeyMeta, publisherMeta(m.URL, serverExtensions{
		Status: m.Status, Tier: m.Tier, Tools: m.Tools, Tags: m.Tags, Overview: m.Overview,
		Metadata: m.Metadata, CustomMetadata: m.CustomMetadata, OAuthConfig: m.OAuthConfig,
		EnvVars: m.EnvVars, ProxyPort: m.ProxyPort, Stateless: m.Stateless, ToolDefinitions: m.ToolDefinitions,
	}))
	return s, notes, nil
}

// urlError is a legacy remote entry refused for its URL (InvalidURL).
type urlError struct{ err error }

func (e urlError) Error() string { return e.err.Error() }

// skipReason is the reason of a legacy entry skipped for err.
func skipReason(err error) Reason {
	if _, ok := err.(urlError); ok {
		return ReasonInvalidURL
	}
	return ReasonInvalidEntry
}

// lastOfEachKey keeps, for each key, only its last member.
func lastOfEachKey(ms []jsonx.Member) []jsonx.Member {
	if !hasDuplicateKeys(ms) {
		return ms
	}
	return dedupeMembers(ms)
}

// legacyCollector gathers converted entries, keeping the first of each name.
type legacyCollector struct {
	opts    ParseOptions
	servers []*Server
	byName  map[string]int
	ds      Diagnostics
	lim     limiter
}

func (c *legacyCollector) add(s *Server, field string) (added bool) {
	s.origin = c.opts.field(field)
	if i, ok := c.byName[s.Name()]; ok {
		// The same server listed twice (a group repeating a top-level entry) is
		// one server; a different one under the same name is a duplicate.
		if !bytes.Equal(c.servers[i].AppendJSON(nil), s.AppendJSON(nil)) {
			if c.lim.ok(ReasonDuplicateServer, SeverityWarning) {
				c.ds = append(c.ds, Warningf(ReasonDuplicateServer, c.opts.Source, c.opts.field(field),
					"skipped: server %q is already defined by an earlier entry", s.Name()))
			}
		}
		return false
	}
	c.byName[s.Name()] = len(c.servers)
	c.servers = append(c.servers, s)
	return true
}

// convertMap converts a legacy "servers" or "remote_servers" object, keys sorted
// so that the output does not depend on JSON member order.
func (c *legacyCollector) convertMap(raw json.RawMessage, path string, remote bool) {
	if k := jsonx.Kind(raw); k == 'n' || k == 0 {
		return
	} else if k != '{' {
		if c.lim.ok(ReasonInvalidEntry, SeverityWarning) {
			c.ds = append(c.ds, Warningf(ReasonInvalidEntry, c.opts.Source, c.opts.field(path), "skipped: %s is %s, not an object", path, describeKind(raw)))
		}
		return
	}
	ms, _ := jsonx.Members(raw)
	// A key given twice means its last value, as encoding/json (and so
	// ToolHive) reads it; then keys in order, whatever the member order.
	c.ds = duplicateKeys(c.ds, ms, c.opts.Source, func(key string) string { return c.opts.field(path + "[" + key + "]") }, &c.lim)
	ms = lastOfEachKey(ms)
	slices.SortFunc(ms, func(a, b jsonx.Member) int { return strings.Compare(a.Key, b.Key) })
	for _, m := range ms {
		field := path + "[" + m.Key + "]"
		if jsonx.Kind(m.Value) != '{' {
			if c.lim.ok(ReasonInvalidEntry, SeverityWarning) {
				c.ds = append(c.ds, Warningf(ReasonInvalidEntry, c.opts.Source, c.opts.field(field), "skipped: entry %q is %s, not an object", m.Key, describeKind(m.Value)))
			}
			continue
		}
		if m.Key == "" {
			if c.lim.ok(ReasonInvalidEntry, SeverityWarning) {
				c.ds = append(c.ds, Warningf(ReasonInvalidEntry, c.opts.Source, c.opts.field(field), "skipped: entry has an empty key"))
			}
			continue
		}
		var s *Server
		var notes conversionNotes
		var err error
		if remote {
			s, notes, err = convertRemote(m.Key, m.Value, c.opts.namespace())
		} else {
			s, notes, err = convertImage(m.Key, m.Value, c.opts.namespace())
		}
		if err != nil {
			if r := skipReason(err); c.lim.ok(r, SeverityWarning) {
				c.ds = append(c.ds, Warningf(r, c.opts.Source, c.opts.field(field), "skipped: %v", err))
			}
			continue
		}
		if c.add(s, field) {
			c.note(s, notes, field)
		}
	}
}

func parseLegacy(data []byte, opts ParseOptions) (*Registry, Diagnostics) {
	c := &legacyCollector{opts: opts, byName: map[string]int{}}
	top, _ := jsonx.Members(data)
	c.ds = duplicateKeys(c.ds, top, opts.Source, opts.field, &c.lim)
	top = lastOfEachKey(top)
	reg := &Registry{Schema: RegistrySchemaURL, Version: RegistryVersion}
	var servers, remotes, groups json.RawMessage
	for _, m := range top {
		switch m.Key {
		case "version":
			// ToolHive copies the document version. It is kept as read, as an
			// upstream document's is: Convert keeps it when the upstream schema
			// accepts it and otherwise writes 1.0.0 with a warning, so a
			// version that is replaced is never replaced silently.
			if v, ok := jsonx.String(m.Value); !ok {
				reg.Version, reg.versionRaw = "", string(bytes.TrimSpace(m.Value))
			} else if v != "" {
				reg.Version = v
			}
		case "last_updated":
			reg.LastUpdated, _ = jsonx.String(m.Value)
		case "servers":
			servers = m.Value
		case "remote_servers":
			remotes = m.Value
		case "groups":
			groups = m.Value
		}
	}
	// Both ToolHive shapes in one document ({"servers": [...]} beside
	// "remote_servers" or "groups") lose nothing: every part is read.
	if jsonx.Kind(servers) == '[' {
		c.convertList(servers, "servers")
	} else {
		c.convertMap(servers, "servers", false)
	}
	c.convertMap(remotes, "remote_servers", true)
	// ToolHive's converter ignores groups; their servers are converted here too
	// so that a catalog that lists a server only inside a group loses nothing.
	// A "groups" object is read as groups by name, in name order.
	var gs []json.RawMessage
	var gpaths []string
	switch jsonx.Kind(groups) {
	case '[':
		gs, _ = jsonx.Elements(groups)
		for i := range gs {
			gpaths = append(gpaths, fmt.Sprintf("groups[%d]", i))
		}
	case '{':
		ms, _ := jsonx.Members(groups)
		c.ds = duplicateKeys(c.ds, ms, opts.Source, func(key string) string { return opts.field("groups[" + key + "]") }, &c.lim)
		ms = lastOfEachKey(ms)
		slices.SortFunc(ms, func(a, b jsonx.Member) int { return strings.Compare(a.Key, b.Key) })
		for _, m := range ms {
			gs = append(gs, m.Value)
			gpaths = append(gpaths, "groups["+m.Key+"]")
		}
	case 'n', 0:
	default:
		c.ds = append(c.ds, Warningf(ReasonInvalidEntry, opts.Source, opts.field("groups"), "groups is %s, not a list or an object; not read", describeKind(groups)))
	}
	for i, g := range gs {
		gm, err := jsonx.Members(g)
		if err != nil {
			if jsonx.Kind(g) != 'n' && c.lim.ok(ReasonInvalidEntry, SeverityWarning) {
				c.ds = append(c.ds, Warningf(ReasonInvalidEntry, opts.Source, opts.field(gpaths[i]), "skipped: group is %s, not an object", describeKind(g)))
			}
			continue
		}
		// Container servers before remote ones, as at top level, whatever
		// order the group's members come in.
		var gs, gr json.RawMessage
		c.ds = duplicateKeys(c.ds, gm, opts.Source, func(key string) string { return opts.field(gpaths[i] + "." + key) }, &c.lim)
		for _, m := range lastOfEachKey(gm) {
			switch m.Key {
			case "servers":
				gs = m.Value
			case "remote_servers":
				gr = m.Value
			}
		}
		c.convertMap(gs, gpaths[i]+".servers", false)
		c.convertMap(gr, gpaths[i]+".remote_servers", true)
	}
	reg.Servers = c.servers
	return reg, c.lim.flush(c.ds, c.opts.Source)
}

// parseList reads the list shorthand {"servers": [{"name", "image"|"url", ...}]}:
// each item is a legacy entry with an explicit name. Legacy members beside
// the list ("remote_servers", "groups") are read too: it is parseLegacy.
func parseList(data []byte, opts ParseOptions) (*Registry, Diagnostics) {
	return parseLegacy(data, opts)
}

// note reports what the conversion of field into the server s changed
// without losing anything: a tier fixTier respelled, a remote type given.
func (c *legacyCollector) note(s *Server, notes conversionNotes, field string) {
	if notes.transport != "" && c.lim.ok(ReasonInvalidEntry, SeverityInfo) {
		c.ds = append(c.ds, Infof(ReasonInvalidEntry, c.opts.Source, c.opts.field(field+".transport"),
			"server %q: no transport given; the remote is written with type %q, ToolHive's default for a remote server", s.Name(), notes.transport))
	}
	if was := notes.tierWas; was != "" && c.lim.ok(ReasonInvalidEntry, SeverityInfo) {
		// An Info: nothing is lost, and ToolHive's schemas get the spelling
		// they require.
		c.ds = append(c.ds, Infof(ReasonInvalidEntry, c.opts.Source, c.opts.field(field+".tier"),
			"server %q: tier %q written as %q, as ToolHive's schemas spell it", s.Name(), was, canonicalTier(was)))
	}
}

// convertList converts the items of a list-shorthand "servers" array.
func (c *legacyCollector) convertList(raw json.RawMessage, path string) {
	els, _ := jsonx.Elements(raw)
	for i, el := range els {
		field := fmt.Sprintf("%s[%d]", path, i)
		s, notes, err := convertListItem(el, c.opts.namespace())
		if err != nil {
			if r := skipReason(err); c.lim.ok(r, SeverityWarning) {
				c.ds = append(c.ds, Warningf(r, c.opts.Source, c.opts.field(field), "skipped: %v", err))
			}
			continue
		}
		if c.add(s, field) {
			c.note(s, notes, field)
		}
	}
}

func convertListItem(el json.RawMessage, namespace string) (*Server, conversionNotes, error) {
	ms, err := jsonx.Members(el)
	if err != nil {
		return nil, conversionNotes{}, fmt.Errorf("list item is %s, not an object", describeKind(el))
	}
	var name, image, url string
	var hasImage, hasURL bool
	for _, m := range ms {
		switch m.Key {
		case "name":
			name, _ = jsonx.String(m.Value)
		case "image":
			image, hasImage = jsonx.String(m.Value)
		case "url":
			url, hasURL = jsonx.String(m.Value)
		}
	}
	if name == "" {
		return nil, conversionNotes{}, fmt.Errorf("list item has no \"name\"")
	}
	switch {
	case hasImage && image != "" && hasURL && url != "":
		return nil, conversionNotes{}, errorf("server %q has both \"image\" and \"url\"; a list item is either a container or a remote server", name)
	case hasImage && image != "":
		return convertImage(name, el, namespace)
	case hasURL && url != "":
		return convertRemote(name, el, namespace)
	}
	return nil, conversionNotes{}, errorf("server %q has neither \"image\" nor \"url\"", name)
}
