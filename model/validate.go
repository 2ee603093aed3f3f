package model

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The upstream rules (SPEC §8), from the MCP server.json schema and ToolHive's
// upstream-registry schema.
var (
	// NamePattern is the upstream server name pattern: exactly one "/".
	NamePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)
	// RemoteURLPattern is the pattern of remotes[].url.
	RemoteURLPattern = regexp.MustCompile(`^https?://[^\s]+$`)
	// officialPart is the official registry's stricter rule for each side of the
	// name: at least two characters, alphanumeric at both ends.
	officialPart = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`)
	toolPattern  = regexp.MustCompile(`^[\w-]+$`)
	tagPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*[a-z0-9]$`)
	envPattern   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Limits of the upstream schema.
const (
	NameMinLen        = 3
	NameMaxLen        = 200
	DescriptionMaxLen = 100
	TitleMaxLen       = 100
	VersionMaxLen     = 255
)

// Remote transport types the upstream schema allows in "remotes".
const (
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
	TransportStdio          = "stdio"
)

// CheckName returns why name breaks the upstream name rule, or "" when it is
// valid. strict reports the official registry's stricter rule separately:
// a name that passes the schema but not that rule returns ("", "why").
func CheckName(name string) (invalid, strict string) {
	n := utf8.RuneCountInString(name)
	switch {
	case n < NameMinLen:
		return fmt.Sprintf("name %q is %d characters; the minimum is %d", name, n, NameMinLen), ""
	case n > NameMaxLen:
		return fmt.Sprintf("name %q is %d characters; the maximum is %d", abbreviate(name), n, NameMaxLen), ""
	case strings.Count(name, "/") != 1:
		return fmt.Sprintf("name %q must contain exactly one \"/\" (pattern %s)", name, NamePattern), ""
	case !NamePattern.MatchString(name):
		return fmt.Sprintf("name %q does not match %s", name, NamePattern), ""
	}
	ns, server, _ := strings.Cut(name, "/")
	if !officialPart.MatchString(ns) || !officialPart.MatchString(server) {
		return "", fmt.Sprintf("name %q is valid here, but the official MCP registry requires each side of \"/\" to be at least 2 characters and start and end with a letter or digit", name)
	}
	return "", ""
}

func abbreviate(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	r := []rune(s)
	return string(r[:57]) + "..."
}

// ValidateServer checks one entry against the upstream rules of SPEC §8 and the
// ToolHive publisher extensions schema. Each problem is a diagnostic on obj,
// its field under fieldPrefix (for example "data.servers[3]"): Error severity
// with reason DescriptionTooLong for an over-long description and InvalidEntry
// for the rest, except the official registry's stricter name rule, which is a
// Warning.
func ValidateServer(s *Server, obj ObjectRef, fieldPrefix string) Diagnostics {
	var ds Diagnostics
	label := fmt.Sprintf("server %q: ", s.Name())
	f := func(name string) string {
		if fieldPrefix == "" {
			return name
		}
		return fieldPrefix + "." + name
	}
	bad := func(field, format string, args ...any) {
		ds = append(ds, Errorf(ReasonInvalidEntry, obj, f(field), label+format, args...))
	}

	// name
	if raw, ok := s.Get(KeyName); !ok {
		bad(KeyName, "name is required")
	} else if _, isStr := jsonx.String(raw); !isStr {
		bad(KeyName, "name must be a string")
	} else if invalid, strict := CheckName(s.Name()); invalid != "" {
		bad(KeyName, "%s", invalid)
	} else if strict != "" {
		ds = append(ds, Warningf(ReasonInvalidEntry, obj, f(KeyName), label+"%s", strict))
	}

	// description
	if raw, ok := s.Get(KeyDescription); !ok {
		bad(KeyDescription, "description is required")
	} else if _, isStr := jsonx.String(raw); !isStr {
		bad(KeyDescription, "description must be a string")
	} else if n := utf8.RuneCountInString(s.Description()); n == 0 {
		bad(KeyDescription, "description is empty; it must be 1 to %d characters", DescriptionMaxLen)
	} else if n > DescriptionMaxLen {
		ds = append(ds, Errorf(ReasonDescriptionTooLong, obj, f(KeyDescription),
			label+"description is %d characters; the maximum is %d", n, DescriptionMaxLen))
	}

	// title (optional)
	if raw, ok := s.Get(KeyTitle); ok {
		if t, isStr := jsonx.String(raw); !isStr {
			bad(KeyTitle, "title must be a string")
		} else if n := utf8.RuneCountInString(t); n == 0 || n > TitleMaxLen {
			bad(KeyTitle, "title is %d characters; it must be 1 to %d", n, TitleMaxLen)
		}
	}

	// version
	if raw, ok := s.Get(KeyVersion); !ok {
		bad(KeyVersion, "version is required")
	} else if _, isStr := jsonx.String(raw); !isStr {
		bad(KeyVersion, "version must be a string")
	} else if v := s.Version(); v == "" {
		bad(KeyVersion, "version is empty")
	} else if utf8.RuneCountInString(v) > VersionMaxLen {
		bad(KeyVersion, "version is longer than %d characters", VersionMaxLen)
	} else if v == "latest" {
		bad(KeyVersion, "version must not be \"latest\"; use a specific version")
	}

	if raw, ok := s.Get(KeySchema); ok {
		if v, isStr := jsonx.String(raw); !isStr || !isURI(v) {
			bad(KeySchema, "$schema must be a URI string")
		}
	}
	if raw, ok := s.Get("websiteUrl"); ok {
		if v, isStr := jsonx.String(raw); !isStr || !isURI(v) {
			bad("websiteUrl", "websiteUrl must be a URI string")
		}
	}
	if raw, ok := s.Get("repository"); ok {
		checkRepository(raw, bad)
	}
	if raw, ok := s.Get(KeyRemotes); ok {
		checkTransports(raw, KeyRemotes, true, bad)
	}
	if raw, ok := s.Get(KeyPackages); ok {
		checkPackages(raw, bad)
	}
	if raw, ok := s.Get(KeyMeta); ok {
		checkMeta(raw, bad)
	}
	return ds
}

func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

type badFunc func(field, format string, args ...any)

func checkRepository(raw json.RawMessage, bad badFunc) {
	ms, err := jsonx.Members(raw)
	if err != nil {
		bad("repository", "repository must be an object")
		return
	}
	var hasURL, hasSource bool
	for _, m := range ms {
		switch m.Key {
		case "url":
			v, ok := jsonx.String(m.Value)
			hasURL = ok
			if ok && !isURI(v) {
				bad("repository.url", "repository.url %q is not a URI", v)
			}
		case "source":
			_, hasSource = jsonx.String(m.Value)
		}
	}
	if !hasURL || !hasSource {
		bad("repository", "repository needs string \"url\" and \"source\"")
	}
}

// checkTransports checks a list of transports ("remotes") or, with remote
// false, a single package transport given as a one-element list.
func checkTransports(raw json.RawMessage, field string, remote bool, bad badFunc) {
	els, err := jsonx.Elements(raw)
	if err != nil {
		bad(field, "%s must be an array", field)
		return
	}
	for i, el := range els {
		checkTransport(el, fmt.Sprintf("%s[%d]", field, i), remote, bad)
	}
}

func checkTransport(el json.RawMessage, field string, remote bool, bad badFunc) {
	ms, err := jsonx.Members(el)
	if err != nil {
		bad(field, "%s must be an object", field)
		return
	}
	var typ, u string
	var hasURL bool
	for _, m := range ms {
		switch m.Key {
		case "type":
			typ, _ = jsonx.String(m.Value)
		case "url":
			u, hasURL = jsonx.String(m.Value)
			if !hasURL {
				bad(field+".url", "%s.url must be a string", field)
				return
			}
		case "headers":
			checkKeyValues(m.Value, field+".headers", bad)
		}
	}
	switch typ {
	case TransportStreamableHTTP, TransportSSE:
		if !hasURL {
			bad(field+".url", "%s of type %q needs a url", field, typ)
		} else if !RemoteURLPattern.MatchString(u) {
			bad(field+".url", "%s.url %q does not match %s", field, u, RemoteURLPattern)
		}
	case TransportStdio:
		if remote {
			bad(field+".type", "%s.type is %q; a remote must be %q or %q", field, typ, TransportStreamableHTTP, TransportSSE)
		}
	default:
		want := fmt.Sprintf("%q or %q", TransportStreamableHTTP, TransportSSE)
		if !remote {
			want = fmt.Sprintf("%q, %q or %q", TransportStdio, TransportStreamableHTTP, TransportSSE)
		}
		bad(field+".type", "%s.type is %q; it must be %s", field, typ, want)
	}
}

func checkKeyValues(raw json.RawMessage, field string, bad badFunc) {
	els, err := jsonx.Elements(raw)
	if err != nil {
		bad(field, "%s must be an array", field)
		return
	}
	for i, el := range els {
		ms, err := jsonx.Members(el)
		if err != nil {
			bad(fmt.Sprintf("%s[%d]", field, i), "%s[%d] must be an object", field, i)
			continue
		}
		hasName := false
		for _, m := range ms {
			if m.Key == "name" {
				_, hasName = jsonx.String(m.Value)
			}
		}
		if !hasName {
			bad(fmt.Sprintf("%s[%d].name", field, i), "%s[%d] needs a string name", field, i)
		}
	}
}

func checkPackages(raw json.RawMessage, bad badFunc) {
	els, err := jsonx.Elements(raw)
	if err != nil {
		bad(KeyPackages, "packages must be an array")
		return
	}
	for i, el := range els {
		field := fmt.Sprintf("packages[%d]", i)
		ms, err := jsonx.Members(el)
		if err != nil {
			bad(field, "%s must be an object", field)
			continue
		}
		var hasType, hasID, hasTransport bool
		for _, m := range ms {
			switch m.Key {
			case "registryType":
				_, hasType = jsonx.String(m.Value)
			case "identifier":
				_, hasID = jsonx.String(m.Value)
			case "transport":
				hasTransport = true
				checkTransport(m.Value, field+".transport", false, bad)
			case "environmentVariables":
				checkKeyValues(m.Value, field+".environmentVariables", bad)
			}
		}
		if !hasType || !hasID || !hasTransport {
			bad(field, "%s needs registryType, identifier and transport", field)
		}
	}
}

// checkMeta checks _meta: the publisher-provided object, and inside it
// ToolHive's namespace against ToolHive's publisher-provided schema, which its
// registry server enforces.
func checkMeta(raw json.RawMessage, bad badFunc) {
	ms, err := jsonx.Members(raw)
	if err != nil {
		bad(KeyMeta, "_meta must be an object")
		return
	}
	for _, m := range ms {
		if m.Key != PublisherProvidedKey {
			continue
		}
		field := KeyMeta + "[" + PublisherProvidedKey + "]"
		pubs, err := jsonx.Members(m.Value)
		if err != nil {
			bad(field, "%s must be an object", field)
			continue
		}
		for _, p := range pubs {
			pfield := field + "[" + p.Key + "]"
			entries, err := jsonx.Members(p.Value)
			if err != nil {
				bad(pfield, "publisher %q extensions must be an object", p.Key)
				continue
			}
			if p.Key != ToolHivePublisher {
				continue
			}
			for _, e := range entries {
				checkToolHiveExtensions(e.Value, pfield+"["+e.Key+"]", bad)
			}
		}
	}
}

func checkToolHiveExtensions(raw json.RawMessage, field string, bad badFunc) {
	ms, err := jsonx.Members(raw)
	if err != nil {
		bad(field, "ToolHive extensions must be an object")
		return
	}
	hasStatus := false
	for _, m := range ms {
		mf := field + "." + m.Key
		switch m.Key {
		case "status":
			v, _ := jsonx.String(m.Value)
			hasStatus = true
			switch v {
			case "active", "deprecated", "Active", "Deprecated":
			default:
				bad(mf, "status %s must be active or deprecated", m.Value)
			}
		case "tier":
			if v, _ := jsonx.String(m.Value); v != "Official" && v != "Community" {
				bad(mf, "tier %s must be Official or Community", m.Value)
			}
		case "tools":
			checkStringSet(m.Value, mf, toolPattern, bad)
		case "tags":
			checkStringSet(m.Value, mf, tagPattern, bad)
		case "docker_tags", "args":
			checkStringSet(m.Value, mf, nil, bad)
		case "proxy_port":
			var n float64
			if err := json.Unmarshal(m.Value, &n); err != nil || n != float64(int(n)) || n < 1 || n > 65535 {
				bad(mf, "proxy_port %s must be an integer from 1 to 65535", m.Value)
			}
		case "stateless":
			if k := jsonx.Kind(m.Value); k != 't' && k != 'f' {
				bad(mf, "stateless must be a boolean")
			}
		case "env_vars":
			els, err := jsonx.Elements(m.Value)
			if err != nil {
				bad(mf, "env_vars must be an array")
				continue
			}
			for i, el := range els {
				ems, err := jsonx.Members(el)
				if err != nil {
					bad(fmt.Sprintf("%s[%d]", mf, i), "env var must be an object")
					continue
				}
				for _, em := range ems {
					if em.Key == "name" {
						if v, ok := jsonx.String(em.Value); !ok || !envPattern.MatchString(v) {
							bad(fmt.Sprintf("%s[%d].name", mf, i), "env var name %s must match %s", em.Value, envPattern)
						}
					}
				}
			}
		case "overview":
			if _, ok := jsonx.String(m.Value); !ok {
				bad(mf, "overview must be a string")
			}
		case "metadata", "custom_metadata", "permissions", "provenance", "oauth_config":
			if jsonx.Kind(m.Value) != '{' {
				bad(mf, "%s must be an object", m.Key)
			}
		case "tool_definitions":
			if jsonx.Kind(m.Value) != '[' {
				bad(mf, "tool_definitions must be an array")
			}
		}
	}
	if !hasStatus {
		bad(field+".status", "ToolHive extensions need a status (active or deprecated)")
	}
}

// checkStringSet checks an array of unique strings, each matching re if set.
func checkStringSet(raw json.RawMessage, field string, re *regexp.Regexp, bad badFunc) {
	els, err := jsonx.Elements(raw)
	if err != nil {
		bad(field, "%s must be an array", field)
		return
	}
	seen := make(map[string]bool, len(els))
	for _, el := range els {
		v, ok := jsonx.String(el)
		if !ok {
			bad(field, "%s must hold strings, not %s", field, el)
			continue
		}
		if re != nil && !re.MatchString(v) {
			bad(field, "%s value %q does not match %s", field, v, re)
		}
		if seen[v] {
			bad(field, "%s value %q appears twice; values must be unique", field, v)
		}
		seen[v] = true
	}
}

// ValidateRegistry checks a whole document: the document rules (version
// pattern, RFC 3339 last_updated), every server, unique names and unique
// remote URLs. Diagnostics are on obj, sorted.
func ValidateRegistry(r *Registry, obj ObjectRef) Diagnostics {
	var ds Diagnostics
	if !docVersionRE.MatchString(r.Version) {
		ds = append(ds, Errorf(ReasonInvalidEntry, obj, "version", "document version %q must match ^\\d+\\.\\d+\\.\\d+$", r.Version))
	}
	if _, err := time.Parse(time.RFC3339, r.LastUpdated); err != nil {
		ds = append(ds, Errorf(ReasonInvalidEntry, obj, "meta.last_updated", "meta.last_updated %q is not an RFC 3339 timestamp", r.LastUpdated))
	}
	names := map[string]int{}
	urls := map[string]string{}
	for i, s := range r.Servers {
		field := fmt.Sprintf("data.servers[%d]", i)
		ds = append(ds, ValidateServer(s, obj, field)...)
		if j, dup := names[s.Name()]; dup && s.Name() != "" {
			ds = append(ds, Errorf(ReasonDuplicateServer, obj, field+".name",
				"server %q: name already used by data.servers[%d]; names must be unique", s.Name(), j))
		} else {
			names[s.Name()] = i
		}
		for k, rm := range s.Remotes() {
			if rm.URL == "" {
				continue
			}
			if other, dup := urls[rm.URL]; dup && other != s.Name() {
				ds = append(ds, Errorf(ReasonDuplicateRemoteURL, obj, fmt.Sprintf("%s.remotes[%d].url", field, k),
					"server %q: remote URL %q is already used by server %q", s.Name(), rm.URL, other))
			} else if !dup {
				urls[rm.URL] = s.Name()
			}
		}
	}
	ds.Sort()
	return ds
}

// ValidateJSON parses data as an upstream document and validates it. Data in
// another shape is reported as UnknownFormat: only upstream documents are
// what ToolHive's registry server reads.
func ValidateJSON(data []byte, obj ObjectRef) Diagnostics {
	reg, ds := Parse(data, ParseOptions{Format: FormatUpstream, Source: obj})
	if reg == nil {
		return ds.Sorted()
	}
	// Parse skipped malformed entries with a warning; for validation they are errors.
	for i := range ds {
		if ds[i].Reason == ReasonInvalidEntry {
			ds[i].Severity = SeverityError
		}
	}
	if reg.Schema != "" && !isURI(reg.Schema) {
		ds = append(ds, Errorf(ReasonInvalidEntry, obj, "$schema", "$schema %q is not a URI", reg.Schema))
	}
	ds = append(ds, ValidateRegistry(reg, obj)...)
	ds.Sort()
	return ds
}
