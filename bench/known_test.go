package bench

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"

	thtypes "github.com/stacklok/toolhive-core/registry/types"

	"github.com/mcpreg/mcpreg/model"
)

// Known, reported disagreements between mcpreg and ToolHive. Each one is
// listed with a minimal input and checked by a test of its own, so that the
// list cannot rot: a closed gap is logged, and with -strict every open one
// fails. The property tests tolerate exactly these and nothing else.

var strict = flag.Bool("strict", false, "treat known gaps and known bugs (known_test.go) as failures")

// A knownGap is a rule of ToolHive's schemas that model.ValidateServer does not
// check: an entry breaking it passes mcpreg's upstream-rules check (and so
// survives model.Finish) but ToolHive's registry server rejects the document.
type knownGap struct {
	id string
	// field matches the field path of each ToolHive error the gap causes
	// (gojsonschema's dotted path; for publisher extensions it starts with
	// io.github.stacklok.<image or URL>).
	field *regexp.Regexp
	// entry is a minimal server entry that model accepts and ToolHive rejects.
	entry string
}

const minimalEntry = `"name":"io.github.acme/fetch","description":"d","version":"1.0.0"`

func withExtensions(ext string) string {
	return `{` + minimalEntry + `,"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"ghcr.io/acme/x:1.0.0":{"status":"active",` + ext + `}}}}}`
}

// knownGaps is empty: model.ValidateServer checks every rule of ToolHive's
// schemas that can apply to an entry (the gaps listed here before, icons to
// tool_definitions, were closed in model/validate*.go; model's truth table,
// TestValidateServer, has a row per rule). A new gap goes here with a
// minimal entry, for example:
//
//	{id: "icons", field: regexp.MustCompile(`^data\.servers\.\d+\.icons\.`),
//		entry: `{` + minimalEntry + `,"icons":[{"src":"icon.png"}]}`},
var knownGaps = []knownGap{}

// closedGaps are disagreements model no longer has, kept as regression
// cases at the edges of the schemas: ToolHive and model.ValidateServer must
// agree on each (TestOracleClosedGaps).
var closedGaps = []struct {
	id    string
	entry string
	valid bool // accepted by both, else rejected by both
}{
	{id: "icons", entry: `{` + minimalEntry + `,"icons":[{"src":"icon.png"}]}`},
	{id: "input-fields", entry: `{` + minimalEntry + `,"remotes":[{"type":"sse","url":"https://a.example/sse","headers":[{"name":"X-Key","isRequired":"yes"}]}]}`},
	{id: "package-arguments", entry: `{` + minimalEntry + `,"packages":[{"registryType":"npm","identifier":"x","transport":{"type":"stdio"},"packageArguments":[{"type":"positional"}]}]}`},
	{id: "package-version", entry: `{` + minimalEntry + `,"packages":[{"registryType":"npm","identifier":"x","version":"latest","transport":{"type":"stdio"}}]}`},
	{id: "package-fields", entry: `{` + minimalEntry + `,"packages":[{"registryType":"mcpb","identifier":"x","fileSha256":"FE33","transport":{"type":"stdio"}}]}`},
	{id: "uri-backslash", entry: `{` + minimalEntry + `,"websiteUrl":"https://example.com/docs\\v1"}`},
	{id: "repository-fields", entry: `{` + minimalEntry + `,"repository":{"url":"https://github.com/acme/x","source":"github","id":5}}`},
	{id: "ext-metadata", entry: withExtensions(`"metadata":{"stars":-1}`)},
	{id: "ext-permissions", entry: withExtensions(`"permissions":{"read":["relative/path"]}`)},
	{id: "ext-provenance", entry: withExtensions(`"provenance":{"repository_uri":"github.com/acme/x"}`)},
	{id: "ext-oauth-config", entry: withExtensions(`"oauth_config":{"issuer":"auth.example.com"}`)},
	{id: "ext-env-var-fields", entry: withExtensions(`"env_vars":[{"name":"API_KEY","required":"yes"}]`)},
	{id: "ext-tool-definitions", entry: withExtensions(`"tool_definitions":[{"description":"no name"}]`)},
	// ToolHive decodes every document into `any` to check the extensions:
	// a number beyond float64 anywhere fails that.
	{id: "huge-number", entry: `{` + minimalEntry + `,"x-vendor":{"n":1e400}}`},
	// The extensions are checked after that decoding: numbers as float64.
	{id: "ext-float64-port", entry: withExtensions(`"proxy_port":65535.0000000000000001`), valid: true},
	{id: "ext-float64-stars", entry: withExtensions(`"metadata":{"stars":-1e-400}`), valid: true},
	{id: "ext-float64-unique", entry: withExtensions(`"permissions":{"network":{"outbound":{"allow_port":[443,443.0]}}}`)},
	{id: "ext-date", entry: withExtensions(`"metadata":{"last_updated":"2025-08-01"}`), valid: true},
	// Once stricter than ToolHive.
	{id: "args-repeated", entry: withExtensions(`"args":["--header","A","--header","B"]`), valid: true},
	{id: "stdio-transport", entry: `{` + minimalEntry + `,"packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio","url":5,"headers":"x"}}]}`, valid: true},
	{id: "repeated-key", entry: `{` + minimalEntry + `,"repository":{"url":5,"source":"github","url":"https://github.com/acme/x"}}`, valid: true},
	{id: "repeated-extension-key", entry: `{` + minimalEntry + `,"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"k":{"status":"x"},"k":{"status":"active"}}}}}`, valid: true},
}

// TestOracleClosedGaps checks that ToolHive and model agree on each of
// closedGaps.
func TestOracleClosedGaps(t *testing.T) {
	for _, c := range closedGaps {
		t.Run(c.id, func(t *testing.T) {
			thErr := thtypes.ValidateUpstreamRegistryBytes(singleEntryDocument([]byte(c.entry)))
			s, err := model.ParseServer([]byte(c.entry))
			if err != nil {
				t.Fatal(err)
			}
			ds := model.ValidateServer(s, model.ObjectRef{}, "data.servers[0]").WithSeverity(model.SeverityError)
			switch {
			case c.valid && thErr != nil:
				t.Errorf("ToolHive rejects %s: %v", c.entry, thErr)
			case !c.valid && thErr == nil:
				t.Errorf("ToolHive accepts %s", c.entry)
			case c.valid && len(ds) > 0:
				t.Errorf("model rejects %s: %v", c.entry, ds)
			case !c.valid && len(ds) == 0:
				t.Errorf("model accepts %s; ToolHive: %v", c.entry, thErr)
			}
		})
	}
}

// A stricterCase is an entry ToolHive accepts and model.ValidateServer rejects.
// Intended ones follow the official registry's rules, which ToolHive's schema
// does not have (docs/compatibility.md, Differences from ToolHive's validator);
// the others are reported bugs.
type stricterCase struct {
	id     string
	entry  string
	field  string // the field of model's Error diagnostic, as stricterField writes it
	bug    bool   // true: model should accept the entry
	reason string
}

var knownStricter = []stricterCase{
	{id: "version-latest", entry: `{"name":"io.github.acme/fetch","description":"d","version":"latest"}`, field: "version",
		reason: `version must not be "latest" (the official registry's rule; docs/decisions.md)`},
	{id: "version-empty", entry: `{"name":"io.github.acme/fetch","description":"d","version":""}`, field: "version",
		reason: "the official registry requires a version of at least one character"},
}

var extensionKeyRE = regexp.MustCompile(`\[io\.github\.stacklok\]\[[^\]]*\]`)

// stricterField is the field of a model diagnostic on an entry without the
// entry's position and with the image or URL of ToolHive extensions as "*",
// so that it can be matched against knownStricter.
func stricterField(field string) string {
	field = strings.TrimPrefix(field, "data.servers[0].")
	return extensionKeyRE.ReplaceAllString(field, "[io.github.stacklok][*]")
}

// knownStricterField returns the knownStricter case for a model Error field,
// or nil.
func knownStricterField(field string) *stricterCase {
	for i := range knownStricter {
		if knownStricter[i].field == stricterField(field) {
			return &knownStricter[i]
		}
	}
	return nil
}

// toolhiveProblem is one error ToolHive's validator reported: gojsonschema's
// field path and description.
type toolhiveProblem struct {
	field, desc string
}

var problemRE = regexp.MustCompile(`(?:^\s*|failed: |\d+\. )(\S+): (.+)$`)

// toolhiveProblems splits an error of types.ValidateUpstreamRegistryBytes
// into its problems. Headers ("... failed with 3 errors:") are dropped;
// lines that are neither become problems with an empty field, which no gap
// explains.
func toolhiveProblems(err error) []toolhiveProblem {
	var out []toolhiveProblem
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasSuffix(line, "errors:") {
			continue
		}
		if m := problemRE.FindStringSubmatch(line); m != nil && !strings.HasSuffix(m[2], "errors:") {
			out = append(out, toolhiveProblem{field: m[1], desc: m[2]})
			continue
		}
		out = append(out, toolhiveProblem{desc: line})
	}
	return out
}

var wrapperRE = regexp.MustCompile(`^Must validate (all the schemas \(allOf\)|at least one schema \(anyOf\))$`)

// explainByGaps returns the known gaps that explain every problem of err, or
// ok false when some problem is not a known gap. An allOf/anyOf summary
// counts as explained when a problem below its path is.
func explainByGaps(err error) (ids []string, ok bool) {
	ps := toolhiveProblems(err)
	explained := make([]string, len(ps))
	for i, p := range ps {
		for _, g := range knownGaps {
			if p.field != "" && g.field.MatchString(p.field) {
				explained[i] = g.id
				break
			}
		}
	}
	for i, p := range ps {
		if explained[i] != "" || p.field == "" || !wrapperRE.MatchString(p.desc) {
			continue
		}
		for j, q := range ps {
			if explained[j] != "" && strings.HasPrefix(q.field, p.field+".") {
				explained[i] = explained[j]
				break
			}
		}
	}
	seen := map[string]bool{}
	for _, id := range explained {
		if id == "" {
			return nil, false
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, len(ids) > 0
}

// knownBugs are reported mcpreg bugs the tests meet, by id. A test that
// meets one skips with its description (fails with -strict); once fixed, the
// test passes and the entry can go.
var knownBugs = map[string]string{
	// None open. Fixed: convert-keeps-duplicates, legacy-null-raw-fields,
	// legacy-duplicate-key, group-member-order (now plain regression checks).
}

// skipKnownBug skips the test for a reported bug (fails it with -strict),
// with details.
func skipKnownBug(t *testing.T, id, details string) {
	t.Helper()
	desc, ok := knownBugs[id]
	if !ok {
		t.Fatalf("unknown bug id %q", id)
	}
	msg := fmt.Sprintf("known bug %s: %s\n%s", id, desc, details)
	if *strict {
		t.Error(msg)
		return
	}
	t.Skip(msg)
}
