package model

import (
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// leanKeySets are the literal sets of the lean readers, for the tests that
// every literal fits a window.
var leanKeySets = []any{
	repositoryKeys, transportKeys, transportTypes, pkgKeys, keyValueKeys, inputFormatLits, metaKeys,
	extensionKeys, extStatusLits, extTierLits, metadataKeys, iconKeys, iconMimeTypeLits, iconThemeLits,
	envVarKeys, toolDefinitionKeys, kubernetesKeys, kubernetesTransportLits, permissionsKeys, networkKeys,
	outboundKeys, provenanceKeys, attestationKeys,
}

// TestLeanLitsFitWindow: lean.is compares 24 bytes, so every literal the
// readers compare with it must be at most that long; the one longer key
// (publisher-provided) is read with lean.at.
func TestLeanLitsFitWindow(t *testing.T) {
	n := 0
	for _, set := range leanKeySets {
		v := reflect.ValueOf(set)
		var lits []string
		switch v.Kind() {
		case reflect.Slice:
			for _, l := range set.([]leanLit) {
				lits = append(lits, l.s)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				lits = append(lits, v.Field(i).FieldByName("s").String())
			}
		}
		for _, s := range lits {
			n++
			if len(s) > 24 && s != metaKeys.publisherProvided.s {
				t.Errorf("literal %s is %d bytes; lean.is compares 24", s, len(s))
			}
			if strings.Contains(s[1:len(s)-2], `"`) || strings.Contains(s, `\`) {
				t.Errorf("literal %s holds a quote or a backslash", s)
			}
		}
	}
	if n < 80 {
		t.Errorf("%d literals; the readers have more", n)
	}
}

// TestLeanIsMatchesBytes: lean.is and lean.at say yes exactly when the
// text at the cursor starts with the literal, also when the text ends
// within the window, and then move past it.
func TestLeanIsMatchesBytes(t *testing.T) {
	names := []string{"name", "url", "type", "isRequired", "environmentVariables", "registryBaseUrl", "runner_environment", "x", PublisherProvidedKey}
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(names).Draw(t, "name")
		lit := keyLit(name)
		if rapid.Bool().Draw(t, "value") {
			lit = strLit(name)
		}
		// The text: the literal or a near miss of it, then more text,
		// cut anywhere.
		text := rapid.SampledFrom([]string{
			lit.s, lit.s[:len(lit.s)-1], lit.s[1:], `"` + strings.ToUpper(name[:1]) + name[1:] + lit.s[len(name)+1:],
			`"\u` + "00" + "6e" + lit.s[2:], `"` + name + "s" + lit.s[len(name)+1:], lit.s[:len(lit.s)-1] + " ",
		}).Draw(t, "text") + rapid.SampledFrom([]string{"", "1", `"abc"}`, `{"a":[1,2,3]},"b":true}`, "\x00\x00"}).Draw(t, "more")
		text = text[:rapid.IntRange(0, len(text)).Draw(t, "cut")]
		start := rapid.IntRange(0, 2).Draw(t, "start")
		b := []byte(strings.Repeat(",", start) + text)
		want := strings.HasPrefix(text, lit.s)
		l := lean{b: b, i: start}
		w := l.window()
		if len(lit.s) <= 24 {
			if got := l.is(&w, &lit); got != want || got && l.i != start+len(lit.s) || !got && l.i != start {
				t.Fatalf("is(%q) at %q: %v, cursor %d; want %v", lit.s, text, got, l.i, want)
			}
		}
		l.i = start
		if got := l.at(&lit); got != want || got && l.i != start+len(lit.s) || !got && l.i != start {
			t.Fatalf("at(%q) at %q: %v, cursor %d; want %v", lit.s, text, got, l.i, want)
		}
	})
}

// checkURILit fails when plainURILit reads the literal at the start of raw
// differently from what str and isURI make of it, or, for a literal it
// can read, differently from plainURI.
func checkURILit(t interface {
	Helper()
	Fatalf(string, ...any)
}, s, tail string) {
	t.Helper()
	raw := []byte(`"` + s + `"` + tail)
	end := plainURILit(raw, 0)
	l := lean{b: raw}
	contents, plainStr := l.str()
	if end > 0 && (!plainStr || end != l.i || !isURI(contents) || !refURI(string(contents))) {
		t.Fatalf("plainURILit reads %q to %d; str reads (%q, %v) to %d", raw, end, contents, plainStr, l.i)
	}
	if plainStr && string(contents) == s && (end > 0) != plainURI(s) {
		t.Fatalf("plainURILit(%q) = %d; plainURI(%q) = %v", raw, end, s, plainURI(s))
	}
}

// TestPlainURILitAgrees holds plainURILit, which reads a string literal
// and checks it as a URI in one pass, to str and plainURI, which do it in
// two.
func TestPlainURILitAgrees(t *testing.T) {
	gen := textGen("aZz09:/?#@[]%{}\"\\ .-+~_!$&'()*,;=\x7f\x01\x20\x21\x5a\x5e\x7e\x80é", "https://", "http://", ":8080", "//", "a:", "www.example.com", `\"`, `\u0041`)
	rapid.Check(t, func(t *rapid.T) {
		checkURILit(t, gen.Draw(t, "s"), rapid.SampledFrom([]string{"", ",", `,"a":"b"}`, `"`}).Draw(t, "tail"))
	})
	// Every byte at every place of the first two words.
	for c := range 256 {
		for k := range 17 {
			s := "https://abcdefghijklmnop"[:k] + string([]byte{byte(c)}) + "abcdefgh/x"
			checkURILit(t, s, "")
			checkURILit(t, s, `}`)
		}
	}
	for _, c := range []struct {
		raw string
		end int
	}{
		{`"https://github.com/a/b"`, 24},
		{`"https://github.com/a/b","source":"github"}`, 24},
		{`"https://github.com/a/b\"x"`, -1},
		{`"https:\/\/github.com/a/b"`, -1},
		{`"https://github.com/a b"`, -1},
		{`"https://github.com/é"`, -1},
		{`"not a uri"`, -1},
		{`"https://github.com/a/b`, -1},
		{`5`, -1},
	} {
		if got := plainURILit([]byte(c.raw), 0); got != c.end {
			t.Errorf("plainURILit(%s) = %d, want %d", c.raw, got, c.end)
		}
	}
}

// FuzzPlainURILit runs checkURILit on arbitrary literals.
func FuzzPlainURILit(f *testing.F) {
	for _, s := range []string{"https://github.com/a/b", "http://h:8080/x?y#z", "mailto:a@b", "a:", "https://x/a\"b", "https://[::1]/", "https://é/"} {
		f.Add(s, `,"source":"github"}`)
	}
	f.Fuzz(func(t *testing.T, s, tail string) { checkURILit(t, s, tail) })
}

// TestPlainURLEndAgrees: plainURLEnd, which the lean reading runs on a
// string literal's contents up to its closing quote, reads a URL followed
// by a quote exactly as plainURL reads the URL alone.
func TestPlainURLEndAgrees(t *testing.T) {
	check := func(t interface {
		Fatalf(string, ...any)
	}, raw, tail string) {
		insecure, ok := plainURL(raw)
		end, endInsecure := plainURLEnd(raw + `"` + tail)
		switch {
		case strings.Contains(raw, `"`):
			if ok {
				t.Fatalf("plainURL(%q) accepts a quote", raw)
			}
		case ok && (end != len(raw) || endInsecure != insecure):
			t.Fatalf("plainURL(%q) = (%v, true); plainURLEnd reads to %d (%v)", raw, insecure, end, endInsecure)
		case !ok && end >= 0:
			t.Fatalf("plainURL(%q) refuses it; plainURLEnd reads to %d", raw, end)
		}
		// The literal ends at the first quote.
		contents, _, _ := strings.Cut(raw, `"`)
		_, ok = plainURL(contents)
		l := lean{b: []byte(`"` + raw + `"` + tail)}
		u, lok := l.plainURL()
		if lok != ok || lok && (string(u) != contents || l.i != len(contents)+2) {
			t.Fatalf("lean.plainURL of %q: (%q, %v) to %d; plainURL(%q) says %v", raw, u, lok, l.i, contents, ok)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		scheme := rapid.SampledFrom([]string{"https://", "http://", "HTTPS://", "https:/", "ftp://", ""}).Draw(t, "scheme")
		host := rapid.StringOfN(rapid.SampledFrom([]rune("ab0x9Z.-_%@:[]1f\"")), 0, 12, -1).Draw(t, "host")
		port := rapid.SampledFrom([]string{"", ":", ":0", ":1", ":80", ":443", ":8080", ":65536", `:8"`}).Draw(t, "port")
		path := rapid.StringOfN(rapid.SampledFrom([]rune("/a?=&%2F#@:[] \\~é\"")), 0, 10, -1).Draw(t, "path")
		check(t, scheme+host+port+path, rapid.SampledFrom([]string{"", "}", `,"a":1}`}).Draw(t, "tail"))
	})
	for _, raw := range []string{"https://a.example.com/mcp", "http://h:8080", "https://h", "https://h:", "https://" + strings.Repeat("a", 63) + ".b/" + strings.Repeat("p", MaxURLLength)} {
		check(t, raw, "")
		check(t, raw, "}")
	}
}

// TestClassStr: lean.classStr reads a literal of the class's bytes and
// nothing else; what it returns is what str returns.
func TestClassStr(t *testing.T) {
	classes := []uint16{classTool, classTag, classEnvVar, classK8sName}
	check := func(t interface{ Fatalf(string, ...any) }, class uint16, raw []byte) {
		l := lean{b: raw}
		got, ok := l.classStr(class)
		r := lean{b: raw}
		want, strOK := r.str()
		all := strOK && len(want) > 0 && allBytes(want, func(c byte) bool { return byteClass[c]&class != 0 })
		if ok != (all || strOK && len(want) == 0) || ok && (string(got) != string(want) || l.i != r.i) {
			t.Fatalf("classStr(%q, %#x) = (%q, %v) to %d; str reads (%q, %v) to %d", raw, class, got, ok, l.i, want, strOK, r.i)
		}
	}
	gen := textGen("aZ09_-.`@[{/:\"\\é \x00\x7f", `\"`, `\u0041`, "tool_name", "ABCDEFGH", "abcdefgh")
	rapid.Check(t, func(t *rapid.T) {
		s := gen.Draw(t, "s")
		class := rapid.SampledFrom(classes).Draw(t, "class")
		check(t, class, []byte(`"`+s+`"`+rapid.SampledFrom([]string{"", ",", `,"b"]`}).Draw(t, "tail")))
	})
	// Every byte at every place of the first two words, and after a byte
	// that may carry into it.
	for _, class := range classes {
		for c := range 256 {
			for k := range 17 {
				for _, before := range []string{"", "\x80", "_", "-", "Z", "\xff"} {
					s := "abcdefghijklmnopq"[:k] + before + string([]byte{byte(c)}) + "abcdefgh"
					check(t, class, []byte(`"`+s+`"`))
					check(t, class, []byte(`"`+s+`",1]`))
				}
			}
		}
	}
}

// TestLeanScanLiterals: where the scan reads members lean (leanScan), the
// text is not yet known to be valid JSON, so the one-pass readers of
// literals must refuse what json.Valid refuses inside a string — a control
// character — and a literal cut short; checkLeanScan holds Parse with
// them to Parse without.
func TestLeanScanLiterals(t *testing.T) {
	ext := func(members string) string {
		return `{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"active"` + members + `}}}}`
	}
	pkg := func(members string) string {
		return `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}` + members + `}]`
	}
	for _, c := range []struct {
		key, value string
		fused      bool
	}{
		{KeyMeta, ext(`,"tools":["a_b","c-d"],"tags":["ab","c-d"],"env_vars":[{"name":"A_1"}],"metadata":{"kubernetes":{"name":"a-b","namespace":"n"}}`), true},
		{KeyMeta, ext(`,"tools":["a` + "\x01" + `b"]`), false},
		{KeyMeta, ext(`,"tags":["ab` + "\x1f" + `"]`), false},
		{KeyMeta, ext(`,"env_vars":[{"name":"A` + "\x00" + `"}]`), false},
		{KeyMeta, ext(`,"metadata":{"kubernetes":{"name":"a` + "\x01" + `"}}`), false},
		{KeyMeta, ext(`,"metadata":{"kubernetes":{"namespace":"` + "\x01" + `a"}}`), false},
		{KeyMeta, ext(`,"provenance":{"repository_uri":"https://github.com/a` + "\x01" + `"}`), false},
		{KeyMeta, ext(`,"status":"active` + "\x01" + `"`), false},
		{KeyPackages, pkg(`,"registryBaseUrl":"https://r.example.com/"`), true},
		{KeyPackages, pkg(`,"registryBaseUrl":"https://r.example.com/` + "\x01" + `"`), false},
		{KeyPackages, pkg(`,"registryBaseUrl":"https://r.example.com/` + "\x7f" + `"`), false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse"}]`, true},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/` + "\x01" + `"}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.exa` + "\x01" + `mple.com/"}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com:8` + "\x01" + `"}]`, false},
		{"icons", `[{"src":"https://x.example.com/` + "\x02" + `"}]`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","u` + "\x01" + `":1}`, false},
	} {
		checkScanReads(t, c.key, c.value, c.fused, true)
	}
}

// BenchmarkLeanMembers reads, per op, the large members of the 64 fixture
// entries (see BenchmarkValidateParsed) lean, as the scan does when it
// splits an entry: the lean readers alone, without the scan.
func BenchmarkLeanMembers(b *testing.B) {
	_, reg := validateFixture(b)
	type member struct {
		s   *Server
		key string
		raw []byte
	}
	var ms []member
	size := 0
	for _, s := range reg.Servers {
		for _, m := range s.allMembers() {
			if leanKey(m.Key) {
				var f walkFacts
				if !leanValue(s, m.Key, m.Value, &f) {
					b.Fatalf("%s: %s not read lean", s.Name(), m.Key)
				}
				ms = append(ms, member{s, m.Key, m.Value})
				size += len(m.Value)
			}
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range ms {
			var f walkFacts
			leanValue(m.s, m.key, m.raw, &f)
		}
	}
}
