package model

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/internal/jsonx"
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
		// Repeated packages and remotes, remotes out of order, numbers
		// a float64 changes and does not, a repeated publisher block.
		`{"data":{"servers":[{"name":"com.example/p","packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio","x":[{}]}},{"registryType":"npm","identifier":"x","transport":{"type":"stdio"}},{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}}],"remotes":[{"type":"sse","url":"https://b.example.com/","headers":[{"name":"a"}]},{"type":"sse","url":"https://a.example.com/"},{"url":"https://a.example.com/","type":"sse"}],"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"a":{"b":{"n":[1.5,12345678901234567,123456789012345,0.1]}}},"io.modelcontextprotocol.registry\/publisher-provided":{"x":{"y":{"stars":2,"t":[{"u":[]}]}}}}}]}}`,
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
			// The walks that skip nested containers by the entry's index
			// find what a scan finds.
			if a, b := remoteURLsPlain(s), remoteURLsPlain(alone); a != b {
				t.Fatalf("entry %q: remoteURLsPlain with the index %v, read alone %v", s.raw, a, b)
			}
			if a, b := slices.Collect(s.RemoteURLs()), slices.Collect(alone.RemoteURLs()); !slices.Equal(a, b) {
				t.Fatalf("entry %q: RemoteURLs with the index %q, read alone %q", s.raw, a, b)
			}
			if a, b := publisherBlock(s), publisherBlock(alone); string(a) != string(b) {
				t.Fatalf("entry %q: publisherBlock with the index %q, read alone %q", s.raw, a, b)
			}
			if block := publisherBlock(s); block != nil && s.exactNumbers(block) {
				if _, n := inexactNumbers(block); n != 0 {
					t.Fatalf("entry %q: the scan says every number is exact, inexactNumbers finds %d", s.raw, n)
				}
			}
			for _, limit := range []int{-1, 0, 40, 1 << 20} {
				c1, c2 := s.Clone(), alone.Clone()
				ok1, ds1 := Canonicalize(c1, ObjectRef{}, "e", NormalizeOptions{MaxMetaSize: limit})
				ok2, ds2 := Canonicalize(c2, ObjectRef{}, "e", NormalizeOptions{MaxMetaSize: limit})
				if ok1 != ok2 || !cmp.Equal(ds1, ds2) || string(c1.AppendJSON(nil)) != string(c2.AppendJSON(nil)) {
					t.Fatalf("entry %q, limit %d: Canonicalize with the index %v %v %s, read alone %v %v %s", s.raw, limit, ok1, ds1, c1.AppendJSON(nil), ok2, ds2, c2.AppendJSON(nil))
				}
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

// FuzzStringIn: stringIn decodes every literal as jsonx.String does,
// sharing the bytes of a plain one instead of copying them.
func FuzzStringIn(f *testing.F) {
	for _, s := range []string{`"plain"`, `""`, `"caf` + "\xc3\xa9" + `"`, `"\xff"`, `"a\"b"`, `"a"b"`, `"\u00e9\n"`, ` "x"`, `"x" `, `"`, `x`, `null`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gotOK := stringIn(raw)
		want, wantOK := jsonx.String(raw)
		if got != want || gotOK != wantOK {
			t.Fatalf("stringIn(%q) = %q %v, jsonx.String %q %v", raw, got, gotOK, want, wantOK)
		}
	})
}

// parseBoth parses an upstream document as Parse does, with the entries the
// scan split and read, and with the path that splits data.servers again
// (jsonx.Elements, parseValidServer), which Parse takes when the scan split
// another "servers" value than the one read.
func parseBoth(data []byte, opts ParseOptions) (fast, simple *Registry, fds, sds Diagnostics) {
	fast, fds = Parse(data, opts)
	sc, ok := scan(data)
	if !ok || fast == nil {
		return fast, nil, fds, nil
	}
	sc.servers = nil // no capture: the entries are split again
	simple, sds = parseUpstream(sc, opts)
	return fast, simple, fds, sds
}

// upstreamEntryText generates an element of data.servers: mostly objects
// with a name, keys of the registry formats and others, repeated at times,
// literal or escaped, values compact or not; at times another value.
func upstreamEntryText(t *rapid.T) string {
	if rapid.IntRange(0, 5).Draw(t, "other") == 0 {
		return rapid.SampledFrom([]string{`null`, `1`, `"s"`, `[]`, `[{"name":"com.example/x"}]`, `true`}).Draw(t, "value")
	}
	space := rapid.SampledFrom([]string{"", "", "", " ", "\n  "}).Draw(t, "space")
	keys := []string{`"name"`, `"description"`, `"version"`, `"remotes"`, `"_meta"`, `"x"`, `"y"`, `"\u006eame"`, `"a<b"`, `"\u00e9"`, "\"\xc3\xa9\"", `"\ud800"`}
	values := []string{`"com.example/a"`, `"com.example/b"`, `""`, `"caf\u00e9"`, "\"caf\xc3\xa9\"", `"\ud800"`, `1.5`, `12345678901234567`, `1e400`, `[]`, `{}`, `null`,
		`[{"type":"sse","url":"https://a.example.com/"}]`, `{"io.modelcontextprotocol.registry/publisher-provided":{"p":{"k":{"stars":2,"tags":["a", "b"]}}}}`}
	n := rapid.IntRange(0, 6).Draw(t, "members")
	b := "{" + space
	if rapid.IntRange(0, 4).Draw(t, "unnamed") > 0 {
		b += `"name":"com.example/` + rapid.StringMatching(`[a-z]{1,12}`).Draw(t, "name") + `"`
		if n > 0 {
			b += "," + space
		}
	}
	for i := range n {
		if i > 0 {
			b += "," + space
		}
		b += rapid.SampledFrom(keys).Draw(t, "key") + space + ":" + space + rapid.SampledFrom(values).Draw(t, "value")
	}
	return b + space + "}"
}

// TestScanEntriesAsSplitAgain: the servers Parse builds from the entries
// its scan split and read are the servers the path that splits
// data.servers again builds: same diagnostics, names, origins, members,
// compactness and bytes written; an entry written back as the bytes read
// (text) writes what the members would.
func TestScanEntriesAsSplitAgain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "entries")
		doc := `{"version":"1.0.0","data":{"servers":[`
		for i := range n {
			if i > 0 {
				doc += ","
			}
			doc += upstreamEntryText(t)
		}
		doc += `]}}`
		checkScanEntries(t, doc)
	})
}

// checkScanEntries checks that the servers of an upstream document parsed
// with the entries the scan split are those split again (parseBoth).
func checkScanEntries(t interface{ Fatalf(string, ...any) }, doc string) {
	{
		opts := ParseOptions{Format: FormatUpstream, Source: ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}, FieldPrefix: "data[registry.json]"}
		fast, simple, fds, sds := parseBoth([]byte(doc), opts)
		if fast == nil || simple == nil {
			t.Fatalf("%s: not parsed: %v", doc, fds)
		}
		if diff := cmp.Diff(sds, fds); diff != "" {
			t.Fatalf("%s: diagnostics (-split again +scan):\n%s", doc, diff)
		}
		if len(fast.Servers) != len(simple.Servers) {
			t.Fatalf("%s: %d servers, split again %d", doc, len(fast.Servers), len(simple.Servers))
		}
		for i, f := range fast.Servers {
			s := simple.Servers[i]
			if f.Name() != s.Name() || f.Origin() != s.Origin() || f.compact != s.compact {
				t.Fatalf("%s: server %d: name %q origin %q compact %v, split again %q %q %v", doc, i, f.Name(), f.Origin(), f.compact, s.Name(), s.Origin(), s.compact)
			}
			if diff := cmp.Diff(s.allMembers(), f.allMembers()); diff != "" {
				t.Fatalf("%s: server %d: members (-split again +scan):\n%s", doc, i, diff)
			}
			if a, b := string(f.AppendJSON(nil)), string(s.AppendJSON(nil)); a != b {
				t.Fatalf("%s: server %d: AppendJSON %s, split again %s", doc, i, a, b)
			}
			if f.rawText {
				c := f.Clone()
				c.rawText = false
				if a, b := string(f.text()), string(c.AppendJSON(nil)); a != b {
					t.Fatalf("%s: server %d: text %s, members write %s", doc, i, a, b)
				}
			}
		}
	}
}

// TestScanEntriesBlocks: entries whose members, spans or servers fill a
// block, or overflow the room left in one, are read as split again.
func TestScanEntriesBlocks(t *testing.T) {
	entry := func(members int) string {
		b := `{"name":"com.example/e` + strconv.Itoa(members) + `"`
		for k := range members - 1 {
			b += `,"k` + strconv.Itoa(k) + `":[{"a":[1]}]`
		}
		return b + "}"
	}
	for _, tc := range []struct{ small, large, members int }{
		{990, 1, 100},  // the large entry overflows the room left in the chunk
		{990, 1, 35},   // ... to a block then trimmed
		{1000, 1, 100}, // a new chunk is taken first
		{255, 3, 40},   // the entries fill a block of servers
		{10, 2, 2000},  // entries larger than any block
		{300, 0, 0},
	} {
		doc := `{"data":{"servers":[`
		for i := range tc.small {
			if i > 0 {
				doc += ","
			}
			doc += entry(1)
			if i == tc.small/2 {
				doc += ",null"
			}
		}
		for range tc.large {
			doc += "," + entry(tc.members) + "," + entry(1)
		}
		checkScanEntries(t, doc+`]}}`)
	}
}
