package model

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpreg/mcpreg/internal/dnsname"
)

// MaxURLLength is the longest server URL accepted, in bytes.
const MaxURLLength = 2048

// CheckURL is the one URL policy of this module: remote URLs read from
// registry data (merge, convert), registry-url annotations, URLs built from
// Gateway API routes and source-registry entries all pass through it. A valid
// URL:
//
//   - is at most MaxURLLength bytes of printable ASCII from the RFC 3986
//     character set (no spaces, control characters, backslashes or other
//     characters that browsers and servers disagree about);
//   - is absolute, with scheme http or https (any case) and "//" authority;
//   - has no user information: "https://user:password@host/" is refused, and
//     messages never repeat what stands before the "@";
//   - has no fragment, and well-formed percent escapes;
//   - has a host read the way the WHATWG URL standard (what browsers and most
//     HTTP clients follow) reads it: percent escapes in the host are decoded
//     ("ex%61mple.com" is example.com); a host whose last label is a number
//     (decimal, or hexadecimal with "0x") is an IPv4 address, and must then
//     be written in its one canonical form, four decimal parts without
//     leading zeros: "0x7f000001", "0x7f.0.0.1", "127.1" and "0177.0.0.1"
//     all mean 127.0.0.1 to a browser and are refused, naming the address
//     they stand for, so no check made on the text can be sidestepped; any
//     other host is a DNS name of letters, digits, "-" and "_" ("_" is
//     allowed by the WHATWG host parser and RFC 3986, and used by internal
//     names), or a bracketed IPv6 address;
//   - has a port, if any, from 1 to 65535.
//
// The normalised URL has the scheme and host in lower case, the host
// decoded, the port without leading zeros and left out when it is the
// scheme's default (as the WHATWG serialiser writes it: "https://h:00443/"
// is "https://h/"); the rest is as written. insecure is true for http: the
// caller decides whether to allow it.
//
// Error messages quote the input with QuoteURL: user information masked,
// control characters escaped, long input cut.
func CheckURL(raw string) (normalized string, insecure bool, err error) {
	if insecure, ok := plainURL(raw); ok {
		return raw, insecure, nil
	}
	return checkURL(raw)
}

// plainURL reports whether raw is a URL CheckURL accepts exactly as written,
// decided in one pass over its bytes without allocating: most URLs in
// registry data are such, and a large merge checks every one. It accepts
// only the plain form: "https://" or "http://" in lower case; a host of
// lower-case letters, digits, "-", "_" and "." that is a valid DNS name
// whose last label is not a number (so not an IPv4 address); an optional
// port without leading zeros, from 1 to 65535, other than the scheme's
// default; then a path and query of URL bytes without "%" or "#". Every
// other URL (and every refusal) is left to checkURL, the full check, which
// agrees on all that plainURL accepts (TestPlainURLAgreesWithCheckURL).
// insecure is true for http.
func plainURL[T string | []byte](raw T) (insecure, ok bool) {
	end, insecure := plainURLEnd(raw)
	return insecure, end == len(raw)
}

// plainURLEnd reads a plain URL (see plainURL) at the start of raw, up to
// the end of raw or the first quote, which no URL holds: so the lean
// reading checks a URL where it finds the end of its string literal. It
// returns where the URL ends, or -1 when what stands there is not plain.
func plainURLEnd[T string | []byte](raw T) (end int, insecure bool) {
	i := 0
	switch {
	case hasLowerPrefix(raw, "https://"):
		i = len("https://")
	case hasLowerPrefix(raw, "http://"):
		i, insecure = len("http://"), true
	default:
		return -1, false
	}
	hostStart, label := i, i
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == '/' || c == '?' || c == ':' || c == '"' {
			break
		}
		if c == '.' {
			if !plainLabel(raw[label:i]) {
				return -1, false
			}
			label = i + 1
			continue
		}
		if byteClass[c]&classPlainHostLabel == 0 {
			return -1, false
		}
	}
	last := raw[label:i]
	if n := i - hostStart; n > 253 || !plainLabel(last) || numericLabel(last) {
		return -1, false
	}
	if i < len(raw) && raw[i] == ':' {
		i++
		start, port := i, 0
		for ; i < len(raw) && raw[i] != '/' && raw[i] != '?' && raw[i] != '"'; i++ {
			c := raw[i]
			if c < '0' || c > '9' || i-start >= 5 {
				return -1, false
			}
			port = port*10 + int(c-'0')
		}
		if i == start || raw[start] == '0' || port > 65535 ||
			insecure && port == 80 || !insecure && port == 443 {
			return -1, false
		}
	}
	for ; i < len(raw) && raw[i] != '"'; i++ {
		if byteClass[raw[i]]&classPlainPath == 0 {
			return -1, false
		}
	}
	if i > MaxURLLength {
		return -1, false
	}
	return i, insecure
}

// hasLowerPrefix reports whether raw starts with prefix, byte for byte.
func hasLowerPrefix[T string | []byte](raw T, prefix string) bool {
	if len(raw) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if raw[i] != prefix[i] {
			return false
		}
	}
	return true
}

// plainLabel reports whether a label of lower-case letters, digits, "-"
// and "_" is one dnsname.Valid accepts: 1 to 63 bytes, starting and ending
// with a letter or digit.
func plainLabel[T string | []byte](l T) bool {
	return len(l) > 0 && len(l) <= 63 && dnsname.Alnum(l[0]) && dnsname.Alnum(l[len(l)-1])
}

// numericLabel is endsInNumber for the last label of a plain host: decimal
// digits, or "0x" and hexadecimal digits.
func numericLabel[T string | []byte](l T) bool {
	digits, hex := true, len(l) >= 2 && l[0] == '0' && l[1] == 'x'
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c < '0' || c > '9' {
			digits = false
		}
		if i >= 2 && !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			hex = false
		}
	}
	return digits || hex
}

// checkURL is CheckURL's full check, for every URL plainURL does not settle.
func checkURL(raw string) (normalized string, insecure bool, err error) {
	if raw == "" {
		return "", false, errors.New("URL is empty")
	}
	if len(raw) > MaxURLLength {
		return "", false, fmt.Errorf("URL %s is %d bytes; the maximum is %d", QuoteURL(raw), len(raw), MaxURLLength)
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; !urlByte(c) {
			return "", false, fmt.Errorf("URL %s has %s at byte %d; a URL is printable ASCII without spaces (percent-encode anything else)",
				QuoteURL(raw), describeByte(c), i)
		}
	}
	scheme := urlScheme(raw)
	if scheme != "" {
		switch lower := strings.ToLower(scheme); lower {
		case "https":
		case "http":
			insecure = true
		default:
			return "", false, fmt.Errorf("URL %s has scheme %q; only https and http are allowed", QuoteURL(raw), lower)
		}
	}
	rest, ok := strings.CutPrefix(raw[len(scheme):], "://")
	if scheme == "" || !ok {
		return "", false, fmt.Errorf("URL %s is not absolute: it must start with https:// or http://", QuoteURL(raw))
	}
	// The authority as written: up to the first "/", "?" or "#".
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if strings.Contains(authority, "@") {
		return "", false, fmt.Errorf("URL %s has user information; credentials must not be published", QuoteURL(raw))
	}
	if strings.Contains(raw, "#") {
		return "", false, fmt.Errorf("URL %s has a fragment (#...); a server URL has none", QuoteURL(raw))
	}
	if rest := rest[len(authority):]; strings.IndexByte(rest, '@') >= 0 && MaskText(rest) != rest {
		// A URL in the path or query ("?next=https://user:pw@host") would
		// publish its credential as surely as the URL's own.
		return "", false, fmt.Errorf("URL %s holds another URL with user information in its path or query; credentials must not be published", QuoteURL(raw))
	}
	if authority == "" {
		return "", false, fmt.Errorf("URL %s has no host", QuoteURL(raw))
	}
	hostport, err := normalizeAuthority(authority, strings.ToLower(scheme))
	if err != nil {
		return "", false, fmt.Errorf("URL %s: %v", QuoteURL(raw), err)
	}
	path := rest[len(authority):]
	if _, perr := url.Parse("http://" + hostport + path); perr != nil {
		var ue *url.Error
		if errors.As(perr, &ue) {
			perr = ue.Err
		}
		return "", false, fmt.Errorf("URL %s does not parse: %v", QuoteURL(raw), perr)
	}
	return strings.ToLower(scheme) + "://" + hostport + path, insecure, nil
}

// normalizeAuthority checks host[:port] as written and returns it normalised.
func normalizeAuthority(hostport, scheme string) (string, error) {
	host, port := hostport, ""
	var hasPort bool
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return "", fmt.Errorf("host %q has an unclosed \"[\"", hostport)
		}
		host, port = hostport[1:end], hostport[end+1:]
		if strings.Contains(host, "%") {
			return "", fmt.Errorf("host %q has a zone or an escape; an IPv6 host is the address alone", hostport)
		}
		if ip := net.ParseIP(host); ip == nil || !strings.Contains(host, ":") {
			return "", fmt.Errorf("host %q is not an IPv6 address", host)
		}
		if port != "" {
			if port[0] != ':' {
				return "", fmt.Errorf("host %q has text after \"]\"", hostport)
			}
			port, hasPort = port[1:], true
		}
		host = "[" + strings.ToLower(host) + "]"
	} else {
		if h, p, ok := strings.Cut(hostport, ":"); ok {
			host, port, hasPort = h, p, true
		}
		if strings.Contains(host, "%") {
			decoded, err := url.PathUnescape(host)
			if err != nil {
				return "", fmt.Errorf("host %q has a malformed percent escape", host)
			}
			for i := 0; i < len(decoded); i++ {
				if c := decoded[i]; !dnsname.Alnum(c) && c != '-' && c != '_' && c != '.' {
					return "", fmt.Errorf("host %q decodes to %q, which holds %s; a host is letters, digits, \"-\", \"_\" and \".\" (an internationalised name is written in its xn-- form)",
						host, decoded, describeByte(c))
				}
			}
			host = decoded
		}
		host = strings.ToLower(host)
		if endsInNumber(host) {
			ip, ok := parseWHATWGIPv4(host)
			if !ok {
				return "", fmt.Errorf("host %q ends in a number, so browsers read it as an IPv4 address, and it is not a valid one", host)
			}
			if ip != host {
				return "", fmt.Errorf("host %q is the IPv4 address %s as browsers read it (WHATWG URL); write it as %s", host, ip, ip)
			}
		} else if !dnsname.Valid(host) {
			return "", fmt.Errorf("host %q is not a valid host name or IPv4 address", host)
		}
	}
	if !hasPort {
		return host, nil
	}
	if port == "" {
		return "", fmt.Errorf("host %q has an empty port", hostport)
	}
	n := 0
	for i := 0; i < len(port); i++ {
		c := port[i]
		if c < '0' || c > '9' || n > 65535 {
			return "", fmt.Errorf("port %q must be a number from 1 to 65535", port)
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > 65535 {
		return "", fmt.Errorf("port %q must be a number from 1 to 65535", port)
	}
	if scheme == "https" && n == 443 || scheme == "http" && n == 80 {
		return host, nil
	}
	return host + ":" + strconv.Itoa(n), nil
}

// endsInNumber is the WHATWG URL standard's "ends in a number" test: the
// last label (a trailing dot ignored) is decimal digits, or "0x" followed by
// hexadecimal digits. Such a host is parsed as an IPv4 address.
func endsInNumber(host string) bool {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	if h, ok := strings.CutPrefix(last, "0x"); ok {
		return strings.Trim(h, "0123456789abcdef") == ""
	}
	return false
}

// parseWHATWGIPv4 is the WHATWG IPv4 parser: up to four parts, each decimal,
// octal (leading "0") or hexadecimal ("0x"); the last part fills the bytes
// the others leave. It returns the dotted-decimal form.
func parseWHATWGIPv4(host string) (string, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return "", false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&0xff, v>>8&0xff, v&0xff), true
}

// parseIPv4Number reads one part of an IPv4 host as WHATWG does.
func parseIPv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(p, "0x"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	if len(p) > 16 {
		// More digits than any address needs: refused before overflow.
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	return n, err == nil
}

// urlScheme returns the scheme of raw (RFC 3986 section 3.1:
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) followed by ":"), or "".
func urlScheme(raw string) string {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return raw[:i]
		default:
			return ""
		}
	}
	return ""
}

// urlByte reports whether c may appear in a URL as written: the RFC 3986
// unreserved and reserved characters and "%".
func urlByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=%", c) >= 0
}

func describeByte(c byte) string {
	switch {
	case c == ' ':
		return "a space"
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("control character %#02x", c)
	case c >= 0x80:
		return fmt.Sprintf("non-ASCII byte %#02x", c)
	}
	return fmt.Sprintf("character %q", c)
}

// QuoteURL quotes a URL for a message: user information (which may hold a
// token or password) replaced by "***", control characters escaped, input
// over 120 bytes cut.
func QuoteURL(raw string) string {
	s := MaskURL(raw)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return strconv.Quote(s)
}

// MaskURL returns raw with any user information ("user:password@" before
// the host) replaced by "***@", for every place a URL is repeated.
//
// It reads raw as a URL reader would (the WHATWG URL standard, which
// browsers and most HTTP clients follow), not as CheckURL does: leading
// spaces and control characters are skipped and tabs and line breaks are
// ignored anywhere, and a URL without a scheme ("//host/x") still has an
// authority. A URL CheckURL refuses for one of those bytes is still masked:
// whoever wrote it meant the credential in it.
func MaskURL(raw string) string {
	i := 0
	for i < len(raw) && raw[i] <= ' ' {
		i++
	}
	start := i
	if end := maskScheme(raw, i); end > 0 {
		start = end + 1
	} else if !schemeRelative(raw[i:]) {
		// Neither a scheme nor a scheme-relative URL ("//host"): a path
		// or other text, with no authority.
		return raw
	}
	// Browsers read "https:u:p@h" and "https:\\u:p@h" as "https://u:p@h":
	// the slashes after the scheme are skipped whatever their number.
	for start < len(raw) && (raw[start] == '/' || raw[start] == '\\' || urlIgnored(raw[start])) {
		start++
	}
	rest := raw[start:]
	authority := rest
	if j := strings.IndexAny(rest, "/\\?#"); j >= 0 {
		authority = rest[:j]
	}
	at := strings.LastIndexByte(authority, '@')
	if at < 0 {
		return raw
	}
	return raw[:start] + "***" + raw[start+at:]
}

// hasUserinfo reports whether a URL reader finds user information in raw:
// an "@" in the authority, which a URL of a special scheme (http, https,
// ws, wss, ftp, file) has after its scheme whatever the slashes, and a URL
// of another scheme only after "//" ("mailto:team@example.com" has none).
// MaskURL, which only hides text, masks the wider set.
func hasUserinfo(raw string) bool {
	if strings.IndexByte(raw, '@') < 0 || MaskURL(raw) == raw {
		return false
	}
	i := 0
	for i < len(raw) && raw[i] <= ' ' {
		i++
	}
	end := maskScheme(raw, i)
	if end < 0 {
		return true // scheme-relative: "//user@host"
	}
	var scheme []byte
	for _, c := range []byte(raw[i:end]) {
		if !urlIgnored(c) {
			scheme = append(scheme, c|0x20)
		}
	}
	switch string(scheme) {
	case "http", "https", "ws", "wss", "ftp", "file":
		return true
	}
	return schemeRelative(raw[end+1:])
}

// holdsCredential reports whether a reference (an image, a package
// identifier, the key naming one) reads as one with user information:
// MaskURL masks it ("user:pw@registry/name", "https://user@host/x"). It is
// wider than hasUserinfo, which follows a URL reader: a reference has no
// scheme to say how it is read. A digest ("name@sha256:...") and an npm
// scope ("@scope/name") hold none.
func holdsCredential(s string) bool {
	return strings.IndexByte(s, '@') >= 0 && MaskURL(s) != s
}

// maskScheme returns the index of the ":" ending raw's scheme read from
// byte i on, skipping the bytes a URL reader ignores, or -1.
func maskScheme(raw string, i int) int {
	n := 0 // letters, digits and "+-." of the scheme so far
	for ; i < len(raw); i++ {
		c := raw[i]
		switch {
		case urlIgnored(c):
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			n++
		case n > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
			n++
		case n > 0 && c == ':':
			return i
		default:
			return -1
		}
	}
	return -1
}

// schemeRelative reports whether s starts with two slashes (or
// backslashes, which a URL reader takes for slashes), as a URL that has an
// authority but no scheme does.
func schemeRelative(s string) bool {
	n := 0
	for i := 0; i < len(s) && n < 2; i++ {
		switch c := s[i]; {
		case c == '/' || c == '\\':
			n++
		case urlIgnored(c):
		default:
			return false
		}
	}
	return n == 2
}

// urlIgnored reports whether a URL reader drops c wherever it appears: the
// WHATWG URL parser removes ASCII tab and newline (tab, LF, CR).
func urlIgnored(c byte) bool {
	return c == '\t' || c == '\n' || c == '\r'
}

// checkRemoteURL is CheckURL's verdict on the URL of a remote in registry
// data, which the upstream server schema makes a template: "{name}" stands
// for a value of the remote's variables. The template passes when its
// fillings with placeholders pass: a name ("x") in each expression, and
// also a number ("1") unless the host is made of expressions alone, so that
// a variable cannot complete a host the policy refuses (https://127.1.{n}/
// is an IPv4 address once n is a number). An expression in the port must be
// the whole port. https://{tenant}.example.com/mcp passes; user
// information, a fragment or a scheme other than http and https still fail,
// and so does a variable declared does not name (the remote's "variables":
// a client has nothing to fill it with, and the official registry refuses
// it; declared nil declares none). Error messages quote the URL as written.
func checkRemoteURL(raw string, declared func(name string) bool) error {
	if strings.IndexByte(raw, '{') < 0 {
		_, _, err := CheckURL(raw)
		return err
	}
	if len(raw) > MaxURLLength {
		// The template as published, not as filled, is what readers store.
		return fmt.Errorf("URL template %s is %d bytes; at most %d are allowed", QuoteURL(raw), len(raw), MaxURLLength)
	}
	var names []string
	for _, fill := range []string{"x", "1"} {
		filled, hostOnlyVars, vars, err := fillTemplate(raw, fill)
		names = vars
		if err != nil {
			return fmt.Errorf("URL template %s: %w", QuoteURL(raw), err)
		}
		if fill == "1" && hostOnlyVars {
			break
		}
		if _, _, err := CheckURL(filled); err != nil {
			return fmt.Errorf("URL template %s: with each {variable} as %q, %w", QuoteURL(raw), fill, err)
		}
	}
	for _, n := range names {
		if declared == nil || !declared(n) {
			return fmt.Errorf("URL template %s: {%s} is not one of the remote's variables", QuoteURL(raw), Sprintf("%s", n))
		}
	}
	return nil
}

// fillTemplate replaces each "{name}" of a URL template (name: letters,
// digits, '_', '-', '.') with fill, or with "1" where it is the whole port of
// the authority. hostOnlyVars reports a host made of expressions and dots
// alone; names are the expressions' names, in order. It fails when a brace does not open or close such an expression, or
// an expression is only part of the port.
func fillTemplate(raw, fill string) (filled string, hostOnlyVars bool, names []string, err error) {
	hostStart, hostEnd, authorityEnd := -1, -1, len(raw)
	if i := strings.Index(raw, "://"); i >= 0 {
		if j := strings.IndexAny(raw[i+3:], "/?#"); j >= 0 {
			authorityEnd = i + 3 + j
		}
		hostStart = i + 3
		if at := strings.LastIndexByte(raw[hostStart:authorityEnd], '@'); at >= 0 {
			hostStart += at + 1
		}
		hostEnd = authorityEnd
		if c := strings.LastIndexByte(raw[hostStart:authorityEnd], ':'); c >= 0 && !strings.Contains(raw[hostStart+c:authorityEnd], "]") {
			hostEnd = hostStart + c
		}
	}
	var b strings.Builder
	b.Grow(len(raw))
	hostOnlyVars = hostStart >= 0 && hostEnd > hostStart
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		inHost := i >= hostStart && i < hostEnd
		switch c {
		case '{':
			end := strings.IndexByte(raw[i+1:], '}')
			if end <= 0 || !isTemplateName(raw[i+1:i+1+end]) {
				return "", false, nil, fmt.Errorf("'{' at byte %d opens no {variable} (letters, digits, '_', '-', '.')", i)
			}
			names = append(names, raw[i+1:i+1+end])
			next := i + end + 2 // after '}'
			if i >= hostEnd && i < authorityEnd && hostStart >= 0 {
				// In the port: only as the whole of it.
				if raw[i-1] != ':' || next != authorityEnd {
					return "", false, nil, errors.New("a {variable} in the port must be the whole port")
				}
				b.WriteByte('1')
			} else {
				b.WriteString(fill)
			}
			i = next - 1
		case '}':
			return "", false, nil, fmt.Errorf("'}' at byte %d closes no {variable}", i)
		default:
			if inHost && c != '.' {
				hostOnlyVars = false
			}
			b.WriteByte(c)
		}
	}
	return b.String(), hostOnlyVars, names, nil
}

// isTemplateName reports whether s names a template variable.
func isTemplateName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return s != ""
}
