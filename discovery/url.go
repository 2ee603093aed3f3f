package discovery

import (
	"strings"

	"github.com/mcpreg/mcpreg/model"
)

// MaxURLLength is the longest registry-url accepted, in bytes.
const MaxURLLength = model.MaxURLLength

// CheckURL checks a registry-url annotation (or a URL built from a route) and
// returns it normalised. It is model.CheckURL, the module's one URL policy,
// which merge and convert apply to remote URLs too: see there for the rules.
func CheckURL(raw string) (normalized string, insecure bool, err error) {
	return model.CheckURL(raw)
}

// validHostname reports whether host is dot-separated labels of 1 to 63
// letters, digits, "-" and "_", each starting and ending with a letter or
// digit, without a trailing dot: what model.CheckURL accepts as a DNS name.
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

// urlByte reports whether c may appear in a URL as written: the RFC 3986
// unreserved and reserved characters and "%".
func urlByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=%", c) >= 0
}
