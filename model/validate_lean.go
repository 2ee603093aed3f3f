package model

import (
	"bytes"
	"math"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The lean reading is a fast path for the members that hold most of an
// entry (repository, remotes, packages and _meta) when the entry is written
// compactly and was read by Parse, whose scan validated its text: a cursor
// walks the bytes once, member by member, with no iterator state, no field
// path and no diagnostics. It only answers whether the member is valid in
// the common form the checks of validate.go and validate_meta.go see every
// day: plain keys, none of the schema's repeated, strings without escapes
// where their contents are checked. Anything else — a problem, an escape, a
// member it does not know how to check, unexpected text — makes it say no,
// and the member is checked as before, from scratch. So it may say yes only
// where those checks report nothing; the differential tests hold it to that.
//
// A key it does not check is skipped whatever it holds, repeated or not:
// the checks ignore such members too (a repeat of one changes what they
// ignore, nothing else). A key spelling a member of its level's struct in
// another case is the exception: the checks refuse it (keycase.go).

// leanEntry is the lean reading of a whole entry: ok when validator.entry
// would report nothing at all (not even the official registry's name
// warning) and every remote URL is plain, with the facts its walk would
// record. It needs no validator, whose field path alone is 1.3 KB to clear
// for every entry. The large members were mostly read already, by the scan
// that read the entry (see leanScan): then only the others are looked at.
func leanEntry(s *Server) (facts walkFacts, ok bool) {
	if !s.compact || !s.indexed || s.bigNumbers {
		return facts, false
	}
	fused := s.fused
	if fused {
		facts = s.fusedFacts()
		if s.packed != nil && len(s.packed) <= 255 {
			return facts, leanPacked(s)
		}
	}
	var hasName, hasDescription, hasVersion bool
	for k := range s.memberCount() {
		m := s.memberAt(k)
		raw := m.Value
		if len(raw) == 0 {
			return facts, false
		}
		switch c := raw[0]; {
		case c == '{' || c == '[':
			// As useEntryIndex: the value is the text the scan read.
			if !s.fromRaw(raw) {
				return facts, false
			}
		case c == '-' || isDigit(c):
			if numberOverflows(raw) {
				return facts, false
			}
		}
		switch m.Key {
		case KeyName:
			hasName = true
			if raw[0] != '"' {
				return facts, false
			}
		case KeyDescription:
			hasDescription = true
			if !leanDescription(raw, s.textOK) {
				return facts, false
			}
		case KeyTitle:
			if !leanTitle(raw, s.textOK) {
				return facts, false
			}
		case KeyVersion:
			hasVersion = true
			if !leanVersion(raw, s.textOK) {
				return facts, false
			}
		case KeySchema, "websiteUrl":
			if m.Key == KeySchema && string(raw) == serverSchemaLiteral {
				break
			}
			if !leanURI(raw, s.textOK) {
				return facts, false
			}
		case "repository", "icons", KeyRemotes, KeyPackages, KeyMeta:
			if raw[0] != '{' && raw[0] != '[' {
				return facts, false
			}
			// fused: the scan read this value lean, and accepted it.
			if !fused && !leanValue(s, m.Key, raw, &facts) {
				return facts, false
			}
		default:
			if variantOf(caseServer, m.Key) != "" {
				return facts, false
			}
		}
	}
	if !hasName || !hasDescription || !hasVersion {
		return facts, false
	}
	if invalid, strict := CheckName(s.Name()); invalid != "" || strict != "" {
		return facts, false
	}
	return facts, true
}

// leanPacked is leanEntry's verdict on an entry the scan read lean and
// packed: the same checks as its loop, made without building every member.
// A packed entry repeats no key, and the scan recorded where the members
// of the keys with checks of their own lie (Server.first, all within the
// first 255: firstValue finds them without a loop, in a third of Get's
// time), so only the other members are looked through: a member of a key
// the lean reading reads must be a container (the scan read those lean),
// and websiteUrl must be a URI.
func leanPacked(s *Server) bool {
	raw := s.raw
	if s.unnumbered {
		// A key the scan does not number may be another spelling of a
		// server.json member, which the checks refuse. The keys of a
		// packed entry are literals without escapes: their bytes are the
		// key.
		for _, p := range s.packed {
			if variantOf(caseServer, raw[p.Key.Start:p.Key.End]) != "" {
				return false
			}
		}
	}
	for _, p := range s.packed {
		if c := raw[p.Value.Start]; c == '{' || c == '[' {
			if p.Key.End-p.Key.Start == int32(len("websiteUrl")) && string(raw[p.Key.Start:p.Key.End]) == "websiteUrl" {
				return false
			}
			continue
		}
		// A scalar: only the lean keys' lengths and websiteUrl's need the key.
		// A number needs no look: one a float64 may not hold sets the
		// scan's bigNumbers, which leanEntry declines before this.
		switch p.Key.End - p.Key.Start {
		case 5, 7, 8, 10:
			switch string(raw[p.Key.Start:p.Key.End]) {
			case "repository", "icons", KeyRemotes, KeyPackages, KeyMeta:
				return false
			case "websiteUrl":
				if !leanURI(raw[p.Value.Start:p.Value.End], s.textOK) {
					return false
				}
			}
		}
	}
	if name := s.firstValue(KeyName); name == nil || name[0] != '"' {
		return false
	}
	if raw := s.firstValue(KeyDescription); raw == nil || !leanDescription(raw, s.textOK) {
		return false
	}
	if raw := s.firstValue(KeyTitle); raw != nil && !leanTitle(raw, s.textOK) {
		return false
	}
	if raw := s.firstValue(KeyVersion); raw == nil || !leanVersion(raw, s.textOK) {
		return false
	}
	if raw := s.firstValue(KeySchema); raw != nil && string(raw) != serverSchemaLiteral && !leanURI(raw, s.textOK) {
		return false
	}
	invalid, strict := CheckName(s.Name())
	return invalid == "" && strict == ""
}

// The checks of the scalar members leanEntry and leanPacked share: raw is
// the member's value (not empty), textOK the entry's (see contentsOf).

// leanDescription reports whether raw is a description the checks accept.
func leanDescription(raw []byte, textOK bool) bool {
	d, isStr := contentsOf(raw, textOK)
	return raw[0] == '"' && isStr && len(d) > 0 && (len(d) <= DescriptionMaxLen || utf8.RuneCount(d) <= DescriptionMaxLen)
}

// leanTitle reports whether raw is a title the checks accept.
func leanTitle(raw []byte, textOK bool) bool {
	t, isStr := contentsOf(raw, textOK)
	n := runeCountOver(t, TitleMaxLen)
	return isStr && n > 0 && n <= TitleMaxLen
}

// leanVersion reports whether raw is a version the checks accept.
func leanVersion(raw []byte, textOK bool) bool {
	ver, isStr := contentsOf(raw, textOK)
	return raw[0] == '"' && isStr && len(ver) > 0 && runeCountOver(ver, VersionMaxLen) <= VersionMaxLen && string(ver) != "latest" && !versionRange(ver)
}

// leanURI reports whether raw is a string isURI accepts.
func leanURI(raw []byte, textOK bool) bool {
	u, isStr := contentsOf(raw, textOK)
	// A URI with "@" may hold user information: see validator.publish.
	return isStr && isURI(u) && bytes.IndexByte(u, '@') < 0
}

// leanKey reports whether key is one of the top-level members the lean
// reading reads (leanValue): those that hold most of an entry's bytes.
func leanKey(key string) bool {
	switch key {
	case "repository", "icons", KeyRemotes, KeyPackages, KeyMeta:
		return true
	}
	return false
}

// leanValue is validator.leanMember for leanEntry: raw lies in the text the
// scan indexed (s.fromRaw).
func leanValue(s *Server, key string, raw []byte, facts *walkFacts) bool {
	l := lean{b: raw, off: cap(s.raw) - cap(raw), spans: s.index}
	n, block, ok := l.member(key)
	if !ok || l.i != len(raw) {
		return false
	}
	facts.set(key, n, block)
	return true
}

// member reads the value of the top-level member key, from l.i, and
// reports whether it is valid in the common form, with the facts of its
// walk: how many elements (remotes, packages) and the publisher-provided
// block (_meta).
func (l *lean) member(key string) (n int, block []byte, ok bool) {
	switch key {
	case "repository":
		ok = l.repository()
	case "icons":
		_, ok = l.array(leanIcon)
	case KeyRemotes:
		n, ok = l.array(leanRemote)
	case KeyPackages:
		n, ok = l.array(leanPackage)
	case KeyMeta:
		block, ok = l.meta()
	}
	return n, block, ok
}

// set records the facts of a lean reading of member key (see lean.member).
func (f *walkFacts) set(key string, n int, block []byte) {
	switch key {
	case KeyRemotes:
		f.remotes = n
	case KeyPackages:
		f.packages = n
	case KeyMeta:
		f.block = block
	}
}

// leanScan is the lean reading of an entry's large members (leanKey) done
// by the scan that reads the entry, as a jsonx.ValueReader of SplitObject:
// each value is walked once, its JSON validated and its schema checked on
// the same walk, where the scan would validate it and leanEntry read it
// again later. It records the spans of the containers it reads, and the
// facts of the index, as the scan does: the entry's index is the same. It
// accepts only what it can validate on its own — text without
// insignificant whitespace, strings of plain ASCII where their contents
// are checked — and declines the rest, which the scan then reads as usual
// (from the value's start: the lean reading leaves nothing behind).
// Declining says nothing of validity: a value the lean reading finds
// invalid for the schema, or cannot tell, is simply left to the scan, and
// the entry to the checks. Each loop of the reading consumes bytes of the
// text, so it ends with it; its own nesting is bounded by leanNesting, that
// of a value it skips by the scan's limit.
type leanScan struct {
	// facts are the facts of the walks of the entry being read, declined
	// whether one of its values was declined.
	facts    walkFacts
	declined bool
	// url is the URL of the first remote read (see lean.url).
	url []byte
}

// leanNesting bounds the objects and arrays the lean reading opens itself
// (a tool definition's inputSchema, in _meta, lies six deep; a deeper
// container is declined): a value it skips whole is validated as nested
// that much deeper, which may refuse a valid text near the nesting limit,
// never accept one over it. A refusal is only a decline: the scan then
// reads the value itself, exactly.
const leanNesting = 16

// ReadValue implements jsonx.ValueReader.
func (ls *leanScan) ReadValue(key string, data []byte, i, depth int, idx *jsonx.Index) int {
	if !leanKey(key) {
		return -1
	}
	l := lean{b: data, i: i, fuse: idx, depth: depth}
	n, block, ok := l.member(key)
	if !ok {
		ls.declined = true
		return -1
	}
	ls.facts.set(key, n, block)
	if key == KeyRemotes {
		ls.url = l.url
	}
	return l.i
}

// lean is a cursor over the value of one top-level member.
type lean struct {
	b []byte
	i int
	// off is the offset of b in the text spans index, which give where a
	// nested object or array ends (as containerIndex.skipAt reads them);
	// hint is where the next lookup starts. (Nothing here points into the
	// validator, which would then be moved to the heap.)
	off   int
	spans []jsonx.Span
	hint  int
	// fuse, when set, is the index of the scan reading b (see leanScan): b
	// is not known to be valid JSON, and the cursor validates what it
	// reads, recording there what the scan records (depth is the nesting
	// of the value read); b then runs to the end of the text.
	fuse  *jsonx.Index
	depth int
	// opened numbers the spans (in fuse) of the containers open read and
	// sep has not closed yet, nopen of them.
	opened [leanNesting]int32
	nopen  int
	// url is the contents of the first remote's URL read, plain.
	url []byte
}

// leanMember checks the value raw of the top-level member key by the lean
// reading and reports whether it found it valid; then it records the facts
// of the walk (see walkFacts) as the checks would.
func (v *validator) leanMember(key string, raw []byte) bool {
	off := v.index.offsetOf(raw)
	if off < 0 || v.index.spans == nil {
		return false
	}
	l := lean{b: raw, off: off, spans: v.index.spans}
	n, block, ok := l.member(key)
	if !ok || l.i != len(raw) {
		return false
	}
	v.facts.set(key, n, block)
	return true
}

// open reads the "{" (or "[", as close says) starting a container and
// reports whether it did and whether a member or element follows.
func (l *lean) open(close byte) (ok, more bool) {
	b, i := l.b, l.i
	if i+1 >= len(b) || b[i] != close-2 { // '{' is '}'-2, '[' is ']'-2
		return false, false
	}
	if l.fuse != nil {
		return l.openSpan(close)
	}
	if b[i+1] == close {
		l.i = i + 2
		return true, false
	}
	l.i = i + 1
	return true, true
}

// openSpan is open for the scan's lean reading (l.fuse set), which records
// the container's span as the scan would: the index of the entry is then
// the one the scan alone records, for the readers that skip containers by
// it later. A container stays on opened until sep reads its close.
func (l *lean) openSpan(close byte) (ok, more bool) {
	i := l.i
	k := l.fuse.OpenSpan(i)
	if l.b[i+1] == close {
		l.i = i + 2
		l.fuse.CloseSpan(k, l.i)
		return true, false
	}
	if l.nopen == len(l.opened) {
		return false, false // deeper than the schema's objects go
	}
	l.opened[l.nopen] = int32(k)
	l.nopen++
	l.i = i + 1
	return true, true
}

// sep reads what follows a member or element: "," (more follow) or close.
func (l *lean) sep(close byte) (ok, more bool) {
	if l.i >= len(l.b) {
		return false, false
	}
	switch l.b[l.i] {
	case ',':
		l.i++
		return true, true
	case close:
		l.i++
		if l.fuse != nil {
			// The container open read last ends here.
			if l.nopen == 0 {
				return false, false
			}
			l.nopen--
			l.fuse.CloseSpan(int(l.opened[l.nopen]), l.i)
		}
		return true, false
	}
	return false, false
}

// str reads a string literal of ASCII without escapes and returns its
// contents, which are then the decoded string. It accepts only literals
// json.Valid accepts, with no byte Index.Text is set for (asciiEnd,
// asciiTail and stringEnd refuse control characters): the scan's lean
// reading relies on it (see leanScan).
func (l *lean) str() ([]byte, bool) {
	b, i := l.b, l.i
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	end := asciiEnd(b, i)
	if end < 0 {
		if end = asciiTail(b, i); end < 0 {
			var ascii bool
			if end, ascii = stringEnd(b, i); end < 0 || !ascii {
				return nil, false
			}
		}
	}
	l.i = end
	return b[i+1 : end-1], true
}

// anyStr reads a string literal of any contents: where only the type of a
// value is checked.
func (l *lean) anyStr() bool {
	if l.i >= len(l.b) || l.b[l.i] != '"' {
		return false
	}
	var end int
	if l.fuse != nil {
		var text bool
		end, text = jsonx.ValidString(l.b, l.i)
		l.fuse.Text = l.fuse.Text || text
	} else {
		end = skipStr(l.b, l.i)
	}
	if end < 0 {
		return false
	}
	l.i = end
	return true
}

// key reads a member's key (as str) and the ":" after it.
func (l *lean) key() ([]byte, bool) {
	k, ok := l.str()
	if !ok || l.i >= len(l.b) || l.b[l.i] != ':' {
		return nil, false
	}
	l.i++
	return k, true
}

// skip reads a value of any kind.
func (l *lean) skip() bool {
	b, i := l.b, l.i
	if i >= len(b) {
		return false
	}
	if l.fuse != nil {
		// The scan's own reading of the value, spans and all; a value with
		// whitespace is declined, since the lean reading reads only
		// compact text.
		end, lastSpace := jsonx.ValidValue(b, i, l.depth+leanNesting, l.fuse)
		if end < 0 || lastSpace >= 0 {
			return false
		}
		l.i = end
		return true
	}
	var end int
	switch b[i] {
	case '"':
		end = skipStr(b, i)
	case '{', '[':
		end = l.skipContainer()
	default:
		end = skipVal(b, i)
	}
	if end < 0 {
		return false
	}
	l.i = end
	return true
}

// skipContainer returns the index just past the object or array at l.i,
// from the index when it has it.
func (l *lean) skipContainer() int {
	at := l.off + l.i
	k := jsonx.FindSpan(l.spans, l.hint, at)
	if k < len(l.spans) && int(l.spans[k].Start) == at && l.spans[k].End > 0 {
		l.hint = k + 1
		if end := int(l.spans[k].End) - l.off; end <= len(l.b) {
			return end
		}
	}
	return skipVal(l.b, l.i)
}

// boolean reads true or false.
func (l *lean) boolean() bool {
	b, i := l.b, l.i
	switch {
	case i+4 <= len(b) && string(b[i:i+4]) == "true":
		l.i = i + 4
	case i+5 <= len(b) && string(b[i:i+5]) == "false":
		l.i = i + 5
	default:
		return false
	}
	return true
}

// number reads a number literal and returns its value as floatOf reads it.
func (l *lean) number() (float64, bool) {
	b, i := l.b, l.i
	if i >= len(b) || !(b[i] == '-' || isDigit(b[i])) {
		return 0, false
	}
	var j int
	if l.fuse != nil {
		// The longest valid literal: where the plain reading reads on
		// over number bytes, what follows is not a separator, and the
		// container is declined.
		if j = jsonx.ValidNumber(b, i); j < 0 {
			return 0, false
		}
		l.fuse.NoteNumber(b[i:j])
	} else {
		j = i + 1
		for j < len(b) && isNumberByte(b[j]) {
			j++
		}
	}
	l.i = j
	return floatOf(b[i:j])
}

// oneOf reads a string, one of lits.
func (l *lean) oneOf(lits []leanLit) bool {
	w := l.window()
	for i := range lits {
		if l.is(&w, &lits[i]) {
			return true
		}
	}
	return false
}

// other reads a member whose key the reader does not check: its key, read
// as key reads it (so that a checked key written with an escape is not
// taken for another), and its value, whatever it holds. ks are the member
// names of the struct the object is decoded into (nil for none checked):
// a key spelling one of them in another case is declined.
func (l *lean) other(ks keySet) bool {
	k, ok := l.key()
	// Another spelling of a member of the level's struct is the full
	// check's to refuse (see keycase.go).
	return ok && variantOf(ks, k) == "" && l.skip()
}

// leanCheck names the check of each element of an array (see array).
type leanCheck int

const (
	leanRemote leanCheck = iota
	leanPackage
	leanKeyValue
	leanIcon
	leanEnvVar
	leanToolDefinition
)

// array reads an array whose elements check accepts and returns how many
// there are.
func (l *lean) array(check leanCheck) (n int, ok bool) {
	ok, more := l.open(']')
	for ok && more {
		switch check {
		case leanRemote:
			ok = l.transport(true)
		case leanPackage:
			ok = l.pkg()
		case leanKeyValue:
			ok = l.keyValue()
		case leanIcon:
			ok = l.icon()
		case leanEnvVar:
			ok = l.envVar()
		case leanToolDefinition:
			ok = l.toolDefinition()
		}
		n++
		if ok {
			ok, more = l.sep(']')
		}
	}
	return n, ok
}

// A leanRule is the rule strings checks each string against: a switch,
// not a function value, since calling one would move the cursor's bytes,
// and with them the validator, to the heap.
type leanRule int

const (
	leanAny leanRule = iota
	leanTool
	leanTag
	leanIconSize
	leanMount
	leanHost
)

// ruleStr reads a string satisfying rule and returns its contents. (The
// strings of tools and tags, most lists, strings reads in one pass.)
func (l *lean) ruleStr(rule leanRule) ([]byte, bool) {
	s, ok := l.str()
	if !ok {
		return nil, false
	}
	switch rule {
	case leanTool:
		ok = matchTool(s)
	case leanTag:
		ok = matchTag(s)
	case leanIconSize:
		ok = matchIconSize(s)
	case leanMount:
		ok = matchMountPath(s)
	case leanHost:
		ok = matchHost(s)
	}
	return s, ok
}

// strings reads an array of strings satisfying rule, none repeated when
// unique: stringList finds nothing wrong with it.
func (l *lean) strings(rule leanRule, unique bool) bool {
	var seen [16][]byte
	n := 0
	ok, more := l.open(']')
	for ok && more {
		var s []byte
		var good bool
		switch rule {
		case leanTool:
			s, good = l.classStr(classTool)
			good = good && len(s) > 0
		case leanTag:
			s, good = l.classStr(classTag)
			good = good && tagEnds(s)
		default:
			s, good = l.ruleStr(rule)
		}
		if !good {
			return false
		}
		if unique {
			if n == len(seen) || !fresh(seen[:n], s) {
				return false
			}
			seen[n] = s
			n++
		}
		ok, more = l.sep(']')
	}
	return ok
}

// once marks bit in seen and reports whether it was clear: a key the
// lean reading checks must not be repeated.
func once(seen *uint32, bit uint32) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// The literals of the readers below, each reader's in one place. The
// lists of allowed values are those of the checks.
var (
	repositoryKeys = struct{ url, source, id, subfolder leanLit }{
		keyLit("url"), keyLit("source"), keyLit("id"), keyLit("subfolder")}
	transportKeys = struct{ typ, url, headers, variables leanLit }{
		keyLit("type"), keyLit("url"), keyLit("headers"), keyLit("variables")}
	transportTypes = struct{ stdio, streamable, sse leanLit }{
		strLit(TransportStdio), strLit(TransportStreamableHTTP), strLit(TransportSSE)}
	pkgKeys = struct {
		registryType, identifier, transport, version, fileSha256, registryBaseURL, runtimeHint,
		environmentVariables, packageArguments, runtimeArguments leanLit
	}{
		keyLit("registryType"), keyLit("identifier"), keyLit("transport"), keyLit("version"), keyLit("fileSha256"),
		keyLit("registryBaseUrl"), keyLit("runtimeHint"), keyLit("environmentVariables"),
		keyLit("packageArguments"), keyLit("runtimeArguments")}
	keyValueKeys = struct {
		name, description, value, def, placeholder, isRequired, isSecret, format, choices, variables leanLit
	}{
		keyLit("name"), keyLit("description"), keyLit("value"), keyLit("default"), keyLit("placeholder"),
		keyLit("isRequired"), keyLit("isSecret"), keyLit("format"), keyLit("choices"), keyLit("variables")}
	inputFormatLits = strLits(inputFormats)
	metaKeys        = struct{ publisherProvided leanLit }{keyLit(PublisherProvidedKey)}
	extensionKeys   = struct {
		status, tier, overview, tools, tags, metadata, stateless, customMetadata, proxyPort,
		dockerTags, args, envVars, toolDefinitions, permissions, provenance, oauthConfig leanLit
	}{
		keyLit("status"), keyLit("tier"), keyLit("overview"), keyLit("tools"), keyLit("tags"),
		keyLit("metadata"), keyLit("stateless"), keyLit("custom_metadata"), keyLit("proxy_port"),
		keyLit("docker_tags"), keyLit("args"), keyLit("env_vars"), keyLit("tool_definitions"),
		keyLit("permissions"), keyLit("provenance"), keyLit("oauth_config")}
	extStatusLits = strLits(extStatuses)
	extTierLits   = strLits(extTiers)
	metadataKeys  = struct{ stars, lastUpdated, kubernetes leanLit }{
		keyLit("stars"), keyLit("last_updated"), keyLit("kubernetes")}
	iconKeys = struct{ src, mimeType, theme, sizes leanLit }{
		keyLit("src"), keyLit("mimeType"), keyLit("theme"), keyLit("sizes")}
	iconMimeTypeLits = strLits(iconMimeTypes)
	iconThemeLits    = strLits(iconThemes)
	envVarKeys       = struct{ name, description, def, required, secret leanLit }{
		keyLit("name"), keyLit("description"), keyLit("default"), keyLit("required"), keyLit("secret")}
	toolDefinitionKeys = struct{ name, description, inputSchema, annotations leanLit }{
		keyLit("name"), keyLit("description"), keyLit("inputSchema"), keyLit("annotations")}
	kubernetesKeys = struct{ kind, image, namespace, name, uid, transport leanLit }{
		keyLit("kind"), keyLit("image"), keyLit("namespace"), keyLit("name"), keyLit("uid"), keyLit("transport")}
	kubernetesTransportLits = strLits(kubernetesTransports)
	permissionsKeys         = struct{ name, read, write, privileged, network leanLit }{
		keyLit("name"), keyLit("read"), keyLit("write"), keyLit("privileged"), keyLit("network")}
	networkKeys  = struct{ outbound leanLit }{keyLit("outbound")}
	outboundKeys = struct{ allowHost, allowPort, insecureAllowAll leanLit }{
		keyLit("allow_host"), keyLit("allow_port"), keyLit("insecure_allow_all")}
	provenanceKeys = struct {
		sigstoreURL, repositoryURI, certIssuer, repositoryRef, signerIdentity, runnerEnvironment, attestation leanLit
	}{
		keyLit("sigstore_url"), keyLit("repository_uri"), keyLit("cert_issuer"), keyLit("repository_ref"),
		keyLit("signer_identity"), keyLit("runner_environment"), keyLit("attestation")}
	attestationKeys = struct{ predicateType leanLit }{keyLit("predicate_type")}
)

// repository is validator.repository's lean reading.
func (l *lean) repository() bool {
	k := &repositoryKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.url):
			ok = once(&seen, 1) && l.uri()
		case l.is(&w, &k.source):
			ok = once(&seen, 2) && l.anyStr()
		case l.is(&w, &k.id):
			ok = once(&seen, 4) && l.anyStr()
		case l.is(&w, &k.subfolder):
			ok = once(&seen, 8) && l.anyStr()
		default:
			ok = l.other(caseRepository)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok && seen&3 == 3
}

// transport is validator.transport's lean reading. A remote's URL must be
// plain (see remoteURLsPlain), so that no remote is to be dropped.
func (l *lean) transport(remote bool) bool {
	k, types := &transportKeys, &transportTypes
	var seen uint32
	// typ is 1 for stdio, 2 for streamable-http or sse.
	typ := 0
	var url []byte
	plain := false
	hs, he := -1, -1
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.typ):
			ok = once(&seen, 1)
			v := l.window()
			switch {
			case !ok:
			case l.is(&v, &types.stdio):
				typ = 1
			case l.is(&v, &types.streamable) || l.is(&v, &types.sse):
				typ = 2
			default:
				// Any other type is refused, whatever it holds.
				return false
			}
		case l.is(&w, &k.url):
			ok = once(&seen, 2)
			if ok && remote {
				url, ok = l.plainURL()
				plain = true
				if ok && l.url == nil {
					l.url = url
				}
			} else {
				url, ok = l.strIf(ok)
				// User information (or an escape that may spell it)? See
				// validator.publish.
				ok = ok && !bytes.ContainsAny(url, "@\\")
			}
		case l.is(&w, &k.headers):
			hs = l.i
			ok = once(&seen, 4) && l.skip()
			he = l.i
		case l.is(&w, &k.variables):
			ok = !remote && l.skip()
		default:
			ok = l.other(caseTransport)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	switch {
	case !ok || typ == 0:
		return false
	case typ == 1:
		return !remote
	case url == nil || !plain && !matchRemoteURL(url):
		// A plain URL is one the pattern takes.
		return false
	case hs < 0:
		return true
	}
	h := lean{b: l.b[hs:he], off: l.off + hs, spans: l.spans}
	_, ok = h.array(leanKeyValue)
	return ok && h.i == len(h.b)
}

// strIf is str when ok.
func (l *lean) strIf(ok bool) ([]byte, bool) {
	if !ok {
		return nil, false
	}
	return l.str()
}

// pkg is validator.pkg's lean reading.
func (l *lean) pkg() bool {
	k := &pkgKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.registryType):
			ok = once(&seen, 1) && l.anyStr()
		case l.is(&w, &k.identifier):
			var s []byte
			s, ok = l.strIf(once(&seen, 2))
			// One that may hold user information: see validator.credential.
			ok = ok && !maybeCredential(s)
		case l.is(&w, &k.version):
			var s []byte
			s, ok = l.strIf(once(&seen, 8))
			ok = ok && len(s) > 0 && string(s) != "latest" && !versionRange(s)
		case l.is(&w, &k.transport):
			ok = once(&seen, 4) && l.transport(false)
		case l.is(&w, &k.registryBaseURL):
			ok = once(&seen, 32) && l.uri()
		case l.is(&w, &k.runtimeHint):
			ok = once(&seen, 64) && l.anyStr()
		case l.is(&w, &k.environmentVariables):
			ok = once(&seen, 128)
			if ok {
				_, ok = l.array(leanKeyValue)
			}
		case l.is(&w, &k.fileSha256):
			var s []byte
			s, ok = l.strIf(once(&seen, 16))
			ok = ok && matchSHA256(s)
		case l.is(&w, &k.packageArguments), l.is(&w, &k.runtimeArguments):
			return false
		default:
			ok = l.other(casePackage)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok && seen&7 == 7
}

// keyValue is validator.keyValueInput's lean reading.
func (l *lean) keyValue() bool {
	k := &keyValueKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.name):
			ok = once(&seen, 1) && l.anyStr()
		case l.is(&w, &k.description):
			ok = once(&seen, 2) && l.anyStr()
		case l.is(&w, &k.isRequired):
			ok = once(&seen, 32) && l.boolean()
		case l.is(&w, &k.isSecret):
			ok = once(&seen, 64) && l.boolean()
		case l.is(&w, &k.def):
			ok = once(&seen, 8) && l.anyStr()
		case l.is(&w, &k.value):
			ok = once(&seen, 4) && l.anyStr()
		case l.is(&w, &k.placeholder):
			ok = once(&seen, 16) && l.anyStr()
		case l.is(&w, &k.format):
			ok = once(&seen, 128) && l.oneOf(inputFormatLits)
		case l.is(&w, &k.choices), l.is(&w, &k.variables):
			return false
		default:
			ok = l.other(caseKeyValueInput)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok && seen&1 == 1
}

// maxLeanKeys bounds the keys of a map (publishers, ToolHive's images) the
// lean reading compares for repeats; a larger map is left to the checks.
const maxLeanKeys = 8

// meta is validator.meta's lean reading; block is the value of the
// publisher-provided member.
func (l *lean) meta() (block []byte, ok bool) {
	var seen uint32
	var more bool
	ok, more = l.open('}')
	for ok && more {
		if l.at(&metaKeys.publisherProvided) {
			start := l.i
			ok = once(&seen, 1) && l.publishers()
			block = l.b[start:l.i]
		} else {
			ok = l.other(caseServerMeta)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return block, ok
}

// maybeCredential reports whether a string (or key) literal's contents
// may hold user information that validator.credential refuses: it has an
// "@" that MaskURL masks (or escapes, which the full reading decodes).
func maybeCredential(s []byte) bool {
	if bytes.IndexByte(s, '\\') >= 0 {
		return true // an escape may spell "@": the full reading decodes it
	}
	at := bytes.IndexByte(s, '@')
	// MaskURL masks after a scheme or "//" only: neither can stand before
	// an "@" with no ":" or "/" ahead of it (an npm scope, "@scope/name").
	if at < 0 || !bytes.ContainsAny(s[:at], ":/") {
		return false
	}
	return holdsCredential(string(s))
}

// publishers reads the publisher-provided block: an object of objects,
// ToolHive's holding server extensions.
func (l *lean) publishers() bool {
	var keys [maxLeanKeys][]byte
	n := 0
	ok, more := l.open('}')
	for ok && more {
		k, isKey := l.key()
		if !isKey || !fresh(keys[:n], k) || n == len(keys) {
			return false
		}
		keys[n] = k
		n++
		toolhive := string(k) == ToolHivePublisher
		var images [maxLeanKeys][]byte
		m := 0
		var entries bool
		ok, entries = l.open('}')
		for ok && entries {
			ik, isKey := l.key()
			if !isKey {
				return false
			}
			if toolhive {
				if !fresh(images[:m], ik) || m == len(images) || maybeCredential(ik) {
					return false
				}
				images[m] = ik
				m++
				ok = l.extensions()
			} else {
				ok = l.skip()
			}
			if ok {
				ok, entries = l.sep('}')
			}
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// fresh reports whether k is none of keys.
func fresh(keys [][]byte, k []byte) bool {
	for _, o := range keys {
		if bytes.Equal(o, k) {
			return false
		}
	}
	return true
}

// extensions is validator.extensions's lean reading.
func (l *lean) extensions() bool {
	k := &extensionKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.status):
			ok = once(&seen, 1) && l.oneOf(extStatusLits)
		case l.is(&w, &k.tier):
			ok = once(&seen, 2) && l.oneOf(extTierLits)
		case l.is(&w, &k.tools):
			ok = once(&seen, 8) && l.strings(leanTool, true)
		case l.is(&w, &k.tags):
			ok = once(&seen, 16) && l.strings(leanTag, true)
		case l.is(&w, &k.metadata):
			ok = once(&seen, 32) && l.metadata()
		case l.is(&w, &k.overview):
			ok = once(&seen, 4) && l.anyStr()
		case l.is(&w, &k.stateless):
			ok = once(&seen, 64) && l.boolean()
		case l.is(&w, &k.customMetadata):
			ok = once(&seen, 128) && l.object()
		case l.is(&w, &k.proxyPort):
			ok = once(&seen, 256)
			if ok {
				f, isNum := l.number()
				ok = isNum && f == math.Trunc(f) && f >= portMin && f <= portMax
			}
		case l.is(&w, &k.dockerTags):
			ok = once(&seen, 512) && l.strings(leanAny, true)
		case l.is(&w, &k.args):
			ok = once(&seen, 1024) && l.strings(leanAny, false)
		case l.is(&w, &k.envVars):
			ok = once(&seen, 2048)
			if ok {
				_, ok = l.array(leanEnvVar)
			}
		case l.is(&w, &k.toolDefinitions):
			ok = once(&seen, 4096)
			if ok {
				_, ok = l.array(leanToolDefinition)
			}
		case l.is(&w, &k.permissions):
			ok = once(&seen, 8192) && l.permissions()
		case l.is(&w, &k.provenance):
			ok = once(&seen, 16384) && l.provenance()
		case l.is(&w, &k.oauthConfig):
			return false
		default:
			ok = l.other(caseExtension)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok && seen&1 == 1
}

// metadata is validator.metadata's lean reading.
func (l *lean) metadata() bool {
	k := &metadataKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.stars):
			ok = once(&seen, 1)
			if ok {
				f, isNum := l.number()
				ok = isNum && f >= 0
			}
		case l.is(&w, &k.lastUpdated):
			var s []byte
			s, ok = l.strIf(once(&seen, 2))
			ok = ok && isDateTime(s)
		case l.is(&w, &k.kubernetes):
			ok = once(&seen, 4) && l.kubernetes()
		default:
			ok = l.other(caseExtMetadata)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// icon is validator.icon's lean reading.
func (l *lean) icon() bool {
	k := &iconKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.src):
			start := l.i
			// ASCII: as many characters as bytes.
			ok = once(&seen, 1) && l.uri() && l.i-start-2 <= IconSrcMaxLen
		case l.is(&w, &k.mimeType):
			ok = once(&seen, 2) && l.oneOf(iconMimeTypeLits)
		case l.is(&w, &k.theme):
			ok = once(&seen, 4) && l.oneOf(iconThemeLits)
		case l.is(&w, &k.sizes):
			ok = once(&seen, 8) && l.strings(leanIconSize, false)
		default:
			ok = l.other(caseIcon)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok && seen&1 == 1
}

// envVar is validator.envVar's lean reading.
func (l *lean) envVar() bool {
	k := &envVarKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.name):
			ok = once(&seen, 1)
			if ok {
				var s []byte
				s, ok = l.classStr(classEnvVar)
				ok = ok && len(s) > 0 && !isDigit(s[0])
			}
		case l.is(&w, &k.description):
			ok = once(&seen, 2) && l.anyStr()
		case l.is(&w, &k.def):
			ok = once(&seen, 4) && l.anyStr()
		case l.is(&w, &k.required):
			ok = once(&seen, 8) && l.boolean()
		case l.is(&w, &k.secret):
			ok = once(&seen, 16) && l.boolean()
		default:
			ok = l.other(caseExtEnvVar)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// toolDefinition is validator.toolDefinition's lean reading.
func (l *lean) toolDefinition() bool {
	k := &toolDefinitionKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.name):
			ok = once(&seen, 1) && l.anyStr()
		case l.is(&w, &k.description):
			ok = once(&seen, 2) && l.anyStr()
		case l.is(&w, &k.inputSchema):
			ok = once(&seen, 4) && l.object()
		case l.is(&w, &k.annotations):
			ok = once(&seen, 8) && l.object()
		default:
			ok = l.other(nil)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok && seen&1 == 1
}

// object reads an object of any members.
func (l *lean) object() bool {
	return l.i < len(l.b) && l.b[l.i] == '{' && l.skip()
}

// kubernetes is validator.kubernetes's lean reading.
func (l *lean) kubernetes() bool {
	k := &kubernetesKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.kind):
			ok = once(&seen, 1) && l.anyStr()
		case l.is(&w, &k.image):
			ok = once(&seen, 2) && l.anyStr()
		case l.is(&w, &k.namespace):
			ok = once(&seen, 4) && l.k8sName()
		case l.is(&w, &k.name):
			ok = once(&seen, 8) && l.k8sName()
		case l.is(&w, &k.uid):
			var s []byte
			s, ok = l.strIf(once(&seen, 16))
			ok = ok && isUUID(s)
		case l.is(&w, &k.transport):
			ok = once(&seen, 32) && l.oneOf(kubernetesTransportLits)
		default:
			ok = l.other(caseExtKubernetes)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// k8sName reads a string matchK8sName accepts.
func (l *lean) k8sName() bool {
	s, ok := l.classStr(classK8sName)
	return ok && len(s) > 0 && isLowerAlnum(s[0]) && isLowerAlnum(s[len(s)-1])
}

// permissions is validator.permissions's lean reading.
func (l *lean) permissions() bool {
	k := &permissionsKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.name):
			ok = once(&seen, 1) && l.anyStr()
		case l.is(&w, &k.read):
			ok = once(&seen, 2) && l.strings(leanMount, true)
		case l.is(&w, &k.write):
			ok = once(&seen, 4) && l.strings(leanMount, true)
		case l.is(&w, &k.privileged):
			ok = once(&seen, 8) && l.boolean()
		case l.is(&w, &k.network):
			ok = once(&seen, 16) && l.network()
		default:
			ok = l.other(caseExtPermissions)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// network reads permissions.network: its outbound permissions.
func (l *lean) network() bool {
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		if w := l.window(); l.is(&w, &networkKeys.outbound) {
			ok = once(&seen, 1) && l.outbound()
		} else {
			ok = l.other(caseExtNetwork)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// outbound is validator.outbound's lean reading.
func (l *lean) outbound() bool {
	k := &outboundKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.allowHost):
			ok = once(&seen, 1) && l.strings(leanHost, true)
		case l.is(&w, &k.allowPort):
			ok = once(&seen, 2) && l.ports()
		case l.is(&w, &k.insecureAllowAll):
			ok = once(&seen, 4) && l.boolean()
		default:
			ok = l.other(caseExtOutbound)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// ports is validator.ports's lean reading: unique integers from 1 to
// 65535, compared as float64 values.
func (l *lean) ports() bool {
	var seen [16]float64
	n := 0
	ok, more := l.open(']')
	for ok && more {
		f, isNum := l.number()
		if !isNum || f != math.Trunc(f) || f < portMin || f > portMax || n == len(seen) {
			return false
		}
		for _, g := range seen[:n] {
			if g == f {
				return false
			}
		}
		seen[n] = f
		n++
		ok, more = l.sep(']')
	}
	return ok
}

// provenance is validator.provenance's lean reading.
func (l *lean) provenance() bool {
	k := &provenanceKeys
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		w := l.window()
		switch {
		case l.is(&w, &k.sigstoreURL):
			var s []byte
			s, ok = l.strIf(once(&seen, 1))
			ok = ok && isHostname(s)
		case l.is(&w, &k.repositoryURI):
			ok = once(&seen, 2) && l.uri()
		case l.is(&w, &k.certIssuer):
			ok = once(&seen, 4) && l.uri()
		case l.is(&w, &k.repositoryRef):
			ok = once(&seen, 8) && l.anyStr()
		case l.is(&w, &k.signerIdentity):
			ok = once(&seen, 16) && l.anyStr()
		case l.is(&w, &k.runnerEnvironment):
			ok = once(&seen, 32) && l.anyStr()
		case l.is(&w, &k.attestation):
			ok = once(&seen, 64) && l.attestation()
		default:
			ok = l.other(caseExtProvenance)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}

// attestation reads provenance.attestation: a URI predicate_type.
func (l *lean) attestation() bool {
	var seen uint32
	ok, more := l.open('}')
	for ok && more {
		if w := l.window(); l.is(&w, &attestationKeys.predicateType) {
			ok = once(&seen, 1) && l.uri()
		} else {
			ok = l.other(caseExtAttestation)
		}
		if ok {
			ok, more = l.sep('}')
		}
	}
	return ok
}
