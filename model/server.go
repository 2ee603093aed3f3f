package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

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
// in. The name is decoded once and cached; other fields when asked for.
//
// The zero value is an empty entry. A Server parsed from bytes aliases them: do
// not modify the input afterwards.
type Server struct {
	// members are the entry's members, unless packed holds them.
	members []jsonx.Member
	// packed, while the members are as the scan read them (keys without
	// escapes, none repeated), holds them instead: where each key's
	// contents and value lie in raw. Sixteen bytes a member without a
	// pointer, where a Member is forty with two: a large merge holds
	// millions, and the collector reads each pointer. A change of any
	// member unpacks them into members first.
	packed []jsonx.MemberSpan
	// first is, with packed, where the scan found the first member of each
	// key jsonx.FirstID numbers (see jsonx.KeyFacts.First): Get finds
	// the name, description, version, title and $schema without a loop.
	first [jsonx.FirstKeys]uint8
	name  string
	// origin is the field path the entry was read from or, when
	// originIndex > 0, the path of the list it is element originIndex-1 of:
	// Parse records list and index and Origin joins them only when asked,
	// since a merge of many entries asks for few.
	origin      string
	originIndex int
	// raw is the entry's text as read and index, when indexed, where its
	// objects and arrays lie in raw, recorded by the pass that validated the
	// JSON (bigNumbers: whether it holds a number that may not fit a
	// float64). ValidateServer uses them for the member values still
	// aliasing raw instead of indexing each value again.
	raw        []byte
	index      []jsonx.Span
	indexed    bool
	bigNumbers bool
	// inexact is set when the scan found a number literal a float64 may
	// not hold exactly (see jsonx.Index.Inexact).
	inexact bool
	// textOK is set when every key and string of the entry is known to be
	// Unicode text — no invalid UTF-8, no lone surrogate escape — so that
	// badText has nothing to look for: the scan that validated the JSON
	// found no byte of 0x80 or more and no surrogate escape, and every
	// member set since was checked as it was set.
	textOK bool
	// keyNotText is set when the scan found a member name of the entry
	// that is not Unicode text: decoded, it reads as U+FFFD, so badText
	// cannot tell from the key itself.
	keyNotText bool
	// compact is set when no member value has whitespace outside strings,
	// so AppendJSON can copy values without looking for it.
	compact bool
	// fusedRemotes, fusedPackages and fusedBlock (offsets in raw of the
	// publisher-provided block, end 0 for none) are the facts of the lean
	// reading of the large members by the scan that read the entry (see
	// leanScan), when fused is set. (Offsets rather than a slice: no
	// pointer for the collector to follow in every entry of a merge.)
	fusedRemotes, fusedPackages int32
	fusedBlock                  [2]int32
	// fusedURL is where in raw the URL of the only remote lies (end 0
	// when there is not exactly one), as the lean reading found it: plain,
	// so its contents are the URL (see RemoteURLs).
	fusedURL [2]int32
	// rawText is set while the entry is unchanged since it was read and
	// raw is what AppendJSON writes (see text): the entry's own bytes,
	// compact, with every key written as AppendQuote writes it. Writing a
	// large merge is then one copy per entry. (A flag rather than a second
	// slice of the same bytes: a pointer less in every entry of a merge.)
	rawText bool
	// fused is set when the scan's lean reading accepted every member it
	// reads (leanKey) that is an object or an array, and none of them has
	// been set or deleted since: leanEntry need not read them again.
	fused bool
	// unnumbered is set, with packed, when a key of the entry is none the
	// scan numbers (jsonx.KeyFacts.Unnumbered): it may spell a server.json
	// member in another case, which leanPacked leaves to the full check.
	unnumbered bool
}

// setFused records the facts of the scan's lean reading of the entry, read
// as raw (see leanScan), and url, the URL of its first remote.
func (s *Server) setFused(f *walkFacts, url []byte) {
	s.fused = true
	s.fusedRemotes, s.fusedPackages = int32(f.remotes), int32(f.packages)
	if f.block != nil {
		s.fusedBlock = s.rawSpan(f.block)
	}
	if f.remotes == 1 && len(url) > 0 {
		s.fusedURL = s.rawSpan(url)
	}
}

// rawSpan returns where b, a slice of raw running to its end (as the
// scan's are), lies in raw: its start and end offsets.
func (s *Server) rawSpan(b []byte) [2]int32 {
	start := cap(s.raw) - cap(b)
	return [2]int32{int32(start), int32(start + len(b))}
}

// fusedFacts returns the facts setFused recorded. The block is a slice of
// raw as the lean reading's was, capacity included: canonicalize finds it
// in raw by its capacity.
func (s *Server) fusedFacts() walkFacts {
	f := walkFacts{remotes: int(s.fusedRemotes), packages: int(s.fusedPackages)}
	if s.fusedBlock[1] > 0 {
		f.block = s.raw[s.fusedBlock[0]:s.fusedBlock[1]]
	}
	return f
}

// text, while the entry is unchanged since it was read, is what AppendJSON
// writes (see rawText); nil otherwise.
func (s *Server) text() []byte {
	if s.rawText {
		return s.raw
	}
	return nil
}

// memberCount returns how many members the entry has.
func (s *Server) memberCount() int {
	if s.packed != nil {
		return len(s.packed)
	}
	return len(s.members)
}

// memberAt returns member i. A packed member's key and value alias raw, as
// a member read from it does: the value's capacity runs to the end of raw
// (see fromRaw).
func (s *Server) memberAt(i int) jsonx.Member {
	if s.packed == nil {
		return s.members[i]
	}
	return s.unpacked(s.packed[i])
}

// unpacked returns the member p says where it lies in raw.
func (s *Server) unpacked(p jsonx.MemberSpan) jsonx.Member {
	k := s.raw[p.Key.Start:p.Key.End]
	return jsonx.Member{Key: unsafe.String(unsafe.SliceData(k), len(k)), Value: s.raw[p.Value.Start:p.Value.End]}
}

// unpack moves packed members to members, before a change of them.
func (s *Server) unpack() {
	if s.packed == nil {
		return
	}
	ms := make([]jsonx.Member, len(s.packed))
	for i := range ms {
		ms[i] = s.memberAt(i)
	}
	s.members, s.packed = ms, nil
}

// NewServer returns an entry with $schema, name, description and version set.
func NewServer(name, description, version string) *Server {
	s := &Server{compact: true}
	s.Set(KeySchema, jsonx.Quote(ServerSchemaURL))
	s.SetName(name)
	s.SetDescription(description)
	s.SetVersion(version)
	return s
}

// ParseServer reads one server entry. It fails only when data is not a JSON
// object; whether the entry is valid is Validate's business.
func ParseServer(data []byte) (*Server, error) {
	if !jsonx.Valid(data) {
		return nil, fmt.Errorf("invalid JSON")
	}
	return parseValidServer(data)
}

// parseValidServer is ParseServer for bytes already checked by json.Valid.
func parseValidServer(data []byte) (*Server, error) {
	s, _, err := parseValidServerMembers(data)
	return s, err
}

// parseValidServerMembers is parseValidServer that also returns the
// entry's members as read when it repeats a key (nil otherwise), for the
// DuplicateKey diagnostics.
func parseValidServerMembers(data []byte) (*Server, []jsonx.Member, error) {
	ms, err := jsonx.Members(data)
	if err != nil {
		return nil, nil, fmt.Errorf("server entry is %s", describeKind(data))
	}
	s := &Server{members: ms, compact: !jsonx.HasSpace(data)}
	// Later duplicates of a key win, as in encoding/json; drop the earlier ones
	// so that output never carries two members with one key.
	var read []jsonx.Member
	if hasDuplicateKeys(ms) {
		read, s.members = ms, dedupeMembers(ms)
	}
	s.readCached()
	return s, read, nil
}

// stringIn decodes a string literal of the entry as jsonx.String does,
// but returns the contents of a literal without escapes (valid UTF-8) as a
// string sharing its bytes rather than a copy. The entry's values alias the
// text it was read from, which must not change (see Server), so such a
// string cannot change either; a merge decodes the name, version and remote
// URLs of every entry, and copying them was most of its allocations.
func stringIn(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '"') < 0 && plainBytes(inner) {
			return unsafe.String(unsafe.SliceData(inner), len(inner)), true
		}
	}
	return jsonx.String(raw)
}

// readName is readCached for members without a repeated key, of which
// those in plain (a bit per position, of the first 64) have values that are
// string literals of printable ASCII without escapes, as the scan found:
// the name's contents are then the name, and are not looked at again.
func (s *Server) readName(plain uint64) {
	i := s.indexOf(KeyName)
	if i < 0 {
		return
	}
	if v := s.memberAt(i).Value; i < 64 && plain&(1<<i) != 0 {
		v = v[1 : len(v)-1]
		s.name = unsafe.String(unsafe.SliceData(v), len(v))
	} else {
		s.name, _ = stringIn(v)
	}
}

// readCached decodes the members the Server caches.
func (s *Server) readCached() {
	for i := range s.memberCount() {
		if m := s.memberAt(i); m.Key == KeyName {
			s.name, _ = stringIn(m.Value)
		}
	}
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

// duplicateKeys appends to ds a DuplicateKey warning for each key that ms,
// the members of one object, gives more than once, in the order of the
// keys' first members; field(key) is the path of the key's member. It reads
// ms once (and once more only when a key repeats) and asks lim before
// building each diagnostic, so a hostile object costs one summary.
func duplicateKeys(ds Diagnostics, ms []jsonx.Member, obj ObjectRef, field func(key string) string, lim *limiter) Diagnostics {
	if !hasDuplicateKeys(ms) {
		return ds
	}
	count := make(map[string]int, len(ms))
	for _, m := range ms {
		count[m.Key]++
	}
	for _, m := range ms {
		n := count[m.Key]
		if n < 2 {
			continue
		}
		count[m.Key] = 0 // reported
		if lim.ok(ReasonDuplicateKey, SeverityWarning) {
			ds = append(ds, Warningf(ReasonDuplicateKey, obj, field(m.Key),
				"key %q is given %d times; the last member is kept, as encoding/json reads it, and the others are dropped", m.Key, n))
		}
	}
	return ds
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
func (s *Server) Origin() string {
	if s.originIndex > 0 {
		return s.origin + "[" + strconv.Itoa(s.originIndex-1) + "]"
	}
	return s.origin
}

// setOriginElement records that the entry is element i of the list at path.
func (s *Server) setOriginElement(path string, i int) { s.origin, s.originIndex = path, i+1 }

// Name returns the entry's name, or "" when absent or not a string (or s is
// nil).
func (s *Server) Name() string {
	if s == nil {
		return ""
	}
	return s.name
}

// Description returns the entry's description, or "". It is decoded when
// asked for: a merge checks the descriptions of many entries without
// decoding them.
func (s *Server) Description() string { return s.stringMember(KeyDescription) }

// Version returns the entry's version, or "".
func (s *Server) Version() string { return s.stringMember(KeyVersion) }

// stringMember returns the decoded string value of a top-level key, or "".
func (s *Server) stringMember(key string) string {
	v, _ := s.Get(key)
	str, _ := stringIn(v)
	return str
}

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

// HasDescription reports whether the entry has a description other than
// the empty string literal: the entries a merge and a conversion give a
// stand-in to (a description of any other kind is the checks' to refuse).
func (s *Server) HasDescription() bool {
	raw, ok := s.Get(KeyDescription)
	return ok && string(bytes.TrimSpace(raw)) != `""`
}

// SetDescription sets "description".
func (s *Server) SetDescription(d string) {
	s.Set(KeyDescription, jsonx.Quote(d))
}

// SetVersion sets "version".
func (s *Server) SetVersion(v string) {
	s.Set(KeyVersion, jsonx.Quote(v))
}

// Get returns the raw value of a top-level key. It shares memory with the
// data the entry was parsed from (which may be a string's): do not modify it.
func (s *Server) Get(key string) (json.RawMessage, bool) {
	if s == nil {
		return nil, false
	}
	if v := s.firstValue(key); v != nil {
		return v, true
	}
	switch i := s.indexOf(key); {
	case i < 0:
		return nil, false
	case s.packed != nil:
		p := s.packed[i]
		return s.raw[p.Value.Start:p.Value.End], true
	default:
		return s.members[i].Value, true
	}
}

// firstValue returns the value of key when key is one jsonx.FirstID
// numbers, s is packed with at most 255 members (see first) and has it; nil
// otherwise. Small enough to be inlined: with a constant key, as the
// callers pass, FirstID is settled when compiling.
func (s *Server) firstValue(key string) []byte {
	if id := jsonx.FirstID(key); id > 0 && s.packed != nil && len(s.packed) <= 255 {
		if i := s.first[id]; i > 0 {
			p := s.packed[i-1]
			return s.raw[p.Value.Start:p.Value.End]
		}
	}
	return nil
}

// indexOf returns the position of the first member of key, or -1.
func (s *Server) indexOf(key string) int {
	if s.packed != nil {
		if id := jsonx.FirstID(key); id > 0 && len(s.packed) <= 255 {
			return int(s.first[id]) - 1
		}
		// Lengths first: most keys differ from key in length.
		for i, p := range s.packed {
			if int(p.Key.End-p.Key.Start) == len(key) && string(s.raw[p.Key.Start:p.Key.End]) == key {
				return i
			}
		}
		return -1
	}
	for i := range s.members {
		if s.members[i].Key == key {
			return i
		}
	}
	return -1
}

// Set replaces the raw value of a top-level key in place, or appends the key.
// value must be valid JSON; the cached name follows it.
func (s *Server) Set(key string, value json.RawMessage) {
	if key == KeyName {
		s.name, _ = jsonx.String(value)
	}
	s.rawText = false
	if leanKey(key) {
		s.fused = false
	}
	s.textOK = s.textOK && utf8.ValidString(key) && textProblemAt(value) < 0
	if s.compact && hasSpace(value) {
		s.compact = false
	}
	s.unpack()
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
	s.rawText = false
	if leanKey(key) {
		s.fused = false
	}
	s.unpack()
	s.members = slices.DeleteFunc(s.members, func(m jsonx.Member) bool { return m.Key == key })
	if key == KeyName {
		s.name = ""
	}
}

// Keys returns the top-level keys in order.
func (s *Server) Keys() []string {
	out := make([]string, s.memberCount())
	for i := range out {
		out[i] = s.memberAt(i).Key
	}
	return out
}

// Clone returns a copy that can be changed without affecting s. Raw values are
// shared, which is safe because Set replaces values rather than editing them.
func (s *Server) Clone() *Server {
	c := *s
	c.members = slices.Clone(s.members) // packed members are never changed in place
	return &c
}

// Remote is one entry of "remotes": a transport type and URL. Raw keeps the whole
// original object (headers, variables) when the remote came from input.
type Remote struct {
	Type string
	URL  string
	Raw  json.RawMessage
}

// declaredVariables returns a lookup of the names the remote's "variables"
// object declares (the names its URL template may use), built once: a
// template's names are then looked up in constant time each, however many
// there are.
func (r Remote) declaredVariables() func(name string) bool {
	var names map[string]bool
	if ms, err := jsonx.Members(r.Raw); err == nil {
		for _, m := range ms {
			if m.Key != "variables" {
				continue
			}
			names = map[string]bool{} // the last "variables" counts, as in a decoder
			if vs, err := jsonx.Members(m.Value); err == nil {
				for _, v := range vs {
					names[v.Key] = true
				}
			}
		}
	}
	return func(name string) bool { return names[name] }
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

// RemoteURLs yields the non-empty "url" of each remote, in order: the URLs
// of Remotes, read without building them.
func (s *Server) RemoteURLs() iter.Seq[string] {
	return func(yield func(string) bool) {
		if s.fused && s.fusedURL[1] > 0 {
			// The scan's lean reading found the only remote and its URL,
			// plain: no escapes, so the literal's contents are the URL.
			u := s.raw[s.fusedURL[0]:s.fusedURL[1]]
			yield(unsafe.String(unsafe.SliceData(u), len(u)))
			return
		}
		if s.fused && s.fusedRemotes == 0 {
			// The lean reading found no remote (or no "remotes").
			return
		}
		raw, ok := s.Get(KeyRemotes)
		if !ok {
			return
		}
		x := s.spanIndex()
		_ = jsonx.ForEachElementIn(raw, &x, func(el []byte) bool {
			var url []byte
			_ = jsonx.ForEachMemberIn(el, &x, func(k, v []byte) bool {
				// A key without escapes is "url" only as those bytes;
				// only one with escapes needs decoding.
				if string(k) == "url" || bytes.IndexByte(k, '\\') >= 0 && jsonx.KeyIs(k, "url") {
					url = v // the last one counts, as in Remotes
				}
				return true
			})
			if u, _ := stringIn(url); u != "" {
				return yield(u)
			}
			return true
		})
	}
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
	if s == nil {
		return append(dst, "null"...)
	}
	if text := s.text(); text != nil {
		return append(dst, text...)
	}
	dst = append(dst, '{')
	for i := range s.memberCount() {
		m := s.memberAt(i)
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendQuote(dst, m.Key)
		dst = append(dst, ':')
		switch {
		case s.compact:
			dst = append(dst, m.Value...)
		case s.fromRaw(m.Value):
			dst = jsonx.AppendCompactValid(dst, m.Value) // validated by Parse
		default:
			dst = jsonx.AppendCompact(dst, m.Value)
		}
	}
	return append(dst, '}')
}

// spanIndex returns what the scan that read the entry recorded of where its
// objects and arrays lie, for walking member values that still alias the
// text read (others are scanned as usual); empty for an entry not read by
// Parse.
func (s *Server) spanIndex() jsonx.SpanIndex {
	if !s.indexed {
		return jsonx.SpanIndex{}
	}
	return jsonx.SpanIndex{Text: s.raw, Spans: s.index}
}

// exactNumbers reports whether the scan that read the entry found every
// number literal of value to be one a float64 holds exactly, as it finds
// for an entry without fractions, exponents and integers over 15
// characters; false when it cannot tell (value is not the entry's text as
// read).
func (s *Server) exactNumbers(value []byte) bool {
	return s.indexed && !s.inexact && s.fromRaw(value)
}

// fromRaw reports whether value lies in the text the entry was read from,
// which Parse validated.
func (s *Server) fromRaw(value []byte) bool {
	if len(s.raw) == 0 || len(value) == 0 {
		return false
	}
	off := cap(s.raw) - cap(value)
	return off >= 0 && off+len(value) <= len(s.raw) && &s.raw[off] == &value[0]
}

// compactLen returns len(s.AppendJSON(nil)) when exact is set; otherwise,
// for an entry that is not compact, an upper bound of it that costs no scan
// of the members' values (enough to size a buffer).
func (s *Server) compactLen(exact bool) int {
	if text := s.text(); text != nil {
		return len(text)
	}
	n := 2 // braces
	if c := s.memberCount(); c > 1 {
		n += c - 1 // commas
	}
	for i := range s.memberCount() {
		m := s.memberAt(i)
		n += quotedLen(m.Key) + 1
		// The value as AppendJSON writes it: whitespace between the tokens
		// of a value read from indented data is not written.
		switch {
		case !exact || s.compact:
			n += len(m.Value)
		case s.fromRaw(m.Value):
			n += jsonx.CompactLenValid(m.Value)
		default:
			n += jsonx.CompactLen(m.Value)
		}
	}
	return n
}

// quotedLen is len(jsonx.AppendQuote(nil, s)), without allocating in the
// common case of a string that needs no escaping.
func quotedLen(s string) int {
	if n, ok := jsonx.PlainQuotedLen(s); ok {
		return n
	}
	return len(jsonx.Quote(s))
}

// appendIndent appends the entry as the CLI writes it inside a document,
// depth levels deep: what json.Indent with two spaces makes of AppendJSON's
// bytes, written in one pass.
func (s *Server) appendIndent(dst []byte, depth int) []byte {
	if s.memberCount() == 0 {
		return append(dst, "{}"...)
	}
	dst = append(dst, '{')
	for i := range s.memberCount() {
		m := s.memberAt(i)
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendNewline(dst, depth+1)
		dst = jsonx.AppendQuote(dst, m.Key)
		dst = append(dst, ':', ' ')
		dst = jsonx.AppendIndent(dst, m.Value, depth+1)
	}
	dst = jsonx.AppendNewline(dst, depth)
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
