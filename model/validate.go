package model

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// NamePattern returns the upstream server name pattern (exactly one "/"), as
// the MCP server.json schema writes it, compiled afresh so that no caller can
// change what another sees. The validator matches names with a hand-written
// equivalent; use CheckName to check a name.
func NamePattern() *regexp.Regexp { return regexp.MustCompile(patternName) }

// RemoteURLPattern returns the pattern of remotes[].url as the MCP
// server.json schema writes it, compiled afresh (see NamePattern).
func RemoteURLPattern() *regexp.Regexp { return regexp.MustCompile(patternRemoteURL) }

// Limits of the upstream schema.
const (
	NameMinLen        = 3
	NameMaxLen        = 200
	DescriptionMaxLen = 100
	TitleMaxLen       = 100
	VersionMaxLen     = 255
	// IconSrcMaxLen is the longest icons[].src, in characters.
	IconSrcMaxLen = 255
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
	if plainValidName(name) {
		return "", ""
	}
	return checkName(name)
}

// checkName is CheckName without its fast path.
func checkName(name string) (invalid, strict string) {
	n := utf8.RuneCountInString(name)
	switch {
	case n < NameMinLen:
		return string(Sprintf("name %q is %d characters; the minimum is %d", name, n, NameMinLen)), ""
	case n > NameMaxLen:
		return string(Sprintf("name %q is %d characters; the maximum is %d", name, n, NameMaxLen)), ""
	case strings.Count(name, "/") != 1:
		return string(Sprintf("name %q must contain exactly one \"/\" (pattern %s)", name, patternName)), ""
	case !matchName(name):
		return string(Sprintf("name %q does not match %s", name, patternName)), ""
	}
	ns, server, _ := strings.Cut(name, "/")
	if !matchOfficialPart(ns) || !matchOfficialPart(server) {
		return "", string(Sprintf("name %q is valid here, but the official MCP registry requires each side of \"/\" to be at least 2 characters and start and end with a letter or digit", name))
	}
	return "", ""
}

// plainValidName reports, in one pass, whether name passes every rule
// CheckName applies — the common case of a merge, where every entry's name is
// checked. Anything else (non-ASCII, a broken rule) is left to CheckName's
// own checks, which say what is wrong.
func plainValidName(name string) bool {
	if len(name) < NameMinLen || len(name) > NameMaxLen {
		return false
	}
	slash := strings.IndexByte(name, '/')
	if slash < 0 {
		return false
	}
	// The server part's class has no "/": a second one fails there.
	ns, server := name[:slash], name[slash+1:]
	for i := 0; i < len(ns); i++ {
		if byteClass[ns[i]]&classNamespace == 0 {
			return false
		}
	}
	for i := 0; i < len(server); i++ {
		if byteClass[server[i]]&classServerPart == 0 {
			return false
		}
	}
	return len(ns) >= 2 && isAlnum(ns[0]) && isAlnum(ns[len(ns)-1]) &&
		len(server) >= 2 && isAlnum(server[0]) && isAlnum(server[len(server)-1])
}

// runeCountOver returns the number of characters of s, or its length when
// that is at most limit (then so is the count): a check against limit
// needs no counting for most strings.
func runeCountOver(s []byte, limit int) int {
	if len(s) <= limit {
		return len(s)
	}
	return utf8.RuneCount(s)
}

// ValidateServer checks one entry against the upstream rules — name matching
// NamePattern, 3 to 200 characters; description 1 to 100 characters; version
// at most 255 characters; remotes of type streamable-http or sse with an
// http(s) URL — and every constraint ToolHive's registry server (toolhive-core's
// ValidateUpstreamRegistryBytes) puts on an entry: the MCP server.json schema
// (types of every known field, enums, patterns, formats, required members of
// repository, icons, remotes, packages, their inputs and arguments), ToolHive's
// publisher-provided extensions schema for _meta, and its decoding of every
// number as a float64. Each problem is a diagnostic on obj, its field under
// fieldPrefix (for example "data.servers[3]") pointing at the offending value:
// Error severity with reason DescriptionTooLong for an over-long description
// and InvalidEntry for the rest, except the official registry's stricter name
// rule, which is a Warning.
//
// Two rules are deliberately stricter than ToolHive's: a version must not be
// empty or "latest" (the official registry refuses both, and "latest" makes
// version comparison meaningless). Where a key is repeated inside an object
// the last one counts, as in encoding/json.
func ValidateServer(s *Server, obj ObjectRef, fieldPrefix string) Diagnostics {
	return validateServer(s, obj, fieldPrefix, false)
}

// validateServer is ValidateServer, with the check of an entry to be
// emitted when publish is set (see validator.publish).
func validateServer(s *Server, obj ObjectRef, fieldPrefix string, publish bool) Diagnostics {
	if s == nil {
		return Diagnostics{Errorf(ReasonInvalidEntry, obj, fieldPrefix, "no server entry (nil)")}
	}
	if _, ok := leanEntry(s); ok {
		return nil
	}
	var v validator
	v.server, v.obj, v.prefix, v.publish = s, obj, fieldPrefix, publish
	v.entry()
	if len(v.ds) == 0 {
		// A member checked again in careful mode may leave an empty,
		// non-nil list behind: no diagnostics are nil.
		return nil
	}
	return v.ds
}

// serverSchemaLiteral is ServerSchemaURL as a JSON string literal.
const serverSchemaLiteral = `"` + ServerSchemaURL + `"`

func (v *validator) entry() {
	s := v.server
	var title []byte
	var hasName, nameIsStr, hasDescription, descriptionIsStr, hasTitle, hasVersion, versionIsStr bool
	var name, description, version []byte
	// A compact entry read by Parse is read the lean way first (see
	// validate_lean.go), member by member.
	tryLean := s.compact && !v.careful
	for k := range s.memberCount() {
		m := s.memberAt(k)
		v.inName(m.Key)
		// One pass over a container member indexes its nested containers
		// and finds any number ToolHive cannot decode.
		v.index.reset()
		huge, indexed := false, false
		switch jsonx.Kind(m.Value) {
		case '{', '[':
			if indexed = v.index.useEntryIndex(s, m.Value); !indexed {
				huge = v.index.build(m.Value)
			}
		case '0':
			huge = numberOverflows(m.Value)
		}
		switch m.Key {
		case KeyName:
			name, hasName, nameIsStr = m.Value, true, isJSONString(m.Value)
		case KeyDescription:
			description, hasDescription, descriptionIsStr = m.Value, true, isJSONString(m.Value)
		case KeyTitle:
			title, hasTitle = m.Value, true
		case KeyVersion:
			version, hasVersion, versionIsStr = m.Value, true, isJSONString(m.Value)
		case KeySchema, "websiteUrl":
			// Nearly every entry names the one server.json schema: a URI,
			// known without parsing it again.
			if m.Key == KeySchema && string(m.Value) == serverSchemaLiteral {
				break
			}
			v.str(m.Value, ruleURI)
		case "repository", "icons", KeyRemotes, KeyPackages, KeyMeta:
			if tryLean && indexed && v.leanMember(m.Key, m.Value) {
				break
			}
			mark, depth := len(v.ds), v.depth
			v.container(m.Key, m.Value)
			if v.bail {
				// A text the fast reading leaves to careful mode: check
				// the member again from scratch.
				v.ds, v.depth, v.bail = v.ds[:mark], depth, false
				v.careful = true
				v.retried++
				v.container(m.Key, m.Value)
				v.careful = false
			}
		default:
			if c := variantOf(caseServer, m.Key); c != "" {
				v.fail(variantMessage, c)
			}
		}
		if huge {
			v.hugeNumbers(m.Value)
		}
		v.out()
	}

	// The core upstream rules keep the messages they have always had: users and
	// golden files match on them.
	bad := func(field, format string, args ...any) {
		v.ds = append(v.ds, Errorf(ReasonInvalidEntry, v.obj, joinField(v.prefix, field), "%s%s", Text(v.labelText()), Sprintf(format, args...)))
	}
	switch {
	case !hasName:
		bad(KeyName, "name is required")
	case !nameIsStr:
		bad(KeyName, "name must be a string, not %s", show(name))
	default:
		if invalid, strict := CheckName(s.Name()); invalid != "" {
			bad(KeyName, "%s", Text(invalid))
		} else if strict != "" {
			v.ds = append(v.ds, Warningf(ReasonInvalidEntry, v.obj, joinField(v.prefix, KeyName), "%s%s", Text(v.labelText()), Text(strict)))
		}
	}

	// The description and version are read from their raw values (keys do
	// not repeat in a Server) without decoding them into strings.
	var d []byte
	if descriptionIsStr {
		d, _ = v.contents(description)
	}
	switch {
	case !hasDescription:
		bad(KeyDescription, "description is required")
	case !descriptionIsStr:
		bad(KeyDescription, "description must be a string, not %s", show(description))
	case len(d) == 0:
		bad(KeyDescription, "description is empty; it must be 1 to %d characters", DescriptionMaxLen)
	case len(d) > DescriptionMaxLen: // no more characters than bytes
		if n := utf8.RuneCount(d); n > DescriptionMaxLen {
			v.ds = append(v.ds, Errorf(ReasonDescriptionTooLong, v.obj, joinField(v.prefix, KeyDescription),
				"%sdescription is %d characters; the maximum is %d", v.labelText(), n, DescriptionMaxLen))
		}
	}

	if hasTitle {
		if t, isStr := v.contents(title); !isStr {
			bad(KeyTitle, "title must be a string, not %s", show(title))
		} else if n := runeCountOver(t, TitleMaxLen); n == 0 || n > TitleMaxLen {
			bad(KeyTitle, "title is %d characters; it must be 1 to %d", n, TitleMaxLen)
		}
	}

	var ver []byte
	if versionIsStr {
		ver, _ = v.contents(version)
	}
	switch {
	case !hasVersion:
		bad(KeyVersion, "version is required")
	case !versionIsStr:
		bad(KeyVersion, "version must be a string, not %s", show(version))
	case len(ver) == 0:
		bad(KeyVersion, "version is empty")
	case runeCountOver(ver, VersionMaxLen) > VersionMaxLen:
		bad(KeyVersion, "version is longer than %d characters", VersionMaxLen)
	case string(ver) == "latest":
		bad(KeyVersion, "version must not be \"latest\"; use a specific version")
	case versionRange(ver):
		v.ds = append(v.ds, Warningf(ReasonInvalidEntry, v.obj, joinField(v.prefix, KeyVersion),
			"%sversion %q is valid here, but it reads as a range, which the official MCP registry refuses; give a specific version", Text(v.labelText()), ver))
	}
}

// contents returns the contents of a top-level string member's value raw
// as plainString does. Where the scan (or Set) found every string of the
// entry to be Unicode text (Server.textOK), a literal without a backslash
// is its own contents: one search for a backslash settles it instead of
// plainString's check of every byte.
func (v *validator) contents(raw []byte) (s []byte, ok bool) {
	return contentsOf(raw, v.server.textOK)
}

// contentsOf is validator.contents for an entry whose textOK is given.
func contentsOf(raw []byte, textOK bool) (s []byte, ok bool) {
	if n := len(raw); textOK && n >= 2 && raw[0] == '"' && raw[n-1] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 {
		return raw[1 : n-1], true
	}
	return plainString(raw)
}

// container checks the value of a top-level member that holds objects.
func (v *validator) container(key string, raw []byte) {
	switch key {
	case "repository":
		v.repository(raw)
	case "icons":
		v.each(raw, eachIcon)
	case KeyRemotes:
		v.facts.remotes = v.each(raw, eachRemote)
	case KeyPackages:
		v.facts.packages = v.each(raw, eachPackage)
	case KeyMeta:
		v.meta(raw)
	}
}

// variant refuses a member whose name is another spelling of one of ks,
// the member names of the struct its object is decoded into (see
// keycase.go).
func (v *validator) variant(m *rawMember, ks keySet) {
	if c := variantOf(ks, m.key); c != "" {
		v.failAt(m.key, -1, variantMessage, c)
	}
}

// ---- server.json definitions ----

// repository checks Repository: string url (a URI) and source, both
// required; string id and subfolder.
func (v *validator) repository(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	var hasURL, hasSource bool
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "url":
			hasURL = true
			v.strm(m, ruleURI)
		case "source":
			hasSource = true
			v.isStr(m)
		case "id", "subfolder":
			v.isStr(m)
		default:
			v.variant(m, caseRepository)
		}
	}
	v.required(hasURL, "url")
	v.required(hasSource, "source")
}

var (
	iconMimeTypes = []string{"image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"}
	iconThemes    = []string{"light", "dark"}
)

// icon checks Icon: src required, a URI of at most 255 characters; mimeType
// and theme from their enums; sizes "WxH" or "any".
func (v *validator) icon(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	hasSrc := false
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "src":
			hasSrc = true
			if s, ok := v.strm(m, ruleURI); ok {
				if n := runeCountOver(s, IconSrcMaxLen); n > IconSrcMaxLen {
					v.failAt(m.key, -1, "is %d characters; the maximum is %d", n, IconSrcMaxLen)
				}
			}
		case "mimeType":
			v.enumm(m, iconMimeTypes)
		case "theme":
			v.enumm(m, iconThemes)
		case "sizes":
			v.in(m.key)
			v.stringList(m.value, ruleIconSize, false)
			v.out()
		default:
			v.variant(m, caseIcon)
		}
	}
	v.required(hasSrc, "src")
}

// transport checks a remote (RemoteTransport) or a package's transport
// (LocalTransport). The schema's anyOf over the transport types comes down
// to the type: stdio needs nothing else, streamable-http and sse need a url
// matching RemoteURLPattern and take headers (KeyValueInputs). Only a remote
// has "variables" (a map of Inputs) in the schema.
func (v *validator) transport(raw []byte, remote bool) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	var typ, url, headers []byte
	var typPlain, urlPlain bool
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "type":
			typ, typPlain = m.value, m.plain
		case "url":
			url, urlPlain = m.value, m.plain
		case "headers":
			headers = m.value
		case "variables":
			if remote {
				v.in(m.key)
				v.variables(m.value)
				v.out()
			}
		default:
			v.variant(m, caseTransport)
		}
	}
	if remote && url != nil {
		plain := false
		if urlPlain {
			// ASCII without escapes: the contents are the URL.
			_, plain = plainURL(url[1 : len(url)-1])
			plain = plain || len(url) == 2
		} else {
			plain = plainURLLiteral(url)
		}
		if !plain {
			v.facts.urlsNotPlain = true
		}
	}
	var t []byte
	if typPlain {
		t = typ[1 : len(typ)-1]
	} else {
		t, _ = plainString(typ)
	}
	switch string(t) {
	case TransportStreamableHTTP, TransportSSE:
	case TransportStdio:
		if remote {
			v.inName("type")
			v.fail("is %s; a remote must be %q or %q", show(typ), TransportStreamableHTTP, TransportSSE)
			v.out()
		}
		return
	default:
		v.inName("type")
		switch {
		case typ == nil:
			v.fail("is required")
		case remote:
			v.fail("is %s; it must be %q or %q", show(typ), TransportStreamableHTTP, TransportSSE)
		default:
			v.fail("is %s; it must be %q, %q or %q", show(typ), TransportStdio, TransportStreamableHTTP, TransportSSE)
		}
		v.out()
		return
	}
	v.inName("url")
	if url == nil {
		v.fail("is required (type %s)", show(typ))
	} else if u, ok := v.strAt(nil, -1, url, urlPlain, ruleAny); ok && !matchRemoteURL(u) {
		v.fail("%s does not match %s", show(url), patternRemoteURL)
	} else if ok && !remote && v.publish {
		// A remote's URL has the URL policy of its own (dropInvalidRemoteURLs).
		v.credential(nil, -1, u, hasUserinfo)
	}
	v.out()
	if headers != nil {
		v.inName("headers")
		v.each(headers, eachKeyValueInput)
		v.out()
	}
}

// pkg checks Package: string registryType and identifier and a transport,
// all required; version, fileSha256, registryBaseUrl, runtimeHint;
// environmentVariables (KeyValueInputs); packageArguments and
// runtimeArguments (Arguments).
func (v *validator) pkg(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	var hasType, hasID, hasTransport bool
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "registryType":
			hasType = true
			v.isStr(m)
		case "identifier":
			hasID = true
			if s, ok := v.strm(m, ruleAny); ok && v.publish {
				v.credential(m.key, -1, s, holdsCredential)
			}
		case "transport":
			hasTransport = true
			v.in(m.key)
			v.transport(m.value, false)
			v.out()
		case "version":
			if s, ok := v.strm(m, ruleAny); ok && (len(s) == 0 || string(s) == "latest") {
				v.failAt(m.key, -1, "is %s; a package version must be a specific version, not empty or \"latest\"", show(m.value))
			} else if ok && versionRange(s) {
				v.in(m.key)
				v.ds = append(v.ds, Warningf(ReasonInvalidEntry, v.obj, joinField(v.prefix, v.pathString()),
					"%s%s %q is valid here, but it reads as a range, which the official MCP registry refuses; give a specific version", Text(v.labelText()), v.pathString(), s))
				v.out()
			}
		case "fileSha256":
			v.strm(m, ruleSHA256)
		case "registryBaseUrl":
			v.strm(m, ruleURI)
		case "runtimeHint":
			v.isStr(m)
		case "environmentVariables":
			v.in(m.key)
			v.each(m.value, eachKeyValueInput)
			v.out()
		case "packageArguments", "runtimeArguments":
			v.in(m.key)
			v.each(m.value, eachArgument)
			v.out()
		default:
			v.variant(m, casePackage)
		}
	}
	v.required(hasType, "registryType")
	v.required(hasID, "identifier")
	v.required(hasTransport, "transport")
}

var inputFormats = []string{"string", "number", "boolean", "filepath"}

// inputMember checks one member of an Input: string description, value,
// default and placeholder; boolean isRequired and isSecret; format from its
// enum; choices, strings. It reports whether the key is one of Input's.
func (v *validator) inputMember(m *rawMember) bool {
	switch string(m.key) {
	case "description", "placeholder":
		v.isStr(m)
	case "value", "default":
		// These may hold a secret (isSecret), which a message must not
		// repeat even when it is of the wrong type: only its kind is named.
		if !isJSONString(m.value) {
			v.failAt(m.key, -1, "must be a string, not %s", describeKind(m.value))
		}
	case "isRequired", "isSecret":
		v.boolm(m)
	case "format":
		v.enumm(m, inputFormats)
	case "choices":
		v.in(m.key)
		v.stringList(m.value, nil, false)
		v.out()
	default:
		return false
	}
	return true
}

// input checks an Input (the values of a "variables" map).
func (v *validator) input(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		if !v.inputMember(&it.m) {
			v.variant(&it.m, caseInput)
		}
	}
}

// variables checks the "variables" of an InputWithVariables or a remote: a
// map of Inputs.
func (v *validator) variables(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		v.inKey(it.m.key)
		v.input(it.m.value)
		v.out()
	}
}

// inputWithVariables checks a member of an InputWithVariables and reports
// whether it is one of its members (an Input's or "variables").
func (v *validator) inputWithVariables(m *rawMember) bool {
	if v.inputMember(m) {
		return true
	}
	if string(m.key) != "variables" {
		return false
	}
	v.in(m.key)
	v.variables(m.value)
	v.out()
	return true
}

// keyValueInput checks a KeyValueInput (a header or environment variable):
// an InputWithVariables with a required string name. The members of the
// InputWithVariables are checked first, then the name.
func (v *validator) keyValueInput(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	var name []byte
	for v.next(&it) {
		if string(it.m.key) == "name" {
			name = it.m.value // not a member of an InputWithVariables
		} else if !v.inputWithVariables(&it.m) {
			v.variant(&it.m, caseKeyValueInput)
		}
	}
	if name != nil {
		v.inName("name")
		v.str(name, nil)
		v.out()
	}
	v.required(name != nil, "name")
}

// argument checks an Argument: an InputWithVariables with a boolean
// isRepeated, and by type either positional (a string valueHint; valueHint
// or value required) or named (a string name, required). The members of the
// InputWithVariables are checked first, then isRepeated, then by type.
func (v *validator) argument(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	var typ, name, hint, repeated []byte
	var hasValue bool
	for v.next(&it) {
		// None of these is a member of an InputWithVariables.
		switch m := &it.m; string(m.key) {
		case "type":
			typ = m.value
		case "isRepeated":
			repeated = m.value
		case "name":
			name = m.value
		case "valueHint":
			hint = m.value
		default:
			if v.inputWithVariables(m) {
				hasValue = hasValue || string(m.key) == "value"
			} else {
				v.variant(m, caseArgument)
			}
		}
	}
	if repeated != nil {
		v.inName("isRepeated")
		v.boolean(repeated)
		v.out()
	}
	t, _ := plainString(typ)
	switch string(t) {
	case "positional":
		v.inName("valueHint")
		if hint != nil {
			v.str(hint, nil)
		} else if !hasValue {
			v.fail("is required for a positional argument without a value")
		}
		v.out()
	case "named":
		v.inName("name")
		if name == nil {
			v.fail("is required")
		} else {
			v.str(name, nil)
		}
		v.out()
	default:
		v.inName("type")
		if typ == nil {
			v.fail("is required (\"positional\" or \"named\")")
		} else {
			v.fail("is %s; it must be \"positional\" or \"named\"", show(typ))
		}
		v.out()
	}
}

// ValidateRegistry checks a whole document: the document rules (version
// pattern, RFC 3339 last_updated), every server (its text Unicode
// included: no invalid UTF-8, no lone surrogate escape), unique names and versions
// (one name may be listed once per version) and remote URLs not shared by
// servers of different names. Diagnostics are on obj, sorted.
func ValidateRegistry(r *Registry, obj ObjectRef) Diagnostics {
	var ds Diagnostics
	if r == nil {
		return Diagnostics{Errorf(ReasonInvalidEntry, obj, "", "no registry document (nil)")}
	}
	if !docVersionRE.MatchString(r.Version) {
		ds = append(ds, Errorf(ReasonInvalidEntry, obj, "version", "document version %q must match ^\\d+\\.\\d+\\.\\d+$", r.Version))
	}
	if !IsRFC3339(r.LastUpdated) {
		ds = append(ds, Errorf(ReasonInvalidEntry, obj, "meta.last_updated", "meta.last_updated %q is not an RFC 3339 timestamp (such as 2025-01-02T15:04:05Z: a \".\" before a fraction of a second, an offset from -23:59 to +23:59, \"T\" and \"Z\" in upper case)", r.LastUpdated))
	}
	names := map[nameVersion]int{}
	urls := map[string]string{}
	for i, s := range r.Servers {
		field := fmt.Sprintf("data.servers[%d]", i)
		ds = append(ds, ValidateServer(s, obj, field)...)
		if s == nil {
			continue
		}
		// Text that is not Unicode: the schema cannot say it (a decoder
		// reads it as U+FFFD first), and no verb publishes such an entry.
		if key, why := badText(s); why != "" {
			ds = append(ds, Errorf(ReasonInvalidEntry, obj, field+"."+key, "server %q: %s", s.Name(), Text(why)))
		}
		// Several versions of one server are several entries with one name,
		// as ToolHive's registry server keeps them; one version twice is not.
		nv := nameVersion{s.Name(), s.Version()}
		if j, dup := names[nv]; dup && s.Name() != "" {
			ds = append(ds, Errorf(ReasonDuplicateServer, obj, field+".name",
				"server %q version %q: name and version already used by data.servers[%d]; each version of a server must be listed once", s.Name(), nv.version, j))
		} else {
			names[nv] = i
		}
		for k, rm := range s.Remotes() {
			if rm.URL == "" {
				continue
			}
			if other, dup := urls[rm.URL]; dup && other != s.Name() {
				// ToolHive's validator and registry server accept it; the
				// official registry refuses a URL two servers claim.
				ds = append(ds, Warningf(ReasonDuplicateRemoteURL, obj, fmt.Sprintf("%s.remotes[%d].url", field, k),
					"server %q: remote URL %s is already used by server %q; the official MCP registry would refuse one of them", s.Name(), QuoteURL(rm.URL), other))
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
		// Parse's message says a format "was requested", which the caller of
		// a validation never did; a ToolHive catalog (ToolHive's own
		// registry.json is legacy) is not an invalid upstream document but
		// another shape, which a conversion turns into one.
		if len(ds) == 1 && ds[0].Reason == ReasonUnknownFormat {
			const upstream = `{"data": {"servers": [...]}}`
			switch f, err := DetectFormat(data); {
			case err != nil:
				ds[0].Message = fmt.Sprintf("validation checks upstream registry documents (%s) only, and the data has no known shape: %v", upstream, err)
			case f != FormatUpstream:
				ds[0].Message = fmt.Sprintf("validation checks upstream registry documents (%s) only, and the data has %s; convert it to an upstream document first (model.Convert, mcpreg convert) and validate the result",
					upstream, shapeName(f))
			}
		}
		return ds.Sorted()
	}
	// Parse skipped malformed entries with a warning; for validation they are errors.
	for i := range ds {
		if ds[i].Reason == ReasonInvalidEntry {
			ds[i].Severity = SeverityError
		}
	}
	ds = append(ds, documentRules(data, obj)...)
	ds = append(ds, ValidateRegistry(reg, obj)...)
	ds.Sort()
	return ds
}
