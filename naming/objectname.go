package naming

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// DNSSubdomain joins parts with "-" into a Kubernetes object name (an RFC 1123
// subdomain of at most 253 characters). When the joined string already is
// one, it is returned unchanged. Otherwise it is lower-cased, every character
// other than [a-z0-9-] becomes "-", the ends are trimmed of "-", it is cut to
// leave room, and "-" plus the first 8 hex digits of the SHA-256 of the joined
// string is appended, so that inputs that clean to the same text still get
// different names.
func DNSSubdomain(parts ...string) string {
	raw := strings.Join(parts, "-")
	if len(validation.IsDNS1123Subdomain(raw)) == 0 {
		return raw
	}
	tail := dnsHash(raw)
	s := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r - 'A' + 'a'
		}
		return '-'
	}, raw)
	s = strings.Trim(s, "-")
	if max := validation.DNS1123SubdomainMaxLength - 1 - len(tail); len(s) > max {
		s = strings.TrimRight(s[:max], "-")
	}
	if s == "" {
		return tail
	}
	return s + "-" + tail
}

// dnsHash is the first 8 hex digits of the SHA-256 of s.
func dnsHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
