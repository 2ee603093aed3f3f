package model

import (
	"testing"

	"pgregory.net/rapid"
)

// TestMatchersAgreeWithOracle: the rewritten matchers (byte classes, eight
// bytes at a time, fast paths) accept exactly what the matchers they
// replaced accept, on strings drawn from the bytes that matter to them.
func TestMatchersAgreeWithOracle(t *testing.T) {
	anyText := textGen("0123456789-+.eE", "1e400", "000", "65535", "123456789012345", "1234567890123456")
	anyText = rapid.OneOf(anyText, textGen("aZz09:/?#@[]%{}\\\\ .-+~_!$&'()*,;=\x7f\x01\x20\x21\x5a\x5e\x7e\x80éT", "https://", "http://[::1]", ":80", "%41", "mailto:", "//",
		"2025-08-29T01:31:29Z", "2024-02-29", "T12:00:00", "io.github.acme/", "ghcr.io/acme/x", "abcdefgh"))
	tests := []struct {
		name     string
		now, old func(string) bool
	}{
		{"plainURI", plainURI[string], oldPlainURI[string]},
		{"isURI", isURI[string], oldIsURI[string]},
		{"isDateTime", isDateTime[string], oldIsDateTime[string]},
		{"plainValidName", plainValidName, oldPlainValidName},
		{"matchName", matchName[string], oldMatchName[string]},
		{"matchOfficialPart", matchOfficialPart[string], oldMatchOfficialPart[string]},
		{"matchTool", matchTool[string], oldMatchTool[string]},
		{"matchTag", matchTag[string], oldMatchTag[string]},
		{"matchEnvVar", matchEnvVar[string], oldMatchEnvVar[string]},
		{"matchK8sName", matchK8sName[string], oldMatchK8sName[string]},
		{"matchMountPath", matchMountPath[string], oldMatchMountPath[string]},
		{"matchHost", matchHost[string], oldMatchHost[string]},
		{"matchIconSize", matchIconSize[string], oldMatchIconSize[string]},
		{"matchSHA256", matchSHA256[string], oldMatchSHA256[string]},
		{"matchRemoteURL", matchRemoteURL[string], oldMatchRemoteURL[string]},
		{"isUUID", isUUID[string], oldIsUUID[string]},
		{"isHostname", isHostname[string], oldIsHostname[string]},
		{"floatOf", func(s string) bool {
			f, ok := floatOf([]byte(s))
			g, wasOK := oldFloatOf([]byte(s))
			return ok == wasOK && (f == g || f != f && g != g)
		}, func(string) bool { return true }},
		{"plainBytes", func(s string) bool { return plainBytes([]byte(s)) }, func(s string) bool {
			_, ok := oldPlainString([]byte(`"` + s + `"`))
			return ok && oldIsPlainUTF8([]byte(s)) && !containsByte(s, '\\')
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := anyText.Draw(t, "s")
				if got, want := tt.now(s), tt.old(s); got != want {
					t.Fatalf("%q: %v now, %v before", s, got, want)
				}
			})
		})
	}
	for c := range 256 {
		for _, s := range []string{string([]byte{byte(c)}), "x:" + string([]byte{byte(c)}) + "abcdefgh", "x:abcdefg" + string([]byte{byte(c)})} {
			if plainURI(s) != oldPlainURI(s) {
				t.Errorf("plainURI(%q) = %v, was %v", s, plainURI(s), oldPlainURI(s))
			}
		}
	}
}

func containsByte(s string, c byte) bool {
	for i := range len(s) {
		if s[i] == c {
			return true
		}
	}
	return false
}
