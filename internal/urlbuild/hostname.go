package urlbuild

import (
	"slices"
	"strings"
)

// IsWildcard reports whether h is a wildcard hostname: the label "*" followed by
// a non-empty domain, as in "*.example.com". The wildcard label must appear by
// itself as the first label (gwv1.Hostname); "*" alone or "*.": not wildcards.
func IsWildcard(h string) bool {
	return len(h) > 2 && h[0] == '*' && h[1] == '.'
}

// MatchHostname reports whether the precise hostname host is served by
// pattern, a precise or wildcard hostname. A wildcard is a suffix match on
// whole labels: "*.example.com" matches "foo.example.com" and
// "a.b.example.com" but not "example.com" (HTTPRouteSpec.Hostnames,
// Listener.Hostname). Comparison ignores case, as DNS does. An empty pattern
// matches every host.
func MatchHostname(pattern, host string) bool {
	if pattern == "" {
		return true
	}
	pattern, host = lower(pattern), lower(host)
	if IsWildcard(host) {
		return false
	}
	if !IsWildcard(pattern) {
		return pattern == host
	}
	return wildcardMatches(pattern, host)
}

// wildcardMatches reports whether the precise host has at least one label
// before the wildcard's suffix. Both are lower case; the suffix begins with "."
// so label boundaries are respected ("*.ample.com" does not match
// "example.com").
func wildcardMatches(wildcard, host string) bool {
	suffix := wildcard[1:]
	return len(host) > len(suffix) && strings.HasSuffix(host, suffix) && host[0] != '.'
}

// Intersect computes the hostnames that both the route and a listener accept,
// per HTTPRouteSpec.Hostnames and Listener.Hostname:
//
//   - a listener with no hostname (nil or "") accepts every hostname; a route
//     with no hostnames accepts every hostname the listener accepts;
//   - when both are empty the result is anyHost=true and no hosts: any host
//     the Gateway is reachable under;
//   - otherwise hosts lists, for each route hostname that overlaps the
//     listener hostname, the more specific of the two: exact names must be
//     equal; an exact name and a wildcard overlap when the wildcard matches
//     the name (which is then the result); two wildcards overlap when one's
//     domain ends with the other's (the longer one is the result).
//
// Route hostnames that do not overlap are ignored, as the spec requires. An
// empty hosts with anyHost=false means the listener does not match the route.
// Hostnames are compared and returned in lower case, sorted, without
// duplicates; empty route hostnames are skipped. Use [IsWildcard] or
// [SplitHostnames] to tell concrete names from wildcards.
func Intersect(routeHostnames []string, listenerHostname *string) (hosts []string, anyHost bool) {
	listener := ""
	if listenerHostname != nil {
		listener = lower(*listenerHostname)
	}
	hosts, anyHost = intersect(nil, routeHostnames, listener)
	return hosts, anyHost
}

// intersect is Intersect over any string type (gwv1.Hostname), with the
// listener hostname already lower-cased ("" for none), appending the hosts to
// dst so that a caller can reuse one buffer for many listeners.
func intersect[S ~string](dst []string, routeHostnames []S, listener string) (hosts []string, anyHost bool) {
	n := len(dst)
	hosts = dst
	empty := true
	for _, rh := range routeHostnames {
		if rh == "" {
			continue
		}
		empty = false
		h := lower(string(rh))
		if listener == "" {
			hosts = append(hosts, h)
			continue
		}
		if r, ok := intersectOne(h, listener); ok {
			hosts = append(hosts, r)
		}
	}
	if empty {
		if listener == "" {
			return hosts, true
		}
		return append(hosts, listener), false
	}
	slices.Sort(hosts[n:])
	return hosts[:n+len(slices.Compact(hosts[n:]))], false
}

// intersectOne intersects one route hostname with a non-empty listener
// hostname, both lower case: the more specific of the two when they overlap.
func intersectOne(route, listener string) (string, bool) {
	rw, lw := IsWildcard(route), IsWildcard(listener)
	switch {
	case !rw && !lw:
		return route, route == listener
	case !rw && lw:
		return route, wildcardMatches(listener, route)
	case rw && !lw:
		return listener, wildcardMatches(route, listener)
	}
	rs, ls := route[1:], listener[1:]
	switch {
	case rs == ls:
		return route, true
	case strings.HasSuffix(rs, ls):
		// "*.foo.example.com" within "*.example.com": the route's is narrower.
		return route, true
	case strings.HasSuffix(ls, rs):
		return listener, true
	}
	return "", false
}

// SplitHostnames separates concrete hostnames from wildcards, keeping order.
func SplitHostnames(hosts []string) (concrete, wildcards []string) {
	for _, h := range hosts {
		if IsWildcard(h) {
			wildcards = append(wildcards, h)
		} else {
			concrete = append(concrete, h)
		}
	}
	return concrete, wildcards
}

// ValidHostname reports whether h is a precise hostname a URL may carry:
// RFC 1123 labels of lower-case letters, digits and '-', starting and ending
// with a letter or digit, at most 253 characters — the pattern of
// gwv1.PreciseHostname, plus RFC 1123's limit of 63 characters a label —
// that is not an IP address (see numericHostname).
func ValidHostname(h string) bool {
	if h == "" || len(h) > 253 || numericHostname(h) {
		return false
	}
	// One pass over h: start is where the current label starts.
	start := 0
	for i := 0; i <= len(h); i++ {
		if i == len(h) || h[i] == '.' {
			if n := i - start; n == 0 || n > 63 || h[start] == '-' || h[i-1] == '-' {
				return false
			}
			start = i + 1
			continue
		}
		if c := h[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// numericHostname reports whether the last label of h is a number: all
// digits, or "0x" and hexadecimal digits. The Gateway API's Hostname type
// passes such names through its pattern but says IPs are not allowed, and a
// URL reader (the WHATWG URL standard's "ends in a number") takes any such
// host for an IPv4 address (10.0.0.1, 1.2.3, example.0x1f): no request to
// it carries the name as written.
func numericHostname(h string) bool {
	last := h[strings.LastIndexByte(h, '.')+1:]
	if strings.HasPrefix(last, "0x") || strings.HasPrefix(last, "0X") {
		last = last[2:]
		return strings.Trim(last, "0123456789abcdefABCDEF") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// lower lower-cases ASCII letters only — DNS names compare ASCII
// case-insensitively (RFC 4343), and bytes outside ASCII are left alone rather
// than reinterpreted as UTF-8 — without allocating when s has no upper case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + ('a' - 'A')
				}
			}
			return string(b)
		}
	}
	return s
}
