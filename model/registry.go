package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// RegistrySchemaURL is the "$schema" of an upstream registry document, the
// schema ToolHive's registry server validates against (toolhive-core
// registry/types UpstreamRegistrySchemaURL).
const RegistrySchemaURL = "https://raw.githubusercontent.com/stacklok/toolhive-core/main/registry/types/data/upstream-registry.schema.json"

// RegistryVersion is the document "version" the library writes.
const RegistryVersion = "1.0.0"

// DefaultNamespace is the reverse-DNS namespace given to legacy and list
// entries whose name has none, as ToolHive's converter does.
const DefaultNamespace = "io.github.stacklok"

// Format names one of the registry data shapes Parse reads: the upstream
// document, ToolHive's legacy catalog and the list shorthand.
type Format string

// The formats. FormatAuto asks Parse to detect the shape.
const (
	FormatAuto Format = ""
	// FormatUpstream is strict: only the upstream shape is read.
	FormatUpstream Format = "upstream"
	// FormatToolHive reads either ToolHive shape, the legacy maps or the
	// list shorthand, as MCPRegistry's format "toolhive" (its default) means;
	// an upstream document is read too, with an Info (UnknownFormat): the
	// CRD's default asks for "toolhive" whatever the data.
	FormatToolHive Format = "toolhive"
	// FormatList reads the list shorthand only.
	FormatList Format = "list"
)

// ParseFormat reads a format name as users write it: "upstream", "toolhive"
// (also "legacy"), "list", or "auto"/"" for detection.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "upstream":
		return FormatUpstream, nil
	case "toolhive", "legacy":
		return FormatToolHive, nil
	case "list":
		return FormatList, nil
	}
	return "", errorf("unknown registry format %q (want upstream, toolhive, list or auto)", s)
}

// dataMember is a JSON object member kept as raw bytes.
type dataMember struct {
	Key   string
	Value json.RawMessage
}

// Registry is an upstream registry document:
// {"$schema", "version", "meta": {"last_updated"}, "data": {"servers": [...]}}.
type Registry struct {
	Schema      string
	Version     string
	LastUpdated string
	Servers     []*Server

	// dataExtra holds the members of "data" other than "servers" (skills,
	// plugins, ...), passed through unchanged.
	dataExtra []dataMember
	// versionRaw is the document "version" as read when it is not a
	// string (Version is then ""), so that Convert, which writes 1.0.0 in
	// its place, says so.
	versionRaw string
}

// OtherData returns the keys of the members of "data" other than "servers"
// (skills, plugins, ...) that Parse read, in input order. They are written
// back unchanged by AppendJSON and WriteTo; a registry built with NewRegistry
// has none.
func (r *Registry) OtherData() []string {
	keys := make([]string, len(r.dataExtra))
	for i, m := range r.dataExtra {
		keys[i] = m.Key
	}
	return keys
}

// NewRegistry returns a document with the library's schema and version.
func NewRegistry(lastUpdated string, servers []*Server) *Registry {
	return &Registry{Schema: RegistrySchemaURL, Version: RegistryVersion, LastUpdated: lastUpdated, Servers: servers}
}

// SortServers orders the servers by name, then by their JSON bytes, so that
// output does not depend on input order.
func (r *Registry) SortServers() {
	if r == nil {
		return
	}
	r.Servers = r.present()
	slices.SortStableFunc(r.Servers, func(a, b *Server) int {
		if c := strings.Compare(a.Name(), b.Name()); c != 0 {
			return c
		}
		return bytes.Compare(a.AppendJSON(nil), b.AppendJSON(nil))
	})
}

// present returns the servers without nil ones: a nil entry is no server,
// and writing or sorting skips it rather than fail.
func (r *Registry) present() []*Server {
	if !slices.Contains(r.Servers, nil) {
		return r.Servers
	}
	return slices.DeleteFunc(slices.Clone(r.Servers), func(s *Server) bool { return s == nil })
}

// AppendJSON appends the document as compact JSON.
func (r *Registry) AppendJSON(dst []byte) []byte {
	if r == nil {
		r = &Registry{}
	}
	w := sliceWriter{dst}
	r.writeJSON(&w)
	return w.b
}

// WriteTo writes the document to w as compact JSON, the bytes AppendJSON
// appends, piece by piece: an entry unchanged since it was read compact is
// written as the bytes it was read from. When w has a Grow(int) method
// (strings.Builder, bytes.Buffer) it is grown once to the document's size
// plus one byte, so a large document is built in a single allocation and a
// trailing newline still fits.
func (r *Registry) WriteTo(w io.Writer) (int64, error) {
	if r == nil {
		r = &Registry{}
	}
	if g, ok := w.(interface{ Grow(int) }); ok {
		g.Grow(r.compactLen(false) + 1)
	}
	cw := countingWriter{w: w}
	r.writeJSON(&cw)
	return cw.n, cw.err
}

// countingWriter counts what it writes and keeps the first error, after which
// it writes nothing.
type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// sliceWriter appends what is written to a slice.
type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// writeJSON writes the document as AppendJSON does to w, piece by piece. An
// entry unchanged since it was read compact is written as the bytes it was
// read from. Errors are the writer's to keep (see countingWriter).
func (r *Registry) writeJSON(w io.Writer) {
	write := func(b []byte) { _, _ = w.Write(b) }
	var buf []byte
	buf = append(buf, `{"$schema":`...)
	buf = jsonx.AppendQuote(buf, r.Schema)
	buf = append(buf, `,"version":`...)
	buf = jsonx.AppendQuote(buf, r.Version)
	buf = append(buf, `,"meta":{"last_updated":`...)
	buf = jsonx.AppendQuote(buf, r.LastUpdated)
	buf = append(buf, `},"data":{"servers":`...)
	_, _ = w.Write(buf)
	comma, open, closing := []byte{','}, []byte{'['}, []byte{']'}
	write(open)
	// The servers of a large document lie scattered in memory, and what
	// each holds is read from memory, not the cache. Read one after
	// another, each just before its bytes are written, the reads wait in
	// turn; read a batch of them first, one loop of independent loads, and
	// the waits overlap.
	const batch = 32
	var texts [batch][]byte
	servers := r.present()
	for start := 0; start < len(servers); start += batch {
		group := servers[start:min(start+batch, len(servers))]
		for j, s := range group {
			texts[j] = s.text()
		}
		for j, s := range group {
			if start+j > 0 {
				write(comma)
			}
			if text := texts[j]; text != nil {
				write(text)
			} else {
				buf = s.AppendJSON(buf[:0])
				write(buf)
			}
		}
	}
	write(closing)
	buf = buf[:0]
	for _, m := range r.dataExtra {
		buf = append(buf, ',')
		buf = jsonx.AppendQuote(buf, m.Key)
		buf = append(buf, ':')
		buf = jsonx.AppendCompact(buf, m.Value)
	}
	buf = append(buf, "}}"...)
	_, _ = w.Write(buf)
}

// CompactLen returns the length of the bytes AppendJSON appends, without
// writing them: what a size limit (a ConfigMap's 1 MiB) needs to know of a
// document nobody is going to write. It is exact also for entries read from
// indented data, whose whitespace AppendJSON does not write, so a document
// is measured the same whatever the layout of the data it was merged from.
func (r *Registry) CompactLen() int { return r.compactLen(true) }

// compactLen is CompactLen, or, without exact, an upper bound of it that
// costs no scan of entries read from indented data: enough to allocate a
// large document once.
func (r *Registry) compactLen(exact bool) int {
	if r == nil {
		r = &Registry{}
	}
	n := len(`{"$schema":,"version":,"meta":{"last_updated":},"data":{"servers":[]}}`) +
		quotedLen(r.Schema) + quotedLen(r.Version) + quotedLen(r.LastUpdated)
	for i, s := range r.present() {
		if i > 0 {
			n++
		}
		n += s.compactLen(exact)
	}
	for _, m := range r.dataExtra {
		n += 2 + quotedLen(m.Key)
		if exact {
			n += jsonx.CompactLen(m.Value)
		} else {
			n += len(m.Value)
		}
	}
	return n
}

// MarshalJSON writes the document as compact JSON.
func (r *Registry) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// Encode returns the document as the CLI prints it: two-space indented JSON
// with a trailing newline — the bytes json.Indent makes of AppendJSON's,
// written in one pass.
func (r *Registry) Encode() []byte {
	if r == nil {
		r = &Registry{}
	}
	return r.appendIndent(nil, nil)
}

// WriteIndentTo writes to w the bytes Encode returns, a server at a time
// through a buffer of 64 KiB or one server, whichever is larger: a command
// printing a large document never holds it whole.
func (r *Registry) WriteIndentTo(w io.Writer) (int64, error) {
	if r == nil {
		r = &Registry{}
	}
	cw := countingWriter{w: w}
	flush := func(b []byte) []byte {
		_, _ = cw.Write(b)
		return b[:0]
	}
	flush(r.appendIndent(make([]byte, 0, indentChunk+indentChunk/4), flush))
	return cw.n, cw.err
}

// indentChunk is the size at which WriteIndentTo writes what it built.
const indentChunk = 64 << 10

// appendIndent appends the document as Encode returns it. With a flush
// function, it hands flush what it built whenever that reaches indentChunk,
// between servers, and goes on with what flush returns.
func (r *Registry) appendIndent(dst []byte, flush func([]byte) []byte) []byte {
	dst = append(dst, '{')
	dst = jsonx.AppendNewline(dst, 1)
	dst = append(dst, `"$schema": `...)
	dst = jsonx.AppendQuote(dst, r.Schema)
	dst = append(dst, ',')
	dst = jsonx.AppendNewline(dst, 1)
	dst = append(dst, `"version": `...)
	dst = jsonx.AppendQuote(dst, r.Version)
	dst = append(dst, ',')
	dst = jsonx.AppendNewline(dst, 1)
	dst = append(dst, `"meta": {`...)
	dst = jsonx.AppendNewline(dst, 2)
	dst = append(dst, `"last_updated": `...)
	dst = jsonx.AppendQuote(dst, r.LastUpdated)
	dst = jsonx.AppendNewline(dst, 1)
	dst = append(dst, "},"...)
	dst = jsonx.AppendNewline(dst, 1)
	dst = append(dst, `"data": {`...)
	dst = jsonx.AppendNewline(dst, 2)
	dst = append(dst, `"servers": [`...)
	for i, s := range r.present() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendNewline(dst, 3)
		dst = s.appendIndent(dst, 3)
		if flush != nil && len(dst) >= indentChunk {
			dst = flush(dst)
		}
	}
	if len(r.Servers) > 0 {
		dst = jsonx.AppendNewline(dst, 2)
	}
	dst = append(dst, ']')
	for _, m := range r.dataExtra {
		dst = append(dst, ',')
		dst = jsonx.AppendNewline(dst, 2)
		dst = jsonx.AppendQuote(dst, m.Key)
		dst = append(dst, ':', ' ')
		dst = jsonx.AppendIndent(dst, m.Value, 2)
	}
	dst = jsonx.AppendNewline(dst, 1)
	dst = append(dst, '}')
	dst = jsonx.AppendNewline(dst, 0)
	return append(dst, '}', '\n')
}

// ParseOptions controls Parse.
type ParseOptions struct {
	// Format forces a shape; FormatAuto detects it.
	Format Format
	// DefaultNamespace replaces DefaultNamespace for legacy and list entries.
	DefaultNamespace string
	// Source names the object the data came from, for diagnostics.
	Source ObjectRef
	// FieldPrefix is prepended to field paths in diagnostics (for example
	// "data[registry.json]" for a ConfigMap key).
	FieldPrefix string
}

func (o ParseOptions) namespace() string {
	if o.DefaultNamespace != "" {
		return o.DefaultNamespace
	}
	return DefaultNamespace
}

func (o ParseOptions) field(path string) string {
	switch {
	case o.FieldPrefix == "":
		return path
	case path == "":
		return o.FieldPrefix
	case strings.HasPrefix(path, "["):
		return o.FieldPrefix + path
	}
	return o.FieldPrefix + "." + path
}

// DetectFormat reports the shape of registry data: a top-level
// "data" object is upstream; a "servers" array is the list shorthand;
// "servers"/"remote_servers" objects or a "groups" list are ToolHive legacy.
// data must be valid JSON.
func DetectFormat(data []byte) (Format, error) {
	ms, err := jsonx.Members(data)
	if err != nil {
		return "", notAnObject(data)
	}
	return detectFormat(ms)
}

func notAnObject(data []byte) error {
	return fmt.Errorf("registry data is %s, not an object", describeKind(data))
}

// detectFormat is DetectFormat on the top-level members.
func detectFormat(ms []jsonx.Member) (Format, error) {
	// The shape does not depend on member order, and a key given twice
	// counts by its last value, as JSON decoders read it: an upstream
	// "data" object wins over a "servers" list, which wins over legacy maps.
	var legacy, list bool
	var keys []string
	for _, m := range lastOfEachKey(ms) {
		keys = append(keys, m.Key)
		k := jsonx.Kind(m.Value)
		switch m.Key {
		case "data":
			if k == '{' {
				return FormatUpstream, nil
			}
		case "servers":
			if k == '[' {
				list = true
			}
			if k == '{' {
				legacy = true
			}
		case "remote_servers":
			if k == '{' {
				legacy = true
			}
		case "groups":
			if k == '[' || k == '{' {
				legacy = true
			}
		}
	}
	if list {
		return FormatList, nil
	}
	if legacy {
		return FormatToolHive, nil
	}
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return "", errorf("no \"data\" object, \"servers\" array or \"servers\"/\"remote_servers\" object at top level (keys: %s)", strings.Join(keys, ", "))
}

// Parse reads registry data of any shape and returns it as an upstream
// document. Entries that cannot be read are skipped, each with an InvalidEntry
// warning; data that is not JSON (InvalidJSON) or of no known shape
// (UnknownFormat) gives a nil registry and an Error. Parse does not check the
// upstream validity rules (see Normalize and Validate).
func Parse(data []byte, opts ParseOptions) (*Registry, Diagnostics) {
	return parse(data, opts, true)
}

// parse is Parse, reading the large members of upstream entries lean as
// they are scanned when lean is set (see leanScan).
func parse(data []byte, opts ParseOptions, lean bool) (*Registry, Diagnostics) {
	var ds Diagnostics
	// One pass validates the data and splits it, down to the members of
	// each upstream entry.
	sc, valid := scanWith(data, lean)
	if !valid {
		ds = append(ds, Errorf(ReasonInvalidJSON, opts.Source, opts.field(""), "%s", jsonError(data)))
		return nil, ds
	}
	format := opts.Format
	var detected Format
	var derr error
	if sc.object {
		detected, derr = detectFormat(sc.top)
	} else {
		derr = notAnObject(data)
	}
	if format == FormatAuto {
		if derr != nil {
			ds = append(ds, Errorf(ReasonUnknownFormat, opts.Source, opts.field(""), "unknown registry format: %v", derr))
			return nil, ds
		}
		format = detected
	} else if format == FormatToolHive && derr == nil && detected == FormatList {
		// ToolHive's format covers both of its shapes: the legacy maps and
		// the list shorthand (which ToolHive's docs also call "ToolHive
		// registry JSON"). "toolhive" is the CRD's default, so an
		// MCPRegistry read back from the API server always asks for it.
		format = FormatList
	} else if format == FormatToolHive && derr == nil && detected == FormatUpstream {
		// Only "upstream" is strict. "toolhive" is the CRD's default, so an
		// MCPRegistry read back from the API server asks for it even when
		// its author never chose a format, while the data is upstream (as
		// every document mcpreg writes is): refusing it would merge nothing.
		ds = append(ds, Infof(ReasonUnknownFormat, opts.Source, opts.field(""),
			"format %q (%s) was requested and the data is an upstream document; read as upstream", format, askedShape(format)))
		format = FormatUpstream
	} else if derr != nil || detected != format {
		what := "no known shape"
		if derr == nil {
			what = shapeName(detected)
		}
		ds = append(ds, Errorf(ReasonUnknownFormat, opts.Source, opts.field(""),
			"format %q (%s) was requested but the data has %s", format, askedShape(format), what))
		return nil, ds
	}
	ds = append(ds, unreadServers(sc.top, format, opts)...)
	var reg *Registry
	var pds Diagnostics
	switch format {
	case FormatUpstream:
		reg, pds = parseUpstream(sc, opts)
	case FormatList:
		reg, pds = parseList(data, opts)
	case FormatToolHive:
		reg, pds = parseLegacy(data, opts)
	default:
		ds = append(ds, Errorf(ReasonUnknownFormat, opts.Source, opts.field(""), "unknown registry format %q", format))
		return nil, ds
	}
	if reg == nil {
		return nil, pds
	}
	return reg, append(ds, pds...)
}

// shapeName describes a detected shape for messages.
func shapeName(f Format) string {
	switch f {
	case FormatUpstream:
		return `the upstream shape ({"data": {"servers": [...]}})`
	case FormatToolHive:
		return `the ToolHive legacy shape ({"servers": {...}} maps)`
	case FormatList:
		return `the ToolHive list shape ({"servers": [...]})`
	}
	return "format " + strconv.Quote(string(f))
}

// askedShape describes what a requested format accepts, for messages.
func askedShape(f Format) string {
	switch f {
	case FormatUpstream:
		return `upstream only: {"data": {"servers": [...]}}`
	case FormatToolHive:
		return `either ToolHive shape: legacy maps or the {"servers": [...]} list`
	case FormatList:
		return `the {"servers": [...]} list only`
	}
	return "unknown"
}

// jsonError describes why data is not JSON, with the byte offset.
func jsonError(data []byte) string {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	}
	if err != nil {
		return "invalid JSON: " + err.Error()
	}
	return "invalid JSON"
}

func parseUpstream(sc *scanned, opts ParseOptions) (*Registry, Diagnostics) {
	var ds Diagnostics
	var lim limiter
	ds = duplicateKeys(ds, sc.top, opts.Source, opts.field, &lim)
	top := lastOfEachKey(sc.top)
	reg := &Registry{}
	var data, servers json.RawMessage
	for _, m := range top {
		switch m.Key {
		case "$schema":
			reg.Schema, _ = jsonx.String(m.Value)
		case "version":
			var ok bool
			if reg.Version, ok = jsonx.String(m.Value); !ok {
				reg.versionRaw = string(bytes.TrimSpace(m.Value))
			}
		case "meta":
			if ms, err := jsonx.Members(m.Value); err == nil {
				for _, mm := range ms {
					if mm.Key == "last_updated" {
						reg.LastUpdated, _ = jsonx.String(mm.Value)
					}
				}
			}
		case "data":
			data = m.Value
			dm := sc.dataMembers
			if !same(data, sc.data) {
				dm, _ = jsonx.Members(data)
			}
			ds = append(ds, unreadDataServers(dm, opts)...)
			ds = duplicateKeys(ds, dm, opts.Source, func(key string) string { return opts.field("data." + key) }, &lim)
			for _, d := range lastOfEachKey(dm) {
				if d.Key == "servers" {
					servers = d.Value
					continue
				}
				reg.dataExtra = append(reg.dataExtra, dataMember{Key: d.Key, Value: d.Value})
			}
		}
	}
	if servers == nil || jsonx.Kind(servers) == 'n' {
		return reg, lim.flush(ds, opts.Source)
	}
	list := opts.field("data.servers")
	if entries, others := sc.upstreamCapture(data, servers); entries != nil {
		// The entries scan split and read: no second pass over them. The
		// list of those kept takes the place of the list scanned.
		reg.Servers = entries[:0]
		for i, s := range entries {
			if s == nil {
				raw := others[0]
				others = others[1:]
				if lim.ok(ReasonInvalidEntry, SeverityWarning) {
					ds = append(ds, Warningf(ReasonInvalidEntry, opts.Source, fmt.Sprintf("%s[%d]", list, i), "skipped: server entry is %s", describeKind(raw)))
				}
				continue
			}
			if read := sc.repeats[i]; read != nil {
				ds = duplicateKeys(ds, read, opts.Source, entryKeyField(list, i), &lim)
			}
			if !addUpstreamServer(reg, s, list, i, opts, &ds, &lim) {
				*s = Server{}
			}
		}
		clear(entries[len(reg.Servers):])
		return reg, lim.flush(ds, opts.Source)
	}
	els, err := jsonx.Elements(servers)
	if err != nil {
		ds = append(ds, Errorf(ReasonUnknownFormat, opts.Source, opts.field("data.servers"), "data.servers is %s, not an array", describeKind(servers)))
		return nil, ds
	}
	reg.Servers = make([]*Server, 0, len(els))
	for i, el := range els {
		s, read, err := parseValidServerMembers(el)
		if err != nil {
			if lim.ok(ReasonInvalidEntry, SeverityWarning) {
				ds = append(ds, Warningf(ReasonInvalidEntry, opts.Source, fmt.Sprintf("%s[%d]", list, i), "skipped: %v", err))
			}
			continue
		}
		if read != nil {
			ds = duplicateKeys(ds, read, opts.Source, entryKeyField(list, i), &lim)
		}
		addUpstreamServer(reg, s, list, i, opts, &ds, &lim)
	}
	return reg, lim.flush(ds, opts.Source)
}

// entryKeyField returns the path of a member of element i of list.
func entryKeyField(list string, i int) func(key string) string {
	return func(key string) string { return fmt.Sprintf("%s[%d].%s", list, i, key) }
}

// addUpstreamServer adds entry i of data.servers to reg, unless it has no
// name, and reports whether it did.
func addUpstreamServer(reg *Registry, s *Server, list string, i int, opts ParseOptions, ds *Diagnostics, lim *limiter) bool {
	if s.Name() == "" {
		if lim.ok(ReasonInvalidEntry, SeverityWarning) {
			*ds = append(*ds, Warningf(ReasonInvalidEntry, opts.Source, fmt.Sprintf("%s[%d].name", list, i), "skipped: server entry has no name"))
		}
		return false
	}
	s.setOriginElement(list, i)
	reg.Servers = append(reg.Servers, s)
	return true
}

var docVersionRE = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// ValidDocumentVersion reports whether v is a valid document "version"
// (^\d+\.\d+\.\d+$).
func ValidDocumentVersion(v string) bool { return docVersionRE.MatchString(v) }

// Convert reads registry data of any shape and returns the upstream document
// to emit: entries normalised and sorted (see Finish), an entry without a
// description given "<server> from <source>" (the part of the name after
// the "/", and "file <base name>" or "<Kind> <namespace>/<name>" of
// opts.Source) with an Info MissingDescription, meta.last_updated set to
// lastUpdated, the input's document version kept when valid. A nil registry
// means the data could not be read at all (InvalidJSON, UnknownFormat); a
// registry without servers comes with an EmptyRegistry warning (it is still
// a valid document).
func Convert(data []byte, opts ParseOptions, lastUpdated string) (*Registry, Diagnostics) {
	return ConvertWith(data, opts, lastUpdated, NormalizeOptions{})
}

// standInSource says where converted entries came from in the stand-in
// description of an entry without one: "file NAME" for a file (its base
// name: a path names the converting machine, not the data), "KIND
// NAMESPACE/NAME" for an object, "" when the source is not named.
func standInSource(ref ObjectRef) string {
	switch {
	case ref.Name == "":
		return ""
	case ref.Kind == "File" && (ref.Name == "-" || ref.Name == "(stdin)"):
		// The names the command line gives standard input.
		return "standard input"
	case ref.Kind == "File":
		name := ref.Name
		if i := strings.LastIndexAny(name, `/\`); i >= 0 && i < len(name)-1 {
			name = name[i+1:]
		}
		return "file " + name
	case ref.Namespace != "":
		return ref.Kind + " " + ref.Namespace + "/" + ref.Name
	default:
		return ref.Kind + " " + ref.Name
	}
}

// ConvertWith is Convert with options for NormalizeWith.
func ConvertWith(data []byte, opts ParseOptions, lastUpdated string, nopts NormalizeOptions) (*Registry, Diagnostics) {
	reg, ds := Parse(data, opts)
	if reg == nil {
		ds.Sort()
		return nil, ds
	}
	out := NewRegistry(lastUpdated, reg.Servers)
	// Members of "data" besides "servers" (skills, plugins, ...) are not
	// checked here, and ToolHive's registry server rejects the whole document
	// for a bad one: only empty lists, which cannot be bad, are kept.
	for _, m := range reg.dataExtra {
		if string(bytes.TrimSpace(m.Value)) == "[]" {
			out.dataExtra = append(out.dataExtra, m)
			continue
		}
		ds = append(ds, Warningf(ReasonInvalidEntry, opts.Source, opts.field("data."+m.Key),
			"data.%s dropped: only servers are converted and checked", m.Key))
	}
	switch {
	case reg.versionRaw != "":
		ds = append(ds, Warningf(ReasonInvalidEntry, opts.Source, opts.field("version"),
			"document version %s is not a string; wrote %q", reg.versionRaw, out.Version))
	case reg.Version == "" || reg.Version == out.Version:
	case ValidDocumentVersion(reg.Version):
		out.Version = reg.Version
	default:
		ds = append(ds, Warningf(ReasonInvalidEntry, opts.Source, opts.field("version"),
			"document version %q is not of the form MAJOR.MINOR.PATCH; wrote %q", reg.Version, out.Version))
	}
	read := len(out.Servers)
	// An entry without a description gets a stand-in, as a merge gives
	// one: the upstream schema requires a description, and ToolHive's
	// shapes (the list shorthand above all) often have none, so dropping
	// those entries would leave a catalog converted to nothing.
	// The Info waits for FinishWith: an entry it drops has the drop as its
	// one diagnostic, not also a description written for nothing.
	from := standInSource(opts.Source)
	type standIn struct {
		s *Server
		d Diagnostic
	}
	var standIns []standIn
	for i, s := range out.Servers {
		if s == nil || s.HasDescription() {
			continue
		}
		name := s.Name()
		if _, after, ok := strings.Cut(name, "/"); ok {
			name = after
		}
		text := name
		if from != "" {
			text += " from " + from
		}
		text = ShortenDescription(text)
		s.SetDescription(text)
		field := s.Origin()
		if field == "" {
			field = fmt.Sprintf("data.servers[%d]", i)
		}
		standIns = append(standIns, standIn{s, Infof(ReasonMissingDescription, opts.Source, field+"."+KeyDescription,
			"server %q has no description; wrote %q", s.Name(), text)})
	}
	ds = append(ds, FinishWith(out, opts.Source, nopts)...)
	if len(standIns) > 0 {
		kept := make(map[*Server]bool, len(out.Servers))
		for _, s := range out.Servers {
			kept[s] = true
		}
		for _, si := range standIns {
			if kept[si.s] {
				ds = append(ds, si.d)
			}
		}
	}
	if len(out.Servers) == 0 {
		why := "the input has no server entry"
		if read > 0 {
			why = fmt.Sprintf("all %d server entries read were dropped", read)
		}
		ds = append(ds, EmptyRegistryDiagnostic(opts.Source, opts.field("data.servers"), why))
	}
	ds.Sort()
	return out, ds
}
