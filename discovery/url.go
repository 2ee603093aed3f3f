package discovery

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// MaxURLLength is the longest registry-url accepted, in bytes.
const MaxURLLength = 2048

// validHostname reports whether host is dot-separated labels of 1 to 63
// letters, digits, "-" and "_" (some internal names use it), each starting
// and ending with a letter or digit, without a trailing dot. It is
// ^[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*$
// written out, as it runs once per URL.
func validHostname(host string) bool {
	if host == "" || len(host) > 253 {
		return false
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || len(label) > 63 || !alnum(label[0]) || !alnum(label[len(label)-1]) {
			return false
		}
		for i := 1; i < len(label)-1; i++ {
			if c := label[i]; !alnum(c) && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
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

// CheckURL checks a registry-url annotation and returns it
// normalised. A valid URL:
//
//   - is at most MaxURLLength bytes of printable ASCII from the RFC 3986
//     character set (no spaces, control characters, backslashes or other
//     characters that browsers and servers disagree about);
//   - is absolute, with scheme http or https (any case) and "//" authority;
//   - has a host: a DNS name, an IPv4 address or a bracketed IPv6 address,
//     and if a port, one from 1 to 65535;
//   - has no user information (credentials must not be published) and no
//     fragment;
//   - has well-formed percent escapes.
//
// Normalising lower-cases the scheme and the host and changes nothing else,
// so the URL is published as written. insecure is true for http: the caller
// decides whether to allow it (with an InsecureURL warning) or not.
//
// Error messages quote the input, with any password masked and over-long
// input cut.
func CheckURL(raw string) (normalized string, insecure bool, err error) {
	if raw == "" {
		return "", false, errors.New("URL is empty")
	}
	if len(raw) > MaxURLLength {
		return "", false, fmt.Errorf("URL %s is %d bytes; the maximum is %d", quoteURL(raw), len(raw), MaxURLLength)
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; !urlByte(c) {
			return "", false, fmt.Errorf("URL %s has %s at byte %d; a URL is printable ASCII without spaces (percent-encode anything else)",
				quoteURL(raw), describeByte(c), i)
		}
	}
	scheme := urlScheme(raw)
	if scheme != "" {
		switch lower := strings.ToLower(scheme); lower {
		case "https":
		case "http":
			insecure = true
		default:
			return "", false, fmt.Errorf("URL %s has scheme %q; only https and http are allowed", quoteURL(raw), lower)
		}
	}
	rest, ok := strings.CutPrefix(raw[len(scheme):], "://")
	if scheme == "" || !ok {
		return "", false, fmt.Errorf("URL %s is not absolute: it must start with https:// or http://", quoteURL(raw))
	}
	u, perr := url.Parse(raw)
	if perr != nil {
		var ue *url.Error
		if errors.As(perr, &ue) {
			perr = ue.Err
		}
		return "", false, fmt.Errorf("URL %s does not parse: %v", quoteURL(raw), perr)
	}
	if u.User != nil {
		return "", false, fmt.Errorf("URL %s has user information; credentials must not be published", quoteURL(raw))
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return "", false, fmt.Errorf("URL %s has a fragment (#...); a server URL has none", quoteURL(raw))
	}
	// The authority as written: up to the first "/", "?" (no "#": refused above).
	authority := rest
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		authority = rest[:i]
	}
	if authority == "" || u.Host == "" {
		return "", false, fmt.Errorf("URL %s has no host", quoteURL(raw))
	}
	if authority != u.Host || strings.Contains(authority, "%") {
		return "", false, fmt.Errorf("URL %s has a host %q that is not a plain host name or address", quoteURL(raw), authority)
	}
	if err := checkHost(authority); err != nil {
		return "", false, fmt.Errorf("URL %s: %v", quoteURL(raw), err)
	}
	return strings.ToLower(scheme) + "://" + strings.ToLower(authority) + rest[len(authority):], insecure, nil
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

// checkHost checks host[:port] as written in the authority.
func checkHost(hostport string) error {
	host, port := hostport, ""
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return fmt.Errorf("host %q has an unclosed \"[\"", hostport)
		}
		host, port = hostport[1:end], hostport[end+1:]
		if ip := net.ParseIP(host); ip == nil || !strings.Contains(host, ":") {
			return fmt.Errorf("host %q is not an IPv6 address", host)
		}
		if port != "" {
			if port[0] != ':' {
				return fmt.Errorf("host %q has text after \"]\"", hostport)
			}
			port = port[1:]
			if port == "" {
				return fmt.Errorf("host %q has an empty port", hostport)
			}
		}
	} else {
		if h, p, ok := strings.Cut(hostport, ":"); ok {
			host, port = h, p
			if port == "" {
				return fmt.Errorf("host %q has an empty port", hostport)
			}
		}
		if !validHostname(host) {
			return fmt.Errorf("host %q is not a valid host name or IPv4 address", host)
		}
		if allNumericLabels(host) && net.ParseIP(host) == nil {
			return fmt.Errorf("host %q is neither an IPv4 address nor a host name", host)
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '+' || port[0] == '-' {
			return fmt.Errorf("port %q must be a number from 1 to 65535", port)
		}
	}
	return nil
}

// allNumericLabels reports whether every dot-separated label of host is
// digits only: such a host must be an IPv4 address.
func allNumericLabels(host string) bool {
	for _, l := range strings.Split(host, ".") {
		if strings.Trim(l, "0123456789") != "" {
			return false
		}
	}
	return true
}

// quoteURL quotes a URL for a message: user information (which may hold a
// token or password) masked, over-long input cut.
func quoteURL(raw string) string {
	s := raw
	if _, rest, ok := strings.Cut(raw, "://"); ok {
		authority := rest
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			authority = rest[:i]
		}
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			start := len(raw) - len(rest)
			s = raw[:start] + "***" + raw[start+at:]
		}
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return strconv.Quote(s)
}
