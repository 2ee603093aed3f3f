package model_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// Entry builders for the truth table: a minimal valid entry with extra
// top-level members, or with ToolHive extensions for one image.
const minimal = `"name":"com.example/srv","description":"d","version":"1.0.0"`

func top(members string) string { return `{` + minimal + `,` + members + `}` }

func ext(fields string) string {
	return top(`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"ghcr.io/acme/x:1":{"status":"active",` + fields + `}}}}`)
}

func pkg(fields string) string {
	return top(`"packages":[{"registryType":"npm","identifier":"@acme/x","transport":{"type":"stdio"},` + fields + `}]`)
}

func remote(fields string) string {
	return top(`"remotes":[{"type":"sse","url":"https://e.example/sse",` + fields + `}]`)
}

// extField is the field path of the extensions ext builds.
const extField = "_meta[io.modelcontextprotocol.registry/publisher-provided][io.github.stacklok][ghcr.io/acme/x:1]."

// TestValidateServer is the truth table of the entry rules: the upstream
// registry's (docs/compatibility.md, docs/decisions.md) and every
// rule of ToolHive's schemas (server.json, publisher-provided extensions).
// Each row is an entry, the reason and severity expected (none for a valid
// entry), the field of the diagnostic and a fragment its message must hold,
// so that the rule and the offending value are named.
func TestValidateServer(t *testing.T) {
	long := strings.Repeat("x", 101)
	tests := []struct {
		name     string
		entry    string
		reason   model.Reason
		severity model.Severity
		field    string
		says     string
	}{
		{name: "valid", entry: `{"name":"io.github.acme/box","description":"d","version":"1.0.0"}`},
		{name: "valid remotes", entry: `{"name":"com.example/xx","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://e.example/sse"},{"type":"streamable-http","url":"http://e.example:8080/mcp"}]}`},
		{name: "two slashes", entry: `{"name":"com.example/srv/d","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: `exactly one "/"`},
		{name: "no slash", entry: `{"name":"abc","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: `exactly one "/"`},
		{name: "too short", entry: `{"name":"a/","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "minimum is 3"},
		{name: "too long", entry: `{"name":"a/` + strings.Repeat("b", 199) + `","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "maximum is 200"},
		{name: "bad char", entry: `{"name":"a b/c","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "does not match"},
		{name: "name not a string", entry: `{"name":5,"description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "must be a string, not 5"},
		{name: "official stricter rule warns", entry: `{"name":"a/b-","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, severity: model.SeverityWarning, field: "name", says: "official MCP registry"},
		{name: "no name", entry: `{"description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "required"},
		{name: "description 101", entry: `{"name":"com.example/srv","description":"` + long + `","version":"1.0.0"}`, reason: model.ReasonDescriptionTooLong, field: "description", says: "101 characters"},
		{name: "description 100 runes", entry: `{"name":"com.example/srv","description":"` + strings.Repeat("é", 100) + `","version":"1.0.0"}`},
		{name: "description empty", entry: `{"name":"com.example/srv","description":"","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "description", says: "empty"},
		{name: "description missing", entry: `{"name":"com.example/srv","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "description", says: "required"},
		{name: "description null", entry: `{"name":"com.example/srv","description":null,"version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "description", says: "must be a string, not null"},
		{name: "title 101", entry: `{"name":"com.example/srv","description":"d","title":"` + long + `","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "title", says: "title"},
		{name: "title empty", entry: top(`"title":""`), reason: model.ReasonInvalidEntry, field: "title", says: "0 characters"},
		{name: "title null", entry: top(`"title":null`), reason: model.ReasonInvalidEntry, field: "title", says: "must be a string, not null"},
		{name: "version latest", entry: `{"name":"com.example/srv","description":"d","version":"latest"}`, reason: model.ReasonInvalidEntry, field: "version", says: `"latest"`},
		{name: "version 256", entry: `{"name":"com.example/srv","description":"d","version":"` + strings.Repeat("1", 256) + `"}`, reason: model.ReasonInvalidEntry, field: "version", says: "255"},
		{name: "version 255 runes", entry: `{"name":"com.example/srv","description":"d","version":"` + strings.Repeat("é", 255) + `"}`},
		{name: "version missing", entry: `{"name":"com.example/srv","description":"d"}`, reason: model.ReasonInvalidEntry, field: "version", says: "required"},
		{name: "version number", entry: `{"name":"com.example/srv","description":"d","version":1}`, reason: model.ReasonInvalidEntry, field: "version", says: "must be a string, not 1"},
		{name: "unknown members free", entry: top(`"x-vendor":{"a":[1,null]},"status":5`)},

		// "uri" format: net/url parses it, with a scheme, and no backslash.
		{name: "$schema not a URI", entry: top(`"$schema":"not a uri"`), reason: model.ReasonInvalidEntry, field: "$schema", says: `"not a uri"; it must be a URI`},
		{name: "$schema number", entry: top(`"$schema":7`), reason: model.ReasonInvalidEntry, field: "$schema", says: "must be a string, not 7"},
		{name: "websiteUrl backslash", entry: top(`"websiteUrl":"https://example.com/docs\\v1"`), reason: model.ReasonInvalidEntry, field: "websiteUrl", says: `format "uri"`},
		{name: "websiteUrl no scheme", entry: top(`"websiteUrl":"example.com"`), reason: model.ReasonInvalidEntry, field: "websiteUrl", says: `"example.com"`},
		{name: "websiteUrl bad host", entry: top(`"websiteUrl":"https://{t}.example.com/"`), reason: model.ReasonInvalidEntry, field: "websiteUrl", says: `format "uri"`},
		{name: "websiteUrl bad port", entry: top(`"websiteUrl":"https://example.com:x/"`), reason: model.ReasonInvalidEntry, field: "websiteUrl", says: `format "uri"`},
		{name: "websiteUrl opaque", entry: top(`"websiteUrl":"mailto:team@example.com"`)},
		{name: "websiteUrl IPv6 and escapes", entry: top(`"websiteUrl":"http://[::1]:8080/a%20b?q#f"`)},

		// Repository.
		{name: "repository needs source", entry: top(`"repository":{"url":"https://github.com/a/b"}`), reason: model.ReasonInvalidEntry, field: "repository.source", says: "required"},
		{name: "repository needs url", entry: top(`"repository":{"source":"github"}`), reason: model.ReasonInvalidEntry, field: "repository.url", says: "required"},
		{name: "repository not an object", entry: top(`"repository":"https://github.com/a/b"`), reason: model.ReasonInvalidEntry, field: "repository", says: "must be an object"},
		{name: "repository url not a URI", entry: top(`"repository":{"url":"github.com/a","source":"github"}`), reason: model.ReasonInvalidEntry, field: "repository.url", says: `"github.com/a"`},
		{name: "repository source number", entry: top(`"repository":{"url":"https://github.com/a/b","source":1}`), reason: model.ReasonInvalidEntry, field: "repository.source", says: "must be a string"},
		{name: "repository id number", entry: top(`"repository":{"url":"https://github.com/a/b","source":"github","id":5}`), reason: model.ReasonInvalidEntry, field: "repository.id", says: "must be a string, not 5"},
		{name: "repository subfolder", entry: top(`"repository":{"url":"https://github.com/a/b","source":"github","subfolder":["x"]}`), reason: model.ReasonInvalidEntry, field: "repository.subfolder", says: "must be a string"},
		{name: "repository full", entry: top(`"repository":{"url":"https://github.com/a/b","source":"github","id":"x","subfolder":"s"}`)},
		{name: "repeated key: last counts", entry: top(`"repository":{"url":5,"source":"github","url":"https://github.com/a/b"}`)},
		{name: "repeated key: last fails", entry: top(`"repository":{"url":"https://github.com/a/b","source":"github","url":5}`), reason: model.ReasonInvalidEntry, field: "repository.url", says: "must be a string, not 5"},

		// Icons.
		{name: "icons valid", entry: top(`"icons":[{"src":"https://e.example/i.png","mimeType":"image/svg+xml","sizes":["48x48","any"],"theme":"light"}]`)},
		{name: "icons not an array", entry: top(`"icons":{"src":"https://e.example/i.png"}`), reason: model.ReasonInvalidEntry, field: "icons", says: "must be an array"},
		{name: "icon not an object", entry: top(`"icons":["https://e.example/i.png"]`), reason: model.ReasonInvalidEntry, field: "icons[0]", says: "must be an object"},
		{name: "icon src required", entry: top(`"icons":[{"mimeType":"image/png"}]`), reason: model.ReasonInvalidEntry, field: "icons[0].src", says: "required"},
		{name: "icon src relative", entry: top(`"icons":[{"src":"icon.png"}]`), reason: model.ReasonInvalidEntry, field: "icons[0].src", says: `"icon.png"`},
		{name: "icon src 256", entry: top(`"icons":[{"src":"https://e.example/` + strings.Repeat("é", 238) + `"}]`), reason: model.ReasonInvalidEntry, field: "icons[0].src", says: "256 characters; the maximum is 255"},
		{name: "icon mimeType", entry: top(`"icons":[{"src":"https://e.example/i.gif","mimeType":"image/gif"}]`), reason: model.ReasonInvalidEntry, field: "icons[0].mimeType", says: `"image/gif"`},
		{name: "icon sizes", entry: top(`"icons":[{"src":"https://e.example/i.png","sizes":["48"]}]`), reason: model.ReasonInvalidEntry, field: "icons[0].sizes[0]", says: `"48"`},
		{name: "icon theme", entry: top(`"icons":[{"src":"https://e.example/i.png","theme":"blue"}]`), reason: model.ReasonInvalidEntry, field: "icons[0].theme", says: `"blue"`},

		// Remotes (RemoteTransport) and their inputs.
		{name: "remote stdio", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"stdio","url":"https://x.example"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].type", says: `"stdio"`},
		{name: "remote ftp", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse","url":"ftp://x.example"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "does not match"},
		{name: "remote space", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse","url":"https://x.example/a b"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "does not match"},
		{name: "remote no url", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "required"},
		{name: "remote url number", entry: top(`"remotes":[{"type":"sse","url":8080}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "must be a string, not 8080"},
		{name: "remote no type", entry: top(`"remotes":[{"url":"https://e.example/sse"}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].type", says: "required"},
		{name: "remote type http", entry: top(`"remotes":[{"type":"http","url":"https://e.example/sse"}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].type", says: `"http"`},
		{name: "remotes not an array", entry: top(`"remotes":{}`), reason: model.ReasonInvalidEntry, field: "remotes", says: "must be an array"},
		{name: "remote not an object", entry: top(`"remotes":["https://e.example/sse"]`), reason: model.ReasonInvalidEntry, field: "remotes[0]", says: "must be an object"},
		{name: "remote inputs valid", entry: remote(`"headers":[{"name":"X-Key","description":"d","value":"{v}","default":"x","placeholder":"p","isRequired":true,"isSecret":false,"format":"filepath","choices":["a"],"variables":{"v":{"format":"number"}}}],"variables":{"tenant":{"description":"t","isRequired":true,"choices":["a","a"]}}`)},
		{name: "headers not an array", entry: remote(`"headers":{"name":"X"}`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers", says: "must be an array"},
		{name: "header not an object", entry: remote(`"headers":["X"]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0]", says: "must be an object"},
		{name: "header name required", entry: remote(`"headers":[{"value":"v"}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].name", says: "required"},
		{name: "header name number", entry: remote(`"headers":[{"name":1}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].name", says: "must be a string, not 1"},
		{name: "input isRequired", entry: remote(`"headers":[{"name":"X","isRequired":"yes"}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].isRequired", says: `must be a boolean, not "yes"`},
		{name: "input isSecret", entry: remote(`"headers":[{"name":"X","isSecret":1}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].isSecret", says: "must be a boolean"},
		{name: "input format", entry: remote(`"headers":[{"name":"X","format":"json"}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].format", says: `"json"; it must be one of "string", "number", "boolean", "filepath"`},
		{name: "input choices", entry: remote(`"headers":[{"name":"X","choices":[1]}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].choices[0]", says: "must be a string, not 1"},
		{name: "input description", entry: remote(`"headers":[{"name":"X","description":5}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].description", says: "must be a string"},
		{name: "input value", entry: remote(`"headers":[{"name":"X","value":true}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].value", says: "must be a string"},
		{name: "input default", entry: remote(`"headers":[{"name":"X","default":null}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].default", says: "must be a string"},
		{name: "input placeholder", entry: remote(`"headers":[{"name":"X","placeholder":[]}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].placeholder", says: "must be a string"},
		{name: "input variables", entry: remote(`"headers":[{"name":"X","variables":{"region":{"isSecret":"no"}}}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].variables[region].isSecret", says: `"no"`},
		{name: "input variables not an object", entry: remote(`"headers":[{"name":"X","variables":[]}]`), reason: model.ReasonInvalidEntry, field: "remotes[0].headers[0].variables", says: "must be an object"},
		{name: "remote variables", entry: remote(`"variables":{"tenant":{"isRequired":"yes"}}`), reason: model.ReasonInvalidEntry, field: "remotes[0].variables[tenant].isRequired", says: `"yes"`},
		{name: "remote variable not an object", entry: remote(`"variables":{"tenant":"acme"}`), reason: model.ReasonInvalidEntry, field: "remotes[0].variables[tenant]", says: "must be an object"},
		{name: "variables of variables free", entry: remote(`"variables":{"tenant":{"variables":5}}`)},

		// Packages.
		{name: "package transport", entry: `{"name":"com.example/srv","description":"d","version":"1","packages":[{"registryType":"oci","identifier":"i","transport":{"type":"carrier-pigeon"}}]}`, reason: model.ReasonInvalidEntry, field: "packages[0].transport.type", says: "carrier-pigeon"},
		{name: "package missing identifier", entry: `{"name":"com.example/srv","description":"d","version":"1","packages":[{"registryType":"oci","transport":{"type":"stdio"}}]}`, reason: model.ReasonInvalidEntry, field: "packages[0].identifier", says: "required"},
		{name: "package missing registryType", entry: top(`"packages":[{"identifier":"i","transport":{"type":"stdio"}}]`), reason: model.ReasonInvalidEntry, field: "packages[0].registryType", says: "required"},
		{name: "package missing transport", entry: top(`"packages":[{"registryType":"oci","identifier":"i"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].transport", says: "required"},
		{name: "package identifier number", entry: top(`"packages":[{"registryType":"oci","identifier":1,"transport":{"type":"stdio"}}]`), reason: model.ReasonInvalidEntry, field: "packages[0].identifier", says: "must be a string"},
		{name: "packages not an array", entry: top(`"packages":{}`), reason: model.ReasonInvalidEntry, field: "packages", says: "must be an array"},
		{name: "package not an object", entry: top(`"packages":["@acme/x"]`), reason: model.ReasonInvalidEntry, field: "packages[0]", says: "must be an object"},
		{name: "package valid", entry: pkg(`"version":"1.2.3","registryBaseUrl":"https://registry.npmjs.org","fileSha256":"fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce","runtimeHint":"npx","environmentVariables":[{"name":"API_KEY","isSecret":true}],"runtimeArguments":[{"type":"named","name":"--port","value":"8080","isRepeated":false},{"type":"positional","valueHint":"path"}],"packageArguments":[{"type":"positional","value":"x","variables":{"v":{"default":"1"}}}]`)},
		{name: "stdio transport takes anything", entry: top(`"packages":[{"registryType":"oci","identifier":"i","transport":{"type":"stdio","url":5,"headers":"x","variables":[]}}]`)},
		{name: "package transport variables free", entry: top(`"packages":[{"registryType":"oci","identifier":"i","transport":{"type":"sse","url":"https://localhost:8080/sse","variables":{"a":{"isRequired":"x"}}}}]`)},
		{name: "package sse needs url", entry: top(`"packages":[{"registryType":"oci","identifier":"i","transport":{"type":"sse"}}]`), reason: model.ReasonInvalidEntry, field: "packages[0].transport.url", says: "required"},
		{name: "package transport headers", entry: top(`"packages":[{"registryType":"oci","identifier":"i","transport":{"type":"streamable-http","url":"http://localhost/mcp","headers":[{"name":"X","format":"json"}]}}]`), reason: model.ReasonInvalidEntry, field: "packages[0].transport.headers[0].format", says: `"json"`},
		{name: "package transport not an object", entry: top(`"packages":[{"registryType":"oci","identifier":"i","transport":"stdio"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].transport", says: "must be an object"},
		{name: "package version latest", entry: pkg(`"version":"latest"`), reason: model.ReasonInvalidEntry, field: "packages[0].version", says: `"latest"`},
		{name: "package version empty", entry: pkg(`"version":""`), reason: model.ReasonInvalidEntry, field: "packages[0].version", says: `is ""`},
		{name: "package version number", entry: pkg(`"version":1`), reason: model.ReasonInvalidEntry, field: "packages[0].version", says: "must be a string, not 1"},
		{name: "package fileSha256", entry: pkg(`"fileSha256":"FE333E"`), reason: model.ReasonInvalidEntry, field: "packages[0].fileSha256", says: `"FE333E"; it must match ^[a-f0-9]{64}$`},
		{name: "package registryBaseUrl", entry: pkg(`"registryBaseUrl":"registry.npmjs.org"`), reason: model.ReasonInvalidEntry, field: "packages[0].registryBaseUrl", says: `"registry.npmjs.org"`},
		{name: "package runtimeHint", entry: pkg(`"runtimeHint":5`), reason: model.ReasonInvalidEntry, field: "packages[0].runtimeHint", says: "must be a string"},
		{name: "package environment variable", entry: pkg(`"environmentVariables":[{"name":"K","isSecret":"no"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].environmentVariables[0].isSecret", says: `"no"`},
		{name: "package environment variable name", entry: pkg(`"environmentVariables":[{"value":"v"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].environmentVariables[0].name", says: "required"},
		{name: "arguments not an array", entry: pkg(`"packageArguments":{"type":"positional"}`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments", says: "must be an array"},
		{name: "argument not an object", entry: pkg(`"packageArguments":["--verbose"]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0]", says: "must be an object"},
		{name: "argument type missing", entry: pkg(`"runtimeArguments":[{"value":"x"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].runtimeArguments[0].type", says: "required"},
		{name: "argument type unknown", entry: pkg(`"packageArguments":[{"type":"flag","name":"-v"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].type", says: `"flag"`},
		{name: "positional needs valueHint or value", entry: pkg(`"packageArguments":[{"type":"positional"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].valueHint", says: "required"},
		{name: "positional value only", entry: pkg(`"packageArguments":[{"type":"positional","value":"x","name":5}]`)},
		{name: "positional valueHint number", entry: pkg(`"packageArguments":[{"type":"positional","valueHint":5}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].valueHint", says: "must be a string"},
		{name: "positional value number", entry: pkg(`"packageArguments":[{"type":"positional","value":5}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].value", says: "must be a string, not a number"},
		{name: "named needs name", entry: pkg(`"packageArguments":[{"type":"named","value":"x"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].name", says: "required"},
		{name: "named name number", entry: pkg(`"packageArguments":[{"type":"named","name":1}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].name", says: "must be a string"},
		{name: "named valueHint free", entry: pkg(`"packageArguments":[{"type":"named","name":"--x","valueHint":5}]`)},
		{name: "argument isRepeated", entry: pkg(`"packageArguments":[{"type":"named","name":"--x","isRepeated":"yes"}]`), reason: model.ReasonInvalidEntry, field: "packages[0].packageArguments[0].isRepeated", says: `"yes"`},
		{name: "argument input fields", entry: pkg(`"runtimeArguments":[{"type":"named","name":"--x","variables":{"v":{"choices":"a"}}}]`), reason: model.ReasonInvalidEntry, field: "packages[0].runtimeArguments[0].variables[v].choices", says: "must be an array"},

		// Numbers ToolHive cannot decode into a float64, anywhere.
		{name: "huge number", entry: top(`"x-vendor":{"a.b":[1,1e400]}`), reason: model.ReasonInvalidEntry, field: "x-vendor[a.b][1]", says: "1e400"},
		{name: "huge number shadowed", entry: top(`"x-vendor":{"a":-1e999,"a":1}`), reason: model.ReasonInvalidEntry, field: "x-vendor.a", says: "-1e999"},
		{name: "huge integer", entry: top(`"x":` + strings.Repeat("9", 310)), reason: model.ReasonInvalidEntry, field: "x", says: "64-bit float"},
		{name: "tiny number", entry: top(`"x":[1e-400,` + strings.Repeat("9", 308) + `]`)},

		// _meta and ToolHive's publisher-provided extensions.
		{name: "toolhive ext status", entry: `{"name":"com.example/srv","description":"d","version":"1","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":{"tier":"Official"}}}}}`, reason: model.ReasonInvalidEntry, field: "status", says: "status"},
		{name: "toolhive ext tag", entry: `{"name":"com.example/srv","description":"d","version":"1","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":{"status":"active","tags":["Web"]}}}}}`, reason: model.ReasonInvalidEntry, field: "tags[0]", says: `"Web"`},
		{name: "other publisher free", entry: `{"name":"com.example/srv","description":"d","version":"1","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"com.x":{"anything":{"tags":["Web"]}}}}}`},
		{name: "other _meta keys free", entry: top(`"_meta":{"io.modelcontextprotocol.registry/official":5}`)},
		{name: "_meta not an object", entry: top(`"_meta":"x"`), reason: model.ReasonInvalidEntry, field: "_meta", says: `must be an object, not "x"`},
		{name: "publisher-provided not an object", entry: top(`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":[]}`), reason: model.ReasonInvalidEntry, field: "_meta[io.modelcontextprotocol.registry/publisher-provided]", says: "must be an object"},
		{name: "publisher not an object", entry: top(`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"com.x":null}}`), reason: model.ReasonInvalidEntry, field: "_meta[io.modelcontextprotocol.registry/publisher-provided][com.x]", says: "must be an object, not null"},
		{name: "extensions not an object", entry: top(`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":"active"}}}`), reason: model.ReasonInvalidEntry, field: "[io.github.stacklok][img]", says: "must be an object"},
		{name: "extensions valid", entry: ext(`"tier":"Community","tools":["get_issue","create-issue"],"tags":["ci-cd","k8s_tools"],"overview":"# O\n","docker_tags":["1.2.3","latest"],"args":["--header","A","--header","B"],"proxy_port":8080,"stateless":false,"custom_metadata":{"k":[1]},"tool_definitions":[{"name":"t","description":"d","inputSchema":{"type":"object"},"annotations":{},"x":1}],"env_vars":[{"name":"_X1","description":"d","required":true,"secret":false,"default":"v"},{}],"x-custom":1`)},
		{name: "extensions repeated key", entry: top(`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":{"status":"x"},"img":{"status":"active"}}}}`)},
		{name: "ext status", entry: ext(`"status":"Inactive"`), reason: model.ReasonInvalidEntry, field: extField + "status", says: `"Inactive"`},
		{name: "ext tier", entry: ext(`"tier":"official"`), reason: model.ReasonInvalidEntry, field: extField + "tier", says: `"official"; it must be one of "Official", "Community"`},
		{name: "ext tools pattern", entry: ext(`"tools":["has space"]`), reason: model.ReasonInvalidEntry, field: extField + "tools[0]", says: `"has space"`},
		{name: "ext tools unique", entry: ext(`"tools":["dup","dup"]`), reason: model.ReasonInvalidEntry, field: extField + "tools[1]", says: "unique"},
		{name: "ext tags unique decoded", entry: ext(`"tags":["ab","a\u0062"]`), reason: model.ReasonInvalidEntry, field: extField + "tags[1]", says: "unique"},
		{name: "ext docker_tags unique", entry: ext(`"docker_tags":["latest","latest"]`), reason: model.ReasonInvalidEntry, field: extField + "docker_tags[1]", says: "unique"},
		{name: "ext docker_tags strings", entry: ext(`"docker_tags":[1]`), reason: model.ReasonInvalidEntry, field: extField + "docker_tags[0]", says: "must be a string"},
		{name: "ext args strings", entry: ext(`"args":[1]`), reason: model.ReasonInvalidEntry, field: extField + "args[0]", says: "must be a string, not 1"},
		{name: "ext overview", entry: ext(`"overview":5`), reason: model.ReasonInvalidEntry, field: extField + "overview", says: "must be a string"},
		{name: "ext proxy_port 0", entry: ext(`"proxy_port":0`), reason: model.ReasonInvalidEntry, field: extField + "proxy_port", says: "is 0; it must be an integer from 1 to 65535"},
		{name: "ext proxy_port 65536", entry: ext(`"proxy_port":65536`), reason: model.ReasonInvalidEntry, field: extField + "proxy_port", says: "65536"},
		{name: "ext proxy_port fraction", entry: ext(`"proxy_port":80.5`), reason: model.ReasonInvalidEntry, field: extField + "proxy_port", says: "80.5"},
		{name: "ext proxy_port string", entry: ext(`"proxy_port":"8080"`), reason: model.ReasonInvalidEntry, field: extField + "proxy_port", says: `"8080"`},
		{name: "ext proxy_port as float64", entry: ext(`"proxy_port":65535.0000000000000001`)},
		{name: "ext stateless", entry: ext(`"stateless":"yes"`), reason: model.ReasonInvalidEntry, field: extField + "stateless", says: "must be a boolean"},
		{name: "ext custom_metadata", entry: ext(`"custom_metadata":[1]`), reason: model.ReasonInvalidEntry, field: extField + "custom_metadata", says: "must be an object"},
		{name: "ext tool_definitions", entry: ext(`"tool_definitions":{"name":"x"}`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions", says: "must be an array"},
		{name: "ext tool_definition object", entry: ext(`"tool_definitions":["get_issue"]`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions[0]", says: "must be an object"},
		{name: "ext tool_definition name", entry: ext(`"tool_definitions":[{"description":"no name"}]`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions[0].name", says: "required"},
		{name: "ext tool_definition name number", entry: ext(`"tool_definitions":[{"name":1}]`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions[0].name", says: "must be a string"},
		{name: "ext tool_definition description", entry: ext(`"tool_definitions":[{"name":"x","description":1}]`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions[0].description", says: "must be a string"},
		{name: "ext tool_definition inputSchema", entry: ext(`"tool_definitions":[{"name":"x","inputSchema":"not an object"}]`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions[0].inputSchema", says: "must be an object"},
		{name: "ext tool_definition annotations", entry: ext(`"tool_definitions":[{"name":"x","annotations":[]}]`), reason: model.ReasonInvalidEntry, field: extField + "tool_definitions[0].annotations", says: "must be an object"},
		{name: "ext env_vars", entry: ext(`"env_vars":{"name":"X"}`), reason: model.ReasonInvalidEntry, field: extField + "env_vars", says: "must be an array"},
		{name: "ext env_var object", entry: ext(`"env_vars":["X"]`), reason: model.ReasonInvalidEntry, field: extField + "env_vars[0]", says: "must be an object"},
		{name: "ext env_var name", entry: ext(`"env_vars":[{"name":"1BAD"}]`), reason: model.ReasonInvalidEntry, field: extField + "env_vars[0].name", says: `"1BAD"`},
		{name: "ext env_var description", entry: ext(`"env_vars":[{"description":5}]`), reason: model.ReasonInvalidEntry, field: extField + "env_vars[0].description", says: "must be a string"},
		{name: "ext env_var required", entry: ext(`"env_vars":[{"required":"yes"}]`), reason: model.ReasonInvalidEntry, field: extField + "env_vars[0].required", says: "must be a boolean"},
		{name: "ext env_var secret", entry: ext(`"env_vars":[{"secret":0}]`), reason: model.ReasonInvalidEntry, field: extField + "env_vars[0].secret", says: "must be a boolean"},
		{name: "ext env_var default", entry: ext(`"env_vars":[{"default":1}]`), reason: model.ReasonInvalidEntry, field: extField + "env_vars[0].default", says: "must be a string"},
		{name: "ext metadata valid", entry: ext(`"metadata":{"stars":0,"last_updated":"2025-08-01","kubernetes":{"kind":"MCPServer","namespace":"toolhive-system","name":"fetch","uid":"0b5e8c3a-1f2d-4c4b-9a7e-3d2c1b0a9f8e","image":"i","transport":"http"}}`)},
		{name: "ext metadata object", entry: ext(`"metadata":"x"`), reason: model.ReasonInvalidEntry, field: extField + "metadata", says: "must be an object"},
		{name: "ext stars negative", entry: ext(`"metadata":{"stars":-1}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.stars", says: "is -1; it must be a number, 0 or more"},
		{name: "ext stars string", entry: ext(`"metadata":{"stars":"many"}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.stars", says: `"many"`},
		{name: "ext stars as float64", entry: ext(`"metadata":{"stars":-1e-400}`)},
		{name: "ext metadata last_updated", entry: ext(`"metadata":{"last_updated":"last week"}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.last_updated", says: `"last week"`},
		{name: "ext kubernetes object", entry: ext(`"metadata":{"kubernetes":[]}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes", says: "must be an object"},
		{name: "ext kubernetes namespace", entry: ext(`"metadata":{"kubernetes":{"namespace":"Bad_NS"}}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes.namespace", says: `"Bad_NS"`},
		{name: "ext kubernetes name", entry: ext(`"metadata":{"kubernetes":{"name":"Fetch!"}}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes.name", says: `"Fetch!"`},
		{name: "ext kubernetes uid", entry: ext(`"metadata":{"kubernetes":{"uid":"0B5E8C3A-1F2D-4C4B-9A7E-3D2C1B0A9F8E"}}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes.uid", says: "UUID"},
		{name: "ext kubernetes transport", entry: ext(`"metadata":{"kubernetes":{"transport":"grpc"}}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes.transport", says: `"grpc"`},
		{name: "ext kubernetes kind", entry: ext(`"metadata":{"kubernetes":{"kind":1}}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes.kind", says: "must be a string"},
		{name: "ext kubernetes image", entry: ext(`"metadata":{"kubernetes":{"image":{}}}`), reason: model.ReasonInvalidEntry, field: extField + "metadata.kubernetes.image", says: "must be a string"},
		{name: "ext permissions valid", entry: ext(`"permissions":{"name":"network","read":["/etc/ssl/certs","/home/u/.kube:/root/.kube"],"write":["/data/"],"privileged":false,"network":{"outbound":{"allow_host":["api.github.com",".githubusercontent.com","localhost"],"allow_port":[443,80],"insecure_allow_all":true}}}`)},
		{name: "ext permissions object", entry: ext(`"permissions":[]`), reason: model.ReasonInvalidEntry, field: extField + "permissions", says: "must be an object"},
		{name: "ext permissions name", entry: ext(`"permissions":{"name":3}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.name", says: "must be a string"},
		{name: "ext permissions read relative", entry: ext(`"permissions":{"read":["relative/path"]}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.read[0]", says: `"relative/path"`},
		{name: "ext permissions read root", entry: ext(`"permissions":{"read":["/"]}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.read[0]", says: "absolute path"},
		{name: "ext permissions read unique", entry: ext(`"permissions":{"read":["/data","/data"]}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.read[1]", says: "unique"},
		{name: "ext permissions write", entry: ext(`"permissions":{"write":["C:\\data"]}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.write[0]", says: "match"},
		{name: "ext permissions privileged", entry: ext(`"permissions":{"privileged":"no"}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.privileged", says: "must be a boolean"},
		{name: "ext network object", entry: ext(`"permissions":{"network":true}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network", says: "must be an object"},
		{name: "ext outbound object", entry: ext(`"permissions":{"network":{"outbound":1}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound", says: "must be an object"},
		{name: "ext allow_host", entry: ext(`"permissions":{"network":{"outbound":{"allow_host":["https://api.github.com"]}}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound.allow_host[0]", says: "hostname"},
		{name: "ext allow_host unique", entry: ext(`"permissions":{"network":{"outbound":{"allow_host":["a.com","a.com"]}}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound.allow_host[1]", says: "unique"},
		{name: "ext allow_port range", entry: ext(`"permissions":{"network":{"outbound":{"allow_port":[0]}}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound.allow_port[0]", says: "from 1 to 65535"},
		{name: "ext allow_port string", entry: ext(`"permissions":{"network":{"outbound":{"allow_port":["443"]}}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound.allow_port[0]", says: `"443"`},
		{name: "ext allow_port unique", entry: ext(`"permissions":{"network":{"outbound":{"allow_port":[443,443.0]}}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound.allow_port[1]", says: "unique"},
		{name: "ext insecure_allow_all", entry: ext(`"permissions":{"network":{"outbound":{"insecure_allow_all":"true"}}}`), reason: model.ReasonInvalidEntry, field: extField + "permissions.network.outbound.insecure_allow_all", says: "must be a boolean"},
		{name: "ext provenance valid", entry: ext(`"provenance":{"sigstore_url":"tuf-repo-cdn.sigstore.dev","repository_uri":"https://github.com/acme/x","repository_ref":"refs/tags/v1","signer_identity":"/.github/workflows/release.yml","runner_environment":"github-hosted","cert_issuer":"https://token.actions.githubusercontent.com","attestation":{"predicate_type":"https://slsa.dev/provenance/v1","predicate":null}}`)},
		{name: "ext provenance object", entry: ext(`"provenance":"x"`), reason: model.ReasonInvalidEntry, field: extField + "provenance", says: "must be an object"},
		{name: "ext sigstore_url", entry: ext(`"provenance":{"sigstore_url":"https://tuf-repo-cdn.sigstore.dev"}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.sigstore_url", says: `format "hostname"`},
		{name: "ext sigstore_url empty", entry: ext(`"provenance":{"sigstore_url":""}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.sigstore_url", says: "hostname"},
		{name: "ext repository_uri", entry: ext(`"provenance":{"repository_uri":"github.com/acme/x"}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.repository_uri", says: `format "uri"`},
		{name: "ext cert_issuer", entry: ext(`"provenance":{"cert_issuer":"token.actions.githubusercontent.com"}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.cert_issuer", says: `format "uri"`},
		{name: "ext signer_identity", entry: ext(`"provenance":{"signer_identity":7}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.signer_identity", says: "must be a string"},
		{name: "ext repository_ref", entry: ext(`"provenance":{"repository_ref":null}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.repository_ref", says: "must be a string"},
		{name: "ext runner_environment", entry: ext(`"provenance":{"runner_environment":false}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.runner_environment", says: "must be a string"},
		{name: "ext attestation object", entry: ext(`"provenance":{"attestation":[]}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.attestation", says: "must be an object"},
		{name: "ext predicate_type", entry: ext(`"provenance":{"attestation":{"predicate_type":"slsa-v1"}}`), reason: model.ReasonInvalidEntry, field: extField + "provenance.attestation.predicate_type", says: `"slsa-v1"`},
		{name: "ext oauth_config valid", entry: ext(`"oauth_config":{"issuer":"https://auth.example.com","authorize_url":"https://e.example/oauth/authorize","token_url":"https://e.example/oauth/token","client_id":"c","scopes":["read","read"],"use_pkce":true,"oauth_params":{"prompt":"consent"},"callback_port":8765,"resource":"https://mcp.example.com"}`)},
		{name: "ext oauth_config object", entry: ext(`"oauth_config":"x"`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config", says: "must be an object"},
		{name: "ext oauth issuer", entry: ext(`"oauth_config":{"issuer":"auth.example.com"}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.issuer", says: `"auth.example.com"`},
		{name: "ext oauth authorize_url", entry: ext(`"oauth_config":{"authorize_url":"/oauth/authorize"}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.authorize_url", says: `format "uri"`},
		{name: "ext oauth token_url", entry: ext(`"oauth_config":{"token_url":"https://e.example/oauth\\token"}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.token_url", says: `format "uri"`},
		{name: "ext oauth client_id", entry: ext(`"oauth_config":{"client_id":12345}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.client_id", says: "must be a string"},
		{name: "ext oauth scopes", entry: ext(`"oauth_config":{"scopes":"read"}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.scopes", says: "must be an array"},
		{name: "ext oauth scope", entry: ext(`"oauth_config":{"scopes":[1]}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.scopes[0]", says: "must be a string"},
		{name: "ext oauth use_pkce", entry: ext(`"oauth_config":{"use_pkce":"true"}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.use_pkce", says: "must be a boolean"},
		{name: "ext oauth_params", entry: ext(`"oauth_config":{"oauth_params":{"max_age":5}}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.oauth_params[max_age]", says: "must be a string, not 5"},
		{name: "ext oauth_params object", entry: ext(`"oauth_config":{"oauth_params":["prompt"]}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.oauth_params", says: "must be an object"},
		{name: "ext oauth callback_port", entry: ext(`"oauth_config":{"callback_port":0}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.callback_port", says: "from 1 to 65535"},
		{name: "ext oauth resource", entry: ext(`"oauth_config":{"resource":1}`), reason: model.ReasonInvalidEntry, field: extField + "oauth_config.resource", says: "must be a string"},
	}
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := model.ParseServer([]byte(tt.entry))
			if err != nil {
				t.Fatal(err)
			}
			ds := model.ValidateServer(s, obj, "data.servers[0]")
			if tt.reason == "" {
				if len(ds) != 0 {
					t.Fatalf("want valid, got %v", ds)
				}
				return
			}
			if len(ds) != 1 {
				t.Fatalf("want one diagnostic, got %d: %v", len(ds), ds)
			}
			d := ds[0]
			if d.Reason != tt.reason || d.Severity != tt.severity || !strings.HasSuffix(d.Field, tt.field) || !strings.Contains(d.Message, tt.says) {
				t.Errorf("got %s\nwant %s %s field *%s message containing %q", d, tt.severity, tt.reason, tt.field, tt.says)
			}
			if !strings.HasPrefix(d.Field, "data.servers[0].") {
				t.Errorf("field %q is not under the prefix", d.Field)
			}
			if name := s.Name(); name != "" && !strings.Contains(d.Message, name) {
				t.Errorf("message does not name the server %q: %s", name, d.Message)
			}
		})
	}
}

// TestValidateServerAllocations: a valid entry, ToolHive extensions and
// all, is checked without allocating (the check runs on every entry of a
// merge).
func TestValidateServerAllocations(t *testing.T) {
	for _, entry := range []string{benchImageEntry, benchRemoteEntry} {
		s, err := model.ParseServer([]byte(entry))
		if err != nil {
			t.Fatal(err)
		}
		if ds := model.ValidateServer(s, model.ObjectRef{}, "data.servers[0]"); len(ds) != 0 {
			t.Fatalf("fixture invalid: %v", ds)
		}
		if n := testing.AllocsPerRun(100, func() { model.ValidateServer(s, model.ObjectRef{}, "data.servers[0]") }); n != 0 {
			t.Errorf("%v allocations per ValidateServer of a valid entry", n)
		}
	}
}

// Entries as model.Parse converts ToolHive's catalog: an image server and a
// remote server with every extension ToolHive writes.
const (
	benchImageEntry  = `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"io.github.stacklok/airtable","description":"Read and write Airtable bases, tables and records","title":"Airtable","repository":{"url":"https://github.com/domdomegg/airtable-mcp-server","source":"github"},"version":"1.0.0","packages":[{"registryType":"oci","identifier":"public.ecr.aws/domdomegg/airtable-mcp-server:0.13.4","environmentVariables":[{"name":"AIRTABLE_API_KEY","description":"Personal access token","isRequired":true,"isSecret":true}],"transport":{"type":"stdio"}}],"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"public.ecr.aws/domdomegg/airtable-mcp-server:0.13.4":{"status":"Active","tier":"Official","tools":["update_records"],"tags":["database","spreadsheet"],"overview":"## Airtable MCP server\n\nRead and write Airtable bases, tables and records.\n\n### Tools\n\n- ` + "`list_bases`" + `\n- ` + "`list_tables`" + `\n\n### Configuration\n\nSet ` + "`AIRTABLE_API_KEY`" + ` before starting the server.\n","metadata":{"stars":954,"last_updated":"2025-08-29T01:31:29Z"},"permissions":{"name":"network","network":{"outbound":{"allow_host":["api.airtable.com",".airtable.com","objects.githubusercontent.com"],"allow_port":[443]}}},"provenance":{"sigstore_url":"tuf-repo-cdn.sigstore.dev","repository_uri":"https://github.com/domdomegg/airtable-mcp-server","repository_ref":"refs/tags/v0.13.4","signer_identity":"/.github/workflows/build.yml","runner_environment":"github-hosted","cert_issuer":"https://token.actions.githubusercontent.com","attestation":{"predicate_type":"https://slsa.dev/provenance/v1","predicate":{"buildDefinition":{"buildType":"https://actions.github.io/buildtypes/workflow/v1","externalParameters":{"workflow":{"path":".github/workflows/build.yml","ref":"refs/tags/v0.13.4","repository":"https://github.com/domdomegg/airtable-mcp-server"}}},"runDetails":{"builder":{"id":"https://github.com/actions/runner/github-hosted"},"metadata":{"invocationId":"https://github.com/domdomegg/airtable-mcp-server/actions/runs/1498650745/attempts/1"}}}}},"docker_tags":["0.13.4","latest"]}}}}}`
	benchRemoteEntry = `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"com.gitlab/gitlab-remote","description":"Work with GitLab projects, merge requests, pipelines and issues","repository":{"url":"https://github.com/gitlab-org/gitlab-mcp-server","source":"github"},"version":"1.0.0","remotes":[{"type":"sse","url":"https://mcp.gitlab.com/sse","headers":[{"name":"X-Region","description":"Region","isRequired":false,"choices":["us","eu"],"default":"us"}]}],"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"https://mcp.gitlab.com/sse":{"status":"Active","tier":"Community","tools":["list_projects"],"tags":["gitlab","git","ci"],"metadata":{"stars":705,"last_updated":"2025-05-14T20:48:29Z"},"custom_metadata":{"language":"rust","license":"MPL-2.0","verified":true},"oauth_config":{"authorize_url":"https://gitlab.com/oauth/authorize","token_url":"https://api.gitlab.com/oauth/token","client_id":"toolhive","scopes":["api","read_user"],"use_pkce":true,"oauth_params":{"prompt":"consent"},"callback_port":8765},"env_vars":[{"name":"GITLAB_TOKEN","description":"Token","required":true,"secret":true}],"tool_definitions":[{"name":"list_projects","description":"List projects","inputSchema":{"type":"object","properties":{"owned":{"type":"boolean"}}},"annotations":{"readOnlyHint":true}}],"proxy_port":8080}}}}}`
)

// BenchmarkValidateServer compares the check of a converted catalog entry
// with json.Valid over the same bytes (the floor the README's Performance
// section measures merges against).
func BenchmarkValidateServer(b *testing.B) {
	for name, entry := range map[string]string{"image": benchImageEntry, "remote": benchRemoteEntry} {
		s, err := model.ParseServer([]byte(entry))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(entry)))
			b.ReportAllocs()
			for b.Loop() {
				model.ValidateServer(s, model.ObjectRef{}, "data.servers[0]")
			}
		})
		b.Run(name+"/json.Valid", func(b *testing.B) {
			data := []byte(entry)
			b.SetBytes(int64(len(entry)))
			for b.Loop() {
				json.Valid(data)
			}
		})
	}
}

func TestValidateRegistryDocumentRules(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	doc := `{"version":"1.0","meta":{"last_updated":"yesterday"},"data":{"servers":[
		{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse","url":"https://same.example/sse"}]},
		{"name":"com.example/srv","description":"d","version":"1"},
		{"name":"com.example/other","description":"d","version":"1","remotes":[{"type":"sse","url":"https://same.example/sse"}]}]}}`
	ds := model.ValidateJSON([]byte(doc), obj)
	for _, want := range []struct {
		severity model.Severity
		reason   model.Reason
		field    string
	}{
		{model.SeverityError, model.ReasonInvalidEntry, "version"},
		{model.SeverityError, model.ReasonInvalidEntry, "meta.last_updated"},
		{model.SeverityError, model.ReasonDuplicateServer, "data.servers[1].name"},
		// Valid for the upstream rules and ToolHive; only the official
		// registry refuses a URL two servers claim.
		{model.SeverityWarning, model.ReasonDuplicateRemoteURL, "data.servers[2].remotes[0].url"},
	} {
		found := false
		for _, d := range ds {
			if d.Reason == want.reason && d.Field == want.field && d.Severity == want.severity {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s %s on %s in:\n%s", want.severity, want.reason, want.field, lines(ds))
		}
	}
	if len(ds) != 4 {
		t.Errorf("want 4 diagnostics, got:\n%s", lines(ds))
	}
}

func TestNormalizeShortens(t *testing.T) {
	s := model.NewServer("com.example/srv", strings.Repeat("word ", 40), "1.0.0")
	ok, ds := model.Normalize(s, model.ObjectRef{Kind: "File", Name: "f"}, "x")
	if !ok || len(ds) != 1 || ds[0].Reason != model.ReasonDescriptionTooLong || ds[0].Severity != model.SeverityWarning {
		t.Fatalf("ok=%v ds=%v", ok, ds)
	}
	if n := len([]rune(s.Description())); n > model.DescriptionMaxLen || n < 75 {
		t.Errorf("shortened description has %d characters: %q", n, s.Description())
	}
	if vs := model.ValidateServer(s, model.ObjectRef{}, ""); len(vs) != 0 {
		t.Errorf("normalised entry still invalid: %v", vs)
	}
}

func TestParseFormatOverride(t *testing.T) {
	list := []byte(`{"servers":[{"name":"a","image":"i","description":"d"}]}`)
	// "toolhive" covers both ToolHive shapes: the list shorthand reads.
	if reg, ds := model.Parse(list, model.ParseOptions{Format: model.FormatToolHive, DefaultNamespace: "com.example"}); reg == nil || len(ds) != 0 || reg.Servers[0].Name() != "com.example/a" {
		t.Errorf("toolhive override on list data: reg=%v ds=%v", reg, ds)
	}
	// "upstream" is strict, and says what it found and what it wanted.
	reg, ds := model.Parse(list, model.ParseOptions{Format: model.FormatUpstream})
	if reg != nil || len(ds) != 1 || ds[0].Reason != model.ReasonUnknownFormat ||
		!strings.Contains(ds[0].Message, "ToolHive list shape") || !strings.Contains(ds[0].Message, `format "upstream" (upstream only`) {
		t.Errorf("upstream override on list data: reg=%v ds=%v", reg, ds)
	}
	legacy := []byte(`{"servers":{"a":{"image":"i","description":"d"}}}`)
	if reg, ds := model.Parse(legacy, model.ParseOptions{Format: model.FormatToolHive}); reg == nil || len(ds) != 0 {
		t.Errorf("toolhive override on legacy data: reg=%v ds=%v", reg, ds)
	}
	// Only "upstream" is strict: "toolhive", the CRD's default, reads an
	// upstream document too, and says so in an Info.
	upstream := []byte(`{"data":{"servers":[{"name":"com.example/u","description":"d","version":"1.0.0"}]}}`)
	if reg, ds := model.Parse(upstream, model.ParseOptions{Format: model.FormatToolHive}); reg == nil || len(reg.Servers) != 1 ||
		reg.Servers[0].Name() != "com.example/u" || len(ds) != 1 || ds[0].Reason != model.ReasonUnknownFormat ||
		ds[0].Severity != model.SeverityInfo || !strings.Contains(ds[0].Message, "read as upstream") {
		t.Errorf("toolhive override on upstream data: reg=%v ds=%v", reg, ds)
	}
	reg, ds = model.Parse(list, model.ParseOptions{Format: model.FormatList, DefaultNamespace: "com.example"})
	if reg == nil || len(ds) != 0 || reg.Servers[0].Name() != "com.example/a" {
		t.Errorf("list override: reg=%v ds=%v", reg, ds)
	}
	for _, s := range []string{"auto", "upstream", "toolhive", "legacy", "list", ""} {
		if _, err := model.ParseFormat(s); err != nil {
			t.Errorf("ParseFormat(%q): %v", s, err)
		}
	}
	if _, err := model.ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) accepted")
	}
}

// FuzzValidateServer: no entry makes the check panic, every diagnostic lies
// under the field prefix and names the server, and a second run gives the
// same diagnostics.
func FuzzValidateServer(f *testing.F) {
	for _, s := range []string{benchImageEntry, benchRemoteEntry, ext(`"permissions":{"read":["/a","/a"]}`), top(`"x":[1e400,{"a":{"b":-1e999}}]`),
		pkg(`"packageArguments":[{"type":"positional","variables":{"v":{"choices":[1]}}}]`), remote(`"headers":[{"name":"a","name":"b","isRequired":1}]`)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := model.ParseServer(data)
		if err != nil {
			return
		}
		ds := model.ValidateServer(s, model.ObjectRef{}, "p")
		for _, d := range ds {
			if d.Field != "p" && !strings.HasPrefix(d.Field, "p.") {
				t.Fatalf("field %q not under the prefix", d.Field)
			}
			if !strings.Contains(d.Message, fmt.Sprintf("server %q", s.Name())) {
				t.Fatalf("message does not name the server: %s", d.Message)
			}
		}
		if again := model.ValidateServer(s, model.ObjectRef{}, "p"); fmt.Sprint(again) != fmt.Sprint(ds) {
			t.Fatalf("second run differs:\n%v\n%v", ds, again)
		}
	})
}

// TestValidateNeverEchoesUserinfo: the check of a document repeats no URL's
// user information, in any message it gives about a URL: a duplicate, a URL
// that does not match the remote pattern, one whose "@" is written as an
// escape, and a value of another member that is a URL.
func TestValidateNeverEchoesUserinfo(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	doc := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[
		{"name":"io.github.ab/cd","description":"A","version":"1.0.0","remotes":[{"type":"sse","url":"https://user:s3cret@x.example/sse"}]},
		{"name":"io.github.ab/ef","description":"A","version":"1.0.0","remotes":[{"type":"sse","url":"https://user:s3cret@x.example/sse"}]},
		{"name":"io.github.ab/gh","description":"A","version":"1.0.0","remotes":[{"type":"sse","url":"ftp://user:s3cret@host/x"}]},
		{"name":"io.github.ab/ij","description":"A","version":"1.0.0","remotes":[{"type":"sse","url":"https://user:s3cret\u0040x.example/a b"}]},
		{"name":"io.github.ab/kl","description":"A","version":"1.0.0","remotes":[{"type":"https://user:s3cret@x.example","url":"https://x.example/"}]}]}}`
	ds := model.ValidateJSON([]byte(doc), obj)
	if len(ds) != 4 {
		t.Errorf("want 4 diagnostics (a duplicate URL, two URLs off the pattern, a bad type), got:\n%s", lines(ds))
	}
	for _, d := range ds {
		if strings.Contains(d.Message, "s3cret") || !strings.Contains(d.Message, "***@") {
			t.Errorf("%s: message %q repeats the user information or does not mask it", d.Field, d.Message)
		}
	}
}

// TestValidateMasksExtensionKeys: a ToolHive extension's key is a URL by
// convention; a password written into it is masked in fields and messages.
func TestValidateMasksExtensionKeys(t *testing.T) {
	doc := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[{"name":"io.github.ab/cd","description":"d","version":"1.0.0",` +
		`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"https://u:s3cret@db.example/mcp":{"tier":"community"}}}}}]}}`
	ds := model.ValidateJSON([]byte(doc), model.ObjectRef{Kind: "File", Name: "f.json"})
	if len(ds) == 0 {
		t.Fatal("no diagnostic for a bad tier and a missing status")
	}
	for _, d := range ds {
		if strings.Contains(d.Field, "s3cret") || strings.Contains(d.Message, "s3cret") {
			t.Errorf("%s: %s repeats the password", d.Field, d.Message)
		}
	}
}

// TestValidateNeverEchoesInputValues: the value and default of an input
// (a header, an environment variable, an argument) may be a secret; when
// either is not a string the message names its kind, never its text.
func TestValidateNeverEchoesInputValues(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	doc := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[
		{"name":"io.github.ab/cd","description":"A","version":"1.0.0","remotes":[{"type":"sse","url":"https://x.example/sse",
			"headers":[{"name":"A","isSecret":true,"value":{"s3cret":"x"}},{"name":"B","isSecret":true,"default":1234567}]}]},
		{"name":"io.github.ab/ef","description":"A","version":"1.0.0","packages":[{"registryType":"npm","identifier":"x","version":"1.0.0","transport":{"type":"stdio"},
			"environmentVariables":[{"name":"C","isSecret":true,"value":["s3cret"]}],
			"packageArguments":[{"type":"named","name":"--t","isSecret":true,"default":{"t":"s3cret"}}]}]}]}}`
	ds := model.ValidateJSON([]byte(doc), obj)
	want := map[string]string{
		"remotes[0].headers[0].value":               "an object",
		"remotes[0].headers[1].default":             "a number",
		"packages[0].environmentVariables[0].value": "an array",
		"packages[0].packageArguments[0].default":   "an object",
	}
	found := 0
	for _, d := range ds {
		if strings.Contains(d.Message, "s3cret") || strings.Contains(d.Message, "1234567") {
			t.Errorf("%s: message %q repeats the value", d.Field, d.Message)
		}
		for path, kind := range want {
			if strings.HasSuffix(d.Field, path) {
				found++
				if !strings.HasSuffix(d.Message, "must be a string, not "+kind) {
					t.Errorf("%s: message %q does not name the kind %s", d.Field, d.Message, kind)
				}
			}
		}
	}
	if found != len(want) {
		t.Errorf("want a diagnostic for each of %d values, got %d:\n%s", len(want), found, lines(ds))
	}
}

// TestValidateRefusesTextThatIsNotUnicode: the document check reports what
// every verb skips: invalid UTF-8, and a lone surrogate escape, in any
// member, nested or not, and in a member name of the entry itself (which,
// decoded, reads as U+FFFD).
func TestValidateRefusesTextThatIsNotUnicode(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	doc := "{\"version\":\"1.0.0\",\"meta\":{\"last_updated\":\"2025-01-01T00:00:00Z\"},\"data\":{\"servers\":[" +
		`{"name":"io.github.ab/cd","description":"A\ud800","version":"1.0.0"},` +
		"{\"name\":\"io.github.ab/ef\",\"description\":\"B\xff\xfe\",\"version\":\"1.0.0\"}," +
		`{"name":"io.github.ab/gh","description":"C","version":"1.0.0","repository":{"url":"https://x.example/\udc00","source":"github"}},` +
		`{"name":"io.github.ab/ij","description":"D \ud83d\ude00","version":"1.0.0"},` +
		"{\"name\":\"io.github.ab/kl\",\"description\":\"E\",\"version\":\"1.0.0\",\"\xff\":1}," +
		`{"name":"io.github.ab/mn","description":"F","version":"1.0.0","x\ud800":1},` +
		`{"name":"io.github.ab/op","description":"G","version":"1.0.0","\u00e9":1}]}}`
	ds := model.ValidateJSON([]byte(doc), obj)
	want := []string{"data.servers[0].description", "data.servers[1].description", "data.servers[2].repository",
		"data.servers[4].\\xff", `data.servers[5].x\ud800`}
	var got []string
	for _, d := range ds {
		if d.Severity == model.SeverityError && d.Reason == model.ReasonInvalidEntry {
			got = append(got, d.Field)
		}
	}
	if !slices.Equal(got, want) || len(ds) != len(want) {
		t.Errorf("errors on %v, want %v; all:\n%s", got, want, lines(ds))
	}
}

// TestValidateJSONDocumentMembers: the members of a document outside its
// server entries are checked as ToolHive's registry server checks them: a
// "$schema" that is present must be a string holding a URI (null, a number
// and "" are refused), and no number anywhere may be beyond float64, since
// the server decodes the whole document before it reads the servers. A huge
// number inside an entry is the entry's error, reported once.
func TestValidateJSONDocumentMembers(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	const rest = `"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"}`
	const servers = `"servers":[{"name":"com.example/srv","description":"d","version":"1.0.0"}]`
	for _, tt := range []struct {
		name, doc string
		fields    []string // the fields of the Error diagnostics, sorted
	}{
		{"valid", `{"$schema":"https://example.com/s.json",` + rest + `,"data":{` + servers + `}}`, nil},
		{"no $schema", `{` + rest + `,"data":{` + servers + `}}`, nil},
		{"$schema null", `{"$schema":null,` + rest + `,"data":{` + servers + `}}`, []string{"$schema"}},
		{"$schema number", `{"$schema":5,` + rest + `,"data":{` + servers + `}}`, []string{"$schema"}},
		{"$schema empty", `{"$schema":"",` + rest + `,"data":{` + servers + `}}`, []string{"$schema"}},
		{"$schema relative", `{"$schema":"schema.json",` + rest + `,"data":{` + servers + `}}`, []string{"$schema"}},
		{"$schema last of two", `{"$schema":"https://example.com/s.json","$schema":5,` + rest + `,"data":{` + servers + `}}`, []string{"$schema"}},
		{"$schema earlier of two", `{"$schema":5,"$schema":"https://example.com/s.json",` + rest + `,"data":{` + servers + `}}`, nil},
		{"huge number at top", `{"x":[1,-2e400],` + rest + `,"data":{` + servers + `}}`, []string{"x"}},
		{"huge number in meta", `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z","n":1e309},"data":{` + servers + `}}`, []string{"meta"}},
		{"huge number in data", `{` + rest + `,"data":{` + servers + `,"skills":[],"n":{"m":"1e999","k":1e999}}}`, []string{"data.n"}},
		{"huge number in an earlier data", `{` + rest + `,"data":{"x":1e400},"data":{` + servers + `}}`, []string{"data"}},
		{"huge number in an earlier servers", `{` + rest + `,"data":{"servers":[1e400],` + servers + `}}`, []string{"data.servers", "data.servers[0]"}},
		{"huge number in an entry", `{` + rest + `,"data":{"servers":[{"name":"com.example/srv","description":"d","version":"1.0.0","x":1e400}]}}`, []string{"data.servers[0].x"}},
		{"number in a string", `{"x":"1e400",` + rest + `,"data":{` + servers + `}}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ds := model.ValidateJSON([]byte(tt.doc), obj)
			var fields []string
			for _, d := range ds.WithSeverity(model.SeverityError) {
				if d.Reason != model.ReasonInvalidEntry {
					t.Errorf("reason %s, want InvalidEntry: %v", d.Reason, d)
				}
				fields = append(fields, d.Field)
			}
			if !slices.Equal(fields, tt.fields) {
				t.Errorf("errors on %v, want %v; all:\n%s", fields, tt.fields, lines(ds))
			}
		})
	}
}

// TestValidateJSONSkillsAndPlugins: data.skills and data.plugins, which
// ToolHive's registry schema checks against its skill and plugin schemas,
// are checked by the same rules: the list must be an array of objects with
// namespace, name, description and version, each of its form; a skill's
// provenance takes no other member; a repeated allowed tool is an error.
func TestValidateJSONSkillsAndPlugins(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	doc := func(key, items string) string {
		return `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[{"name":"com.example/srv","description":"d","version":"1.0.0"}],"` + key + `":` + items + `}}`
	}
	const item = `"namespace":"io.github.acme","name":"my-skill","description":"d","version":"1.0.0"`
	for _, tt := range []struct {
		name, key, items string
		fields           []string
	}{
		{"empty", "skills", `[]`, nil},
		{"valid skill", "skills", `[{` + item + `,"status":"archived","allowedTools":["a","b"],"repository":{"url":"https://github.com/acme/x"},"icons":[{"src":"x"}],"packages":[{"registryType":"git","url":"https://github.com/acme/x"}],"provenance":{"attestation":{"predicate":{}}},"metadata":{},"x":1}]`, nil},
		{"valid plugin", "plugins", `[{` + item + `,"compatibility":"` + strings.Repeat("x", 600) + `"}]`, nil},
		{"null", "skills", `null`, []string{"data.skills"}},
		{"object", "plugins", `{}`, []string{"data.plugins"}},
		{"item not an object", "plugins", `[1]`, []string{"data.plugins[0]"}},
		{"missing members", "skills", `[{}]`, []string{"data.skills[0]", "data.skills[0]", "data.skills[0]", "data.skills[0]"}},
		{"name pattern", "skills", `[{` + item + `,"name":"My_Skill"}]`, []string{"data.skills[0].name"}},
		{"one-character name", "plugins", `[{` + item + `,"name":"a"}]`, []string{"data.plugins[0].name"}},
		{"namespace too short", "skills", `[{` + item + `,"namespace":"ab"}]`, []string{"data.skills[0].namespace"}},
		{"status", "plugins", `[{` + item + `,"status":"Active"}]`, []string{"data.plugins[0].status"}},
		{"compatibility", "skills", `[{` + item + `,"compatibility":"` + strings.Repeat("x", 501) + `"}]`, []string{"data.skills[0].compatibility"}},
		{"repeated tool", "skills", `[{` + item + `,"allowedTools":["a","a"]}]`, []string{"data.skills[0].allowedTools[1]"}},
		{"package type", "plugins", `[{` + item + `,"packages":[{"registryType":"npm"}]}]`, []string{"data.plugins[0].packages[0].registryType"}},
		{"repository url", "skills", `[{` + item + `,"repository":{"url":"github.com/acme/x"}}]`, []string{"data.skills[0].repository.url"}},
		{"provenance closed", "skills", `[{` + item + `,"provenance":{"sigstore_url":"x","extra":1}}]`, []string{"data.skills[0].provenance"}},
		{"last of two lists", "skills", `[1],"skills":[]`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ds := model.ValidateJSON([]byte(doc(tt.key, tt.items)), obj)
			var fields []string
			for _, d := range ds.WithSeverity(model.SeverityError) {
				fields = append(fields, d.Field)
			}
			if !slices.Equal(fields, tt.fields) {
				t.Errorf("errors on %v, want %v; all:\n%s", fields, tt.fields, lines(ds))
			}
		})
	}
	// A hostile list gives a bounded number of diagnostics.
	many := doc("skills", "["+strings.Repeat("{},", 999)+"{}]")
	if ds := model.ValidateJSON([]byte(many), obj); len(ds) > 2*model.MaxPerObjectReason+2 {
		t.Errorf("%d diagnostics for 1000 bad skills", len(ds))
	}
}

// TestValidateJSONOtherShape: data in a ToolHive shape is no upstream
// document, and the UnknownFormat error says which shape it has and that a
// conversion gives an upstream document, rather than that a format "was
// requested", which a validation's caller never did.
func TestValidateJSONOtherShape(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "registry.json"}
	for doc, shape := range map[string]string{
		`{"servers":{"fetch":{"image":"i","description":"d"}}}`: "ToolHive legacy shape",
		`{"servers":[{"name":"fetch","image":"i"}]}`:            "ToolHive list shape",
	} {
		ds := model.ValidateJSON([]byte(doc), obj)
		if len(ds) != 1 || ds[0].Reason != model.ReasonUnknownFormat || ds[0].Severity != model.SeverityError ||
			!strings.Contains(ds[0].Message, shape) || !strings.Contains(ds[0].Message, "model.Convert") ||
			strings.Contains(ds[0].Message, "requested") {
			t.Errorf("%s: want one UnknownFormat error naming the %s and model.Convert, got:\n%s", doc, shape, lines(ds))
		}
	}
	// No known shape at all: the message says what was found.
	ds := model.ValidateJSON([]byte(`{"mcpServers":{}}`), obj)
	if len(ds) != 1 || ds[0].Reason != model.ReasonUnknownFormat || !strings.Contains(ds[0].Message, "mcpServers") {
		t.Errorf("client configuration: got:\n%s", lines(ds))
	}
}
