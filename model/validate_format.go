package model

import (
	"bytes"
	"math"
	"net/url"
	"strconv"
	"time"
)

// The string formats and patterns of the upstream server schema and of
// ToolHive's publisher-provided schema, as the validator ToolHive's registry
// server uses (gojsonschema, Go's regexp) reads them. Each is a hand-written
// matcher rather than a regexp because every entry of a large merge passes
// through them; validate_format_test.go checks each against the schema's own
// pattern or gojsonschema's format checker on random strings.

// The schema patterns the matchers below implement, for messages and tests;
// patternUUID and patternHostname are gojsonschema's "uuid" and "hostname"
// (the latter also needs fewer than 256 characters).
const (
	patternOfficial  = `^[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`
	patternTool      = `^[\w-]+$`
	patternTag       = `^[a-z0-9][a-z0-9_-]*[a-z0-9]$`
	patternEnvVar    = `^[A-Za-z_][A-Za-z0-9_]*$`
	patternK8sName   = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	patternMountPath = `^(/[^/\0]+)+/?$`
	patternDomain    = `^\.[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$`
	patternIconSize  = `^(\d+x\d+|any)$`
	patternSHA256    = `^[a-f0-9]{64}$`
	patternRemoteURL = `^https?://[^\s]+$`
	patternUUID      = `^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$`
	patternHostname  = `^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])(\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9]))*$`
)

// text is what the matchers take: decoded strings, or the bytes of a string
// literal without escapes, so that checking one does not allocate.
type text interface{ ~string | ~[]byte }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isLowerHex(c byte) bool   { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || isDigit(c) }

func isNamespaceByte(c byte) bool  { return isAlnum(c) || c == '.' || c == '-' }
func isServerPartByte(c byte) bool { return isAlnum(c) || c == '.' || c == '_' || c == '-' }
func isToolByte(c byte) bool       { return isAlnum(c) || c == '_' || c == '-' }
func isTagByte(c byte) bool        { return isLowerAlnum(c) || c == '_' || c == '-' }
func isEnvVarByte(c byte) bool     { return isAlnum(c) || c == '_' }
func isK8sNameByte(c byte) bool    { return isLowerAlnum(c) || c == '-' }
func isNotSpace(c byte) bool {
	return c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r'
}

// allBytes reports whether s is non-empty and every byte satisfies ok.
func allBytes[T text](s T, ok func(byte) bool) bool {
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

// indexByte is strings.IndexByte for either kind of text.
func indexByte[T text](s T, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// matchName implements NamePattern.
func matchName[T text](name T) bool {
	i := indexByte(name, '/')
	return i >= 0 && allBytes(name[:i], isNamespaceByte) && allBytes(name[i+1:], isServerPartByte)
}

// matchOfficialPart implements the official registry's rule for each side of
// a name: at least two characters, alphanumeric at both ends.
func matchOfficialPart[T text](s T) bool {
	return len(s) >= 2 && isAlnum(s[0]) && isAlnum(s[len(s)-1]) && allBytes(s, isServerPartByte)
}

// matchTool implements ^[\w-]+$ (Go's \w is ASCII).
func matchTool[T text](s T) bool { return allBytes(s, isToolByte) }

// matchTag implements ^[a-z0-9][a-z0-9_-]*[a-z0-9]$.
func matchTag[T text](s T) bool {
	return len(s) >= 2 && isLowerAlnum(s[0]) && isLowerAlnum(s[len(s)-1]) && allBytes(s, isTagByte)
}

// matchEnvVar implements ^[A-Za-z_][A-Za-z0-9_]*$.
func matchEnvVar[T text](s T) bool {
	return len(s) > 0 && !isDigit(s[0]) && allBytes(s, isEnvVarByte)
}

// matchK8sName implements ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ (no length limit:
// the schema has none).
func matchK8sName[T text](s T) bool {
	return len(s) > 0 && isLowerAlnum(s[0]) && isLowerAlnum(s[len(s)-1]) && allBytes(s, isK8sNameByte)
}

// matchMountPath implements ^(/[^/\0]+)+/?$: an absolute path of non-empty
// segments without NUL, with at most one trailing slash.
func matchMountPath[T text](s T) bool {
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

// matchDomain implements ^\.[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$, the
// ".example.com" form of allow_host.
func matchDomain[T text](s T) bool {
	return len(s) >= 2 && s[0] == '.' && isAlnum(s[1]) && isAlnum(s[len(s)-1]) &&
		allBytes(s[1:], isNamespaceByte)
}

// matchHost is allow_host's rule: a hostname or a ".domain" pattern.
func matchHost[T text](s T) bool { return isHostname(s) || matchDomain(s) }

// matchIconSize implements ^(\d+x\d+|any)$.
func matchIconSize[T text](s T) bool {
	if string(s) == "any" {
		return true
	}
	i := indexByte(s, 'x')
	return i >= 0 && allBytes(s[:i], isDigit) && allBytes(s[i+1:], isDigit)
}

// matchSHA256 implements ^[a-f0-9]{64}$.
func matchSHA256[T text](s T) bool { return len(s) == 64 && allBytes(s, isLowerHex) }

// matchRemoteURL implements RemoteURLPattern, ^https?://[^\s]+$; Go's \s is
// [\t\n\f\r ].
func matchRemoteURL[T text](s T) bool {
	var rest T
	switch {
	case len(s) >= 8 && string(s[:8]) == "https://":
		rest = s[8:]
	case len(s) >= 7 && string(s[:7]) == "http://":
		rest = s[7:]
	default:
		return false
	}
	return allBytes(rest, isNotSpace)
}

// isUUID is gojsonschema's "uuid" format: lower-case hex in 8-4-4-4-12 groups.
func isUUID[T text](s T) bool {
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
			if !isLowerHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// isHostname is gojsonschema's "hostname" format: dot-separated labels of 1
// to 63 letters, digits and hyphens, not starting or ending with a hyphen, no
// trailing dot, under 256 characters.
func isHostname[T text](s T) bool {
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
		case !isAlnum(c):
			return false
		}
		if label++; label > 63 {
			return false
		}
	}
	return label > 0 && s[len(s)-1] != '-'
}

// dateTimeLayouts are the layouts gojsonschema's "date-time" format accepts:
// besides RFC 3339 it takes a bare date or a bare time.
var dateTimeLayouts = [...]string{time.RFC3339, time.RFC3339Nano, "2006-01-02", "15:04:05", "15:04:05Z07:00"}

// isDateTime is gojsonschema's "date-time" format.
func isDateTime[T text](s T) bool {
	str := string(s)
	for _, layout := range dateTimeLayouts {
		if _, err := time.Parse(layout, str); err == nil {
			return true
		}
	}
	return false
}

// isURI is gojsonschema's "uri" format: net/url parses it, with a scheme, and
// it has no backslash anywhere.
func isURI[T text](s T) bool {
	if indexByte(s, '\\') >= 0 {
		return false
	}
	if plainURI(s) {
		return true
	}
	u, err := url.Parse(string(s))
	return err == nil && u.Scheme != ""
}

// plainURI reports, without allocating, whether s is certainly a URI by
// isURI's rule: a scheme, then only printable ASCII without spaces, "%",
// backslashes or brackets, and an authority, if any, of a plain host name with an optional
// numeric port. Anything else is left to net/url.
func plainURI[T text](s T) bool {
	colon := indexByte(s, ':')
	if colon < 1 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !isAlnum(c) && c != '+' && c != '-' && c != '.' {
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
		return true // opaque or a path: net/url takes any such rest
	}
	auth := rest[2:]
	for i := 0; i < len(auth); i++ {
		if c := auth[i]; c == '/' || c == '?' || c == '#' {
			auth = auth[:i]
			break
		}
	}
	host, port := auth, auth[:0]
	if i := indexByte(auth, ':'); i >= 0 {
		host, port = auth[:i], auth[i+1:]
	}
	return allBytes(host, isPlainHostByte) && (len(port) == 0 || allBytes(port, isDigit))
}

func isPlainHostByte(c byte) bool { return isAlnum(c) || c == '.' || c == '-' || c == '_' || c == '~' }

// floatOf reads a JSON number the way ToolHive's extension check does:
// toolhive-core decodes the publisher-provided block into `any` (numbers
// become float64) and validates it re-encoded, so 65535.0000000000000001 is
// the integer 65535 there. ok is false for anything but a number.
func floatOf(raw []byte) (f float64, ok bool) {
	if len(raw) == 0 || !(raw[0] == '-' || isDigit(raw[0])) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// numberOverflows reports whether encoding/json cannot decode the number
// literal lit into a float64 (its magnitude is beyond math.MaxFloat64).
func numberOverflows(lit []byte) bool {
	if len(lit) <= 308 && !bytes.ContainsAny(lit, "eE") {
		return false // at most 308 digits before any point: below 1e308 < math.MaxFloat64
	}
	_, err := strconv.ParseFloat(string(lit), 64)
	return err != nil
}

func isNumberByte(c byte) bool {
	return isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// hasHugeNumber reports whether the JSON value raw holds, anywhere, a number
// that encoding/json cannot decode into a float64. ToolHive's registry server
// decodes every document into `any` before checking publisher extensions and
// rejects the whole document when that fails. Strings are skipped with
// IndexByte, so the scan costs little beside json.Valid.
func hasHugeNumber(raw []byte) bool {
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
		case c == '-' || isDigit(c):
			j := i + 1
			for j < len(raw) && isNumberByte(raw[j]) {
				j++
			}
			if numberOverflows(raw[i:j]) {
				return true
			}
			i = j - 1
		}
	}
	return false
}
