package model

import "math"

// The checks of _meta: the publisher-provided block must be an object of
// objects (server.json and ToolHive's publisher-provided schema), and inside
// it ToolHive's namespace follows toolhive-core's publisher-provided schema
// (its $defs server_extensions and below), which ToolHive's registry server
// enforces. toolhive-core checks that block after decoding it into `any`, so
// numbers are compared as float64 here too (floatOf).

// meta checks _meta.
func (v *validator) meta(raw []byte) {
	var buf memberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	for _, m := range ms {
		if string(m.key) != PublisherProvidedKey {
			continue
		}
		v.inKey(m.key)
		var pubBuf memberBuf
		pubs, _ := v.object(m.value, pubBuf[:0])
		for _, pub := range pubs {
			v.inKey(pub.key)
			var extBuf memberBuf
			entries, ok := v.object(pub.value, extBuf[:0])
			if ok && string(pub.key) == ToolHivePublisher {
				for _, e := range entries {
					v.inKey(e.key)
					v.extensions(e.value)
					v.out()
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
	var buf memberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	hasStatus := false
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "status":
			hasStatus = true
			v.enum(m.value, extStatuses)
		case "tier":
			v.enum(m.value, extTiers)
		case "tools":
			v.stringList(m.value, ruleTool, true)
		case "tags":
			v.stringList(m.value, ruleTag, true)
		case "docker_tags":
			v.stringList(m.value, nil, true)
		case "args":
			// Repeated flags are ordinary in args; the schema allows them.
			v.stringList(m.value, nil, false)
		case "overview":
			v.str(m.value, nil)
		case "proxy_port":
			v.integer(m.value, portMin, portMax)
		case "stateless":
			v.boolean(m.value)
		case "custom_metadata":
			v.isObject(m.value)
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
		v.out()
	}
	if !hasStatus {
		v.inName("status")
		v.fail(`is required ("active" or "deprecated")`)
		v.out()
	}
}

// integer checks an integer from lo to hi, read as a float64.
func (v *validator) integer(raw []byte, lo, hi float64) {
	if f, ok := floatOf(raw); !ok || f != math.Trunc(f) || f < lo || f > hi {
		v.fail("is %s; it must be an integer from %v to %v", show(raw), lo, hi)
	}
}

// toolDefinition checks tool_definition: an object with a required string
// name, a string description, object inputSchema and annotations.
func (v *validator) toolDefinition(raw []byte) {
	var buf memberBuf
	ms, ok := v.object(raw, buf[:0])
	if !ok {
		return
	}
	hasName := false
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "name":
			hasName = true
			v.str(m.value, nil)
		case "description":
			v.str(m.value, nil)
		case "inputSchema", "annotations":
			v.isObject(m.value)
		}
		v.out()
	}
	v.required(hasName, "name")
}

// envVar checks environment_variable: name matching its pattern (not
// required), string description and default, boolean required and secret.
func (v *validator) envVar(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "name":
			v.str(m.value, ruleEnvVar)
		case "description", "default":
			v.str(m.value, nil)
		case "required", "secret":
			v.boolean(m.value)
		}
		v.out()
	}
}

// metadata checks metadata: stars a number >= 0, last_updated a date-time,
// kubernetes the workload's kind, namespace, name, uid, image and transport.
func (v *validator) metadata(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "stars":
			if f, ok := floatOf(m.value); !ok || f < 0 {
				v.fail("is %s; it must be a number, 0 or more", show(m.value))
			}
		case "last_updated":
			v.str(m.value, ruleDateTime)
		case "kubernetes":
			v.kubernetes(m.value)
		}
		v.out()
	}
}

func (v *validator) kubernetes(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "kind", "image":
			v.str(m.value, nil)
		case "namespace", "name":
			v.str(m.value, ruleK8sName)
		case "uid":
			v.str(m.value, ruleUUID)
		case "transport":
			v.enum(m.value, kubernetesTransports)
		}
		v.out()
	}
}

// permissions checks permissions: a string name, read and write lists of
// unique absolute paths, boolean privileged, and network.outbound.
func (v *validator) permissions(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "name":
			v.str(m.value, nil)
		case "read", "write":
			v.stringList(m.value, ruleMount, true)
		case "privileged":
			v.boolean(m.value)
		case "network":
			var nbuf memberBuf
			nms, _ := v.object(m.value, nbuf[:0])
			for _, n := range nms {
				if string(n.key) == "outbound" {
					v.in(n.key)
					v.outbound(n.value)
					v.out()
				}
			}
		}
		v.out()
	}
}

// outbound checks outbound_permissions: unique hosts (hostnames or
// ".domain" patterns), unique ports from 1 to 65535, boolean
// insecure_allow_all.
func (v *validator) outbound(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "allow_host":
			v.stringList(m.value, ruleHost, true)
		case "allow_port":
			v.ports(m.value)
		case "insecure_allow_all":
			v.boolean(m.value)
		}
		v.out()
	}
}

// ports checks a list of unique ports; uniqueness compares the float64
// values, as toolhive-core decodes them.
func (v *validator) ports(raw []byte) {
	var buf elementBuf
	els, _ := v.array(raw, buf[:0])
	var seenBuf [len(elementBuf{})]float64
	seen := seenBuf[:0]
	for i, el := range els {
		v.inIndex(i)
		v.integer(el, portMin, portMax)
		if f, ok := floatOf(el); ok {
			for j, g := range seen {
				if g == f {
					v.fail("repeats %s (also at [%d]); the values must be unique", show(el), j)
					break
				}
			}
			seen = append(seen, f)
		}
		v.out()
	}
}

// provenance checks provenance: sigstore_url a hostname, repository_uri and
// cert_issuer URIs, strings, and attestation.predicate_type a URI.
func (v *validator) provenance(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "sigstore_url":
			v.str(m.value, ruleHostname)
		case "repository_uri", "cert_issuer":
			v.str(m.value, ruleURI)
		case "repository_ref", "signer_identity", "runner_environment":
			v.str(m.value, nil)
		case "attestation":
			var abuf memberBuf
			ams, _ := v.object(m.value, abuf[:0])
			for _, a := range ams {
				if string(a.key) == "predicate_type" {
					v.in(a.key)
					v.str(a.value, ruleURI)
					v.out()
				}
			}
		}
		v.out()
	}
}

// oauthConfig checks oauth_config: issuer, authorize_url and token_url URIs;
// strings client_id and resource; scopes strings; boolean use_pkce;
// oauth_params a map of strings; callback_port from 1 to 65535.
func (v *validator) oauthConfig(raw []byte) {
	var buf memberBuf
	ms, _ := v.object(raw, buf[:0])
	for _, m := range ms {
		v.in(m.key)
		switch string(m.key) {
		case "issuer", "authorize_url", "token_url":
			v.str(m.value, ruleURI)
		case "client_id", "resource":
			v.str(m.value, nil)
		case "scopes":
			v.stringList(m.value, nil, false)
		case "use_pkce":
			v.boolean(m.value)
		case "callback_port":
			v.integer(m.value, portMin, portMax)
		case "oauth_params":
			var pbuf memberBuf
			params, _ := v.object(m.value, pbuf[:0])
			for _, o := range params {
				v.inKey(o.key)
				v.str(o.value, nil)
				v.out()
			}
		}
		v.out()
	}
}
