package model

import "strings"

// Member names that differ only in case.
//
// encoding/json matches an object member to a struct field without regard
// to case (Unicode simple folding, as strings.EqualFold), preferring no
// exact spelling, and the last member that matches a field wins. ToolHive's
// registry server decodes server entries into such structs, so an entry
// holding "NAME" or "Remotes" beside (or instead of) "name" and "remotes"
// is read there with the other spelling's value: a name, a remote URL or a
// package that no check of this package saw, since the upstream rules and
// ToolHive's own schema check match names exactly. An entry whose member
// name is another spelling of a field of the struct its level is decoded
// into is therefore refused (InvalidEntry) instead of passed through.
// Levels decoded into maps (the publisher-provided block, custom_metadata,
// variables, a tool's schemas) take any key.

// A keySet is the member names of one struct ToolHive decodes a level of an
// entry into.
type keySet []string

// The structs of an upstream document (toolhive-core's UpstreamRegistry,
// UpstreamMeta and UpstreamData).
var (
	caseDocument     = keySet{KeySchema, KeyVersion, "meta", "data"}
	caseDocumentMeta = keySet{"last_updated"}
	caseDocumentData = keySet{"servers", "skills", "plugins"}
)

// The structs of server.json (modelcontextprotocol/registry's ServerJSON
// and its model package, as toolhive-core v0.0.43 uses them).
var (
	caseServer     = keySet{KeySchema, KeyName, KeyDescription, KeyTitle, "repository", KeyVersion, "websiteUrl", "icons", KeyPackages, KeyRemotes, KeyMeta}
	caseRepository = keySet{"url", "source", "id", "subfolder"}
	caseIcon       = keySet{"src", "mimeType", "sizes", "theme"}
	caseTransport  = keySet{"type", "url", "headers", "variables"}
	casePackage    = keySet{"registryType", "registryBaseUrl", "identifier", KeyVersion, "fileSha256", "runtimeHint",
		"transport", "runtimeArguments", "packageArguments", "environmentVariables"}
	// caseInput are Input's; an InputWithVariables adds "variables", a
	// KeyValueInput also "name", an Argument "type", "name", "valueHint"
	// and "isRepeated".
	caseInput         = keySet{KeyDescription, "isRequired", "format", "value", "isSecret", "default", "placeholder", "choices"}
	caseKeyValueInput = append(caseInput[:len(caseInput):len(caseInput)], "variables", KeyName)
	caseArgument      = append(caseInput[:len(caseInput):len(caseInput)], "variables", "type", KeyName, "valueHint", "isRepeated")
	caseServerMeta    = keySet{PublisherProvidedKey}
)

// The structs of ToolHive's publisher extensions (toolhive-core's
// ServerExtensions and below; tool_definitions are MCP tools, not listed).
var (
	caseExtension = keySet{"status", "tier", "tools", "tags", "overview", "metadata", "custom_metadata", "permissions", "args",
		"provenance", "docker_tags", "proxy_port", "stateless", "oauth_config", "env_vars", "tool_definitions"}
	caseExtMetadata    = keySet{"stars", "last_updated", "kubernetes"}
	caseExtKubernetes  = keySet{"kind", "namespace", KeyName, "uid", "image", "transport"}
	caseExtEnvVar      = keySet{KeyName, KeyDescription, "required", "default", "secret"}
	caseExtPermissions = keySet{KeyName, "read", "write", "network", "privileged"}
	caseExtNetwork     = keySet{"mode", "outbound", "inbound"}
	caseExtOutbound    = keySet{"insecure_allow_all", "allow_host", "allow_port"}
	caseExtProvenance  = keySet{"sigstore_url", "repository_uri", "repository_ref", "signer_identity", "runner_environment", "cert_issuer", "attestation"}
	caseExtAttestation = keySet{"predicate_type", "predicate"}
	caseExtOAuth       = keySet{"issuer", "authorize_url", "token_url", "client_id", "scopes", "use_pkce", "oauth_params", "callback_port", "resource"}
)

// variantOf returns the member name of ks that key spells in another case,
// or "" when key is one of ks or matches none. It is asked only of keys the
// caller found in no case of its switch, and costs len(ks) comparisons that
// stop at the first byte that differs without regard to case.
func variantOf[K string | []byte](ks keySet, key K) string {
	for _, k := range ks {
		if string(key) != k && strings.EqualFold(string(key), k) {
			return k
		}
	}
	return ""
}

// variantMessage says why a member whose name spells canonical (its one
// argument) in another case is refused.
const variantMessage = "is another spelling of %q: encoding/json matches member names without regard to case, so ToolHive's registry server would read this member as that one; rename or remove it"
