package model

import (
	"bytes"
	"math"
)

// The checks of _meta: the publisher-provided block must be an object of
// objects (server.json and ToolHive's publisher-provided schema), and inside
// it ToolHive's namespace follows toolhive-core's publisher-provided schema
// (its $defs server_extensions and below), which ToolHive's registry server
// enforces. toolhive-core checks that block after decoding it into `any`, so
// numbers are compared as float64 here too (floatOf).

// meta checks _meta. Every publisher's block must be an object; only
// ToolHive's is read further.
func (v *validator) meta(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	for v.next(&it) {
		if string(it.m.key) != PublisherProvidedKey {
			v.variant(&it.m, caseServerMeta)
			continue
		}
		v.facts.block = it.m.value
		v.inKey(it.m.key)
		var pubs members
		v.open(&pubs, it.m.value)
		for v.next(&pubs) {
			pub := &pubs.m
			v.inKey(pub.key)
			var entries members
			if v.open(&entries, pub.value) {
				toolhive := string(pub.key) == ToolHivePublisher
				for v.next(&entries) {
					// Another publisher's block is read through only so
					// that a malformed one is found as membersOf finds it.
					if toolhive {
						v.inKey(maskedKey(entries.m.key))
						if v.publish {
							// The key is the image or URL the extensions
							// describe, published like its value.
							if holdsCredential(string(entries.m.key)) {
								v.fail("is the key of an image or URL with user information: a credential would be published to every reader of the registry")
							}
						}
						v.extensions(entries.m.value)
						v.out()
					}
				}
			}
			v.out()
		}
		v.out()
	}
}

var (
	extStatuses          = []string{"active", "deprecated", "Active", "Deprecated"}
	extTiers             = []string{"Official", "Community"}
	kubernetesTransports = []string{"stdio", "sse", "streamable-http", "http"}
)

// The port range of proxy_port, callback_port and allow_port.
const portMin, portMax = 1, 65535

// extensions checks server_extensions, the ToolHive extensions of one image
// or URL.
func (v *validator) extensions(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	hasStatus := false
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "status":
			hasStatus = true
			v.enumm(m, extStatuses)
		case "tier":
			v.enumm(m, extTiers)
		case "overview":
			v.isStr(m)
		case "proxy_port":
			v.intm(m, portMin, portMax)
		case "stateless":
			v.boolm(m)
		case "custom_metadata":
			v.objm(m)
		case "tools", "tags", "docker_tags", "args", "tool_definitions", "env_vars",
			"metadata", "permissions", "provenance", "oauth_config":
			v.in(m.key)
			v.extensionsMember(m)
			v.out()
		default:
			v.variant(m, caseExtension)
		}
	}
	if !hasStatus {
		v.inName("status")
		v.fail(`is required ("active" or "deprecated")`)
		v.out()
	}
}

// extensionsMember checks a member of server_extensions that holds more
// than one value, its key pushed.
func (v *validator) extensionsMember(m *rawMember) {
	switch string(m.key) {
	case "tools":
		v.stringList(m.value, ruleTool, true)
	case "tags":
		v.stringList(m.value, ruleTag, true)
	case "docker_tags":
		v.stringList(m.value, nil, true)
	case "args":
		// Repeated flags are ordinary in args; the schema allows them.
		v.stringList(m.value, nil, false)
	case "tool_definitions":
		v.each(m.value, eachToolDefinition)
	case "env_vars":
		v.each(m.value, eachEnvVar)
	case "metadata":
		v.metadata(m.value)
	case "permissions":
		v.permissions(m.value)
	case "provenance":
		v.provenance(m.value)
	case "oauth_config":
		v.oauthConfig(m.value)
	}
}

// intm checks that a member's value is an integer from lo to hi, read as a
// float64.
func (v *validator) intm(m *rawMember, lo, hi float64) { v.integerAt(m.key, -1, m.value, lo, hi) }

// integerAt is intm for the value at the path failAt completes with key or
// idx.
func (v *validator) integerAt(key []byte, idx int, raw []byte, lo, hi float64) {
	if f, ok := floatOf(raw); !ok || f != math.Trunc(f) || f < lo || f > hi {
		v.failAt(key, idx, "is %s; it must be an integer from %v to %v", show(raw), lo, hi)
	}
}

// toolDefinition checks tool_definition: an object with a required string
// name, a string description, object inputSchema and annotations.
func (v *validator) toolDefinition(raw []byte) {
	var it members
	if !v.open(&it, raw) {
		return
	}
	hasName := false
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "name":
			hasName = true
			v.isStr(m)
		case "description":
			v.isStr(m)
		case "inputSchema", "annotations":
			v.objm(m)
		}
	}
	v.required(hasName, "name")
}

// envVar checks environment_variable: name matching its pattern (not
// required), string description and default, boolean required and secret.
func (v *validator) envVar(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "name":
			v.strm(m, ruleEnvVar)
		case "description", "default":
			v.isStr(m)
		case "required", "secret":
			v.boolm(m)
		default:
			v.variant(m, caseExtEnvVar)
		}
	}
}

// metadata checks metadata: stars a number >= 0, last_updated a date-time,
// kubernetes the workload's kind, namespace, name, uid, image and transport.
func (v *validator) metadata(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "stars":
			if f, ok := floatOf(m.value); !ok || f < 0 {
				v.failAt(m.key, -1, "is %s; it must be a number, 0 or more", show(m.value))
			}
		case "last_updated":
			v.strm(m, ruleDateTime)
		case "kubernetes":
			v.in(m.key)
			v.kubernetes(m.value)
			v.out()
		default:
			v.variant(m, caseExtMetadata)
		}
	}
}

func (v *validator) kubernetes(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "kind", "image":
			v.isStr(m)
		case "namespace", "name":
			v.strm(m, ruleK8sName)
		case "uid":
			v.strm(m, ruleUUID)
		case "transport":
			v.enumm(m, kubernetesTransports)
		default:
			v.variant(m, caseExtKubernetes)
		}
	}
}

// permissions checks permissions: a string name, read and write lists of
// unique absolute paths, boolean privileged, and network.outbound.
func (v *validator) permissions(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "name":
			v.isStr(m)
		case "read", "write":
			v.in(m.key)
			v.stringList(m.value, ruleMount, true)
			v.out()
		case "privileged":
			v.boolm(m)
		case "network":
			v.in(m.key)
			var nit members
			v.open(&nit, m.value)
			for v.next(&nit) {
				n := &nit.m
				if string(n.key) == "outbound" {
					v.in(n.key)
					v.outbound(n.value)
					v.out()
				} else {
					v.variant(n, caseExtNetwork)
				}
			}
			v.out()
		default:
			v.variant(m, caseExtPermissions)
		}
	}
}

// outbound checks outbound_permissions: unique hosts (hostnames or
// ".domain" patterns), unique ports from 1 to 65535, boolean
// insecure_allow_all.
func (v *validator) outbound(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "allow_host":
			v.in(m.key)
			v.stringList(m.value, ruleHost, true)
			v.out()
		case "allow_port":
			v.in(m.key)
			v.ports(m.value)
			v.out()
		case "insecure_allow_all":
			v.boolm(m)
		default:
			v.variant(m, caseExtOutbound)
		}
	}
}

// ports checks a list of unique ports; uniqueness compares the float64
// values, as toolhive-core decodes them.
func (v *validator) ports(raw []byte) {
	var it elements
	v.openArray(&it, raw)
	var seenBuf [24]float64
	seen := seenBuf[:0]
	for v.nextElement(&it) {
		el := it.el
		v.integerAt(nil, it.n, el, portMin, portMax)
		if f, ok := floatOf(el); ok {
			for j, g := range seen {
				if g == f {
					v.failAt(nil, it.n, "repeats %s (also at [%d]); the values must be unique", show(el), j)
					break
				}
			}
			seen = append(seen, f)
		}
	}
}

// provenance checks provenance: sigstore_url a hostname, repository_uri and
// cert_issuer URIs, strings, and attestation.predicate_type a URI.
func (v *validator) provenance(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "sigstore_url":
			v.strm(m, ruleHostname)
		case "repository_uri", "cert_issuer":
			v.strm(m, ruleURI)
		case "repository_ref", "signer_identity", "runner_environment":
			v.isStr(m)
		case "attestation":
			v.in(m.key)
			var ait members
			v.open(&ait, m.value)
			for v.next(&ait) {
				if a := &ait.m; string(a.key) == "predicate_type" {
					v.strm(a, ruleURI)
				} else {
					v.variant(a, caseExtAttestation)
				}
			}
			v.out()
		default:
			v.variant(m, caseExtProvenance)
		}
	}
}

// oauthConfig checks oauth_config: issuer, authorize_url and token_url URIs;
// strings client_id and resource; scopes strings; boolean use_pkce;
// oauth_params a map of strings; callback_port from 1 to 65535.
func (v *validator) oauthConfig(raw []byte) {
	var it members
	v.open(&it, raw)
	for v.next(&it) {
		m := &it.m
		switch string(m.key) {
		case "issuer", "authorize_url", "token_url":
			v.strm(m, ruleURI)
		case "client_id", "resource":
			v.isStr(m)
		case "scopes":
			v.in(m.key)
			v.stringList(m.value, nil, false)
			v.out()
		case "use_pkce":
			v.boolm(m)
		case "callback_port":
			v.intm(m, portMin, portMax)
		case "oauth_params":
			v.in(m.key)
			var pit members
			v.open(&pit, m.value)
			for v.next(&pit) {
				o := &pit.m
				v.inKey(o.key)
				v.str(o.value, nil)
				v.out()
			}
			v.out()
		default:
			v.variant(m, caseExtOAuth)
		}
	}
}

// maskedKey is an extension key as a field path shows it: a remote URL by
// ToolHive's convention, its user information masked (MaskURL), so that no
// message or field repeats a password written into a key.
func maskedKey(key []byte) []byte {
	if bytes.IndexByte(key, '@') < 0 {
		return key
	}
	return []byte(MaskURL(string(key)))
}
