package model

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The validator walks every entry of a merge, so it reads the raw bytes
// without allocating for a valid entry: the iterators of validate_iter.go
// in the common case, and membersOf and elementsOf below (which split a
// value into fresh slices) for the texts those leave to careful mode. Like
// jsonx, these functions expect input that passed json.Valid and report
// malformed input as not ok rather than panic.

// A rawMember is one member of a JSON object: its key, decoded (aliasing the
// input unless the key has escapes or invalid UTF-8), and its raw value.
type rawMember struct {
	key   []byte
	value []byte
	// plain is set when value is a string literal found to be ASCII without
	// escapes (see stringEnd): its contents are the decoded string.
	// membersOf leaves it unset; then the checks look for themselves.
	plain bool
}

// membersOf appends the members of the JSON object raw to dst, keeping only
// the last member of each repeated key (encoding/json, and so ToolHive, keeps
// the last). ok is false when raw is not an object. idx, when it indexes
// raw's bytes, spares scanning nested containers again.
func membersOf(raw []byte, dst []rawMember, idx *containerIndex) (ms []rawMember, ok bool) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return dst, false
	}
	ms = dst
	i = skipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return ms, true
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return dst, false
		}
		end := skipStr(raw, i)
		if end < 0 {
			return dst, false
		}
		key := raw[i+1 : end-1]
		if !plainKey(key) {
			// Decoded as encoding/json does, so that repeated keys match.
			k, ok := jsonx.String(raw[i:end])
			if !ok {
				return dst, false
			}
			key = []byte(k)
		}
		i = skipWS(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return dst, false
		}
		i = skipWS(raw, i+1)
		vend := idx.skip(raw, i)
		if vend < 0 {
			return dst, false
		}
		ms = append(ms, rawMember{key: key, value: raw[i:vend]})
		i = skipWS(raw, vend)
		if i >= len(raw) {
			return dst, false
		}
		if raw[i] == '}' {
			break
		}
		if raw[i] != ',' {
			return dst, false
		}
		i = skipWS(raw, i+1)
	}
	return dropShadowed(ms), true
}

// plainKey reports whether a key literal's contents are ASCII without
// escapes, and so equal to the decoded key, in one loop over a short key.
func plainKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// dropShadowed removes, in place, members whose key appears again later.
func dropShadowed(ms []rawMember) []rawMember {
	if len(ms) > manyKeys {
		// A map of where each key is last spares comparing every member
		// with all later ones.
		last := make(map[string]int, len(ms))
		for i, m := range ms {
			last[string(m.key)] = i
		}
		if len(last) == len(ms) {
			return ms
		}
		out := ms[:0]
		for i, m := range ms {
			if last[string(m.key)] == i {
				out = append(out, m)
			}
		}
		return out
	}
	out := ms[:0]
	for i, m := range ms {
		shadowed := false
		for _, n := range ms[i+1:] {
			if bytes.Equal(m.key, n.key) {
				shadowed = true
				break
			}
		}
		if !shadowed {
			out = append(out, m)
		}
	}
	return out
}

// elementsOf appends the elements of the JSON array raw to dst. ok is false
// when raw is not an array. idx is as for membersOf.
func elementsOf(raw []byte, dst [][]byte, idx *containerIndex) (els [][]byte, ok bool) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return dst, false
	}
	els = dst
	i = skipWS(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return els, true
	}
	for {
		vend := idx.skip(raw, i)
		if vend < 0 {
			return dst, false
		}
		els = append(els, raw[i:vend])
		i = skipWS(raw, vend)
		if i >= len(raw) {
			return dst, false
		}
		if raw[i] == ']' {
			return els, true
		}
		if raw[i] != ',' {
			return dst, false
		}
		i = skipWS(raw, i+1)
	}
}

func skipWS(d []byte, i int) int {
	for i < len(d) && d[i] <= ' ' && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// skipStr returns the index just past the string literal starting at i, or
// -1. jsonx.StringEnd looks at eight bytes at a time; most strings of an
// entry are short, where a call of IndexByte per quote costs more.
func skipStr(d []byte, i int) int {
	return jsonx.StringEnd(d, i)
}

// skipVal returns the index just past the value starting at i, or -1.
func skipVal(d []byte, i int) int {
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"':
		return skipStr(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end := skipStr(d, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(d) {
		switch d[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if j == i {
				return -1
			}
			return j
		}
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// containerIndex records where each object and array of one JSON value
// (a top-level member of an entry) ends, found in one pass, so that splitting
// nested objects level by level does not scan the deeper ones again and
// again: the checks below _meta go seven levels deep.
type containerIndex struct {
	base []byte
	n    int
	// hint is where the next lookup starts: containers are mostly looked up
	// in the order they start, each just after the one before.
	hint  int
	start [indexSize]int32
	end   [indexSize]int32
	// spans, when set, index base instead of start and end: those Parse
	// recorded for the whole entry (Server.index).
	spans []jsonx.Span
}

// reset empties the index.
func (x *containerIndex) reset() { x.n, x.spans, x.hint = 0, nil, 0 }

// useEntryIndex makes x the index Parse recorded for s, when value lies in
// the text it covers and no number of the entry needs the scan of build.
// It reports whether it did.
func (x *containerIndex) useEntryIndex(s *Server, value []byte) bool {
	if !s.indexed || s.bigNumbers || !s.fromRaw(value) {
		return false
	}
	x.base, x.spans, x.n, x.hint = s.raw, s.index, 0, 0
	return true
}

// indexSize bounds the containers indexed; later ones are scanned as usual.
const indexSize = 64

// build indexes the containers of base. It reports whether base holds a
// number encoding/json cannot decode into a float64 (see hasHugeNumber),
// which the same pass finds.
func (x *containerIndex) build(base []byte) (huge bool) {
	x.base, x.n, x.spans, x.hint = base, 0, nil, 0
	if len(base) > math.MaxInt32 {
		x.base = nil
		return hasHugeNumber(base)
	}
	var stack [64]int32
	depth := 0
	for i := 0; i < len(base); i++ {
		switch c := base[i]; {
		case c == '"':
			end := skipStr(base, i)
			if end < 0 {
				return huge
			}
			i = end - 1
		case c == '{' || c == '[':
			k := int32(-1)
			if x.n < indexSize {
				k = int32(x.n)
				x.start[k], x.end[k] = int32(i), 0
				x.n++
			}
			if depth >= 0 && depth < len(stack) {
				stack[depth] = k
			}
			depth++
		case c == '}' || c == ']':
			depth--
			if depth >= 0 && depth < len(stack) && stack[depth] >= 0 {
				x.end[stack[depth]] = int32(i + 1)
			}
		case c == '-' || isDigit(c):
			j := i + 1
			for j < len(base) && isNumberByte(base[j]) {
				j++
			}
			if numberOverflows(base[i:j]) {
				huge = true
			}
			i = j - 1
		}
	}
	return huge
}

// skip returns the index just past the value starting at raw[i], from the
// index when raw lies within the indexed bytes and the value is an indexed
// container, else by scanning; -1 when malformed. raw's position in the
// indexed bytes comes from the capacities of the two slices (subslicing
// keeps the end of the backing array) and is confirmed by identity.
func (x *containerIndex) skip(raw []byte, i int) int {
	return x.skipAt(raw, i, x.offsetOf(raw))
}

// offsetOf returns the offset of raw in the indexed bytes, or -1 when raw
// does not lie there (or nothing is indexed).
func (x *containerIndex) offsetOf(raw []byte) int {
	if x == nil || x.n == 0 && x.spans == nil || len(raw) == 0 {
		return -1
	}
	off := cap(x.base) - cap(raw)
	if off < 0 || off >= len(x.base) || &x.base[off] != &raw[0] {
		return -1
	}
	return off
}

// skipAt is skip for a raw at offset off of the indexed bytes (see
// offsetOf): an iterator finds the offset of its value once.
func (x *containerIndex) skipAt(raw []byte, i, off int) int {
	if off < 0 || i >= len(raw) || (raw[i] != '{' && raw[i] != '[') {
		return skipVal(raw, i)
	}
	at := off + i
	if x.spans != nil {
		k := jsonx.FindSpan(x.spans, x.hint, at)
		if k < len(x.spans) && int(x.spans[k].Start) == at && x.spans[k].End > 0 {
			x.hint = k + 1
			if end := int(x.spans[k].End) - off; end <= len(raw) {
				return end
			}
		}
		return skipVal(raw, i)
	}
	k := x.findStart(at)
	if k < x.n && int(x.start[k]) == at && x.end[k] > 0 {
		x.hint = k + 1
		if end := int(x.end[k]) - off; end <= len(raw) {
			return end
		}
	}
	return skipVal(raw, i)
}

// findStart is jsonx.FindSpan for the index build records.
func (x *containerIndex) findStart(at int) int {
	n, lo := x.n, 0
	if h := x.hint; h < n && int(x.start[h]) <= at {
		for lo = h; lo < n && lo < h+4; lo++ {
			if int(x.start[lo]) >= at {
				return lo
			}
		}
	}
	hi := n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(x.start[m]) < at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// isJSONString reports whether raw is a string literal, without decoding it.
func isJSONString(raw []byte) bool { return jsonx.Kind(raw) == '"' }

// plainString returns the contents of a string literal that has no escapes
// and is valid UTF-8 (then they equal the decoded string) without
// allocating; otherwise it decodes. ok is false when raw is not a string.
func plainString(raw []byte) (s []byte, ok bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		inner := raw[1 : len(raw)-1]
		if plainBytes(inner) {
			return inner, true
		}
	}
	str, ok := jsonx.String(raw)
	return []byte(str), ok
}

// plainBytes reports whether b has no backslash and is valid UTF-8, eight
// bytes at a time.
func plainBytes(b []byte) bool {
	var high uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if x := w ^ lanesSlash; (x-lanesLo)&^x&lanesHi != 0 {
			return false
		}
		high |= w
	}
	for ; i < len(b); i++ {
		if b[i] == '\\' {
			return false
		}
		high |= uint64(b[i])
	}
	return high&lanesHi == 0 || utf8.Valid(b)
}

// validator collects the diagnostics of one entry. It keeps the field path
// of the value being checked as a stack of segments; the path string and the
// label are built only when a diagnostic is, so a valid entry costs no
// allocation for them. (A linked path passed down the recursive checks would
// be moved to the heap by escape analysis.)
type validator struct {
	server *Server
	obj    ObjectRef
	prefix string
	label  string
	ds     Diagnostics
	depth  int
	path   [maxPathDepth]segment
	// index holds the containers of the top-level member being checked.
	index containerIndex
	// bail is set when a fast reading met a text it leaves to careful mode
	// (see members), careful while the member is checked again in it.
	bail, careful bool
	// retried counts the members checked again in careful mode (for tests).
	retried int
	// facts is what the walk learnt on the way that normalising the entry
	// needs next (see walkFacts).
	facts walkFacts
	// fails counts the problems found: past maxEntryProblems they are
	// counted, not formatted (an entry of a million repeated tags would
	// otherwise cost a million messages before any cap).
	fails int
	// publish is set when the entry is checked to be emitted (Normalize):
	// then a URI member (websiteUrl, repository.url, an icon's src, a
	// package's registryBaseUrl or transport URL, ToolHive's provenance and
	// OAuth URIs) must not hold user information, which would publish a
	// credential to every reader of the registry. Validating a document as
	// it stands (ValidateRegistry) holds it to the schemas alone.
	publish bool
}

// maxEntryProblems is the most problems of one entry a validator formats;
// one more diagnostic says that others are not listed.
const maxEntryProblems = 1000

// walkFacts records what a validator's walk of an entry found that
// NormalizeWith would otherwise look up with walks of its own: whether every
// remote URL is plain (see remoteURLsPlain), how many remotes and packages
// there are, and the publisher-provided block of _meta. They are only
// recorded when the walk read every member in fast mode (validator.retried
// is 0), where keys are plain ASCII and none repeats, so that each fact is
// what the separate walk finds; and they are used only for an entry with no
// error, whose members the walk has all read.
type walkFacts struct {
	// urlsNotPlain is set when a remote's URL is not one remoteURLsPlain
	// accepts.
	urlsNotPlain bool
	remotes      int
	packages     int
	// block is the value of _meta's publisher-provided member, or nil.
	block []byte
}

// maxPathDepth bounds the recorded path; the schema's fields nest at most 10
// deep, and a deeper path (only a number beyond float64 can be reported
// there) is cut short in messages.
const maxPathDepth = 24

// A segment is one step of a field path: a member named by the schema, a
// member named by the input, or an element index.
type segment struct {
	name string
	key  []byte
	idx  int
	// bracket writes the key as [key]: map keys (publishers, images, URLs,
	// variable names) hold dots and slashes.
	bracket bool
}

// push adds a segment of a member key, or of name when key is nil, written
// field by field: idx matters only when both are unset (see pathString).
func (v *validator) push(name string, key []byte, bracket bool) {
	if d := v.depth; d < len(v.path) {
		p := &v.path[d]
		p.name, p.key, p.bracket = name, key, bracket
	}
	v.depth++
}

func (v *validator) inName(name string) { v.push(name, nil, false) }
func (v *validator) in(key []byte)      { v.push("", key, false) }
func (v *validator) inKey(key []byte)   { v.push("", key, true) }
func (v *validator) out()               { v.depth-- }

func (v *validator) inIndex(i int) {
	if d := v.depth; d < len(v.path) {
		p := &v.path[d]
		p.name, p.key, p.idx = "", nil, i
	}
	v.depth++
}

// pathString renders the current path, relative to the entry.
func (v *validator) pathString() string {
	var b []byte
	for i, s := range v.path[:min(v.depth, len(v.path))] {
		switch {
		case s.name == "" && s.key == nil:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.idx), 10)
			b = append(b, ']')
		case s.bracket:
			b = append(b, '[')
			b = append(b, s.key...)
			b = append(b, ']')
		default:
			if i > 0 {
				b = append(b, '.')
			}
			b = append(b, s.name...)
			b = append(b, s.key...)
		}
	}
	if v.depth > len(v.path) {
		b = append(b, "..."...)
	}
	return string(b)
}

func joinField(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func (v *validator) labelText() string {
	if v.label == "" {
		v.label = string(Sprintf("server %q: ", v.server.Name()))
	}
	return v.label
}

// fail adds an InvalidEntry error at the current path whose message is the
// server's label, the path and what is wrong with it.
func (v *validator) fail(format string, args ...any) {
	v.fails++
	switch {
	case v.fails == maxEntryProblems+1:
		v.ds = append(v.ds, Errorf(ReasonInvalidEntry, v.obj, v.prefix,
			"%sfurther problems of this entry are not listed (at most %d are)", Text(v.labelText()), maxEntryProblems))
		return
	case v.fails > maxEntryProblems:
		return
	}
	rel := v.pathString()
	v.ds = append(v.ds, Errorf(ReasonInvalidEntry, v.obj, joinField(v.prefix, rel),
		"%s%s %s", Text(v.labelText()), rel, Sprintf(format, args...)))
}

// show renders a raw JSON value for a message, shortened.
func show(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	if raw[0] == '"' {
		// A URL's user information (a token or a password) is never
		// repeated, whatever member the URL is found in; the literal is
		// decoded first, so that an escape cannot hide the "@".
		if s, err := jsonx.Unquote(raw); err == nil {
			if m := MaskURL(s); m != s {
				raw = jsonx.Quote(m)
			}
		}
	}
	if len(raw) <= 60 {
		return string(raw)
	}
	cut := 57
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "..."
}

// objm checks that a member's value is an object without splitting it.
func (v *validator) objm(m *rawMember) {
	if len(m.value) == 0 || m.value[0] != '{' {
		v.objSlow(m)
	}
}

func (v *validator) objSlow(m *rawMember) {
	if jsonx.Kind(m.value) != '{' {
		v.failAt(m.key, -1, "must be an object, not %s", show(m.value))
	}
}

// An elementCheck names the check each applies to every element: a switch
// rather than a func value keeps the calls static.
type elementCheck int

const (
	eachIcon elementCheck = iota
	eachRemote
	eachPackage
	eachKeyValueInput
	eachArgument
	eachToolDefinition
	eachEnvVar
)

// each checks every element of an array value and returns how many it read.
func (v *validator) each(raw []byte, check elementCheck) int {
	var it elements
	v.openArray(&it, raw)
	for v.nextElement(&it) {
		v.inIndex(it.n)
		switch el := it.el; check {
		case eachIcon:
			v.icon(el)
		case eachRemote:
			v.transport(el, true)
		case eachPackage:
			v.pkg(el)
		case eachKeyValueInput:
			v.keyValueInput(el)
		case eachArgument:
			v.argument(el)
		case eachToolDefinition:
			v.toolDefinition(el)
		case eachEnvVar:
			v.envVar(el)
		}
		v.out()
	}
	return it.n + 1
}

// required reports a missing required member of the current object.
func (v *validator) required(present bool, name string) {
	if !present {
		v.missing(name)
	}
}

func (v *validator) missing(name string) {
	v.inName(name)
	v.fail("is required")
	v.out()
}

// A stringRule is a pattern or format a string must satisfy.
type stringRule struct {
	match func([]byte) bool
	// want completes "must ..." in messages.
	want string
}

var (
	ruleURI      = &stringRule{isURI[[]byte], `be a URI with a scheme and no "\" (format "uri")`}
	ruleHostname = &stringRule{isHostname[[]byte], `be a hostname (format "hostname")`}
	ruleDateTime = &stringRule{isDateTime[[]byte], `be an RFC 3339 date-time, a date or a time (format "date-time")`}
	ruleUUID     = &stringRule{isUUID[[]byte], `be a lower-case UUID (format "uuid")`}
	ruleSHA256   = &stringRule{matchSHA256[[]byte], "match " + patternSHA256}
	ruleIconSize = &stringRule{matchIconSize[[]byte], "match " + patternIconSize}
	ruleTool     = &stringRule{matchTool[[]byte], "match " + patternTool}
	ruleTag      = &stringRule{matchTag[[]byte], "match " + patternTag}
	ruleEnvVar   = &stringRule{matchEnvVar[[]byte], "match " + patternEnvVar}
	ruleK8sName  = &stringRule{matchK8sName[[]byte], "match " + patternK8sName}
	ruleMount    = &stringRule{matchMountPath[[]byte], "match " + patternMountPath + " (an absolute path)"}
	ruleHost     = &stringRule{matchHost[[]byte], `be a hostname or a ".domain" pattern (` + patternDomain + `)`}
	// ruleAny accepts any string; with it, str returns the decoded string.
	ruleAny = &stringRule{func([]byte) bool { return true }, ""}
)

// The checks of a single value come in two forms: one for a value whose
// path has been pushed (str, enum, boolean, integer, isObject), and one for a
// member whose key has not (strm, enumm, boolm, intm, objm), which pushes
// the key only for a failure's message. Most members are valid, so most
// keys are never pushed.

// failAt is fail at the current path completed, when key is not nil, by
// that member key or else, when idx is not negative, by that element index.
// Member keys are never nil: they alias the text or were decoded from a
// non-empty literal.
func (v *validator) failAt(key []byte, idx int, format string, args ...any) {
	switch {
	case key != nil:
		v.in(key)
	case idx >= 0:
		v.inIndex(idx)
	default:
		v.fail(format, args...)
		return
	}
	v.fail(format, args...)
	v.out()
}

// str checks a string value, and rule when not nil. With a rule it returns
// the string's contents (see plainString); without one it does not decode
// the string and returns raw. ok is false when raw is not a string.
func (v *validator) str(raw []byte, rule *stringRule) (s []byte, ok bool) {
	return v.strAt(nil, -1, raw, false, rule)
}

// strm is str of a member's value.
func (v *validator) strm(m *rawMember, rule *stringRule) (s []byte, ok bool) {
	return v.strAt(m.key, -1, m.value, m.plain, rule)
}

// isStr is str of a member's value without a rule.
func (v *validator) isStr(m *rawMember) {
	if len(m.value) == 0 || m.value[0] != '"' {
		v.strAt(m.key, -1, m.value, false, nil) // isJSONString would find '"' at the start
	}
}

// strAt is str of the value at the path failAt completes with key or idx;
// plain tells that raw is a plain string literal (see rawMember).
func (v *validator) strAt(key []byte, idx int, raw []byte, plain bool, rule *stringRule) (s []byte, ok bool) {
	if rule == nil {
		if !isJSONString(raw) {
			v.failAt(key, idx, "must be a string, not %s", show(raw))
			return nil, false
		}
		return raw, true
	}
	if plain {
		s, ok = raw[1:len(raw)-1], true
	} else {
		s, ok = plainString(raw)
	}
	if !ok {
		v.failAt(key, idx, "must be a string, not %s", show(raw))
		return nil, false
	}
	if !rule.match(s) {
		v.failAt(key, idx, "is %s; it must %s", show(raw), rule.want)
	} else if rule == ruleURI && v.publish {
		v.credential(key, idx, s, hasUserinfo)
	}
	return s, true
}

// credential fails the value at the path failAt completes with key or idx
// when holds says it carries user information (see validator.publish):
// hasUserinfo for a URL, holdsCredential for a reference such as a package
// identifier.
func (v *validator) credential(key []byte, idx int, s []byte, holds func(string) bool) {
	if bytes.IndexByte(s, '@') >= 0 {
		if u := string(s); holds(u) {
			v.failAt(key, idx, "is %s, with user information: a credential would be published to every reader of the registry", Text(QuoteURL(u)))
		}
	}
}

// enumm checks that a member's value is a string, one of allowed.
func (v *validator) enumm(m *rawMember, allowed []string) {
	var s []byte
	ok := m.plain
	if ok {
		s = m.value[1 : len(m.value)-1]
	} else {
		s, ok = plainString(m.value)
	}
	if ok {
		for _, a := range allowed {
			if string(s) == a {
				return
			}
		}
	}
	v.failAt(m.key, -1, "is %s; it must be one of %s", show(m.value), quoteList(allowed))
}

func quoteList(xs []string) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(x))
	}
	return b.String()
}

func (v *validator) boolean(raw []byte) {
	if k := jsonx.Kind(raw); k != 't' && k != 'f' {
		v.fail("must be a boolean, not %s", show(raw))
	}
}

// boolm is boolean of a member's value.
func (v *validator) boolm(m *rawMember) {
	if len(m.value) == 0 || m.value[0] != 't' && m.value[0] != 'f' {
		v.boolSlow(m) // Kind would find t or f at the start
	}
}

func (v *validator) boolSlow(m *rawMember) {
	if k := jsonx.Kind(m.value); k != 't' && k != 'f' {
		v.failAt(m.key, -1, "must be a boolean, not %s", show(m.value))
	}
}

// stringList checks an array of strings, each satisfying rule when not nil
// and, with unique, none repeated (uniqueItems compares decoded strings).
// A Bloom filter of the strings read spares comparing each with every
// earlier one; from manyKeys elements on, when the filter is mostly set, a
// map of the strings read does (a tenant's list of tags must not cost the
// square of its length).
func (v *validator) stringList(raw []byte, rule *stringRule, unique bool) {
	var it elements
	if !v.openArray(&it, raw) {
		return
	}
	if unique && rule == nil {
		rule = ruleAny
	}
	var seen [2]uint64
	// first maps each string read to its index among the strings (see
	// stringsThrough), strs counting them, once the list is long.
	var first map[string]int
	strs := 0
	for v.nextElement(&it) {
		var s []byte
		var ok bool
		switch el := it.el; {
		case it.plain && rule == nil:
			s, ok = el, true // as strAt returns it
		case it.plain && rule.match(el[1:len(el)-1]):
			s, ok = el[1:len(el)-1], true
		default: // strAt says what is wrong
			s, ok = v.strAt(nil, it.n, el, it.plain, rule)
		}
		if ok && unique {
			if first != nil {
				if j, dup := first[string(s)]; dup {
					v.failAt(nil, it.n, "repeats %s (also at [%d]); the values must be unique", show(it.el), j)
				}
			} else {
				b0, b1 := bloomBits(s)
				if seen[0]&b0 != 0 && seen[1]&b1 != 0 {
					if j := v.earlierString(&it, s); j >= 0 {
						v.failAt(nil, it.n, "repeats %s (also at [%d]); the values must be unique", show(it.el), j)
					}
				}
				seen[0] |= b0
				seen[1] |= b1
			}
		}
		if !unique {
			continue
		}
		switch {
		case first != nil:
			if t, isStr := plainString(it.el); isStr {
				if _, had := first[string(t)]; !had {
					first[string(t)] = strs
				}
				strs++
			}
		case it.n+1 == manyKeys:
			first, strs = v.stringsThrough(&it)
		}
	}
}

// hugeNumbers reports each number in raw, at the current path, that ToolHive
// cannot decode (see hasHugeNumber). It runs only when the fast scan found
// one. Every member counts, repeated keys too: encoding/json decodes them all.
func (v *validator) hugeNumbers(raw []byte) {
	switch jsonx.Kind(raw) {
	case '0':
		if numberOverflows(raw) {
			v.fail("is the number %s, beyond the range of a 64-bit float; ToolHive rejects a document holding it", show(raw))
		}
	case '{':
		ms, _ := jsonx.Members(raw)
		for _, m := range ms {
			if !hasHugeNumber(m.Value) {
				continue
			}
			if m.Key == "" || strings.ContainsAny(m.Key, ".[]/ ") {
				v.inKey([]byte(m.Key))
			} else {
				v.in([]byte(m.Key))
			}
			v.hugeNumbers(m.Value)
			v.out()
		}
	case '[':
		els, _ := jsonx.Elements(raw)
		for i, el := range els {
			if hasHugeNumber(el) {
				v.inIndex(i)
				v.hugeNumbers(el)
				v.out()
			}
		}
	}
}
