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

// urlByte reports whether c may appear in a URL as written: the RFC 3986
// unreserved and reserved characters and "%".
func urlByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=%", c) >= 0
}
