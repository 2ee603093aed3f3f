// Code generated from the validator as it was before the fast reading
// (model/validate*.go at commit c01d861), every top-level name prefixed with
// "old", by a renaming of its syntax tree. DO NOT EDIT.
//
// It is the oracle of validate_oracle_diff_test.go: the validator must give
// exactly the diagnostics this one gives, for every input. One change since:
// build no longer indexes its stack at depth -1 (a closing bracket too many
// in a value set with Server.Set made it panic); the validator has the same
// fix.

package model

import (
	"bytes"
	"fmt"
	"github.com/mcpreg/mcpreg/internal/jsonx"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	oldPubNamePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)
)

const (
	oldPubNameMinLen        = 3
	oldPubNameMaxLen        = 200
	oldPubDescriptionMaxLen = 100
	oldPubTitleMaxLen       = 100
	oldPubVersionMaxLen     = 255
	oldPubIconSrcMaxLen     = 255
)

const (
	oldPubTransportStreamableHTTP = "streamable-http"
	oldPubTransportSSE            = "sse"
	oldPubTransportStdio          = "stdio"
)

func oldPubCheckName(name string) (invalid, strict string) {
	if oldPlainValidName(name) {
		return "", ""
	}
	return oldCheckName(name)
}

func oldCheckName(name string) (invalid, strict string) {
	n := utf8.RuneCountInString(name)
	switch {
	case n < oldPubNameMinLen:
		return fmt.Sprintf("name %q is %d characters; the minimum is %d", name, n, oldPubNameMinLen), ""
	case n > oldPubNameMaxLen:
		return string(Sprintf("name %q is %d characters; the maximum is %d", name, n, oldPubNameMaxLen)), ""
	case strings.Count(name, "/") != 1:
		return fmt.Sprintf("name %q must contain exactly one \"/\" (pattern %s)", name, oldPubNamePattern), ""
	case !oldMatchName(name):
		return fmt.Sprintf("name %q does not match %s", name, oldPubNamePattern), ""
	}
	ns, server, _ := strings.Cut(name, "/")
	if !oldMatchOfficialPart(ns) || !oldMatchOfficialPart(server) {
		return "", fmt.Sprintf("name %q is valid here, but the official MCP registry requires each side of \"/\" to be at least 2 characters and start and end with a letter or digit", name)
	}
	return "", ""
}

func oldPlainValidName(name string) bool {
	if len(name) < oldPubNameMinLen || len(name) > oldPubNameMaxLen {
		return false
	}
	slash := -1
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case oldIsAlnum(c) || c == '.' || c == '-':
		case c == '_' && slash >= 0:
		case c == '/' && slash < 0:
			slash = i
		default:
			return false
		}
	}
	if slash < 0 {
		return false
	}
	ns, server := name[:slash], name[slash+1:]
	return len(ns) >= 2 && oldIsAlnum(ns[0]) && oldIsAlnum(ns[len(ns)-1]) &&
		len(server) >= 2 && oldIsAlnum(server[0]) && oldIsAlnum(server[len(server)-1])
}

func oldPubValidateServer(s *Server, obj ObjectRef, fieldPrefix string) Diagnostics {
	v := oldValidator{server: s, obj: obj, prefix: fieldPrefix}
	v.entry()
	return v.ds
}

const oldServerSchemaLiteral = `"` + ServerSchemaURL + `"`

func (v *oldValidator) entry() {
	s := v.server
	var title []byte
	var hasName, nameIsStr, hasDescription, descriptionIsStr, hasTitle, hasVersion, versionIsStr bool
	var name, description, version []byte
	for _, m := range s.allMembers() {
		v.inName(m.Key)

		v.index.n, v.index.spans = 0, nil
		huge := false
		switch jsonx.Kind(m.Value) {
		case '{', '[':
			if !v.index.useEntryIndex(s, m.Value) {
				huge = v.index.build(m.Value)
			}
		case '0':
			huge = oldNumberOverflows(m.Value)
		}
		switch m.Key {
		case KeyName:
			name, hasName, nameIsStr = m.Value, true, oldIsJSONString(m.Value)
		case KeyDescription:
			description, hasDescription, descriptionIsStr = m.Value, true, oldIsJSONString(m.Value)
		case KeyTitle:
			title, hasTitle = m.Value, true
		case KeyVersion:
			version, hasVersion, versionIsStr = m.Value, true, oldIsJSONString(m.Value)
		case KeySchema, "websiteUrl":

			if m.Key == KeySchema && string(m.Value) == oldServerSchemaLiteral {
				break
			}
			v.str(m.Value, oldRuleURI)
		case "repository":
			v.repository(m.Value)
		case "icons":
			v.each(m.Value, oldEachIcon)
		case KeyRemotes:
			v.each(m.Value, oldEachRemote)
		case KeyPackages:
			v.each(m.Value, oldEachPackage)
		case KeyMeta:
			v.meta(m.Value)
		default:
			v.variantHere([]byte(m.Key), oracleServerKeys)
		}
		if huge {
			v.hugeNumbers(m.Value)
		}
		v.out()
	}

	bad := func(field, format string, args ...any) {
		v.ds = append(v.ds, Errorf(ReasonInvalidEntry, v.obj, oldJoinField(v.prefix, field), "%s%s", Text(v.labelText()), fmt.Sprintf(format, args...)))
	}
	switch {
	case !hasName:
		bad(KeyName, "name is required")
	case !nameIsStr:
		bad(KeyName, "name must be a string, not %s", oldShow(name))
	default:
		if invalid, strict := oldPubCheckName(s.Name()); invalid != "" {
			// Composed as a message (each value cut by the echo rules), not
			// one value to cut.
			v.ds = append(v.ds, Errorf(ReasonInvalidEntry, v.obj, oldJoinField(v.prefix, KeyName), "%s%s", Text(v.labelText()), Text(invalid)))
		} else if strict != "" {
			v.ds = append(v.ds, Warningf(ReasonInvalidEntry, v.obj, oldJoinField(v.prefix, KeyName), "%s%s", v.labelText(), strict))
		}
	}

	var d []byte
	if descriptionIsStr {
		d, _ = oldPlainString(description)
	}
	switch {
	case !hasDescription:
		bad(KeyDescription, "description is required")
	case !descriptionIsStr:
		bad(KeyDescription, "description must be a string, not %s", oldShow(description))
	case len(d) == 0:
		bad(KeyDescription, "description is empty; it must be 1 to %d characters", oldPubDescriptionMaxLen)
	default:
		if n := utf8.RuneCount(d); n > oldPubDescriptionMaxLen {
			v.ds = append(v.ds, Errorf(ReasonDescriptionTooLong, v.obj, oldJoinField(v.prefix, KeyDescription),
				"%sdescription is %d characters; the maximum is %d", v.labelText(), n, oldPubDescriptionMaxLen))
		}
	}

	if hasTitle {
		if t, isStr := oldPlainString(title); !isStr {
			bad(KeyTitle, "title must be a string, not %s", oldShow(title))
		} else if n := utf8.RuneCount(t); n == 0 || n > oldPubTitleMaxLen {
			bad(KeyTitle, "title is %d characters; it must be 1 to %d", n, oldPubTitleMaxLen)
		}
	}

	var ver []byte
	if versionIsStr {
		ver, _ = oldPlainString(version)
	}
	switch {
	case !hasVersion:
		bad(KeyVersion, "version is required")
	case !versionIsStr:
		bad(KeyVersion, "version must be a string, not %s", oldShow(version))
	case len(ver) == 0:
		bad(KeyVersion, "version is empty")
	case utf8.RuneCount(ver) > oldPubVersionMaxLen:
		bad(KeyVersion, "version is longer than %d characters", oldPubVersionMaxLen)
	case string(ver) == "latest":
		bad(KeyVersion, "version must not be \"latest\"; use a specific version")
	case oracleVersionRange(string(ver)):
		v.ds = append(v.ds, Warningf(ReasonInvalidEntry, v.obj, oldJoinField(v.prefix, KeyVersion),
			"%sversion %q is valid here, but it reads as a range, which the official MCP registry refuses; give a specific version", Text(v.labelText()), ver))
	}
}

func (v *oldValidator) repository(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	var hasURL, hasSource bool
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "url":
			hasURL = true
			v.str(m.value, oldRuleURI)
		case "source":
			hasSource = true
			v.str(m.value, nil)
		case "id", "subfolder":
			v.str(m.value, nil)
		default:
			v.variantHere(m.key, []string{"url", "source", "id", "subfolder"})
		}
		v.out()
	}
	v.required(hasURL, "url")
	v.required(hasSource, "source")
}

var (
	oldIconMimeTypes = []string{"image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"}
	oldIconThemes    = []string{"light", "dark"}
)

func (v *oldValidator) icon(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	hasSrc := false
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "src":
			hasSrc = true
			if s, ok := v.str(m.value, oldRuleURI); ok {
				if n := utf8.RuneCount(s); n > oldPubIconSrcMaxLen {
					v.fail("is %d characters; the maximum is %d", n, oldPubIconSrcMaxLen)
				}
			}
		case "mimeType":
			v.enum(m.value, oldIconMimeTypes)
		case "theme":
			v.enum(m.value, oldIconThemes)
		case "sizes":
			v.stringList(m.value, oldRuleIconSize, false)
		default:
			v.variantHere(m.key, []string{"src", "mimeType", "sizes", "theme"})
		}
		v.out()
	}
	v.required(hasSrc, "src")
}

func (v *oldValidator) transport(raw []byte, remote bool) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	var typ, url, headers []byte
	for _, m := range ms {
		switch string(m.key) {
		case "type":
			typ = m.value
		case "url":
			url = m.value
		case "headers":
			headers = m.value
		case "variables":
			if remote {
				v.in(m.key)
				v.variables(m.value)
				v.out()
			}
		default:
			v.in(m.key)
			v.variantHere(m.key, []string{"type", "url", "headers", "variables"})
			v.out()
		}
	}
	t, _ := oldPlainString(typ)
	switch string(t) {
	case oldPubTransportStreamableHTTP, oldPubTransportSSE:
	case oldPubTransportStdio:
		if remote {
			v.inName("type")
			v.fail("is %s; a remote must be %q or %q", oldShow(typ), oldPubTransportStreamableHTTP, oldPubTransportSSE)
			v.out()
		}
		return
	default:
		v.inName("type")
		switch {
		case typ == nil:
			v.fail("is required")
		case remote:
			v.fail("is %s; it must be %q or %q", oldShow(typ), oldPubTransportStreamableHTTP, oldPubTransportSSE)
		default:
			v.fail("is %s; it must be %q, %q or %q", oldShow(typ), oldPubTransportStdio, oldPubTransportStreamableHTTP, oldPubTransportSSE)
		}
		v.out()
		return
	}
	v.inName("url")
	if url == nil {
		v.fail("is required (type %s)", oldShow(typ))
	} else if u, ok := v.str(url, oldRuleAny); ok && !oldMatchRemoteURL(u) {
		v.fail("%s does not match %s", oldShow(url), oldPatternRemoteURL)
	}
	v.out()
	if headers != nil {
		v.inName("headers")
		v.each(headers, oldEachKeyValueInput)
		v.out()
	}
}

func (v *oldValidator) pkg(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	var hasType, hasID, hasTransport bool
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "registryType":
			hasType = true
			v.str(m.value, nil)
		case "identifier":
			hasID = true
			v.str(m.value, nil)
		case "transport":
			hasTransport = true
			v.transport(m.value, false)
		case "version":
			if s, ok := v.str(m.value, oldRuleAny); ok && (len(s) == 0 || string(s) == "latest") {
				v.fail("is %s; a package version must be a specific version, not empty or \"latest\"", oldShow(m.value))
			} else if ok && oracleVersionRange(string(s)) {
				rel := v.pathString()
				v.ds = append(v.ds, Warningf(ReasonInvalidEntry, v.obj, oldJoinField(v.prefix, rel),
					"%s%s %q is valid here, but it reads as a range, which the official MCP registry refuses; give a specific version", Text(v.labelText()), rel, s))
			}
		case "fileSha256":
			v.str(m.value, oldRuleSHA256)
		case "registryBaseUrl":
			v.str(m.value, oldRuleURI)
		case "runtimeHint":
			v.str(m.value, nil)
		case "environmentVariables":
			v.each(m.value, oldEachKeyValueInput)
		case "packageArguments", "runtimeArguments":
			v.each(m.value, oldEachArgument)
		default:
			v.variantHere(m.key, []string{"registryType", "registryBaseUrl", "identifier", "version", "fileSha256", "runtimeHint",
				"transport", "runtimeArguments", "packageArguments", "environmentVariables"})
		}
		v.out()
	}
	v.required(hasType, "registryType")
	v.required(hasID, "identifier")
	v.required(hasTransport, "transport")
}

var oldInputFormats = []string{"string", "number", "boolean", "filepath"}

func (v *oldValidator) inputMember(m oldRawMember) bool {
	v.in(m.key)
	defer v.out()
	switch string(m.key) {
	case "description", "placeholder":
		v.str(m.value, nil)
	case "value", "default":
		// A secret is named by its kind, never repeated.
		if !oldIsJSONString(m.value) {
			v.fail("must be a string, not %s", describeKind(m.value))
		}
	case "isRequired", "isSecret":
		v.boolean(m.value)
	case "format":
		v.enum(m.value, oldInputFormats)
	case "choices":
		v.stringList(m.value, nil, false)
	default:
		return false
	}
	return true
}

func (v *oldValidator) input(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		if !v.inputMember(m) {
			v.in(m.key)
			v.variantHere(m.key, oracleInputKeys)
			v.out()
		}
	}
}

func (v *oldValidator) variables(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.inKey(m.key)
		v.input(m.value)
		v.out()
	}
}

func (v *oldValidator) inputWithVariables(ms []oldRawMember, level []string) {
	for _, m := range ms {
		if v.inputMember(m) {
			continue
		}
		v.in(m.key)
		if string(m.key) == "variables" {
			v.variables(m.value)
		} else {
			v.variantHere(m.key, level)
		}
		v.out()
	}
}

func (v *oldValidator) keyValueInput(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	v.inputWithVariables(ms, append(oracleInputKeys[:len(oracleInputKeys):len(oracleInputKeys)], "variables", "name"))
	hasName := false
	for _, m := range ms {
		if string(m.key) == "name" {
			hasName = true
			v.in(m.key)
			v.str(m.value, nil)
			v.out()
		}
	}
	v.required(hasName, "name")
}

func (v *oldValidator) argument(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	v.inputWithVariables(ms, append(oracleInputKeys[:len(oracleInputKeys):len(oracleInputKeys)], "variables", "type", "name", "valueHint", "isRepeated"))
	var typ, name, hint []byte
	var hasValue bool
	for _, m := range ms {
		switch string(m.key) {
		case "type":
			typ = m.value
		case "isRepeated":
			v.in(m.key)
			v.boolean(m.value)
			v.out()
		case "value":
			hasValue = true
		case "name":
			name = m.value
		case "valueHint":
			hint = m.value
		}
	}
	t, _ := oldPlainString(typ)
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
			v.fail("is %s; it must be \"positional\" or \"named\"", oldShow(typ))
		}
		v.out()
	}
}

type oldRawMember struct {
	key   []byte
	value []byte
}

type (
	oldMemberBuf  [24]oldRawMember
	oldElementBuf [24][]byte
)

func oldMembersOf(raw []byte, dst []oldRawMember, idx *oldContainerIndex) (ms []oldRawMember, ok bool) {
	i := oldSkipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return dst, false
	}
	ms = dst
	i = oldSkipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return ms, true
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return dst, false
		}
		end := oldSkipStr(raw, i)
		if end < 0 {
			return dst, false
		}
		key := raw[i+1 : end-1]
		if !oldPlainKey(key) {

			k, ok := jsonx.String(raw[i:end])
			if !ok {
				return dst, false
			}
			key = []byte(k)
		}
		i = oldSkipWS(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return dst, false
		}
		i = oldSkipWS(raw, i+1)
		vend := idx.skip(raw, i)
		if vend < 0 {
			return dst, false
		}
		ms = append(ms, oldRawMember{key: key, value: raw[i:vend]})
		i = oldSkipWS(raw, vend)
		if i >= len(raw) {
			return dst, false
		}
		if raw[i] == '}' {
			break
		}
		if raw[i] != ',' {
			return dst, false
		}
		i = oldSkipWS(raw, i+1)
	}
	return oldDropShadowed(ms), true
}

func oldPlainKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

func oldDropShadowed(ms []oldRawMember) []oldRawMember {
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

func oldElementsOf(raw []byte, dst [][]byte, idx *oldContainerIndex) (els [][]byte, ok bool) {
	i := oldSkipWS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return dst, false
	}
	els = dst
	i = oldSkipWS(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return els, true
	}
	for {
		vend := idx.skip(raw, i)
		if vend < 0 {
			return dst, false
		}
		els = append(els, raw[i:vend])
		i = oldSkipWS(raw, vend)
		if i >= len(raw) {
			return dst, false
		}
		if raw[i] == ']' {
			return els, true
		}
		if raw[i] != ',' {
			return dst, false
		}
		i = oldSkipWS(raw, i+1)
	}
}

func oldSkipWS(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

func oldSkipStr(d []byte, i int) int {
	return jsonx.StringEnd(d, i)
}

func oldSkipVal(d []byte, i int) int {
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"':
		return oldSkipStr(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end := oldSkipStr(d, j)
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

type oldContainerIndex struct {
	base  []byte
	n     int
	start [oldIndexSize]int32
	end   [oldIndexSize]int32
	spans []jsonx.Span
}

func (x *oldContainerIndex) useEntryIndex(s *Server, value []byte) bool {
	if !s.indexed || s.bigNumbers || !s.fromRaw(value) {
		return false
	}
	x.base, x.spans, x.n = s.raw, s.index, 0
	return true
}

const oldIndexSize = 64

func (x *oldContainerIndex) build(base []byte) (huge bool) {
	x.base, x.n, x.spans = base, 0, nil
	if len(base) > math.MaxInt32 {
		x.base = nil
		return oldHasHugeNumber(base)
	}
	var stack [64]int32
	depth := 0
	for i := 0; i < len(base); i++ {
		switch c := base[i]; {
		case c == '"':
			end := oldSkipStr(base, i)
			if end < 0 {
				return huge
			}
			i = end - 1
		case c == '{' || c == '[':
			k := int32(-1)
			if x.n < oldIndexSize {
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
		case c == '-' || oldIsDigit(c):
			j := i + 1
			for j < len(base) && oldIsNumberByte(base[j]) {
				j++
			}
			if oldNumberOverflows(base[i:j]) {
				huge = true
			}
			i = j - 1
		}
	}
	return huge
}

func (x *oldContainerIndex) skip(raw []byte, i int) int {
	if x == nil || x.n == 0 && x.spans == nil || i >= len(raw) || (raw[i] != '{' && raw[i] != '[') {
		return oldSkipVal(raw, i)
	}
	off := cap(x.base) - cap(raw)
	if off < 0 || off >= len(x.base) || &x.base[off] != &raw[0] {
		return oldSkipVal(raw, i)
	}
	at := off + i
	if x.spans != nil {
		lo, hi := 0, len(x.spans)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if int(x.spans[m].Start) < at {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(x.spans) && int(x.spans[lo].Start) == at && x.spans[lo].End > 0 {
			if end := int(x.spans[lo].End) - off; end <= len(raw) {
				return end
			}
		}
		return oldSkipVal(raw, i)
	}
	lo, hi := 0, x.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(x.start[m]) < at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < x.n && int(x.start[lo]) == at && x.end[lo] > 0 {
		if end := int(x.end[lo]) - off; end <= len(raw) {
			return end
		}
	}
	return oldSkipVal(raw, i)
}

func oldIsJSONString(raw []byte) bool { return jsonx.Kind(raw) == '"' }

func oldPlainString(raw []byte) (s []byte, ok bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		inner := raw[1 : len(raw)-1]
		if bytes.IndexByte(inner, '\\') < 0 && oldIsPlainUTF8(inner) {
			return inner, true
		}
	}
	str, ok := jsonx.String(raw)
	return []byte(str), ok
}

func oldIsPlainUTF8(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return utf8.Valid(b)
		}
	}
	return true
}

type oldValidator struct {
	server *Server
	obj    ObjectRef
	prefix string
	label  string
	ds     Diagnostics
	depth  int
	path   [oldMaxPathDepth]oldSegment
	index  oldContainerIndex
}

const oldMaxPathDepth = 24

type oldSegment struct {
	name    string
	key     []byte
	idx     int
	bracket bool
}

func (v *oldValidator) push(s oldSegment) {
	if v.depth < len(v.path) {
		v.path[v.depth] = s
	}
	v.depth++
}

func (v *oldValidator) inName(name string) { v.push(oldSegment{name: name}) }

func (v *oldValidator) in(key []byte) { v.push(oldSegment{key: key}) }

func (v *oldValidator) inKey(key []byte) { v.push(oldSegment{key: key, bracket: true}) }

func (v *oldValidator) inIndex(i int) { v.push(oldSegment{idx: i}) }

func (v *oldValidator) out() { v.depth-- }

func (v *oldValidator) pathString() string {
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

func oldJoinField(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// labelText caps the server's name as the validator does (model.Sprintf,
// then Text so that the label is not capped again as one value): the oracle
// holds the checks, not the echo of names, which the echo tests hold.
func (v *oldValidator) labelText() string {
	if v.label == "" {
		v.label = string(Sprintf("server %q: ", v.server.Name()))
	}
	return v.label
}

func (v *oldValidator) fail(format string, args ...any) {
	rel := v.pathString()
	v.ds = append(v.ds, Errorf(ReasonInvalidEntry, v.obj, oldJoinField(v.prefix, rel),
		"%s%s %s", Text(v.labelText()), rel, fmt.Sprintf(format, args...)))
}

func oldShow(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
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

func (v *oldValidator) object(raw []byte, buf []oldRawMember) ([]oldRawMember, bool) {
	ms, ok := oldMembersOf(raw, buf, &v.index)
	if !ok {
		v.fail("must be an object, not %s", oldShow(raw))
	}
	return ms, ok
}

func (v *oldValidator) isObject(raw []byte) {
	if jsonx.Kind(raw) != '{' {
		v.fail("must be an object, not %s", oldShow(raw))
	}
}

func (v *oldValidator) array(raw []byte, buf [][]byte) ([][]byte, bool) {
	els, ok := oldElementsOf(raw, buf, &v.index)
	if !ok {
		v.fail("must be an array, not %s", oldShow(raw))
	}
	return els, ok
}

type oldElementCheck int

const (
	oldEachIcon oldElementCheck = iota
	oldEachRemote
	oldEachPackage
	oldEachKeyValueInput
	oldEachArgument
	oldEachToolDefinition
	oldEachEnvVar
)

func (v *oldValidator) each(raw []byte, check oldElementCheck) {
	var buf oldElementBuf
	els, _ := v.array(raw, buf[:0])
	for i, el := range els {
		v.inIndex(i)
		switch check {
		case oldEachIcon:
			v.icon(el)
		case oldEachRemote:
			v.transport(el, true)
		case oldEachPackage:
			v.pkg(el)
		case oldEachKeyValueInput:
			v.keyValueInput(el)
		case oldEachArgument:
			v.argument(el)
		case oldEachToolDefinition:
			v.toolDefinition(el)
		case oldEachEnvVar:
			v.envVar(el)
		}
		v.out()
	}
}

func (v *oldValidator) required(present bool, name string) {
	if !present {
		v.inName(name)
		v.fail("is required")
		v.out()
	}
}

type oldStringRule struct {
	match func([]byte) bool
	want  string
}

var (
	oldRuleURI      = &oldStringRule{oldIsURI[[]byte], `be a URI with a scheme and no "\" (format "uri")`}
	oldRuleHostname = &oldStringRule{oldIsHostname[[]byte], `be a hostname (format "hostname")`}
	oldRuleDateTime = &oldStringRule{oldIsDateTime[[]byte], `be an RFC 3339 date-time, a date or a time (format "date-time")`}
	oldRuleUUID     = &oldStringRule{oldIsUUID[[]byte], `be a lower-case UUID (format "uuid")`}
	oldRuleSHA256   = &oldStringRule{oldMatchSHA256[[]byte], "match " + oldPatternSHA256}
	oldRuleIconSize = &oldStringRule{oldMatchIconSize[[]byte], "match " + oldPatternIconSize}
	oldRuleTool     = &oldStringRule{oldMatchTool[[]byte], "match " + oldPatternTool}
	oldRuleTag      = &oldStringRule{oldMatchTag[[]byte], "match " + oldPatternTag}
	oldRuleEnvVar   = &oldStringRule{oldMatchEnvVar[[]byte], "match " + oldPatternEnvVar}
	oldRuleK8sName  = &oldStringRule{oldMatchK8sName[[]byte], "match " + oldPatternK8sName}
	oldRuleMount    = &oldStringRule{oldMatchMountPath[[]byte], "match " + oldPatternMountPath + " (an absolute path)"}
	oldRuleHost     = &oldStringRule{oldMatchHost[[]byte], `be a hostname or a ".domain" pattern (` + oldPatternDomain + `)`}
	oldRuleAny      = &oldStringRule{func([]byte) bool { return true }, ""}
)

func (v *oldValidator) str(raw []byte, rule *oldStringRule) (s []byte, ok bool) {
	if rule == nil {
		if !oldIsJSONString(raw) {
			v.fail("must be a string, not %s", oldShow(raw))
			return nil, false
		}
		return raw, true
	}
	s, ok = oldPlainString(raw)
	if !ok {
		v.fail("must be a string, not %s", oldShow(raw))
		return nil, false
	}
	if !rule.match(s) {
		v.fail("is %s; it must %s", oldShow(raw), rule.want)
	}
	return s, true
}

func (v *oldValidator) enum(raw []byte, allowed []string) {
	if s, ok := oldPlainString(raw); ok {
		for _, a := range allowed {
			if string(s) == a {
				return
			}
		}
	}
	v.fail("is %s; it must be one of %s", oldShow(raw), oldQuoteList(allowed))
}

func oldQuoteList(xs []string) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(x))
	}
	return b.String()
}

func (v *oldValidator) boolean(raw []byte) {
	if k := jsonx.Kind(raw); k != 't' && k != 'f' {
		v.fail("must be a boolean, not %s", oldShow(raw))
	}
}

func (v *oldValidator) stringList(raw []byte, rule *oldStringRule, unique bool) {
	var buf oldElementBuf
	els, ok := v.array(raw, buf[:0])
	if !ok {
		return
	}
	if unique && rule == nil {
		rule = oldRuleAny
	}
	var seenBuf oldElementBuf
	seen := seenBuf[:0]
	for i, el := range els {
		v.inIndex(i)
		s, ok := v.str(el, rule)
		if ok && unique {
			for j, t := range seen {
				if bytes.Equal(s, t) {
					v.fail("repeats %s (also at [%d]); the values must be unique", oldShow(el), j)
					break
				}
			}
			seen = append(seen, s)
		}
		v.out()
	}
}

func (v *oldValidator) hugeNumbers(raw []byte) {
	switch jsonx.Kind(raw) {
	case '0':
		if oldNumberOverflows(raw) {
			v.fail("is the number %s, beyond the range of a 64-bit float; ToolHive rejects a document holding it", oldShow(raw))
		}
	case '{':
		ms, _ := jsonx.Members(raw)
		for _, m := range ms {
			if !oldHasHugeNumber(m.Value) {
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
			if oldHasHugeNumber(el) {
				v.inIndex(i)
				v.hugeNumbers(el)
				v.out()
			}
		}
	}
}

func (v *oldValidator) meta(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	for _, m := range ms {
		if string(m.key) != PublisherProvidedKey {
			v.in(m.key)
			v.variantHere(m.key, []string{PublisherProvidedKey})
			v.out()
			continue
		}
		v.inKey(m.key)
		var pubBuf oldMemberBuf
		pubs, _ := v.object(m.value, pubBuf[:0])
		for _, pub := range pubs {
			v.inKey(pub.key)
			var extBuf oldMemberBuf
			entries, ok := v.object(pub.value, extBuf[:0])
			if ok && string(pub.key) == ToolHivePublisher {
				for _, e := range entries {
					v.inKey(maskedKey(e.key)) // the echo rule, not a check
					v.extensions(e.value)
					v.out()
				}
			}
			v.out()
		}
		v.out()
	}
}

var (
	oldExtStatuses          = []string{"active", "deprecated", "Active", "Deprecated"}
	oldExtTiers             = []string{"Official", "Community"}
	oldKubernetesTransports = []string{"stdio", "sse", "streamable-http", "http"}
)

const oldPortMin, oldPortMax = 1, 65535

func (v *oldValidator) extensions(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	hasStatus := false
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "status":
			hasStatus = true
			v.enum(m.value, oldExtStatuses)
		case "tier":
			v.enum(m.value, oldExtTiers)
		case "tools":
			v.stringList(m.value, oldRuleTool, true)
		case "tags":
			v.stringList(m.value, oldRuleTag, true)
		case "docker_tags":
			v.stringList(m.value, nil, true)
		case "args":

			v.stringList(m.value, nil, false)
		case "overview":
			v.str(m.value, nil)
		case "proxy_port":
			v.integer(m.value, oldPortMin, oldPortMax)
		case "stateless":
			v.boolean(m.value)
		case "custom_metadata":
			v.isObject(m.value)
		case "tool_definitions":
			v.each(m.value, oldEachToolDefinition)
		case "env_vars":
			v.each(m.value, oldEachEnvVar)
		case "metadata":
			v.metadata(m.value)
		case "permissions":
			v.permissions(m.value)
		case "provenance":
			v.provenance(m.value)
		case "oauth_config":
			v.oauthConfig(m.value)
		default:
			v.variantHere(m.key, []string{"status", "tier", "tools", "tags", "overview", "metadata", "custom_metadata", "permissions", "args",
				"provenance", "docker_tags", "proxy_port", "stateless", "oauth_config", "env_vars", "tool_definitions"})
		}
		v.out()
	}
	if !hasStatus {
		v.inName("status")
		v.fail(`is required ("active" or "deprecated")`)
		v.out()
	}
}

func (v *oldValidator) integer(raw []byte, lo, hi float64) {
	if f, ok := oldFloatOf(raw); !ok || f != math.Trunc(f) || f < lo || f > hi {
		v.fail("is %s; it must be an integer from %v to %v", oldShow(raw), lo, hi)
	}
}

func (v *oldValidator) toolDefinition(raw []byte) {
	var buf oldMemberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	hasName := false
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "name":
			hasName = true
			v.str(m.value, nil)
		case "description":
			v.str(m.value, nil)
		case "inputSchema", "annotations":
			v.isObject(m.value)
		}
		v.out()
	}
	v.required(hasName, "name")
}

func (v *oldValidator) envVar(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "name":
			v.str(m.value, oldRuleEnvVar)
		case "description", "default":
			v.str(m.value, nil)
		case "required", "secret":
			v.boolean(m.value)
		default:
			v.variantHere(m.key, []string{"name", "description", "required", "default", "secret"})
		}
		v.out()
	}
}

func (v *oldValidator) metadata(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "stars":
			if f, ok := oldFloatOf(m.value); !ok || f < 0 {
				v.fail("is %s; it must be a number, 0 or more", oldShow(m.value))
			}
		case "last_updated":
			v.str(m.value, oldRuleDateTime)
		case "kubernetes":
			v.kubernetes(m.value)
		default:
			v.variantHere(m.key, []string{"stars", "last_updated", "kubernetes"})
		}
		v.out()
	}
}

func (v *oldValidator) kubernetes(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "kind", "image":
			v.str(m.value, nil)
		case "namespace", "name":
			v.str(m.value, oldRuleK8sName)
		case "uid":
			v.str(m.value, oldRuleUUID)
		case "transport":
			v.enum(m.value, oldKubernetesTransports)
		default:
			v.variantHere(m.key, []string{"kind", "namespace", "name", "uid", "image", "transport"})
		}
		v.out()
	}
}

func (v *oldValidator) permissions(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "name":
			v.str(m.value, nil)
		case "read", "write":
			v.stringList(m.value, oldRuleMount, true)
		case "privileged":
			v.boolean(m.value)
		case "network":
			var nbuf oldMemberBuf
			nms, _ := v.object(m.value, nbuf[:0])
			for _, n := range nms {
				v.in(n.key)
				if string(n.key) == "outbound" {
					v.outbound(n.value)
				} else {
					v.variantHere(n.key, []string{"mode", "outbound", "inbound"})
				}
				v.out()
			}
		default:
			v.variantHere(m.key, []string{"name", "read", "write", "network", "privileged"})
		}
		v.out()
	}
}

func (v *oldValidator) outbound(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "allow_host":
			v.stringList(m.value, oldRuleHost, true)
		case "allow_port":
			v.ports(m.value)
		case "insecure_allow_all":
			v.boolean(m.value)
		default:
			v.variantHere(m.key, []string{"insecure_allow_all", "allow_host", "allow_port"})
		}
		v.out()
	}
}

func (v *oldValidator) ports(raw []byte) {
	var buf oldElementBuf
	els, _ := v.array(raw, buf[:0])
	var seenBuf [len(oldElementBuf{})]float64
	seen := seenBuf[:0]
	for i, el := range els {
		v.inIndex(i)
		v.integer(el, oldPortMin, oldPortMax)
		if f, ok := oldFloatOf(el); ok {
			for j, g := range seen {
				if g == f {
					v.fail("repeats %s (also at [%d]); the values must be unique", oldShow(el), j)
					break
				}
			}
			seen = append(seen, f)
		}
		v.out()
	}
}

func (v *oldValidator) provenance(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "sigstore_url":
			v.str(m.value, oldRuleHostname)
		case "repository_uri", "cert_issuer":
			v.str(m.value, oldRuleURI)
		case "repository_ref", "signer_identity", "runner_environment":
			v.str(m.value, nil)
		case "attestation":
			var abuf oldMemberBuf
			ams, _ := v.object(m.value, abuf[:0])
			for _, a := range ams {
				v.in(a.key)
				if string(a.key) == "predicate_type" {
					v.str(a.value, oldRuleURI)
				} else {
					v.variantHere(a.key, []string{"predicate_type", "predicate"})
				}
				v.out()
			}
		default:
			v.variantHere(m.key, []string{"sigstore_url", "repository_uri", "repository_ref", "signer_identity", "runner_environment", "cert_issuer", "attestation"})
		}
		v.out()
	}
}

func (v *oldValidator) oauthConfig(raw []byte) {
	var buf oldMemberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "issuer", "authorize_url", "token_url":
			v.str(m.value, oldRuleURI)
		case "client_id", "resource":
			v.str(m.value, nil)
		case "scopes":
			v.stringList(m.value, nil, false)
		case "use_pkce":
			v.boolean(m.value)
		case "callback_port":
			v.integer(m.value, oldPortMin, oldPortMax)
		case "oauth_params":
			var pbuf oldMemberBuf
			params, _ := v.object(m.value, pbuf[:0])
			for _, o := range params {
				v.inKey(o.key)
				v.str(o.value, nil)
				v.out()
			}
		default:
			v.variantHere(m.key, []string{"issuer", "authorize_url", "token_url", "client_id", "scopes", "use_pkce", "oauth_params", "callback_port", "resource"})
		}
		v.out()
	}
}

const (
	oldPatternOfficial  = `^[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`
	oldPatternTool      = `^[\w-]+$`
	oldPatternTag       = `^[a-z0-9][a-z0-9_-]*[a-z0-9]$`
	oldPatternEnvVar    = `^[A-Za-z_][A-Za-z0-9_]*$`
	oldPatternK8sName   = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	oldPatternMountPath = `^(/[^/\0]+)+/?$`
	oldPatternDomain    = `^\.[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$`
	oldPatternIconSize  = `^(\d+x\d+|any)$`
	oldPatternSHA256    = `^[a-f0-9]{64}$`
	oldPatternRemoteURL = `^https?://[^\s]+$`
	oldPatternUUID      = `^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$`
	oldPatternHostname  = `^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])(\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9]))*$`
)

type oldText interface{ ~string | ~[]byte }

func oldIsAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func oldIsDigit(c byte) bool { return c >= '0' && c <= '9' }

func oldIsLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

func oldIsLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || oldIsDigit(c) }

func oldIsNamespaceByte(c byte) bool { return oldIsAlnum(c) || c == '.' || c == '-' }

func oldIsServerPartByte(c byte) bool { return oldIsAlnum(c) || c == '.' || c == '_' || c == '-' }

func oldIsToolByte(c byte) bool { return oldIsAlnum(c) || c == '_' || c == '-' }

func oldIsTagByte(c byte) bool { return oldIsLowerAlnum(c) || c == '_' || c == '-' }

func oldIsEnvVarByte(c byte) bool { return oldIsAlnum(c) || c == '_' }

func oldIsK8sNameByte(c byte) bool { return oldIsLowerAlnum(c) || c == '-' }

func oldIsNotSpace(c byte) bool {
	return c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r'
}

func oldAllBytes[T oldText](s T, ok func(byte) bool) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func oldIndexByte[T oldText](s T, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func oldMatchName[T oldText](name T) bool {
	i := oldIndexByte(name, '/')
	return i >= 0 && oldAllBytes(name[:i], oldIsNamespaceByte) && oldAllBytes(name[i+1:], oldIsServerPartByte)
}

func oldMatchOfficialPart[T oldText](s T) bool {
	return len(s) >= 2 && oldIsAlnum(s[0]) && oldIsAlnum(s[len(s)-1]) && oldAllBytes(s, oldIsServerPartByte)
}

func oldMatchTool[T oldText](s T) bool { return oldAllBytes(s, oldIsToolByte) }

func oldMatchTag[T oldText](s T) bool {
	return len(s) >= 2 && oldIsLowerAlnum(s[0]) && oldIsLowerAlnum(s[len(s)-1]) && oldAllBytes(s, oldIsTagByte)
}

func oldMatchEnvVar[T oldText](s T) bool {
	return len(s) > 0 && !oldIsDigit(s[0]) && oldAllBytes(s, oldIsEnvVarByte)
}

func oldMatchK8sName[T oldText](s T) bool {
	return len(s) > 0 && oldIsLowerAlnum(s[0]) && oldIsLowerAlnum(s[len(s)-1]) && oldAllBytes(s, oldIsK8sNameByte)
}

func oldMatchMountPath[T oldText](s T) bool {
	if len(s) > 1 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	if len(s) < 2 || s[0] != '/' || s[len(s)-1] == '/' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] == 0 || s[i] == '/' && s[i-1] == '/' {
			return false
		}
	}
	return true
}

func oldMatchDomain[T oldText](s T) bool {
	return len(s) >= 2 && s[0] == '.' && oldIsAlnum(s[1]) && oldIsAlnum(s[len(s)-1]) &&
		oldAllBytes(s[1:], oldIsNamespaceByte)
}

func oldMatchHost[T oldText](s T) bool { return oldIsHostname(s) || oldMatchDomain(s) }

func oldMatchIconSize[T oldText](s T) bool {
	if string(s) == "any" {
		return true
	}
	i := oldIndexByte(s, 'x')
	return i >= 0 && oldAllBytes(s[:i], oldIsDigit) && oldAllBytes(s[i+1:], oldIsDigit)
}

func oldMatchSHA256[T oldText](s T) bool { return len(s) == 64 && oldAllBytes(s, oldIsLowerHex) }

func oldMatchRemoteURL[T oldText](s T) bool {
	var rest T
	switch {
	case len(s) >= 8 && string(s[:8]) == "https://":
		rest = s[8:]
	case len(s) >= 7 && string(s[:7]) == "http://":
		rest = s[7:]
	default:
		return false
	}
	return oldAllBytes(rest, oldIsNotSpace)
}

func oldIsUUID[T oldText](s T) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !oldIsLowerHex(s[i]) {
				return false
			}
		}
	}
	return true
}

func oldIsHostname[T oldText](s T) bool {
	if len(s) == 0 || len(s) >= 256 {
		return false
	}
	label := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if label == 0 || s[i-1] == '-' {
				return false
			}
			label = 0
			continue
		case c == '-':
			if label == 0 {
				return false
			}
		case !oldIsAlnum(c):
			return false
		}
		if label++; label > 63 {
			return false
		}
	}
	return label > 0 && s[len(s)-1] != '-'
}

var oldDateTimeLayouts = [...]string{time.RFC3339, time.RFC3339Nano, "2006-01-02", "15:04:05", "15:04:05Z07:00"}

func oldIsDateTime[T oldText](s T) bool {
	str := string(s)
	for _, layout := range oldDateTimeLayouts {
		if _, err := time.Parse(layout, str); err == nil {
			return true
		}
	}
	return false
}

func oldIsURI[T oldText](s T) bool {
	if oldIndexByte(s, '\\') >= 0 {
		return false
	}
	if oldPlainURI(s) {
		return true
	}
	u, err := url.Parse(string(s))
	return err == nil && u.Scheme != ""
}

func oldPlainURI[T oldText](s T) bool {
	colon := oldIndexByte(s, ':')
	if colon < 1 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !oldIsAlnum(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	rest := s[colon+1:]
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c <= ' ' || c >= 0x7f || c == '%' || c == '[' || c == ']' || c == '\\' {
			return false
		}
	}
	if len(rest) < 2 || rest[0] != '/' || rest[1] != '/' {
		return true
	}
	auth := rest[2:]
	for i := 0; i < len(auth); i++ {
		if c := auth[i]; c == '/' || c == '?' || c == '#' {
			auth = auth[:i]
			break
		}
	}
	host, port := auth, auth[:0]
	if i := oldIndexByte(auth, ':'); i >= 0 {
		host, port = auth[:i], auth[i+1:]
	}
	return oldAllBytes(host, oldIsPlainHostByte) && (len(port) == 0 || oldAllBytes(port, oldIsDigit))
}

func oldIsPlainHostByte(c byte) bool {
	return oldIsAlnum(c) || c == '.' || c == '-' || c == '_' || c == '~'
}

func oldFloatOf(raw []byte) (f float64, ok bool) {
	if len(raw) == 0 || !(raw[0] == '-' || oldIsDigit(raw[0])) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

func oldNumberOverflows(lit []byte) bool {
	if len(lit) <= 308 && !bytes.ContainsAny(lit, "eE") {
		return false
	}
	_, err := strconv.ParseFloat(string(lit), 64)
	return err != nil
}

func oldIsNumberByte(c byte) bool {
	return oldIsDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

func oldHasHugeNumber(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			j := i + 1
			for {
				k := bytes.IndexByte(raw[j:], '"')
				if k < 0 {
					return false
				}
				j += k
				n := 0
				for b := j - 1; b > i && raw[b] == '\\'; b-- {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			i = j
		case c == '-' || oldIsDigit(c):
			j := i + 1
			for j < len(raw) && oldIsNumberByte(raw[j]) {
				j++
			}
			if oldNumberOverflows(raw[i:j]) {
				return true
			}
			i = j - 1
		}
	}
	return false
}

// The oracle's own lists of the member names of the structs ToolHive
// decodes entries into (keycase.go), written out from the Go types rather
// than shared with the code under test.
var (
	oracleServerKeys = []string{"$schema", "name", "description", "title", "repository", "version", "websiteUrl", "icons", "packages", "remotes", "_meta"}
	oracleInputKeys  = []string{"description", "isRequired", "format", "value", "isSecret", "default", "placeholder", "choices"}
)

// variantHere refuses a member, its key pushed, whose key spells one of
// level in another case, as encoding/json would match it.
func (v *oldValidator) variantHere(key []byte, level []string) {
	for _, k := range level {
		if !bytes.Equal(key, []byte(k)) && bytes.EqualFold(key, []byte(k)) {
			v.fail(variantMessage, k)
			return
		}
	}
}

// oracleVersionRange is the official registry's looksLikeVersionRange, as
// written there (the trim, then its four patterns).
func oracleVersionRange(version string) bool {
	trimmed := strings.TrimSpace(version)
	if trimmed == "" {
		return false
	}
	const num = `v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?`
	for _, re := range []string{`^\s*(?:\^|~|>=|<=|>|<|=)\s*` + num + `\s*$`, `^\s*` + num + `\s-\s*` + num + `\s*$`, `^\s*(?:` + num + `\s*)(?:\|\|\s*` + num + `\s*)+$`} {
		if regexp.MustCompile(re).MatchString(trimmed) {
			return true
		}
	}
	return regexp.MustCompile(`^\s*(?:v?\d+|x|X|\*)(?:\.(?:\d+|x|X|\*)){1,2}(?:-[0-9A-Za-z.-]+)?\s*$`).MatchString(trimmed) &&
		strings.ContainsAny(trimmed, "xX*")
}
