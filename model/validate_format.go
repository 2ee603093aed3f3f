package model

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
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
	patternName      = `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`
	patternUUID      = `^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$`
	patternHostname  = `^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])(\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9]))*$`
)

// text is what the matchers take: decoded strings, or the bytes of a string
// literal without escapes, so that checking one does not allocate.
type text interface{ ~string | ~[]byte }

// The classes of bytes the matchers test, one bit each in byteClass: a
// table lookup per byte instead of a chain of comparisons.
const (
	classAlnum      uint16 = 1 << iota // [a-zA-Z0-9]
	classDigit                         // [0-9]
	classLowerHex                      // [0-9a-f]
	classLowerAlnum                    // [a-z0-9]
	classNamespace                     // [a-zA-Z0-9.-]
	classServerPart                    // [a-zA-Z0-9._-]
	classTool                          // [a-zA-Z0-9_-]
	classTag                           // [a-z0-9_-]
	classEnvVar                        // [a-zA-Z0-9_]
	classK8sName                       // [a-z0-9-]
	classNotSpace                      // [^\t\n\f\r ]
	classScheme                        // [a-zA-Z0-9+.-]
	classPlainHost                     // [a-zA-Z0-9._~-]
	// classURIRest: printable ASCII but for "%", "[", "]" and "\" (see
	// plainURI).
	classURIRest
	// classPlainHostLabel: the bytes of a label of a plain URL's host,
	// [a-z0-9_-] (see plainURL).
	classPlainHostLabel
	// classPlainPath: the bytes of a plain URL's path and query, urlByte's
	// but "%" and "#".
	classPlainPath
)

// byteClass holds the classes of each byte. It is computed once, from the
// definitions in the comments above, and never changes.
var byteClass = func() (t [256]uint16) {
	for i := range t {
		c := byte(i)
		lower, upper, digit := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9'
		alnum := lower || upper || digit
		set := func(class uint16, ok bool) {
			if ok {
				t[i] |= class
			}
		}
		set(classAlnum, alnum)
		set(classDigit, digit)
		set(classLowerHex, digit || c >= 'a' && c <= 'f')
		set(classLowerAlnum, lower || digit)
		set(classNamespace, alnum || c == '.' || c == '-')
		set(classServerPart, alnum || c == '.' || c == '_' || c == '-')
		set(classTool, alnum || c == '_' || c == '-')
		set(classTag, lower || digit || c == '_' || c == '-')
		set(classEnvVar, alnum || c == '_')
		set(classK8sName, lower || digit || c == '-')
		set(classNotSpace, c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r')
		set(classScheme, alnum || c == '+' || c == '-' || c == '.')
		set(classPlainHost, alnum || c == '.' || c == '-' || c == '_' || c == '~')
		set(classURIRest, c > ' ' && c < 0x7f && c != '%' && c != '[' && c != ']' && c != '\\')
		set(classPlainHostLabel, lower || digit || c == '-' || c == '_')
		// "@" is left to the full check, which looks for a URL with user
		// information in the path or query.
		set(classPlainPath, urlByte(c) && c != '%' && c != '#' && c != '@')
	}
	return t
}()

func isAlnum(c byte) bool      { return byteClass[c]&classAlnum != 0 }
func isDigit(c byte) bool      { return byteClass[c]&classDigit != 0 }
func isLowerHex(c byte) bool   { return byteClass[c]&classLowerHex != 0 }
func isLowerAlnum(c byte) bool { return byteClass[c]&classLowerAlnum != 0 }

func isNamespaceByte(c byte) bool  { return byteClass[c]&classNamespace != 0 }
func isServerPartByte(c byte) bool { return byteClass[c]&classServerPart != 0 }
func isToolByte(c byte) bool       { return byteClass[c]&classTool != 0 }
func isTagByte(c byte) bool        { return byteClass[c]&classTag != 0 }
func isEnvVarByte(c byte) bool     { return byteClass[c]&classEnvVar != 0 }
func isK8sNameByte(c byte) bool    { return byteClass[c]&classK8sName != 0 }
func isNotSpace(c byte) bool       { return byteClass[c]&classNotSpace != 0 }

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
func matchTag[T text](s T) bool { return tagEnds(s) && allBytes(s, isTagByte) }

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

// IsRFC3339 reports whether s is an RFC 3339 date-time (section 5.6) as a
// registry document must carry meta.last_updated: full-date "T" full-time,
// a fraction of a second after a "." only, and "Z" or an offset of hours
// 00 to 23 and minutes 00 to 59; the date must exist. "T" and "Z" must be
// upper case (RFC 3339 allows lower case, ToolHive's registry server does
// not), and a leap second (":60") is refused, as Go's time package and so
// ToolHive refuse it. time.Parse alone is more lenient: it also takes a
// "," before the fraction and an offset such as "+24:00".
func IsRFC3339(s string) bool {
	// 2006-01-02T15:04:05 then [.fraction] then Z or ±hh:mm.
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	rest := s[19:]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	switch {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		for _, i := range [...]int{1, 2, 4, 5} {
			if rest[i] < '0' || rest[i] > '9' {
				return false
			}
		}
		if rest[1:3] > "23" || rest[4:6] > "59" {
			return false
		}
	default:
		return false
	}
	// The ranges of the date and time, February 29th included.
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// dateTimeLayouts are the layouts gojsonschema's "date-time" format accepts:
// besides RFC 3339 it takes a bare date or a bare time.
var dateTimeLayouts = [...]string{time.RFC3339, time.RFC3339Nano, "2006-01-02", "15:04:05", "15:04:05Z07:00"}

// isDateTime is gojsonschema's "date-time" format.
func isDateTime[T text](s T) bool {
	if plainDateTime(s) {
		return true
	}
	str := string(s)
	for _, layout := range dateTimeLayouts {
		if _, err := time.Parse(layout, str); err == nil {
			return true
		}
	}
	return false
}

// plainDateTime reports, without time.Parse, whether s is certainly an RFC
// 3339 date-time: the form 2006-01-02T15:04:05Z, a date that exists and a
// time of day without a leap second, as registry data writes timestamps.
// Anything else is left to time.Parse.
func plainDateTime[T text](s T) bool {
	if len(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z' {
		return false
	}
	num := func(i, n int) int {
		v := 0
		for k := i; k < i+n; k++ {
			if c := s[k]; c >= '0' && c <= '9' {
				v = v*10 + int(c-'0')
			} else {
				return -1
			}
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, second := num(11, 2), num(14, 2), num(17, 2)
	if year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month-1]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}

// isURI is gojsonschema's "uri" format: net/url parses it, with a scheme, and
// it has no backslash anywhere.
func isURI[T text](s T) bool {
	if plainURI(s) {
		return true // plainURI takes no backslash
	}
	if indexByte(s, '\\') >= 0 {
		return false
	}
	u, err := url.Parse(string(s))
	return err == nil && u.Scheme != ""
}

// plainURI reports, without allocating, whether s is certainly a URI by
// isURI's rule: a scheme, then only printable ASCII without spaces, "%",
// backslashes or brackets, and an authority, if any, of a plain host name
// with an optional numeric port. Anything else is left to net/url.
func plainURI[T text](s T) bool {
	// The scheme's bytes and ":" are in classURIRest too.
	return allURIRest(s) && plainURIShape(s)
}

// plainURILit is plainURI for the string literal starting at raw[i] ==
// '"', read in one pass: it returns the index just past the literal when
// its contents are a plain URI, else -1. A plain URI holds no quote, no
// backslash and no byte beyond ASCII, so the literal ends at the first
// quote, and its contents are the decoded string.
func plainURILit(raw []byte, i int) int {
	if i >= len(raw) || raw[i] != '"' {
		return -1
	}
	j := i + 1
	for ; j+8 <= len(raw); j += 8 {
		if m := uriRestStops(binary.LittleEndian.Uint64(raw[j:])); m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			break
		}
	}
	for ; j < len(raw) && raw[j] != '"' && byteClass[raw[j]]&classURIRest != 0; j++ {
	}
	if j >= len(raw) || raw[j] != '"' || !plainURIShape(raw[i+1:j]) {
		return -1
	}
	return j + 1
}

// plainURIShape is plainURI for s whose bytes are all in classURIRest: its
// scheme and authority.
func plainURIShape[T text](s T) bool {
	if len(s) == 0 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	// The scheme runs to the first ":", which no scheme byte is.
	colon := 1
	for colon < len(s) && byteClass[s[colon]]&classScheme != 0 {
		colon++
	}
	if colon >= len(s) || s[colon] != ':' {
		return false
	}
	rest := s[colon+1:]
	if len(rest) < 2 || rest[0] != '/' || rest[1] != '/' {
		return true // opaque or a path: net/url takes any such rest
	}
	// The authority: a plain host name, then optionally ":" and digits, up
	// to the first "/", "?" or "#".
	auth := rest[2:]
	i := 0
	for i < len(auth) && byteClass[auth[i]]&classPlainHost != 0 {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(auth) && auth[i] == ':' {
		i++
		for i < len(auth) && isDigit(auth[i]) {
			i++
		}
	}
	return i == len(auth) || auth[i] == '/' || auth[i] == '?' || auth[i] == '#'
}

// The words of the tests of eight bytes at a time.
const (
	wordLo = 0x0101010101010101
	wordHi = 0x8080808080808080
)

// uriRest flags, in the top bit of its byte, each byte of the word w
// (eight bytes, the first lowest) that is not in classURIRest, exactly up
// to and including the first one: above it a byte may be flagged wrongly.
func uriRest(w uint64) uint64 {
	const lo = wordLo
	// With no top bit set these find exactly whether a byte is below 0x21,
	// is 0x7f, is "%", or lies in "[", "\", "]" (0x5b to 0x5d); a carry or
	// borrow runs only upwards, from a byte flagged already, or from a
	// byte beyond 0x7f, which w itself flags.
	below := (w - 0x21*lo) &^ w
	del, pct := w^(0x7f*lo), w^('%'*lo)
	zero := ((del - lo) &^ del) | ((pct - lo) &^ pct)
	bracket := ((0x7f+0x5e)*lo - w) &^ w & (w + (0x7f-0x5a)*lo)
	return (w | below | zero | bracket) & wordHi
}

// uriRestStops is uriRest that flags a quote too.
func uriRestStops(w uint64) uint64 {
	q := w ^ ('"' * wordLo)
	return uriRest(w) | (q-wordLo)&^q&wordHi
}

// allURIRest reports whether every byte of s is in classURIRest, eight at a
// time: a URI's rest is most of its length.
func allURIRest[T text](s T) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if uriRest(w) != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if byteClass[s[i]]&classURIRest == 0 {
			return false
		}
	}
	return true
}

// floatOf reads a JSON number the way ToolHive's extension check does:
// toolhive-core decodes the publisher-provided block into `any` (numbers
// become float64) and validates it re-encoded, so 65535.0000000000000001 is
// the integer 65535 there. ok is false for anything but a number.
func floatOf(raw []byte) (f float64, ok bool) {
	if len(raw) == 0 || !(raw[0] == '-' || isDigit(raw[0])) {
		return 0, false
	}
	// Up to 15 digits, the integer ParseFloat would return, exactly: below
	// 2^53, every such integer is a float64.
	if len(raw) <= 15 {
		n := 0
		for _, c := range raw {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int(c-'0')
		}
		if n >= 0 {
			return float64(n), true
		}
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
func hasHugeNumber(raw []byte) bool { return hugeNumber(raw) != nil }

// hugeNumber returns the first number of raw that hasHugeNumber looks for,
// nil when there is none.
func hugeNumber(raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			j := i + 1
			for {
				k := bytes.IndexByte(raw[j:], '"')
				if k < 0 {
					return nil
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
				return raw[i:j]
			}
			i = j - 1
		}
	}
	return nil
}

// tagEnds is matchTag for s whose bytes are all of classTag: its length
// and ends.
func tagEnds[T text](s T) bool {
	return len(s) >= 2 && isLowerAlnum(s[0]) && isLowerAlnum(s[len(s)-1])
}
