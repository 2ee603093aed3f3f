// Package dnsname holds the one reading of a DNS host name that mcpreg's URL
// policy and discovery share, so a host accepted in a registry-url annotation
// and a host taken from a Gateway's status are judged alike.
package dnsname

import "strings"

// Valid reports whether host is dot-separated labels of 1 to 63 letters,
// digits, "-" and "_", each starting and ending with a letter or digit,
// without a trailing dot, at most 253 bytes.
func Valid(host string) bool {
	if host == "" || len(host) > 253 {
		return false
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || len(label) > 63 || !Alnum(label[0]) || !Alnum(label[len(label)-1]) {
			return false
		}
		for i := 1; i < len(label)-1; i++ {
			if c := label[i]; !Alnum(c) && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

// Alnum reports whether c is an ASCII letter or digit.
func Alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
