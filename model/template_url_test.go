package model

import (
	"strings"
	"testing"
)

// TestCheckRemoteURL: a remote URL is a template; its {variables} are
// checked as values a variable could take, and everything else as CheckURL
// checks a URL.
func TestCheckRemoteURL(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want string // "" accepts; else a part of the error
	}{
		{"https://api.example.com/mcp", ""},
		{"https://{tenant}.example.com/mcp", ""},
		{"https://{host}/sse", ""},
		{"https://api.example.com:{port}/mcp", ""},
		{"https://api.example.com/{region}/mcp?key={key}", ""},
		{"http://{tenant}.internal:8080/", ""},
		{"https://{user}:{password}@api.example.com/mcp", "user information"},
		{"ftp://{host}/x", "scheme"},
		{"https://{tenant}.example.com/mcp#{frag}", "fragment"},
		{"https://{ten ant}.example.com/", "'{'"},
		{"https://{tenant.example.com/", "'{'"},
		{"https://}x{.example.com/", "'}'"},
		{"https://{}.example.com/", "'{'"},
		// A variable cannot complete a host or a port the policy refuses.
		{"https://0x7f.0.0.{n}/mcp", "IPv4"},
		{"https://127.1.{n}/mcp", "IPv4"},
		{"https://h.example.com:{p}0000/mcp", "whole port"},
		{"https://h.example.com:8{p}/mcp", "whole port"},
		{"https://{a}{b}.example.com/mcp", ""},
		{"https://{" + strings.Repeat("v", MaxURLLength) + "}.example.com/", "at most 2048"},
	} {
		err := checkRemoteURL(tc.url, func(string) bool { return true })
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tc.url, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error about %s", tc.url, err, tc.want)
		}
	}
}

// TestCheckRemoteURLUndeclared: a template variable the remote does not
// declare in its "variables" leaves the URL unfillable: refused, naming it.
func TestCheckRemoteURLUndeclared(t *testing.T) {
	declared := func(n string) bool { return n == "tenant" }
	if err := checkRemoteURL("https://{tenant}.example.com/mcp", declared); err != nil {
		t.Errorf("declared variable: %v", err)
	}
	if err := checkRemoteURL("https://{tenant}.example.com/{path}", declared); err == nil || !strings.Contains(err.Error(), "{path} is not one of the remote's variables") {
		t.Errorf("undeclared variable: %v", err)
	}
	if err := checkRemoteURL("https://{tenant}.example.com/", nil); err == nil {
		t.Error("a template with no variables declared passed")
	}
	r := Remote{Raw: []byte(`{"type":"sse","url":"https://{a}.example.com/","variables":{"a":{"description":"d"}}}`)}
	if d := r.declaredVariables(); !d("a") || d("b") {
		t.Errorf("declaredVariables of %s", r.Raw)
	}
}
