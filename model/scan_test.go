package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzScanIndex: on any data, the entries Parse reads in its one pass
// (split, and indexed for ValidateServer) give the diagnostics the same
// entries give read on their own with ParseServer (split again, no index),
// and AppendJSON writes the same bytes for both.
func FuzzScanIndex(f *testing.F) {
	for _, s := range []string{
		`{"data":{"servers":[{"name":"com.example/srv","description":"d","version":"1.0.0","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"x":{"status":"active","tags":["a","b"]}}}}}]}}`,
		`{"data":{"servers":[{"name":"com.example/srv","packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K"}]}],"remotes":[{"type":"sse","url":"https://e.example.com/sse","headers":[{}]}]}]}}`,
		`{"data":{"servers":[{"name":"com.example/a","x":[1e400,{"y":[[[]]]}]},{"name":"com.example/b","x":{"a":1,"a":[2]}}, 3]}}`,
		"{\n \"data\": {\"servers\": [ {\"name\" : \"com.example/srv\", \"repository\": {\"url\": \"https://x\", \"source\": \"github\"} } ]}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		reg, _ := Parse(data, ParseOptions{Format: FormatUpstream})
		if reg == nil {
			return
		}
		for _, s := range reg.Servers {
			if !s.indexed {
				continue
			}
			alone, err := ParseServer(s.raw)
			if err != nil {
				t.Fatalf("entry %q does not parse on its own: %v", s.raw, err)
			}
			got := ValidateServer(s, ObjectRef{}, "e")
			want := ValidateServer(alone, ObjectRef{}, "e")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("entry %q: diagnostics with the index differ (-without +with):\n%s", s.raw, diff)
			}
			if a, b := string(s.AppendJSON(nil)), string(alone.AppendJSON(nil)); a != b {
				t.Fatalf("entry %q: AppendJSON %s, read alone %s", s.raw, a, b)
			}
		}
	})
}
