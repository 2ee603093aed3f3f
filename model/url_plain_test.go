package model

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// checkPlainAgrees fails when plainURL accepts raw but the full check does
// not return raw unchanged with the same insecure flag, when the string and
// byte forms of plainURL differ, or when CheckURL and checkURL disagree.
func checkPlainAgrees(t interface {
	Helper()
	Fatalf(string, ...any)
}, raw string) {
	t.Helper()
	insecure, ok := plainURL(raw)
	if bi, bok := plainURL([]byte(raw)); bi != insecure || bok != ok {
		t.Fatalf("plainURL(%q): string form (%v, %v), byte form (%v, %v)", raw, insecure, ok, bi, bok)
	}
	norm, ins, err := checkURL(raw)
	if ok && (err != nil || norm != raw || ins != insecure) {
		t.Fatalf("plainURL(%q) accepts it (insecure %v); the full check says (%q, %v, %v)", raw, insecure, norm, ins, err)
	}
	gn, gi, gerr := CheckURL(raw)
	if gn != norm || gi != ins || fmt.Sprint(gerr) != fmt.Sprint(err) {
		t.Fatalf("CheckURL(%q) = (%q, %v, %v); the full check says (%q, %v, %v)", raw, gn, gi, gerr, norm, ins, err)
	}
}

// TestPlainURLTable pins which forms the fast path settles (so that it is
// not vacuous) and which it leaves to the full check.
func TestPlainURLTable(t *testing.T) {
	for _, tc := range []struct {
		in       string
		plain    bool
		insecure bool
	}{
		{"https://mcp.example.com/team1/server-1", true, false},
		{"https://mcp.example.com", true, false},
		{"https://mcp.example.com?q=1&r=2", true, false},
		{"http://mcp.internal:8080/x", true, true},
		{"https://my_host.internal:8443/mcp", true, false},
		{"https://a-b.c/[x]y!$&'()*+,;=~", true, false},
		// "@" in the path is left to the full check (a URL with user
		// information may hide there).
		{"https://a-b.c/x@y", false, false},
		{"https://10.0.0.1/mcp", false, false},        // IPv4: full check
		{"https://host.0x1f/mcp", false, false},       // ends in a number
		{"https://host.0x/mcp", false, false},         // "0x" ends in a number too
		{"https://x.example.com/a%20b", false, false}, // escapes
		{"HTTPS://mcp.example.com/", false, false},    // scheme case
		{"https://MCP.example.com/", false, false},    // host case
		{"https://h:443/", false, false},              // default port
		{"http://h:80/", false, false},
		{"https://h:0443/", false, false}, // leading zero
		{"https://h:65536/", false, false},
		{"https://h:123456/", false, false},
		{"https://h:/", false, false},
		{"https://u@h/", false, false},
		{"https://h/#f", false, false},
		{"https://-h/", false, false},
		{"https://h-/", false, false},
		{"https://a..b/", false, false},
		{"https://h./", false, false},
		{"https:///x", false, false},
		{"https://" + strings.Repeat("a", 64) + "/", false, false},
		{"https://[::1]/", false, false},
		{"https://h/ x", false, false},
		{"https://h/" + strings.Repeat("a", MaxURLLength), false, false},
	} {
		insecure, ok := plainURL(tc.in)
		if ok != tc.plain || ok && insecure != tc.insecure {
			t.Errorf("plainURL(%q) = (%v, %v), want (%v, %v)", tc.in, insecure, ok, tc.insecure, tc.plain)
		}
		checkPlainAgrees(t, tc.in)
	}
}

// TestPlainURLAgreesWithCheckURL is the differential test of the fast path:
// on URLs built from the pieces that matter to the policy (scheme case,
// host bytes, numeric labels, ports, escapes, fragments, user information),
// whatever plainURL accepts the full check accepts unchanged.
func TestPlainURLAgreesWithCheckURL(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		scheme := rapid.SampledFrom([]string{"https://", "http://", "HTTPS://", "Http://", "https:/", "https:", "ftp://", ""}).Draw(t, "scheme")
		host := rapid.StringOfN(rapid.SampledFrom([]rune("ab0x9Z.-_%@:[]1f")), 0, 12, -1).Draw(t, "host")
		if rapid.Bool().Draw(t, "long label") {
			host += strings.Repeat("a", rapid.IntRange(60, 66).Draw(t, "label"))
		}
		port := rapid.SampledFrom([]string{"", ":", ":0", ":1", ":80", ":443", ":0443", ":8080", ":65535", ":65536", ":99999", ":123456", ":8a"}).Draw(t, "port")
		path := rapid.StringOfN(rapid.SampledFrom([]rune("/a?=&%2F#@:[] \\~é")), 0, 10, -1).Draw(t, "path")
		checkPlainAgrees(t, scheme+host+port+path)
	})
}

// FuzzPlainURL runs the differential check on arbitrary input.
func FuzzPlainURL(f *testing.F) {
	for _, s := range []string{
		"https://mcp.example.com/x", "http://h:8080/?q=1", "https://1.2.3.4/", "https://h.0x1/",
		"https://u:p@h/", "https://h/%zz", "https://ex%61mple.com/", "https://[::1]:8443/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkPlainAgrees(t, raw) })
}

// TestRemoteURLsPlainAgrees checks that when remoteURLsPlain says every
// remote URL is plain, dropInvalidRemoteURLs has nothing to remove.
func TestRemoteURLsPlainAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		urls := rapid.SliceOfN(rapid.SampledFrom([]string{
			`"https://a.example.com/x"`, `"http://b.internal:8080/"`, `""`, `"https://u@h/"`,
			`"https:\/\/a.example.com\/x"`, `"https://10.0.0.1/"`, `"HTTPS://A.example.com/"`, `7`, `null`,
		}), 0, 4).Draw(t, "urls")
		els := make([]string, len(urls))
		for i, u := range urls {
			switch rapid.IntRange(0, 3).Draw(t, "shape") {
			case 0:
				els[i] = `{"type":"streamable-http","url":` + u + `}`
			case 1:
				els[i] = `{"url":"https://first.example.com/","url":` + u + `}`
			case 2:
				els[i] = `{"type":"sse"}`
			default:
				els[i] = u
			}
		}
		doc := `{"name":"io.example/x","remotes":[` + strings.Join(els, ",") + `]}`
		s, err := ParseServer([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		plain := remoteURLsPlain(s)
		ds := dropInvalidRemoteURLs(s, ObjectRef{}, "remotes")
		if plain && len(ds) > 0 {
			t.Fatalf("%s: remoteURLsPlain says plain, dropInvalidRemoteURLs says %v", doc, ds)
		}
	})
}

// TestFinishKeepsEntriesAsWritten: an entry passes through as written: no
// "$schema" is added, its remotes keep their order, and an entry read from
// compact text is still written as that text, one copy.
func TestFinishKeepsEntriesAsWritten(t *testing.T) {
	entries := []string{
		`{"name":"io.example/aa","description":"a","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://b.example.com/mcp"},{"type":"sse","url":"https://a.example.com/sse"}],"x-unknown":{"k":[1,2.50]}}`,
		`{"$schema":"` + ServerSchemaURL + `","name":"io.example/bb","description":"b","version":"1.0.0"}`,
	}
	doc := `{"version":"1.0.0","meta":{"last_updated":"2024-01-01T00:00:00Z"},"data":{"servers":[` + strings.Join(entries, ",") + `]}}`
	r, ds := Parse([]byte(doc), ParseOptions{})
	if r == nil || len(ds) > 0 {
		t.Fatalf("Parse: %v", ds)
	}
	if !r.Servers[0].rawText {
		t.Fatal("fixture: the first entry is not kept as its text; the test would prove nothing")
	}
	if d := Finish(r, ObjectRef{}); len(d) > 0 {
		t.Fatalf("Finish: %v", d)
	}
	if !r.Servers[0].rawText {
		t.Error("the first entry lost its text")
	}
	for i, s := range r.Servers {
		if got := string(s.AppendJSON(nil)); got != entries[i] {
			t.Errorf("entry %d:\n got %s\nwant %s", i, got, entries[i])
		}
		if s.compactLen(true) != len(entries[i]) {
			t.Errorf("compactLen %d, want %d", s.compactLen(true), len(entries[i]))
		}
	}
	var b strings.Builder
	if _, err := r.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), string(r.AppendJSON(nil)); got != want || !strings.Contains(got, `"servers":[`+strings.Join(entries, ",")+`]`) {
		t.Errorf("WriteTo:\n got %s\nwant %s", got, want)
	}
	s := r.Servers[0]
	s.SetDescription("changed")
	if s.rawText {
		t.Fatal("Set kept the text")
	}
	if got := string(s.AppendJSON(nil)); !strings.HasPrefix(got, `{"name":"io.example/aa","description":"changed"`) {
		t.Errorf("after Set: %s", got)
	}
}
