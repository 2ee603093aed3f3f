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
		// Text that is not Unicode, in a value, a nested key and a key,
		// and text that only looks like it.
		"{\"data\":{\"servers\":[{\"name\":\"com.example/a\",\"x\":\"\xff\"},{\"name\":\"com.example/b\",\"x\":{\"\\ud800\":1}},{\"\\udc00\":1},{\"\xc3\":2},{\"x\":\"\\\\ud800 \\u00e9 \\ud83d\\ude00 \xc3\xa9\"}]}}",
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
			// The scan's verdict on the text spares badText's pass: it
			// must never hide what that pass finds.
			k1, why1 := badText(s)
			k2, why2 := badText(alone)
			if k1 != k2 || why1 != why2 {
				t.Fatalf("entry %q: badText with the scan's verdict (%v) %q %q, read alone %q %q", s.raw, s.textOK, k1, why1, k2, why2)
			}
		}
	})
}

// TestScanTextVerdict checks which entries the scan clears of badText's
// pass, and that a member set later is checked as it is set.
func TestScanTextVerdict(t *testing.T) {
	for _, tc := range []struct {
		entry string
		ok    bool
	}{
		{`{"name":"com.example/a","description":"plain \"text\" \\u00e9 \n","x":[{"k":"v"}]}`, true},
		{`{"name":"com.example/a","description":"caf` + "\xc3\xa9" + `"}`, false},
		{`{"name":"com.example/a","x":{"k":"\ud83d\ude00"}}`, false},
		{`{"name":"com.example/a","x":{"\uD800":1}}`, false},
		{`{"name":"com.example/a","\udc00":1}`, false},
	} {
		reg, _ := Parse([]byte(`{"data":{"servers":[`+tc.entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: not parsed", tc.entry)
		}
		if got := reg.Servers[0].textOK; got != tc.ok {
			t.Errorf("%s: textOK %v, want %v", tc.entry, got, tc.ok)
		}
	}
	reg, _ := Parse([]byte(`{"data":{"servers":[{"name":"com.example/a"}]}}`), ParseOptions{Format: FormatUpstream})
	s := reg.Servers[0]
	s.SetDescription("caf\u00e9")
	if _, why := badText(s); why != "" || !s.textOK {
		t.Fatalf("valid text set: textOK %v, badText %q", s.textOK, why)
	}
	s.Set("x", []byte(`"\ud800"`))
	if key, why := badText(s); key != "x" || s.textOK {
		t.Fatalf("lone surrogate set: textOK %v, badText %q %q", s.textOK, key, why)
	}
}
