package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// The "skills" and "plugins" lists of an upstream document's "data" are
// ToolHive's, not the MCP registry's: the registry schema checks each item
// against toolhive-core's skill.schema.json or plugin.schema.json and
// ToolHive's registry server refuses the whole document for one bad item.
// mcpreg converts and merges servers only (convert drops a non-empty list
// with a warning), but validate must not pass a document the server
// refuses, so it checks these lists with the rules of those two schemas,
// written out below as a small table.

// itemRule is one node of those schemas: a JSON type and the keywords they
// use on it. A zero field is a keyword the node does not have.
type itemRule struct {
	typ            string // "string", "object" or "array"
	minLen, maxLen int    // string length in characters; maxLen 0: none
	lowerName      bool   // pattern ^[a-z0-9][a-z0-9-]*[a-z0-9]$
	uri            bool   // format "uri"
	enum           []string
	required       []string
	props          []itemProp // in the schema's order, so reports are too
	closed         bool       // additionalProperties: false
	items          *itemRule
	unique         bool
}

type itemProp struct {
	name string
	rule *itemRule
}

// The rule tables are read only: nothing writes them after initialisation.
var (
	itemString    = &itemRule{typ: "string"}
	itemObject    = &itemRule{typ: "object"}
	itemPackage   = &itemRule{typ: "object", required: []string{"registryType"}, props: []itemProp{{"registryType", &itemRule{typ: "string", enum: []string{"oci", "git"}}}, {"identifier", itemString}, {"digest", itemString}, {"mediaType", itemString}, {"url", &itemRule{typ: "string", uri: true}}, {"ref", itemString}, {"commit", itemString}, {"subfolder", itemString}}}
	itemIcon      = &itemRule{typ: "object", required: []string{"src"}, props: []itemProp{{"src", itemString}, {"size", itemString}, {"type", itemString}, {"label", itemString}}}
	itemRepo      = &itemRule{typ: "object", props: []itemProp{{"url", &itemRule{typ: "string", uri: true}}, {"type", itemString}}}
	itemCommon    = []itemProp{{"namespace", &itemRule{typ: "string", minLen: 3, maxLen: 128}}, {"name", &itemRule{typ: "string", minLen: 1, maxLen: 64, lowerName: true}}, {"description", &itemRule{typ: "string", minLen: 1, maxLen: 1024}}, {"version", &itemRule{typ: "string", minLen: 1}}, {"status", &itemRule{typ: "string", enum: []string{"active", "deprecated", "archived"}}}, {"title", &itemRule{typ: "string", maxLen: 100}}, {"license", &itemRule{typ: "string", maxLen: 256}}}
	itemTail      = []itemProp{{"repository", itemRepo}, {"icons", &itemRule{typ: "array", items: itemIcon}}, {"packages", &itemRule{typ: "array", items: itemPackage}}}
	itemRequired  = []string{"namespace", "name", "description", "version"}
	itemAttest    = &itemRule{typ: "object", closed: true, props: []itemProp{{"predicate_type", itemString}, {"predicate", itemObject}}}
	itemProvRule  = &itemRule{typ: "object", closed: true, props: []itemProp{{"sigstore_url", itemString}, {"repository_uri", itemString}, {"repository_ref", itemString}, {"signer_identity", itemString}, {"runner_environment", itemString}, {"cert_issuer", itemString}, {"attestation", itemAttest}}}
	itemMetaProps = []itemProp{{"metadata", itemObject}, {"_meta", itemObject}}
	skillRule     = &itemRule{typ: "object", required: itemRequired, props: slices.Concat(itemCommon, []itemProp{{"compatibility", &itemRule{typ: "string", maxLen: 500}}, {"allowedTools", &itemRule{typ: "array", items: itemString, unique: true}}}, itemTail, []itemProp{{"provenance", itemProvRule}}, itemMetaProps)}
	pluginRule    = &itemRule{typ: "object", required: itemRequired, props: slices.Concat(itemCommon, itemTail, itemMetaProps)}
)

// dataListRule returns the schema of the items of data.<key>, or nil for a
// member the registry schema does not describe (any value passes).
func dataListRule(key string) *itemRule {
	switch key {
	case "skills":
		return skillRule
	case "plugins":
		return pluginRule
	}
	return nil
}

// checkDataList checks raw, the value of data.<key>, against the registry
// schema: an array whose items follow rule. Diagnostics beyond
// MaxPerObjectReason are summarised, so a hostile list costs one pass.
func checkDataList(ds Diagnostics, obj ObjectRef, key string, rule *itemRule, raw []byte) Diagnostics {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		// A number beyond float64: documentRules reports it.
		return ds
	}
	c := itemChecker{obj: obj}
	c.check("data."+key, v, &itemRule{typ: "array", items: rule})
	return c.lim.flush(append(ds, c.ds...), obj)
}

type itemChecker struct {
	obj ObjectRef
	ds  Diagnostics
	lim limiter
}

func (c *itemChecker) fail(field, format string, args ...any) {
	if c.lim.ok(ReasonInvalidEntry, SeverityError) {
		c.ds = append(c.ds, Errorf(ReasonInvalidEntry, c.obj, field, "%s %s", field, Sprintf(format, args...)))
	}
}

// check reports where v, at field, breaks r. The walk follows the value,
// so it is bounded by the document's size.
func (c *itemChecker) check(field string, v any, r *itemRule) {
	switch r.typ {
	case "string":
		s, ok := v.(string)
		if !ok {
			c.fail(field, "is %s; it must be a string", kindOfAny(v))
			return
		}
		n := utf8.RuneCountInString(s)
		switch {
		case n < r.minLen:
			c.fail(field, "is %q, %d characters; the minimum is %d", s, n, r.minLen)
		case r.maxLen > 0 && n > r.maxLen:
			c.fail(field, "is %d characters; the maximum is %d", n, r.maxLen)
		}
		if r.lowerName && !lowerName(s) {
			c.fail(field, "%q does not match ^[a-z0-9][a-z0-9-]*[a-z0-9]$", s)
		}
		if r.uri && !isURI(s) {
			c.fail(field, "%q is not a URI", s)
		}
		if r.enum != nil && !slices.Contains(r.enum, s) {
			c.fail(field, "is %q; it must be one of %s", s, strings.Join(r.enum, ", "))
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			c.fail(field, "is %s; it must be an array", kindOfAny(v))
			return
		}
		seen := map[string]int{}
		for i, el := range a {
			at := fmt.Sprintf("%s[%d]", field, i)
			c.check(at, el, r.items)
			if s, ok := el.(string); ok && r.unique {
				if j, dup := seen[s]; dup {
					c.fail(at, "repeats %q (also at [%d]); the values must be unique", s, j)
				} else {
					seen[s] = i
				}
			}
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			c.fail(field, "is %s; it must be an object", kindOfAny(v))
			return
		}
		for _, k := range r.required {
			if _, ok := m[k]; !ok {
				c.fail(field, "has no %q; it is required", k)
			}
		}
		for _, p := range r.props {
			if pv, ok := m[p.name]; ok {
				c.check(field+"."+p.name, pv, p.rule)
			}
		}
		if r.closed {
			keys := make([]string, 0, len(m))
			for k := range m {
				if !slices.ContainsFunc(r.props, func(p itemProp) bool { return p.name == k }) {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				c.fail(field, "has %q, which the schema does not allow here", k)
			}
		}
	}
}

// lowerName is the pattern ^[a-z0-9][a-z0-9-]*[a-z0-9]$ of skill and plugin
// names (two characters at least).
func lowerName(s string) bool {
	if len(s) < 2 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// kindOfAny names the JSON type of a value encoding/json decoded.
func kindOfAny(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case nil:
		return "null"
	}
	return "a value"
}
