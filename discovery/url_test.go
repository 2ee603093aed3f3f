package discovery

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/model"
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
		{in: "https://example.com:http/x", why: "parse"},
		{in: "https://-bad.example.com/", why: "not a valid host"},
		{in: "https://bad..example.com/", why: "not a valid host"},
		{in: "https://example.com./", why: "not a valid host"},
		{in: "https://999.1.1.1/", why: "neither an IPv4"},
		{in: "https://[::1/x", why: "parse"},
		{in: "https://[fe80::1%25eth0]/x", why: "not a plain host"},
		{in: "https://[1.2.3.4]/x", why: "parse"},
		{in: "https://[1.2.3.4:5]/x", why: "parse"},
		{in: "https://%65xample.com/x", why: "parse"},
		{in: "https://%41.com/x", why: "parse"},
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
	if !model.RemoteURLPattern().MatchString(got) {
		t.Fatalf("CheckURL(%q) = %q, which does not match %s", in, got, model.RemoteURLPattern())
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
	if !strings.EqualFold(got, in) || len(got) != len(in) {
		t.Fatalf("CheckURL(%q) = %q changed more than case", in, got)
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
