package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cliResult is what one CLI invocation produced.
type cliResult struct {
	stdout, stderr string
	code           int
}

// invoke runs the CLI in-process with the given stdin and a fixed clock.
func invoke(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errb,
		now:    func() time.Time { return time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC) },
	}
	code := run(e, args)
	return cliResult{stdout: out.String(), stderr: errb.String(), code: code}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUsage(t *testing.T) {
	if r := invoke(t, ""); r.code != exitUsage || !strings.Contains(r.stderr, "usage:") {
		t.Errorf("no args: %+v", r)
	}
	if r := invoke(t, "", "frobnicate"); r.code != exitUsage {
		t.Errorf("unknown verb: %+v", r)
	}
	if r := invoke(t, "", "convert"); r.code != exitUsage {
		t.Errorf("convert without FILE: %+v", r)
	}
	if r := invoke(t, "", "convert", "/does/not/exist.json"); r.code != exitUsage || !strings.Contains(r.stderr, "/does/not/exist.json") {
		t.Errorf("unreadable input: %+v", r)
	}
	if r := invoke(t, "{}", "convert", "-", "--now", "yesterday"); r.code != exitUsage {
		t.Errorf("bad --now: %+v", r)
	}
	if r := invoke(t, "{}", "convert", "-", "--diagnostics", "xml"); r.code != exitUsage {
		t.Errorf("bad --diagnostics: %+v", r)
	}
}

func TestConvert(t *testing.T) {
	list := `{"servers":[{"name":"github-mcp","image":"ghcr.io/github/mcp-server:latest","description":"GitHub"}]}`
	r := invoke(t, list, "convert", "-", "--default-namespace", "com.example", "--now", "2025-01-02T03:04:05Z")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("convert: %+v", r)
	}
	var doc struct {
		Meta struct {
			LastUpdated string `json:"last_updated"`
		} `json:"meta"`
		Data struct {
			Servers []struct{ Name string } `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Meta.LastUpdated != "2025-01-02T03:04:05Z" || len(doc.Data.Servers) != 1 || doc.Data.Servers[0].Name != "com.example/github-mcp" {
		t.Errorf("document: %s", r.stdout)
	}
	if !strings.HasSuffix(r.stdout, "}\n") || !strings.Contains(r.stdout, "\n  \"version\"") {
		t.Errorf("not two-space indented with a trailing newline: %q", r.stdout)
	}
	// Default --now is the current time (the test clock).
	if r := invoke(t, list, "convert", "-"); !strings.Contains(r.stdout, `"last_updated": "2025-06-01T00:00:00Z"`) {
		t.Errorf("default now: %s", r.stdout)
	}
	// --now is written as given: its offset and fraction of a second kept.
	const given = "2025-01-02T03:04:05.25+02:00"
	for _, args := range [][]string{
		{"convert", "-"},
		{"discover"},
		{"merge", "--mcpregistry", "all-teams-registry"},
		{"merge", "--namespace", "toolhive-system", "--selector", "toolhive.stacklok.dev/registry=true"},
	} {
		if r := invoke(t, list, append(args, "--now", given)...); r.code != exitOK || !strings.Contains(r.stdout, `"last_updated": "`+given+`"`) {
			t.Errorf("%v --now %s: exit %d\n%s\n%s", args, given, r.code, r.stdout, r.stderr)
		}
	}
	// RFC 3339 allows lower-case "t" and "z": written in upper case.
	if r := invoke(t, list, "convert", "-", "--now", "2025-01-02t03:04:05z"); r.code != exitOK || !strings.Contains(r.stdout, `"last_updated": "2025-01-02T03:04:05Z"`) {
		t.Errorf("lower-case --now: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// Unreadable data: exit 1, nothing on stdout, a JSON diagnostic per line on stderr.
	r = invoke(t, "{nope", "convert", "-", "--diagnostics", "json")
	if r.code != exitError || r.stdout != "" {
		t.Fatalf("bad JSON: %+v", r)
	}
	var d struct {
		Severity string
		Reason   string
		Object   struct{ Kind, Namespace, Name string }
		Message  string
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stderr)), &d); err != nil {
		t.Fatalf("stderr is not one JSON object: %q", r.stderr)
	}
	if d.Severity != "error" || d.Reason != "InvalidJSON" || d.Object.Kind != "File" || d.Object.Name != "(stdin)" || d.Message == "" {
		t.Errorf("diagnostic: %+v", d)
	}
}

// TestValidate: exit 1 naming the server and the rule for each broken rule of
// the issue, exit 0 on a valid document.
func TestValidate(t *testing.T) {
	doc := func(server string) string {
		return `{"$schema":"https://raw.githubusercontent.com/stacklok/toolhive-core/main/registry/types/data/upstream-registry.schema.json",
		"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[` + server + `]}}`
	}
	tests := []struct {
		name   string
		server string
		reason string
		says   []string
	}{
		{"two slashes", `{"name":"io.github.acme/tools/fetch","description":"Fetch","version":"1.0.0"}`, "InvalidEntry",
			[]string{`"io.github.acme/tools/fetch"`, `exactly one "/"`}},
		{"101-character description", `{"name":"io.github.acme/fetch","description":"` + strings.Repeat("d", 101) + `","version":"1.0.0"}`, "DescriptionTooLong",
			[]string{`"io.github.acme/fetch"`, "101 characters", "maximum is 100"}},
		{"stdio remote", `{"name":"io.github.acme/fetch","description":"Fetch","version":"1.0.0","remotes":[{"type":"stdio","url":"https://fetch.acme.dev"}]}`, "InvalidEntry",
			[]string{`"io.github.acme/fetch"`, `remotes[0].type is "stdio"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "registry.json", doc(tt.server))
			r := invoke(t, "", "validate", path)
			if r.code != exitError || r.stdout != "" {
				t.Fatalf("want exit 1 and empty stdout, got %+v", r)
			}
			if !strings.Contains(r.stderr, "error "+tt.reason) || !strings.Contains(r.stderr, path) {
				t.Errorf("stderr does not name the reason and file:\n%s", r.stderr)
			}
			for _, s := range tt.says {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
	valid := writeFile(t, "ok.json", doc(`{"name":"io.github.acme/fetch","description":"Fetch","version":"1.0.0","remotes":[{"type":"sse","url":"https://fetch.acme.dev/sse"}]}`))
	if r := invoke(t, "", "validate", valid); r.code != exitOK || r.stdout != "" {
		t.Errorf("valid document: %+v", r)
	}
	legacy := writeFile(t, "legacy.json", `{"servers":{"x":{"image":"i","description":"d"}}}`)
	if r := invoke(t, "", "validate", legacy); r.code != exitError || !strings.Contains(r.stderr, "UnknownFormat") {
		t.Errorf("legacy data: %+v", r)
	}
	// A ToolHive catalog (ToolHive's own registry.json is legacy, its
	// examples use the list too) is another shape, not a format anyone
	// asked for: the message names the shape and the way to an upstream
	// document.
	list := writeFile(t, "list.json", `{"servers":[{"name":"x","image":"i"}]}`)
	for path, shape := range map[string]string{legacy: "ToolHive legacy shape", list: "ToolHive list shape"} {
		r := invoke(t, "", "validate", path)
		if r.code != exitError || !strings.Contains(r.stderr, "error UnknownFormat") || !strings.Contains(r.stderr, shape) ||
			!strings.Contains(r.stderr, "mcpreg convert") || strings.Contains(r.stderr, "was requested") {
			t.Errorf("%s: want an UnknownFormat error naming the %s and mcpreg convert, got %+v", path, shape, r)
		}
	}
	// The summary line counts every error, those a summary diagnostic
	// stands for included: 25 bad entries are 10 listed and a summary of 15.
	var bad []string
	for i := range 25 {
		bad = append(bad, fmt.Sprintf(`{"name":"io.github.acme/s%d","description":"d","version":"1.0.0","remotes":[{"type":"bogus","url":"https://a.example/%d"}]}`, i, i))
	}
	many := writeFile(t, "many.json", doc(strings.Join(bad, ",")))
	if r := invoke(t, "", "validate", many); r.code != exitError || !strings.Contains(r.stderr, "15 more InvalidEntry") || !strings.HasSuffix(r.stderr, many+": invalid (25 errors)\n") {
		t.Errorf("25 bad entries: want a summary of 15 and a count of 25, got %+v", r)
	}
}

// TestManifestInputs: -f takes files, directories (recursively), and - for
// stdin; unknown kinds are ignored; errors name the file.
func TestManifestInputs(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "nested")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		filepath.Join(dir, "a.yaml"):    "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
		filepath.Join(sub, "b.json"):    `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}]}`,
		filepath.Join(sub, "notes.txt"): "not a manifest",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := &env{stdin: strings.NewReader("apiVersion: v1\nkind: Namespace\nmetadata: {name: c}\n")}
	o, err := loadObjects(e, []string{dir, "-"})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Namespaces) != 3 || o.Len() != 3 {
		t.Errorf("loaded %+v", o)
	}
	// A directory named through a symbolic link (a path under a mounted
	// volume, say) is read like the directory itself, not as nothing.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Logf("no symbolic links here: %v", err)
	} else if o, err := loadObjects(e, []string{link}); err != nil || len(o.Namespaces) != 2 {
		t.Errorf("-f %s (a link to %s): %v, %+v; want the directory's 2 Namespaces", link, dir, err, o)
	}
	// Inside the tree, a link to a directory named like a manifest is not
	// followed (nor an error); a link to a manifest file is read.
	if err := os.Symlink(sub, filepath.Join(dir, "more.yaml")); err == nil {
		if err := os.Symlink(filepath.Join(dir, "a.yaml"), filepath.Join(sub, "again.yaml")); err != nil {
			t.Fatal(err)
		}
		files, err := expand(dir)
		want := []string{filepath.Join(dir, "a.yaml"), filepath.Join(sub, "again.yaml"), filepath.Join(sub, "b.json")}
		if err != nil || !slices.Equal(files, want) {
			t.Errorf("expand(%s) = %q, %v; want %q", dir, files, err, want)
		}
	}
	bad := writeFile(t, "bad.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: 5\n")
	if _, err := loadObjects(e, []string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("error does not name the file: %v", err)
	}
	ex, err := loadObjects(e, nil)
	if err != nil || ex.Len() == 0 {
		t.Errorf("embedded example: %v", err)
	}
}

// TestValidateServerCompat: validate also reports what ToolHive's registry
// server refuses in a document the upstream rules accept.
func TestValidateServerCompat(t *testing.T) {
	for _, tt := range []struct {
		doc, want string
		code      int
	}{
		// Valid, but the server would refuse it: a warning.
		{`{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[]}}`, "warning EmptyRegistry File/(stdin) data.servers", exitOK},
		{`{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[{"name":"io.ex/aa","description":"d","version":"1.0.0","packages":[` +
			`{"registryType":"npm","identifier":"a","version":"1.0.0","transport":{"type":"stdio"}},{"registryType":"npm","identifier":"a","version":"1.0.0","transport":{"type":"stdio"}}]}]}}`,
			"error DuplicatePackage File/(stdin) data.servers[0].packages[1]", exitError},
	} {
		r := invoke(t, tt.doc, "validate", "-")
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("exit %d, stderr:\n%s\nwant %q", r.code, r.stderr, tt.want)
		}
	}
}

// TestUnreadableInputCannotForgeLines: an error about a manifest repeats the
// names of the file (found in a directory, so chosen by whoever wrote the
// directory) and of the object escaped and cut, on one line: no terminal
// escape, no forged line, no 5,000-character name.
func TestUnreadableInputCannotForgeLines(t *testing.T) {
	dir := t.TempDir()
	evil := "ev\x1b[31m\nerror Fake"
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"a\\e[31mb\\nerror Forged" + strings.Repeat("x", 5000) + "\"}\ndata: 5\n"
	if err := os.WriteFile(filepath.Join(dir, evil+".yaml"), []byte(doc), 0o600); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	for _, verb := range []string{"groups", "discover"} {
		r := invoke(t, "", verb, "-f", dir)
		if r.code != exitUsage {
			t.Errorf("%s: exit %d, want %d", verb, r.code, exitUsage)
		}
		line := strings.TrimSuffix(r.stderr, "\n")
		if strings.ContainsAny(line, "\n\r\x1b") || !strings.Contains(line, `ev\x1b[31m\nerror Fake.yaml`) || !strings.Contains(line, "cannot unmarshal") {
			t.Errorf("%s: stderr %q: want one line with the names escaped and the decoder's message", verb, r.stderr)
		}
		if len(line) > 1000 {
			t.Errorf("%s: stderr is %d bytes; the object's name was not cut", verb, len(line))
		}
	}
}

// TestValidateVerdictCannotForgeLines: validate's closing line ("FILE:
// valid" or "FILE: invalid (N errors)") repeats the file name escaped, as
// the diagnostics above it do: a name with a terminal escape or a line
// break drove the terminal and started a line of its own.
func TestValidateVerdictCannotForgeLines(t *testing.T) {
	dir := t.TempDir()
	evil := filepath.Join(dir, "ev\x1b]0;title\a\nerror Fake")
	valid := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[{"name":"io.github.acme/tool","description":"A tool","version":"1.0.0","remotes":[{"type":"sse","url":"https://acme.example.com/sse"}]}]}}`
	for _, c := range []struct {
		doc, verdict string
		code         int
	}{
		{valid, ": valid", exitOK},
		{`{"data":{"servers":[]}}`, ": invalid (", exitError},
	} {
		if err := os.WriteFile(evil, []byte(c.doc), 0o600); err != nil {
			t.Skipf("this file system refuses the name: %v", err)
		}
		r := invoke(t, "", "validate", evil)
		if r.code != c.code {
			t.Errorf("exit %d, want %d; stderr %q", r.code, c.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		last := lines[len(lines)-1]
		if strings.ContainsAny(r.stderr, "\x1b\a\r") || !strings.Contains(last, `ev\x1b]0;title\a\nerror Fake`+c.verdict) {
			t.Errorf("stderr %q: want the file name escaped on the closing line %q", r.stderr, c.verdict)
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "error Fake") {
				t.Errorf("stderr %q: a file name started a line", r.stderr)
			}
		}
	}
}

// TestEmptyFlagValuesAreBadUsage: a flag given an empty value (a script's
// unset variable) is bad usage, not the flag's default; a selector or a
// filter pattern may be empty (the library judges those).
func TestEmptyFlagValuesAreBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"merge", "--now=", "--namespace", "ns", "--selector", "a=b"},
		{"merge", "--conflict=", "--namespace", "ns", "--selector", "a=b"},
		{"merge", "--key=", "--namespace", "ns", "--selector", "a=b"},
		{"merge", "--mcpregistry", "r", "--entry="},
		{"discover", "--namespace="},
		{"discover", "--naming="},
		{"discover", "--now="},
		{"groups", "--now="},
		{"convert", "-", "--format="},
		{"convert", "-", "--default-namespace="},
	} {
		r := invoke(t, `{"servers":[]}`, args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "needs a value") {
			t.Errorf("%q: exit %d, stderr %q; want bad usage naming the flag", args, r.code, r.stderr)
		}
	}
	if r := invoke(t, "", "discover", "--selector="); r.code != exitOK {
		t.Errorf("discover --selector=: exit %d, stderr %q; an empty selector selects everything", r.code, r.stderr)
	}
}
