package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// Registry data can hold servers in members a parse does not read: a key
// given twice (JSON decoders, ToolHive's included, keep the last copy), or
// ToolHive members beside an upstream "data" object. Nothing there is lost
// silently: unreadServers names every server such a member holds, each with
// an InvalidEntry warning saying why it was skipped.

// serverKeys are the top-level members that hold servers.
var serverKeys = []string{"data", "servers", "remote_servers", "groups"}

// unreadServers reports the servers of the top-level members that a parse in
// the given format does not read.
func unreadServers(top []jsonx.Member, format Format, opts ParseOptions) Diagnostics {
	var ds Diagnostics
	var lim limiter
	count := map[string]int{}
	for _, m := range top {
		if slices.Contains(serverKeys, m.Key) {
			count[m.Key]++
		}
	}
	seen := map[string]int{}
	for _, m := range top {
		n := count[m.Key]
		if n == 0 {
			continue
		}
		seen[m.Key]++
		var why string
		switch {
		case seen[m.Key] < n:
			why = fmt.Sprintf("the document has %d top-level %q members and only the last is read, as JSON decoders (ToolHive's too) read it", n, m.Key)
		case format == FormatUpstream && m.Key != "data":
			why = fmt.Sprintf("top-level %q is not read beside a \"data\" object: the document is an upstream registry", m.Key)
		default:
			continue
		}
		for _, e := range serversIn(m.Key, m.Value, m.Key) {
			if lim.ok(ReasonInvalidEntry, SeverityWarning) {
				ds = append(ds, skippedEntry(opts, e, why))
			}
		}
	}
	return lim.flush(ds, opts.Source)
}

// unreadDataServers reports the servers of earlier copies of "servers"
// inside the upstream "data" object.
func unreadDataServers(dm []jsonx.Member, opts ParseOptions) Diagnostics {
	n := 0
	for _, m := range dm {
		if m.Key == "servers" {
			n++
		}
	}
	if n < 2 {
		return nil
	}
	var ds Diagnostics
	var lim limiter
	why := fmt.Sprintf("\"data\" has %d \"servers\" members and only the last is read, as JSON decoders (ToolHive's too) read it", n)
	for _, m := range dm {
		if m.Key != "servers" {
			continue
		}
		if n--; n == 0 {
			break
		}
		for _, e := range serversIn("servers", m.Value, "data.servers") {
			if lim.ok(ReasonInvalidEntry, SeverityWarning) {
				ds = append(ds, skippedEntry(opts, e, why))
			}
		}
	}
	return lim.flush(ds, opts.Source)
}

// heldServer is one server entry inside an unread member: where it is and
// its name (an upstream or list "name", or a legacy map key), "" if none.
type heldServer struct{ field, name string }

func skippedEntry(opts ParseOptions, e heldServer, why string) Diagnostic {
	if e.name == "" {
		return Warningf(ReasonInvalidEntry, opts.Source, opts.field(e.field), "entry skipped: %s", Text(why))
	}
	return Warningf(ReasonInvalidEntry, opts.Source, opts.field(e.field), "server %q skipped: %s", e.name, Text(why))
}

// serversIn lists the server entries a member holds: the elements of a
// "servers" list of the upstream data object, of the list shorthand, the
// keys of legacy maps and of the maps inside groups. It reads each value once.
func serversIn(key string, v json.RawMessage, path string) []heldServer {
	var out []heldServer
	switch key {
	case "data":
		dm, err := jsonx.Members(v)
		if err != nil {
			return nil
		}
		for _, m := range dm {
			if m.Key == "servers" {
				out = append(out, serversIn("servers", m.Value, path+".servers")...)
			}
		}
	case "servers", "remote_servers":
		switch jsonx.Kind(v) {
		case '[':
			els, _ := jsonx.Elements(v)
			for i, el := range els {
				out = append(out, heldServer{field: fmt.Sprintf("%s[%d]", path, i), name: nameOf(el)})
			}
		case '{':
			ms, _ := jsonx.Members(v)
			for _, m := range ms {
				out = append(out, heldServer{field: path + "[" + m.Key + "]", name: m.Key})
			}
		}
	case "groups":
		var gs []jsonx.Member
		switch jsonx.Kind(v) {
		case '[':
			els, _ := jsonx.Elements(v)
			for i, el := range els {
				gs = append(gs, jsonx.Member{Key: fmt.Sprintf("[%d]", i), Value: el})
			}
		case '{':
			ms, _ := jsonx.Members(v)
			for _, m := range ms {
				gs = append(gs, jsonx.Member{Key: "[" + m.Key + "]", Value: m.Value})
			}
		}
		for _, g := range gs {
			gm, err := jsonx.Members(g.Value)
			if err != nil {
				continue
			}
			for _, m := range gm {
				if m.Key == "servers" || m.Key == "remote_servers" {
					out = append(out, serversIn(m.Key, m.Value, path+g.Key+"."+m.Key)...)
				}
			}
		}
	}
	return out
}

// nameOf is the "name" string of an entry object, or "".
func nameOf(el json.RawMessage) string {
	ms, err := jsonx.Members(el)
	if err != nil {
		return ""
	}
	name := ""
	for _, m := range ms {
		if m.Key == "name" {
			name, _ = jsonx.String(m.Value)
		}
	}
	return strings.TrimSpace(name)
}
