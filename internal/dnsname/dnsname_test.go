package dnsname

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"example.com", true},
		{"a_b.com", true},
		{"a-b.example", true},
		{"x", true},
		{"", false},
		{"example.com.", false},
		{".example.com", false},
		{"-a.com", false},
		{"a-.com", false},
		{"_a.com", false},
		{"a..b", false},
		{"ex ample.com", false},
		{strings.Repeat("a", 63) + ".com", true},
		{strings.Repeat("a", 64) + ".com", false},
		{strings.Repeat("a.", 126) + "a", true},  // 253 bytes
		{strings.Repeat("a.", 127) + "a", false}, // 255 bytes
	} {
		if got := Valid(tc.host); got != tc.want {
			t.Errorf("Valid(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}
