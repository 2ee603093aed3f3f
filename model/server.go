package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// Well-known keys of an upstream server entry (server.schema.json, ServerDetail).
const (
	KeySchema      = "$schema"
	KeyName        = "name"
	KeyDescription = "description"
	KeyTitle       = "title"
	KeyVersion     = "version"
	KeyRemotes     = "remotes"
	KeyPackages    = "packages"
	KeyMeta        = "_meta"
)

// ServerSchemaURL is the server.json schema an entry built by the library names
// in "$schema" (the one ToolHive's converter and toolhive-core v0.0.43 use).
const ServerSchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// PublisherProvidedKey is the _meta key that holds publisher extensions.
const PublisherProvidedKey = "io.modelcontextprotocol.registry/publisher-provided"

// ToolHivePublisher is ToolHive's publisher namespace inside PublisherProvidedKey.
const ToolHivePublisher = "io.github.stacklok"

// Server is one upstream MCP server entry (server.json). It keeps every member of
// the JSON object in input order as raw bytes, so fields the library does not
// interpret (packages, icons, _meta, unknown keys) come out exactly as they went
// in. The fields the library reads are decoded once and cached.
//
// The zero value is an empty entry. A Server parsed from bytes aliases them: do
// not modify the input afterwards.
type Server struct {
	members     []jsonx.Member
	name        string
	description string
	version     string
	origin      string
}

// NewServer returns an entry with $schema, name, description and version set.
func NewServer(name, description, version string) *Server {
	s := &Server{}
	s.Set(KeySchema, jsonx.Quote(ServerSchemaURL))
	s.SetName(name)
	s.SetDescription(description)
	s.SetVersion(version)
	return s
}

// ParseServer reads one server entry. It fails only when data is not a JSON
// object; whether the entry is valid is Validate's business.
func ParseServer(data []byte) (*Server, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("invalid JSON")
	}
	return parseValidServer(data)
}

// parseValidServer is ParseServer for bytes already checked by json.Valid.
func parseValidServer(data []byte) (*Server, error) {
	ms, err := jsonx.Members(data)
	if err != nil {
		return nil, fmt.Errorf("server entry is %s", describeKind(data))
	}
	s := &Server{members: ms}
	// Later duplicates of a key win, as in encoding/json; drop the earlier ones
	// so that output never carries two members with one key.
	if hasDuplicateKeys(ms) {
		s.members = dedupeMembers(ms)
	}
	for _, m := range s.members {
		switch m.Key {
		case KeyName:
			s.name, _ = jsonx.String(m.Value)
		case KeyDescription:
			s.description, _ = jsonx.String(m.Value)
		case KeyVersion:
			s.version, _ = jsonx.String(m.Value)
		}
	}
	return s, nil
}

func hasDuplicateKeys(ms []jsonx.Member) bool {
	if len(ms) < 16 {
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				if ms[i].Key == ms[j].Key {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(ms))
	for _, m := range ms {
		if _, ok := seen[m.Key]; ok {
			return true
		}
		seen[m.Key] = struct{}{}
	}
	return false
}

func dedupeMembers(ms []jsonx.Member) []jsonx.Member {
	last := make(map[string]int, len(ms))
	for i, m := range ms {
		last[m.Key] = i
	}
	out := make([]jsonx.Member, 0, len(last))
	for i, m := range ms {
		if last[m.Key] == i {
			out = append(out, m)
		}
	}
	return out
}

func describeKind(raw []byte) string {
	switch jsonx.Kind(raw) {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '0':
		return "a number"
	}
	return "empty"
}

// Origin is the field path the entry was read from (for example
// "data[registry.json].data.servers[3]" or "servers[github]"), set by Parse so
// that later diagnostics point at the input; "" for entries built in memory.
func (s *Server) Origin() string { return s.origin }

// SetOrigin sets the field path diagnostics use for the entry.
func (s *Server) SetOrigin(field string) { s.origin = field }

// Name returns the entry's name, or "" when absent or not a string.
func (s *Server) Name() string { return s.name }

// Description returns the entry's description, or "".
func (s *Server) Description() string { return s.description }

// Version returns the entry's version, or "".
func (s *Server) Version() string { return s.version }

// Title returns the entry's title, or "".
func (s *Server) Title() string {
	v, _ := s.Get(KeyTitle)
	t, _ := jsonx.String(v)
	return t
}

// SetName sets "name".
func (s *Server) SetName(name string) {
	s.name = name
	s.Set(KeyName, jsonx.Quote(name))
}

// SetDescription sets "description".
func (s *Server) SetDescription(d string) {
	s.description = d
	s.Set(KeyDescription, jsonx.Quote(d))
}

// SetVersion sets "version".
func (s *Server) SetVersion(v string) {
	s.version = v
	s.Set(KeyVersion, jsonx.Quote(v))
}

// Get returns the raw value of a top-level key.
func (s *Server) Get(key string) (json.RawMessage, bool) {
	for _, m := range s.members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Set replaces the raw value of a top-level key in place, or appends the key.
// value must be valid JSON; the cached name, description and version follow it.
func (s *Server) Set(key string, value json.RawMessage) {
	switch key {
	case KeyName:
		s.name, _ = jsonx.String(value)
	case KeyDescription:
		s.description, _ = jsonx.String(value)
	case KeyVersion:
		s.version, _ = jsonx.String(value)
	}
	for i := range s.members {
		if s.members[i].Key == key {
			s.members[i].Value = value
			return
		}
	}
	s.members = append(s.members, jsonx.Member{Key: key, Value: value})
}

// Delete removes a top-level key.
func (s *Server) Delete(key string) {
	s.members = slices.DeleteFunc(s.members, func(m jsonx.Member) bool { return m.Key == key })
	switch key {
	case KeyName:
		s.name = ""
	case KeyDescription:
		s.description = ""
	case KeyVersion:
		s.version = ""
	}
}

// Keys returns the top-level keys in order.
func (s *Server) Keys() []string {
	out := make([]string, len(s.members))
	for i, m := range s.members {
		out[i] = m.Key
	}
	return out
}

// Clone returns a copy that can be changed without affecting s. Raw values are
// shared, which is safe because Set replaces values rather than editing them.
func (s *Server) Clone() *Server {
	c := *s
	c.members = slices.Clone(s.members)
	return &c
}

// Remote is one entry of "remotes": a transport type and URL. Raw keeps the whole
// original object (headers, variables) when the remote came from input.
type Remote struct {
	Type string
	URL  string
	Raw  json.RawMessage
}

// Remotes returns the entry's remotes. Elements that are not objects are
// returned with empty Type and URL and their raw bytes, so validation can name them.
func (s *Server) Remotes() []Remote {
	raw, ok := s.Get(KeyRemotes)
	if !ok {
		return nil
	}
	els, err := jsonx.Elements(raw)
	if err != nil {
		return nil
	}
	out := make([]Remote, 0, len(els))
	for _, el := range els {
		r := Remote{Raw: el}
		if ms, err := jsonx.Members(el); err == nil {
			for _, m := range ms {
				switch m.Key {
				case "type":
					r.Type, _ = jsonx.String(m.Value)
				case "url":
					r.URL, _ = jsonx.String(m.Value)
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// SetRemotes replaces "remotes". A Remote with Raw set is written as Raw;
// otherwise as {"type","url"}. An empty list removes the key.
func (s *Server) SetRemotes(rs []Remote) {
	if len(rs) == 0 {
		s.Delete(KeyRemotes)
		return
	}
	b := []byte{'['}
	for i, r := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		if len(r.Raw) > 0 {
			b = jsonx.AppendCompact(b, r.Raw)
			continue
		}
		b = append(b, `{"type":`...)
		b = jsonx.AppendQuote(b, r.Type)
		b = append(b, `,"url":`...)
		b = jsonx.AppendQuote(b, r.URL)
		b = append(b, '}')
	}
	b = append(b, ']')
	s.Set(KeyRemotes, b)
}

// PackageIdentifiers returns the "identifier" of each package with the given
// registryType ("oci" for container images); all packages when registryType is "".
func (s *Server) PackageIdentifiers(registryType string) []string {
	raw, ok := s.Get(KeyPackages)
	if !ok {
		return nil
	}
	els, err := jsonx.Elements(raw)
	if err != nil {
		return nil
	}
	var out []string
	for _, el := range els {
		ms, err := jsonx.Members(el)
		if err != nil {
			continue
		}
		var typ, id string
		for _, m := range ms {
			switch m.Key {
			case "registryType":
				typ, _ = jsonx.String(m.Value)
			case "identifier":
				id, _ = jsonx.String(m.Value)
			}
		}
		if id != "" && (registryType == "" || strings.EqualFold(typ, registryType)) {
			out = append(out, id)
		}
	}
	return out
}

// Tags returns the entry's tags: those of a top-level "tags" array (legacy
// shape) and those under _meta.publisher-provided.<publisher>.<key>.tags for
// every publisher and key. The result is sorted and without duplicates.
func (s *Server) Tags() []string {
	var tags []string
	if raw, ok := s.Get("tags"); ok {
		tags = appendStrings(tags, raw)
	}
	meta, ok := s.Get(KeyMeta)
	if !ok {
		return finishTags(tags)
	}
	ms, err := jsonx.Members(meta)
	if err != nil {
		return finishTags(tags)
	}
	for _, m := range ms {
		if m.Key != PublisherProvidedKey {
			continue
		}
		publishers, err := jsonx.Members(m.Value)
		if err != nil {
			continue
		}
		for _, p := range publishers {
			entries, err := jsonx.Members(p.Value)
			if err != nil {
				continue
			}
			for _, e := range entries {
				fields, err := jsonx.Members(e.Value)
				if err != nil {
					continue
				}
				for _, f := range fields {
					if f.Key == "tags" {
						tags = appendStrings(tags, f.Value)
					}
				}
			}
		}
	}
	return finishTags(tags)
}

func appendStrings(dst []string, raw []byte) []string {
	els, err := jsonx.Elements(raw)
	if err != nil {
		return dst
	}
	for _, el := range els {
		if v, ok := jsonx.String(el); ok {
			dst = append(dst, v)
		}
	}
	return dst
}

func finishTags(tags []string) []string {
	slices.Sort(tags)
	return slices.Compact(tags)
}

// AppendJSON appends the entry as compact JSON, members in order.
func (s *Server) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	for i, m := range s.members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendQuote(dst, m.Key)
		dst = append(dst, ':')
		dst = jsonx.AppendCompact(dst, m.Value)
	}
	return append(dst, '}')
}

// MarshalJSON writes the entry as compact JSON, members in input order.
func (s *Server) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(nil), nil
}

// UnmarshalJSON reads an entry; see ParseServer.
func (s *Server) UnmarshalJSON(data []byte) error {
	// Own the bytes: encoding/json may reuse its buffer after this call.
	p, err := ParseServer(slices.Clone(data))
	if err != nil {
		return err
	}
	*s = *p
	return nil
}
