package model

import (
	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// documentRules checks the parts of an upstream document that lie outside
// its server entries, as ToolHive's registry server checks them
// (ValidateUpstreamRegistryBytes): the registry schema's "$schema" (a
// string in URI format whenever the member is present, null and "" included)
// and its "skills" and "plugins" lists (checkDataList), and the decoding of the whole document into `any`, which fails on a
// number beyond float64 wherever it is. The server entries themselves are
// ValidateServer's; data other than JSON is Parse's to report.
func documentRules(data []byte, obj ObjectRef) Diagnostics {
	top, err := jsonx.Members(data)
	if err != nil {
		return nil
	}
	var ds Diagnostics
	// encoding/json keeps the last of repeated members, and gojsonschema
	// reads the document the same way: the last "$schema" is the one
	// checked, the last "data" the one whose servers are read.
	lastSchema, lastData, lastMeta := -1, -1, -1
	for i, m := range top {
		switch m.Key {
		case KeySchema:
			lastSchema = i
		case "data":
			lastData = i
		case "meta":
			lastMeta = i
		default:
			ds = appendVariant(ds, obj, "", m.Key, caseDocument)
		}
	}
	if lastMeta >= 0 {
		if mm, err := jsonx.Members(top[lastMeta].Value); err == nil {
			for _, m := range mm {
				ds = appendVariant(ds, obj, "meta.", m.Key, caseDocumentMeta)
			}
		}
	}
	if lastSchema >= 0 {
		raw := top[lastSchema].Value
		switch s, ok := jsonx.String(raw); {
		case jsonx.Kind(raw) != '"':
			ds = append(ds, Errorf(ReasonInvalidEntry, obj, KeySchema, "$schema is %s; it must be a string holding a URI", describeKind(raw)))
		case !ok || !isURI(s):
			ds = append(ds, Errorf(ReasonInvalidEntry, obj, KeySchema, "$schema %q is not a URI", s))
		}
	}
	// Every member is decoded, repeated ones too; the server entries of
	// the "data" read are checked by ValidateServer, so only the rest is
	// scanned here. Members are bounded by the document's size.
	for i, m := range top {
		if i != lastData {
			ds = appendHugeNumber(ds, obj, m.Key, m.Value)
			continue
		}
		dm, err := jsonx.Members(m.Value)
		if err != nil {
			ds = appendHugeNumber(ds, obj, m.Key, m.Value)
			continue
		}
		last := map[string]int{}
		for j, d := range dm {
			last[d.Key] = j
		}
		// The registry schema requires data.servers, an array: a merge or
		// a conversion reads a missing or null list as empty, but
		// ToolHive's registry server refuses the document.
		if j, ok := last["servers"]; !ok {
			ds = append(ds, Errorf(ReasonInvalidEntry, obj, "data.servers", "data.servers is required (an array of server entries, [] for none)"))
		} else if k := jsonx.Kind(dm[j].Value); k != '[' {
			ds = append(ds, Errorf(ReasonInvalidEntry, obj, "data.servers", "data.servers is %s; it must be an array of server entries ([] for none)", describeKind(dm[j].Value)))
		}
		for j, d := range dm {
			ds = appendVariant(ds, obj, "data.", d.Key, caseDocumentData)
			if d.Key == "servers" && j == last[d.Key] {
				continue
			}
			ds = appendHugeNumber(ds, obj, "data."+d.Key, d.Value)
			if rule := dataListRule(d.Key); rule != nil && j == last[d.Key] {
				ds = checkDataList(ds, obj, d.Key, rule, d.Value)
			}
		}
	}
	return ds
}

// appendHugeNumber adds an Error when raw, the value of the document member
// at field, holds a number that encoding/json cannot decode into a float64
// (see hasHugeNumber), naming the first such number.
func appendHugeNumber(ds Diagnostics, obj ObjectRef, field string, raw []byte) Diagnostics {
	n := hugeNumber(raw)
	if n == nil {
		return ds
	}
	return append(ds, Errorf(ReasonInvalidEntry, obj, field,
		"%s holds the number %s, beyond the range of a 64-bit float; ToolHive's registry server decodes the whole document and rejects it", field, show(n)))
}

// appendVariant adds an Error when key, a member of the document at
// prefix, is another spelling of one of ks (see keycase.go): ToolHive's
// registry server would read that member, say a "Data" holding other
// servers, where these checks read the one spelled right.
func appendVariant(ds Diagnostics, obj ObjectRef, prefix, key string, ks keySet) Diagnostics {
	if c := variantOf(ks, key); c != "" {
		return append(ds, Errorf(ReasonInvalidEntry, obj, prefix+key, "%s%s "+variantMessage, prefix, key, c))
	}
	return ds
}
