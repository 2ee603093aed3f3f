package model

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// The validator reads entries in one pass and leaves what that pass does not
// handle (repeated keys, escaped keys, malformed values) to careful mode
// (validate_iter.go). These tests hold it to the validator it replaced,
// kept as an oracle in validate_oracle_test.go: the same diagnostics, in the
// same order, for entries read by ParseServer (each member indexed on its
// own), by Parse (the entry's index reused), changed afterwards with Set
// (values that are not even JSON included), and checked in careful mode
// from the start.

// A shape is the part of the entry schema the generator draws from.
type shape struct {
	// kind is 'o' (object with fields), 'm' (map of elem), 'a' (array of
	// elem), 's' (string from strs), 'b' (boolean) or 'n' (number).
	kind   byte
	fields []field
	elem   *shape
	strs   []string
}

type field struct {
	key   string
	shape *shape
}

func obj(fields ...field) *shape          { return &shape{kind: 'o', fields: fields} }
func arr(elem *shape) *shape              { return &shape{kind: 'a', elem: elem} }
func mapOf(elem *shape) *shape            { return &shape{kind: 'm', elem: elem} }
func strs(values ...string) *shape        { return &shape{kind: 's', strs: values} }
func f(key string, s *shape) field        { return field{key, s} }
func fs(s *shape, keys ...string) []field { return fieldsOf(s, keys) }

func fieldsOf(s *shape, keys []string) []field {
	out := make([]field, len(keys))
	for i, k := range keys {
		out[i] = field{k, s}
	}
	return out
}

var (
	boolean = &shape{kind: 'b'}
	number  = &shape{kind: 'n'}
	anyStr  = strs("", "x", "Some text", "é", "a\"b", "line\nbreak", "latest", strings.Repeat("long ", 30))
	uriStr  = strs("https://github.com/acme/x", "https://e.example/i.png", "http://localhost:8080/mcp", "mailto:team@example.com",
		"example.com", "not a uri", "https://a\\b", "http://[::1]:8080/a%20b?q#f", "https://{t}.example.com/", "https://x:y/", "https://é.example/", "https://"+strings.Repeat("é", 250))
	remoteURL    = strs("https://mcp.example.com/sse", "http://x.example:8080/mcp", "ftp://x.example", "https://a b", "https://", "http://é")
	transportStr = strs("stdio", "sse", "streamable-http", "http", "", "carrier-pigeon")
)

// inputFields are the members of an Input.
func inputFields() []field {
	return []field{
		f("description", anyStr), f("value", anyStr), f("default", anyStr), f("placeholder", anyStr),
		f("isRequired", boolean), f("isSecret", boolean),
		f("format", strs("string", "number", "boolean", "filepath", "json")),
		f("choices", arr(anyStr)),
	}
}

// entryShape is the upstream server entry with ToolHive's extensions.
func entryShape() *shape {
	input := obj(inputFields()...)
	withVars := func(extra ...field) *shape {
		return obj(append(append(inputFields(), f("variables", mapOf(input))), extra...)...)
	}
	keyValue := withVars(f("name", strs("X-Key", "API_KEY", "")))
	argument := withVars(f("type", strs("positional", "named", "flag")), f("isRepeated", boolean),
		f("name", strs("--port", "")), f("valueHint", strs("path", "")))
	remote := obj(f("type", transportStr), f("url", remoteURL), f("headers", arr(keyValue)), f("variables", mapOf(input)))
	pkg := obj(f("registryType", strs("oci", "npm", "pypi")), f("identifier", strs("ghcr.io/acme/x:1", "@acme/x")),
		f("version", strs("1.2.3", "", "latest")), f("fileSha256", strs(strings.Repeat("ab", 32), "ABC", strings.Repeat("g", 64))),
		f("registryBaseUrl", uriStr), f("runtimeHint", strs("npx", "uvx")),
		f("transport", obj(f("type", transportStr), f("url", remoteURL), f("headers", arr(keyValue)), f("variables", mapOf(input)))),
		f("environmentVariables", arr(keyValue)), f("packageArguments", arr(argument)), f("runtimeArguments", arr(argument)))
	k8sName := strs("acme", "a-b", "A", "-a", "a-", "")
	ext := obj(
		f("status", strs("active", "deprecated", "Active", "Deprecated", "gone")),
		f("tier", strs("Official", "Community", "official")),
		f("tools", arr(strs("get_issue", "list-projects", "bad tool", "get_issue", ""))),
		f("tags", arr(strs("git", "ci", "Git", "a", "x-1", "git"))),
		f("docker_tags", arr(strs("latest", "1.0", "latest"))),
		f("args", arr(strs("--flag", "--flag"))),
		f("overview", anyStr), f("proxy_port", number), f("stateless", boolean),
		f("custom_metadata", obj(f("language", anyStr))),
		f("tool_definitions", arr(obj(f("name", anyStr), f("description", anyStr),
			f("inputSchema", obj(f("type", anyStr))), f("annotations", obj(f("readOnlyHint", boolean)))))),
		f("env_vars", arr(obj(f("name", strs("GITHUB_TOKEN", "1BAD", "a-b", "_x")), f("description", anyStr),
			f("default", anyStr), f("required", boolean), f("secret", boolean)))),
		f("metadata", obj(f("stars", number), f("last_updated", strs("2025-08-29T01:31:29Z", "2025-08-29", "12:00:00", "yesterday")),
			f("kubernetes", obj(f("kind", anyStr), f("image", anyStr), f("namespace", k8sName), f("name", k8sName),
				f("uid", strs("123e4567-e89b-12d3-a456-426614174000", "123E4567-e89b-12d3-a456-426614174000", "x")),
				f("transport", strs("stdio", "sse", "streamable-http", "http", "grpc")))))),
		f("permissions", obj(f("name", anyStr), f("read", arr(strs("/a", "/a/", "a", "//a", "/a"))), f("write", arr(strs("/tmp", "/tmp"))),
			f("privileged", boolean),
			f("network", obj(f("outbound", obj(f("allow_host", arr(strs("api.example.com", ".example.com", "-bad", "api.example.com"))),
				f("allow_port", arr(number)), f("insecure_allow_all", boolean))))))),
		f("provenance", obj(f("sigstore_url", strs("tuf-repo-cdn.sigstore.dev", "not a host")),
			f("repository_uri", uriStr), f("cert_issuer", uriStr), f("repository_ref", anyStr), f("signer_identity", anyStr),
			f("runner_environment", anyStr), f("attestation", obj(f("predicate_type", uriStr), f("predicate", obj(f("x", anyStr))))))),
		f("oauth_config", obj(append(fs(uriStr, "issuer", "authorize_url", "token_url"),
			f("client_id", anyStr), f("resource", anyStr), f("scopes", arr(anyStr)), f("use_pkce", boolean),
			f("callback_port", number), f("oauth_params", mapOf(anyStr)))...)),
	)
	publishers := obj(f(ToolHivePublisher, mapOf(ext)), f("com.example.ci", obj(f("build", obj(f("commit", anyStr))))))
	return obj(
		f(KeySchema, strs(ServerSchemaURL, "not a uri")),
		f(KeyName, strs("com.example/srv", "a/b", "abc", "com.example/srv/x", "é/x")),
		f(KeyDescription, strs("d", "", strings.Repeat("x", 101), strings.Repeat("é", 100))),
		f(KeyTitle, strs("T", "", strings.Repeat("t", 101))),
		f(KeyVersion, strs("1.0.0", "latest", "", strings.Repeat("1", 256))),
		f("websiteUrl", uriStr),
		f("repository", obj(f("url", uriStr), f("source", strs("github")), f("id", anyStr), f("subfolder", anyStr))),
		f("icons", arr(obj(f("src", uriStr), f("mimeType", strs("image/png", "image/gif")), f("theme", strs("light", "blue")),
			f("sizes", arr(strs("48x48", "any", "48")))))),
		f(KeyRemotes, arr(remote)),
		f(KeyPackages, arr(pkg)),
		f(KeyMeta, obj(f(PublisherProvidedKey, publishers), f("other", obj()))),
	)
}

// entryGen draws entries of entryShape: mostly as the schema wants, with
// wrong types, unknown, repeated and escaped keys, escaped strings, big
// numbers and whitespace mixed in.
func entryGen() *rapid.Generator[string] {
	root := entryShape()
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		// Half the entries have no repeated or escaped key: those the
		// validator reads in one pass.
		d := drawer{t, rapid.Bool().Draw(t, "odd keys")}
		d.value(&b, root, 0)
		return b.String()
	})
}

func space(t *rapid.T, b *strings.Builder) {
	if rapid.IntRange(0, 9).Draw(t, "space") == 0 {
		b.WriteString(rapid.SampledFrom([]string{" ", "\n  ", "\t"}).Draw(t, "ws"))
	}
}

// quote writes s as a JSON string, sometimes with needless escapes.
func quote(t *rapid.T, b *strings.Builder, s string) {
	b.WriteByte('"')
	escape := rapid.IntRange(0, 7).Draw(t, "escape") == 0
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case escape && r < 0x80 && rapid.Bool().Draw(t, "esc"):
			b.WriteString(`\u00`)
			b.WriteString("0123456789abcdef"[r>>4 : r>>4+1])
			b.WriteString("0123456789abcdef"[r&15 : r&15+1])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

var numbers = []string{"0", "1", "-1", "443", "8080", "65535", "65536", "1.5", "443.0", "65535.0000000000000001", "1e400", "-1e999", "1E2", "1e-400", "3"}

// drawer draws values; with oddKeys, objects may repeat a key or escape one.
type drawer struct {
	t       *rapid.T
	oddKeys bool
}

func (d drawer) value(b *strings.Builder, s *shape, depth int) {
	t := d.t
	space(t, b)
	defer space(t, b)
	if depth > 0 && rapid.IntRange(0, 14).Draw(t, "wrong") == 0 {
		if d.oddKeys {
			b.WriteString(jsonValue().Draw(t, "other"))
		} else {
			b.WriteString(rapid.SampledFrom([]string{`5`, `"s"`, `null`, `true`, `[1,"a"]`, `{}`, `{"x":[1,{}]}`, `1e400`, `-0.5`}).Draw(t, "other"))
		}
		return
	}
	switch s.kind {
	case 'b':
		b.WriteString(rapid.SampledFrom([]string{"true", "false"}).Draw(t, "bool"))
	case 'n':
		b.WriteString(rapid.SampledFrom(numbers).Draw(t, "number"))
	case 's':
		quote(t, b, rapid.SampledFrom(s.strs).Draw(t, "str"))
	case 'a':
		b.WriteByte('[')
		n := rapid.IntRange(0, 3).Draw(t, "len")
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			d.value(b, s.elem, depth+1)
		}
		b.WriteByte(']')
	case 'm':
		b.WriteByte('{')
		keys := []string{"a", "b", "ghcr.io/acme/x:1", "https://e.example/sse", "a.b[c]", ""}
		n := rapid.IntRange(0, 3).Draw(t, "len")
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			k := rapid.IntRange(0, len(keys)-1).Draw(t, "key")
			key := keys[k]
			if !d.oddKeys {
				keys = append(keys[:k:k], keys[k+1:]...) // no key twice
			}
			d.member(b, key, s.elem, depth)
		}
		b.WriteByte('}')
	case 'o':
		b.WriteByte('{')
		var members []field
		for _, fl := range s.fields {
			if rapid.IntRange(0, 9).Draw(t, "omit") < 7 || depth == 0 && fl.key == KeyName {
				members = append(members, fl)
			}
		}
		if len(members) > 1 && rapid.IntRange(0, 9).Draw(t, "shuffle") == 0 {
			i := rapid.IntRange(0, len(members)-1).Draw(t, "swap")
			members[0], members[i] = members[i], members[0]
		}
		if d.oddKeys && len(members) > 0 && rapid.IntRange(0, 11).Draw(t, "repeat") == 0 {
			members = append(members, members[rapid.IntRange(0, len(members)-1).Draw(t, "repeated")])
		}
		if rapid.IntRange(0, 9).Draw(t, "unknown") == 0 {
			members = append(members, field{"x-unknown", number})
		}
		for i, fl := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			d.member(b, fl.key, fl.shape, depth)
		}
		b.WriteByte('}')
	}
}

func (d drawer) member(b *strings.Builder, key string, s *shape, depth int) {
	t := d.t
	space(t, b)
	if d.oddKeys && key != "" && rapid.IntRange(0, 19).Draw(t, "escapeKey") == 0 {
		b.WriteString(`"\u00` + "0123456789abcdef"[key[0]>>4:key[0]>>4+1] + "0123456789abcdef"[key[0]&15:key[0]&15+1] + key[1:] + `"`)
	} else if d.oddKeys {
		quote(t, b, key)
	} else {
		b.WriteString(`"` + key + `"`)
	}
	space(t, b)
	b.WriteByte(':')
	d.value(b, s, depth+1)
}

// oddValues are member values for Set: malformed texts, texts with
// something after the value, and valid ones, as a caller may set anything.
var oddValues = []string{
	`[{`, `{"a":1`, `{"a" 1}`, `[1,]`, `{"url":"https://x.example","source":"github"}xyz`, `[{"type":"sse","url":"https://a"} {"x":1}]`,
	`{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"x":{"status":"active","tags":["a","a"]}}}`,
	`[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}},]`, `{"a":tru}`, `[{"a":x{,"b":1}]`, `{"a":[}`,
	`[{"type":"sse","url":"https://a.example","headers":[{"name":"X","name":5}]}]`, ` [ ] `, `{}`, `[]`, `5`, `"s"`, `null`,
	`{"url":"https://x.example","source":"github","url":5}`, `[{"src":"https://e.example/i.png"},{"src":1}]`,
}

// checkOracle fails unless the validator agrees with the oracle on s, both
// in its usual mode and in careful mode from the start.
func checkOracle(t interface {
	Helper()
	Fatalf(string, ...any)
}, s *Server, what string) {
	t.Helper()
	obj := ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}
	want := oldPubValidateServer(s, obj, "data.servers[3]")
	if diff := cmp.Diff(want, ValidateServer(s, obj, "data.servers[3]")); diff != "" {
		t.Fatalf("%s: diagnostics differ from the oracle's (-oracle +now):\n%s", what, diff)
	}
	v := validator{server: s, obj: obj, prefix: "data.servers[3]", careful: true}
	v.entry()
	if diff := cmp.Diff(want, v.ds); diff != "" {
		t.Fatalf("%s: careful mode differs from the oracle (-oracle +careful):\n%s", what, diff)
	}
}

// retries returns how many top-level members of s the validator checked
// again in careful mode.
func retries(s *Server) int {
	v := validator{server: s, prefix: "p"}
	v.entry()
	return v.retried
}

func TestValidateAgreesWithOracle(t *testing.T) {
	var fast, careful int
	rapid.Check(t, func(t *rapid.T) {
		entry := entryGen().Draw(t, "entry")
		type read struct {
			how string
			s   *Server
		}
		var servers []read
		if s, err := ParseServer([]byte(entry)); err == nil {
			servers = append(servers, read{"ParseServer", s})
		}
		if reg, _ := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream}); reg != nil && len(reg.Servers) == 1 {
			servers = append(servers, read{"Parse", reg.Servers[0]})
		}
		if len(servers) == 0 {
			t.Skip("not an entry")
		}
		for _, r := range servers {
			how, s := r.how, r.s
			checkOracle(t, s, how)
			if retries(s) > 0 {
				careful++
			} else {
				fast++
			}
			if !rapid.Bool().Draw(t, "change") {
				continue
			}
			key := rapid.SampledFrom([]string{"repository", "icons", KeyRemotes, KeyPackages, KeyMeta, "x"}).Draw(t, "key")
			switch rapid.IntRange(0, 2).Draw(t, "how") {
			case 0:
				s.Set(key, []byte(rapid.SampledFrom(oddValues).Draw(t, "odd")))
			case 1:
				// A slice of the entry's own text, which may or may not be
				// a whole value: the index must not be trusted for it.
				if s.raw != nil {
					i := rapid.IntRange(0, len(s.raw)-1).Draw(t, "from")
					j := rapid.IntRange(i, len(s.raw)).Draw(t, "to")
					s.Set(key, s.raw[i:j])
				}
			default:
				var b strings.Builder
				d := drawer{t, rapid.Bool().Draw(t, "odd keys")}
				d.value(&b, entryShape().fields[rapid.IntRange(6, 10).Draw(t, "field")].shape, 1)
				cut := rapid.IntRange(0, b.Len()).Draw(t, "cut")
				if rapid.Bool().Draw(t, "whole") {
					cut = b.Len()
				}
				s.Set(key, []byte(b.String()[:cut]))
			}
			checkOracle(t, s, how+" then Set")
		}
	})
	t.Logf("entries read fast: %d, checked again in careful mode: %d", fast, careful)
	// Both readings must have been exercised.
	if fast == 0 || careful == 0 {
		t.Errorf("entries read fast: %d, checked again in careful mode: %d; want both", fast, careful)
	}
}

// FuzzValidateOracle: on any bytes, the validator agrees with the oracle:
// the bytes read as an entry by ParseServer or by Parse, and set as the
// value of each member that holds objects (JSON or not, as Server.Set
// takes anything) in an entry read by Parse.
func FuzzValidateOracle(f *testing.F) {
	for _, s := range []string{
		`{"name":"com.example/srv","description":"d","version":"1.0.0","repository":{"url":"https://github.com/a/b","source":"github","url":5}}`,
		`{"name":"com.example/srv","packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","n\u0061me":1}]}]}`,
		`{"name":"com.example/srv","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"x":{"status":"active","tags":["a","b","a"],"tools":["t",1,"t"]}},"io.github.stacklok":{}}}}`,
		`{"name":"com.example/srv","remotes":[{"type":"sse","url":"https://e.example/sse","headers":[{"name":"X","isRequired":"yes"}],"variables":{"a":{"format":"json"}}}]}`,
		`{"name":"x","icons":[{"src":"icon.png","sizes":["48",""]}],"x":[1e400]}`,
		"{\"name\":\"com.example/srv\",\"_meta\":{\"io.modelcontextprotocol.registry/publisher-provided\":{\"io.github.stacklok\":{\"x\":{\"permissions\":{\"network\":{\"outbound\":{\"allow_port\":[443,443.0,1e400]}}}}}}}}",
		// Compact and valid, as the lean reading (validate_lean.go) reads it.
		`{"name":"io.example/srv","description":"d","version":"1.0.0","icons":[{"src":"https://e.example/i.png","sizes":["48x48"]}],` +
			`"remotes":[{"type":"sse","url":"https://e.example/sse","headers":[{"name":"X","isSecret":true}]}],` +
			`"packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","default":"v"}]}],` +
			`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"x":{"status":"active","tools":["t"],"tags":["ab"],` +
			`"permissions":{"read":["/a"],"network":{"outbound":{"allow_host":[".e.example"],"allow_port":[443]}}},"metadata":{"stars":1}}}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if s, err := ParseServer(data); err == nil {
			checkOracle(t, s, "ParseServer")
		}
		doc := append(append([]byte(`{"data":{"servers":[`), data...), "]}}"...)
		if reg, _ := Parse(doc, ParseOptions{Format: FormatUpstream}); reg != nil {
			for _, s := range reg.Servers {
				checkOracle(t, s, "Parse")
			}
		}
		base := `{"name":"com.example/srv","description":"d","version":"1.0.0","repository":{"url":"https://github.com/a/b","source":"github"},` +
			`"remotes":[{"type":"sse","url":"https://e.example/sse"}],"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"x":{"status":"active"}}}}}`
		for _, key := range []string{"repository", "icons", KeyRemotes, KeyPackages, KeyMeta} {
			reg, _ := Parse([]byte(`{"data":{"servers":[`+base+`]}}`), ParseOptions{Format: FormatUpstream})
			s := reg.Servers[0]
			s.Set(key, data)
			checkOracle(t, s, "Set "+key)
		}
	})
}
