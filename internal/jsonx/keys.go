package jsonx

// numKeys is one more than the largest number internKey gives a key.
const numKeys = 73

// The numbers of the keys KeyFacts.First records that a caller looks for.
const (
	idSchema      = 1
	idVersion     = 2
	idName        = 7
	idDescription = 8
	idTitle       = 9
)

// FirstID returns the number of key when it is "$schema", "version",
// "name", "description" or "title" (an index of KeyFacts.First), else 0.
func FirstID(key string) int {
	switch key {
	case "$schema":
		return idSchema
	case "version":
		return idVersion
	case "name":
		return idName
	case "description":
		return idDescription
	case "title":
		return idTitle
	}
	return 0
}

// internKey returns the keys of the registry formats (upstream documents,
// server.json, ToolHive's publisher extensions and legacy catalogs) as
// constant strings, so that splitting the objects of a large document does
// not allocate a string per key. The switch over string(b) does not
// allocate either.
//
// The second result numbers the key from 1 (0 for any other key), so that a
// caller can find a repeated key with a bit set rather than by comparing
// strings; numKeys bounds the numbers.
func internKey(b []byte) (string, int) {
	switch string(b) {
	// Upstream document.
	case "$schema":
		return "$schema", idSchema
	case "version":
		return "version", idVersion
	case "meta":
		return "meta", 3
	case "last_updated":
		return "last_updated", 4
	case "data":
		return "data", 5
	case "servers":
		return "servers", 6
	// server.json.
	case "name":
		return "name", idName
	case "description":
		return "description", idDescription
	case "title":
		return "title", idTitle
	case "websiteUrl":
		return "websiteUrl", 10
	case "repository":
		return "repository", 11
	case "url":
		return "url", 12
	case "source":
		return "source", 13
	case "id":
		return "id", 14
	case "subfolder":
		return "subfolder", 15
	case "icons":
		return "icons", 16
	case "src":
		return "src", 17
	case "mimeType":
		return "mimeType", 18
	case "sizes":
		return "sizes", 19
	case "theme":
		return "theme", 20
	case "packages":
		return "packages", 21
	case "registryType":
		return "registryType", 22
	case "registryBaseUrl":
		return "registryBaseUrl", 23
	case "identifier":
		return "identifier", 24
	case "fileSha256":
		return "fileSha256", 25
	case "runtimeHint":
		return "runtimeHint", 26
	case "transport":
		return "transport", 27
	case "runtimeArguments":
		return "runtimeArguments", 28
	case "packageArguments":
		return "packageArguments", 29
	case "environmentVariables":
		return "environmentVariables", 30
	case "remotes":
		return "remotes", 31
	case "type":
		return "type", 32
	case "headers":
		return "headers", 33
	case "variables":
		return "variables", 34
	case "isRequired":
		return "isRequired", 35
	case "isSecret":
		return "isSecret", 36
	case "isRepeated":
		return "isRepeated", 37
	case "format":
		return "format", 38
	case "value":
		return "value", 39
	case "valueHint":
		return "valueHint", 40
	case "default":
		return "default", 41
	case "placeholder":
		return "placeholder", 42
	case "choices":
		return "choices", 43
	case "_meta":
		return "_meta", 44
	case "io.modelcontextprotocol.registry/publisher-provided":
		return "io.modelcontextprotocol.registry/publisher-provided", 45
	case "io.modelcontextprotocol.registry/official":
		return "io.modelcontextprotocol.registry/official", 46
	case "io.github.stacklok":
		return "io.github.stacklok", 47
	// ToolHive's publisher extensions and legacy catalogs.
	case "status":
		return "status", 48
	case "tier":
		return "tier", 49
	case "tools":
		return "tools", 50
	case "tags":
		return "tags", 51
	case "metadata":
		return "metadata", 52
	case "stars":
		return "stars", 53
	case "kubernetes":
		return "kubernetes", 54
	case "overview":
		return "overview", 55
	case "custom_metadata":
		return "custom_metadata", 56
	case "tool_definitions":
		return "tool_definitions", 57
	case "permissions":
		return "permissions", 58
	case "provenance":
		return "provenance", 59
	case "env_vars":
		return "env_vars", 60
	case "args":
		return "args", 61
	case "docker_tags":
		return "docker_tags", 62
	case "proxy_port":
		return "proxy_port", 63
	case "target_port":
		return "target_port", 64
	case "stateless":
		return "stateless", 65
	case "oauth_config":
		return "oauth_config", 66
	case "image":
		return "image", 67
	case "required":
		return "required", 68
	case "secret":
		return "secret", 69
	case "remote_servers":
		return "remote_servers", 70
	case "groups":
		return "groups", 71
	case "repository_url":
		return "repository_url", 72
	}
	return "", 0
}
