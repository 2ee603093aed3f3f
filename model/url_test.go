package model

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCheckURL is the truth table of CheckURL: want is the normalised URL,
// or "" when the URL is refused with an error containing why.
func TestCheckURL(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", MaxURLLength-len("https://example.com/"))
	tests := []struct {
		in       string
		want     string
		insecure bool
		why      string
	}{
		{in: "https://mcp.example.com/servers/x", want: "https://mcp.example.com/servers/x"},
		{in: "https://mcp.example.com", want: "https://mcp.example.com"},
		{in: "HTTPS://MCP.Example.COM/Path/X", want: "https://mcp.example.com/Path/X"},
		{in: "http://mcp.internal:8080/x", want: "http://mcp.internal:8080/x", insecure: true},
		{in: "https://10.0.0.1/mcp", want: "https://10.0.0.1/mcp"},
		{in: "https://[2001:db8::1]:8443/mcp", want: "https://[2001:db8::1]:8443/mcp"},
		{in: "https://[2001:DB8::1]/mcp", want: "https://[2001:db8::1]/mcp"},
		{in: "https://localhost/mcp", want: "https://localhost/mcp"},
		{in: "https://my_host.internal/mcp", want: "https://my_host.internal/mcp"},
		{in: "https://x.example.com/a%20b?q=1&r=%2F", want: "https://x.example.com/a%20b?q=1&r=%2F"},
		{in: "https://x.example.com?q=1", want: "https://x.example.com?q=1"},
		{in: long, want: long},
		// "@" in a path or query is no user information.
		{in: "https://www.npmjs.com/package/@scope/name", want: "https://www.npmjs.com/package/@scope/name"},
		{in: "https://x.example.com/?by=a@b&next=https://h2.example.com/", want: "https://x.example.com/?by=a@b&next=https://h2.example.com/"},

		{in: "", why: "empty"},
		{in: long + "a", why: "maximum is 2048"},
		{in: "javascript:alert(1)", why: `scheme "javascript"`},
		{in: "JavaScript://example.com/%0aalert(1)", why: `scheme "javascript"`},
		{in: "file:///etc/passwd", why: `scheme "file"`},
		{in: "ftp://example.com/x", why: `scheme "ftp"`},
		{in: "data:text/html,<script>", why: "character"},
		{in: "//example.com/x", why: "not absolute"},
		{in: "/servers/x", why: "not absolute"},
		{in: "https:example.com/x", why: "not absolute"},
		{in: "example.com/x", why: "not absolute"},
		{in: "https://user:secret@example.com/x", why: "user information"},
		{in: "https://token@example.com/x", why: "user information"},
		{in: "https://example.com@evil.com/x", why: "user information"},
		{in: "https://mcp.example.com/x?next=https://u:secret@h2.example.com/", why: "another URL with user information"},
		{in: "https://mcp.example.com/x/http:u:secret@h2", why: "another URL with user information"},
		{in: "https://example.com/x#frag", why: "fragment"},
		{in: "https://example.com/x#", why: "fragment"},
		{in: "https://example.com/a b", why: "a space"},
		{in: " https://example.com/x", why: "a space"},
		{in: "https://example.com/x\n", why: "control character"},
		{in: "https://example.com/x\x00", why: "control character"},
		{in: "https://example.com/x\x7f", why: "control character"},
		{in: "https://example.com/\u00e9", why: "non-ASCII"},
		{in: "https://exa\u200bmple.com/", why: "non-ASCII"},
		{in: `https://example.com\@evil.com/`, why: "character"},
		{in: "https://example.com/<script>", why: "character"},
		{in: "https:///x", why: "no host"},
		{in: "https://", why: "no host"},
		{in: "https://?x", why: "no host"},
		{in: "https://:443/x", why: "not a valid host"},
		{in: "https://example.com:/x", why: "empty port"},
		{in: "https://example.com:0/x", why: "port"},
		{in: "https://example.com:65536/x", why: "port"},
		{in: "https://example.com:http/x", why: "port"},
		{in: "https://-bad.example.com/", why: "not a valid host"},
		{in: "https://bad..example.com/", why: "not a valid host"},
		{in: "https://example.com./", why: "not a valid host"},
		{in: "https://999.1.1.1/", why: "not a valid one"},
		{in: "https://[::1/x", why: "unclosed"},
		{in: "https://[fe80::1%25eth0]/x", why: "zone"},
		{in: "https://[1.2.3.4]/x", why: "not an IPv6"},
		{in: "https://[1.2.3.4:5]/x", why: "not an IPv6"},

		// Hosts as the WHATWG URL standard's host parser reads them
		// (https://url.spec.whatwg.org/#host-parsing): percent escapes are
		// decoded first, so these are example.com and a.com.
		{in: "https://%65xample.com/x", want: "https://example.com/x"},
		{in: "https://ex%61mple.com/", want: "https://example.com/"},
		{in: "https://%41.com/x", want: "https://a.com/x"},
		{in: "https://ex%2Fample.com/", why: `character '/'`},
		{in: "https://ex%zzample.com/", why: "malformed percent escape"},
		{in: "https://%C3%A9.com/", why: "xn--"},
		// A host that "ends in a number" goes through the IPv4 parser, which
		// takes decimal, octal ("0" prefix) and hexadecimal ("0x") parts and
		// fewer than four parts: browsers send all of these to 127.0.0.1 or
		// 169.254.169.254. Only the canonical dotted-decimal form is taken.
		{in: "https://0x7f000001/", why: "IPv4 address 127.0.0.1"},
		{in: "https://0x7f.0.0.1/", why: "IPv4 address 127.0.0.1"},
		{in: "https://0xa9.0xfe.0xa9.0xfe/", why: "IPv4 address 169.254.169.254"},
		{in: "https://0XA9.0XFE.0XA9.0XFE/", why: "IPv4 address 169.254.169.254"},
		{in: "https://0177.0.0.1/", why: "IPv4 address 127.0.0.1"},
		{in: "https://127.1/", why: "IPv4 address 127.0.0.1"},
		{in: "https://2130706433/", why: "IPv4 address 127.0.0.1"},
		{in: "https://%30x7f000001/", why: "IPv4 address 127.0.0.1"},
		{in: "https://%31%32%37.0.0.1/", want: "https://127.0.0.1/"},
		{in: "https://1.2.3.4.5/", why: "not a valid one"},
		{in: "https://host.0x/", why: "not a valid one"},
		{in: "https://mcp.0x10/", why: "not a valid one"},
		{in: "https://0x7g.example.com/", want: "https://0x7g.example.com/"},
		{in: "https://1.2.3.example/", want: "https://1.2.3.example/"},
		// "_" is not a forbidden host code point for WHATWG and is allowed in
		// an RFC 3986 reg-name.
		{in: "https://a_b.com/", want: "https://a_b.com/"},
		// Ports are decimal, leading zeros ignored; the scheme's default port
		// is left out, as the WHATWG serialiser writes it.
		{in: "https://h.example:00443/x", want: "https://h.example/x"},
		{in: "https://h.example:443/x", want: "https://h.example/x"},
		{in: "http://h.example:080/", want: "http://h.example/", insecure: true},
		{in: "http://h.example:443/", want: "http://h.example:443/", insecure: true},
		{in: "https://h.example:08443/", want: "https://h.example:8443/"},
		{in: "https://[::1]:0443/", want: "https://[::1]/"},
		{in: "https://h.example:0443x/", why: "port"},
		{in: "https://h.example:000000000000000000000000000000443/", want: "https://h.example/"},
		{in: "https://h.example:65536/", why: "port"},
		{in: "https://example.com/%zz", why: "parse"},
	}
	for _, tt := range tests {
		got, insecure, err := CheckURL(tt.in)
		if tt.why == "" {
			if err != nil || got != tt.want || insecure != tt.insecure {
				t.Errorf("CheckURL(%q) = %q, %v, %v; want %q, %v, nil", tt.in, got, insecure, err, tt.want, tt.insecure)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("CheckURL(%q) = %q, %v; want an error about %q", tt.in, got, err, tt.why)
		}
		if got != "" {
			t.Errorf("CheckURL(%q) returned %q with an error", tt.in, got)
		}
	}
}

// TestCheckURLMasksCredentials: a refused URL's user information (a token,
// a password) never appears in the error, which ends up in logs and events.
func TestCheckURLMasksCredentials(t *testing.T) {
	for _, in := range []string{
		"https://admin:hunter2@example.com/x",
		"https://hunter2@example.com/x",
		"https://admin:hunter2@example.com:badport/x",
		"https://admin:hunter2@example.com/x y",
		"http://hunter2@example.com/\x00",
		"https:admin:hunter2@example.com/x",
		"https:\\admin:hunter2@example.com/x",
		"https:///admin:hunter2@example.com/x",
		// A URL reader skips leading spaces and control characters and
		// drops tabs and line breaks anywhere (WHATWG URL standard), and a
		// scheme-relative URL ("//host") has an authority too: each of these
		// reaches admin:hunter2@example.com.
		" https://admin:hunter2@example.com/x",
		"\x00\t https://admin:hunter2@example.com/x",
		"ht\ntps://admin:hunter2@example.com/x",
		"https:/\t/admin:hunter2@example.com/x",
		"//admin:hunter2@example.com/x",
		" \\\\admin:hunter2@example.com/x",
	} {
		_, _, err := CheckURL(in)
		if err == nil {
			t.Fatalf("CheckURL(%q) accepted", in)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CheckURL(%q) error shows the credential: %v", in, err)
		}
	}
}

// checkAccepted states what every accepted URL satisfies.
func checkAccepted(t *testing.T, in, got string, insecure bool) {
	t.Helper()
	if len(got) > MaxURLLength || len(in) > MaxURLLength {
		t.Fatalf("accepted %d bytes", len(in))
	}
	if !RemoteURLPattern().MatchString(got) {
		t.Fatalf("CheckURL(%q) = %q, which does not match %s", in, got, RemoteURLPattern())
	}
	for i := 0; i < len(got); i++ {
		if c := got[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			t.Fatalf("CheckURL(%q) = %q holds byte %#x", in, got, c)
		}
	}
	u, err := url.Parse(got)
	if err != nil {
		t.Fatalf("CheckURL(%q) = %q, which does not parse: %v", in, got, err)
	}
	if u.User != nil || u.Fragment != "" || strings.Contains(got, "#") || u.Host == "" || u.Opaque != "" {
		t.Fatalf("CheckURL(%q) = %q: user %v, fragment %q, host %q, opaque %q", in, got, u.User, u.Fragment, u.Host, u.Opaque)
	}
	if (u.Scheme == "http") != insecure || (u.Scheme != "http" && u.Scheme != "https") {
		t.Fatalf("CheckURL(%q) = %q with insecure %v", in, got, insecure)
	}
	// Only the scheme and the authority are normalised: path and query stay
	// as written.
	if !strings.HasSuffix(in, strings.TrimPrefix(got, u.Scheme+"://"+u.Host)) {
		t.Fatalf("CheckURL(%q) = %q changed more than scheme and host", in, got)
	}
	again, _, err := CheckURL(got)
	if err != nil || again != got {
		t.Fatalf("CheckURL is not idempotent on %q: %q, %v", got, again, err)
	}
}

// FuzzCheckURL: CheckURL never panics, and what it accepts is a URL the
// upstream registry accepts, with no credentials, fragment or odd bytes.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://mcp.example.com/servers/x", "http://[::1]:80/", "HTTPS://A.B/c?d=e",
		"https://u:p@h/", "javascript:alert(1)", "file:///etc/passwd", "https://h/#f",
		"https://h:99999/", "https://%41.com/", "https://h/\u00e9", "https://[fe80::1%25en0]/",
		"https://0x7f000001/", "https://0xa9.0xfe.0xa9.0xfe:0443/", "https://ex%61mple.com/", "https:admin:pw@h/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, insecure, err := CheckURL(in)
		if err != nil {
			if got != "" {
				t.Fatalf("CheckURL(%q) returned %q with an error", in, got)
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error is not valid UTF-8: %q", err)
			}
			return
		}
		checkAccepted(t, in, got, insecure)
	})
}
