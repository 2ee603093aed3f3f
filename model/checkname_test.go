package model

import (
	"testing"

	"pgregory.net/rapid"
)

// TestCheckNameFastPath: the one-pass check CheckName tries first accepts
// only names its full checks accept without a word, and accepts the usual
// ones.
func TestCheckNameFastPath(t *testing.T) {
	for _, name := range []string{"io.github.acme/fetch", "com.example/srv", "a1/b2", "io.github.my-org/my_server.v2"} {
		if !plainValidName(name) {
			t.Errorf("plainValidName(%q) = false", name)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringOfN(rapid.SampledFrom([]rune("aZ09.-_/é x")), 0, 12, -1).Draw(t, "name")
		if rapid.Bool().Draw(t, "long") {
			name += rapid.StringOfN(rapid.SampledFrom([]rune("a.-_/")), 180, 220, -1).Draw(t, "tail")
		}
		if plainValidName(name) {
			if invalid, strict := checkName(name); invalid != "" || strict != "" {
				t.Fatalf("fast path accepts %q; the full checks say %q / %q", name, invalid, strict)
			}
		}
	})
}
