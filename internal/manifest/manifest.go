// Package manifest decodes Kubernetes manifests (YAML or JSON, multi-document,
// "kind: List") into the typed snapshots the library works on.
//
// It is the reading side of the CLI and of the golden tests, kept free of I/O
// so that both, and the fuzzer, feed it bytes. Objects of kinds the library
// does not read are skipped; a document that cannot be decoded is an error
// naming the source and the document.
//
// JSON manifests, and YAML ones in the shape Kubernetes writes them, are read
// by a fast path (fast.go, fastyaml.go) that decodes a ConfigMap's data once;
// it gives exactly the objects the general path gives, or leaves the input to
// it.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/mcpreg/mcpreg/internal/jsonx"
	"github.com/mcpreg/mcpreg/model"
)

// Objects is a snapshot of the objects read from manifests, by kind, in the
// order they were read.
type Objects struct {
	ConfigMaps []*corev1.ConfigMap
	Services   []*corev1.Service
	Namespaces []*corev1.Namespace
	Gateways   []*gwv1.Gateway
	HTTPRoutes []*gwv1.HTTPRoute
	// ReferenceGrants holds v1 and v1beta1 grants alike: v1beta1.ReferenceGrant
	// is defined as v1.ReferenceGrant, so nothing is lost.
	ReferenceGrants   []*gwv1.ReferenceGrant
	MCPServers        []*model.MCPServer
	MCPRemoteProxies  []*model.MCPRemoteProxy
	VirtualMCPServers []*model.VirtualMCPServer
	MCPGroups         []*model.MCPGroup
	MCPRegistries     []*model.MCPRegistry
	MCPServerEntries  []*model.MCPServerEntry
}

// Len is the number of objects held.
func (o *Objects) Len() int {
	return len(o.ConfigMaps) + len(o.Services) + len(o.Namespaces) + len(o.Gateways) +
		len(o.HTTPRoutes) + len(o.ReferenceGrants) + len(o.MCPServers) + len(o.MCPRemoteProxies) +
		len(o.VirtualMCPServers) + len(o.MCPGroups) + len(o.MCPRegistries) + len(o.MCPServerEntries)
}

// Append adds all objects of p to o.
func (o *Objects) Append(p *Objects) {
	o.ConfigMaps = append(o.ConfigMaps, p.ConfigMaps...)
	o.Services = append(o.Services, p.Services...)
	o.Namespaces = append(o.Namespaces, p.Namespaces...)
	o.Gateways = append(o.Gateways, p.Gateways...)
	o.HTTPRoutes = append(o.HTTPRoutes, p.HTTPRoutes...)
	o.ReferenceGrants = append(o.ReferenceGrants, p.ReferenceGrants...)
	o.MCPServers = append(o.MCPServers, p.MCPServers...)
	o.MCPRemoteProxies = append(o.MCPRemoteProxies, p.MCPRemoteProxies...)
	o.VirtualMCPServers = append(o.VirtualMCPServers, p.VirtualMCPServers...)
	o.MCPGroups = append(o.MCPGroups, p.MCPGroups...)
	o.MCPServerEntries = append(o.MCPServerEntries, p.MCPServerEntries...)
	o.MCPRegistries = append(o.MCPRegistries, p.MCPRegistries...)
}

// maxListDepth bounds nested "kind: List" documents.
const maxListDepth = 8

// Decode reads every document of data (YAML or JSON; several documents
// separated by "---" or concatenated JSON values) into o. source names the
// input in errors (a file path, or "-" for stdin).
func Decode(data []byte, source string) (*Objects, error) {
	return decode(data, source, true)
}

// decode is Decode; without fast, it reads by the general path only.
func decode(data []byte, source string, fast bool) (*Objects, error) {
	if fast {
		if o, ok := decodeFast(data); ok {
			return o, nil
		}
	}
	o := &Objects{}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for doc := 1; ; {
		chunk, err := r.Read()
		if errors.Is(err, io.EOF) {
			return o, nil
		}
		if err != nil {
			return nil, errorf("%s: document %d: %v", source, doc, err)
		}
		if blank(chunk) {
			doc++
			continue
		}
		// The reader splits at "---" only; after a document end marker
		// ("...") the decoder stops, and would drop the rest unread. YAML
		// parsers want "---" to start the next document.
		if at := contentAfterDocumentEnd(chunk); at >= 0 {
			return nil, errorf("%s: document %d: content after the document end marker \"...\" (line %d of the document), which would be dropped; start the next document with \"---\"", source, doc, at)
		}
		if err := o.decodeDocument(chunk, source, doc, fast); err != nil {
			return nil, err
		}
		doc++
	}
}

// contentAfterDocumentEnd returns the line (from 1) of the first document
// end marker of chunk ("..." alone on its line, trailing blanks or a comment
// allowed; YAML allows it nowhere else at the start of a line) that has
// content after it, or -1.
func contentAfterDocumentEnd(chunk []byte) int {
	marker := -1
	for i, n := 0, 1; i < len(chunk); n++ {
		next := len(chunk)
		if end := bytes.IndexByte(chunk[i:], '\n'); end >= 0 {
			next = i + end + 1
		}
		line := chunk[i:next]
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			if rest := bytes.TrimLeft(line, "."); len(line)-len(rest) == 3 && bytes.HasPrefix(line, []byte("...")) {
				if r := bytes.TrimSpace(rest); len(r) == 0 || r[0] == '#' {
					if marker < 0 {
						marker = n
					}
					i = next
					continue
				}
			}
			if marker >= 0 {
				return marker
			}
		}
		i = next
	}
	return -1
}

// blank reports whether a document holds only blank lines and full-line
// YAML comments, so that it counts as empty.
func blank(b []byte) bool {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte("\n"))
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return false
		}
	}
	return true
}

func (o *Objects) decodeDocument(chunk []byte, source string, doc int, fast bool) error {
	values, ok, jerr := jsonValues(bytes.TrimSpace(chunk))
	if !ok {
		if jerr != nil && isDepthError(jerr) {
			// YAML's own message ("yaml: exceeded max depth") would not
			// say that the document is JSON nested too deep to read.
			return errorf("%s: document %d: JSON nested more than %d levels deep; no Kubernetes object is, and it is not read", source, doc, maxDecodeDepth)
		}
		if len(values) > 0 {
			// JSON values, then something that is not one: no YAML reads
			// that either (a YAML document has one root), and reading it
			// as YAML would keep the first value and drop the rest
			// without a word — the objects of a cut "kubectl get -o
			// json" stream among them.
			return errorf("%s: document %d: after %d JSON value(s): %v", source, doc, len(values), jerr)
		}
		if err := checkAliases(chunk); err != nil {
			return errorf("%s: document %d: %v", source, doc, err)
		}
		if err := oneYAMLNode(chunk); err != nil {
			return errorf("%s: document %d: %v", source, doc, err)
		}
		if fast {
			if fo, ok := decodeFastYAML(chunk); ok {
				o.Append(fo)
				return nil
			}
		}
		j, err := yaml.YAMLToJSON(chunk)
		if err != nil {
			if isDepthError(err) {
				return errorf("%s: document %d: YAML nested too deep to read (the decoder's limit); no Kubernetes object is", source, doc)
			}
			return errorf("%s: document %d: %v", source, doc, err)
		}
		// Converted once; the fast path reads the JSON as decodeValue would.
		if fast {
			if fo, ok := decodeFastValue(j); ok {
				o.Append(fo)
				return nil
			}
		}
		values = []json.RawMessage{j}
	}
	for _, v := range values {
		if err := o.decodeValue(v, source, doc, 0); err != nil {
			return err
		}
	}
	return nil
}

// jsonValues splits a document that is one JSON value or several in a row (as
// "kubectl get -o json" of several objects prints them). ok is false when the
// document is not JSON, so the caller reads it as YAML.
// jerr is the JSON decoder's error when the document looked like JSON, and
// values then hold the values read before it.
func jsonValues(data []byte) (values []json.RawMessage, ok bool, jerr error) {
	if len(data) == 0 || (data[0] != '{' && data[0] != '[') {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			return values, len(values) > 0, nil
		} else if err != nil {
			return values, false, err
		}
		values = append(values, v)
	}
}

// oneYAMLNode refuses a document with content after its root node when
// that node is a flow collection ("{a: 1}" or "[a]" and then more), which
// yaml.YAMLToJSON would read as the first node alone, dropping the rest.
// A block document cannot end early that way: the parser reads it to its
// end.
func oneYAMLNode(chunk []byte) error {
	t := bytes.TrimSpace(chunk)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return nil
	}
	dec := yamlv2.NewDecoder(bytes.NewReader(chunk))
	var first, rest any
	if err := dec.Decode(&first); err != nil {
		// yaml.YAMLToJSON says what is wrong.
		return nil
	}
	if err := dec.Decode(&rest); !errors.Is(err, io.EOF) {
		return errors.New("content after the first YAML node, which would be dropped (one object per document: separate them with \"---\")")
	}
	return nil
}

// maxDecodeDepth is encoding/json's nesting limit.
const maxDecodeDepth = 10000

// isDepthError reports whether a decoder refused input for its nesting depth.
func isDepthError(err error) bool {
	return strings.Contains(err.Error(), "exceeded max depth")
}

// impliedAPIVersion is the apiVersion a manifest that gives none is read
// with, by kind: kinds one API group serves (ReferenceGrant's v1beta1 and v1
// have one shape; ToolHive's kinds are read by shape, whatever the version).
func impliedAPIVersion(kind string) (string, bool) {
	switch kind {
	case "ConfigMap", "Service", "Namespace":
		return "v1", true
	case "Gateway", "HTTPRoute":
		return gwv1.GroupVersion.String(), true
	case "ReferenceGrant":
		return gwv1.GroupName + "/v1beta1", true
	case model.KindMCPServer, model.KindMCPRemoteProxy, model.KindVirtualMCPServer, model.KindMCPGroup, model.KindMCPRegistry:
		return model.ToolHiveGroup + "/v1alpha1", true
	case model.KindMCPServerEntry:
		return model.ToolHiveGroup + "/v1beta1", true
	}
	return "", false
}

type typeMeta struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Items      []json.RawMessage `json:"items"`
	Metadata   struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"metadata"`
}

func (o *Objects) decodeValue(v json.RawMessage, source string, doc, depth int) error {
	trimmed := bytes.TrimSpace(v)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil
	}
	if trimmed[0] == '[' {
		// A bare JSON array of objects.
		var items []json.RawMessage
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return errorf("%s: document %d: %v", source, doc, err)
		}
		for _, it := range items {
			if err := o.decodeValue(it, source, doc, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if trimmed[0] != '{' {
		return errorf("%s: document %d: not a Kubernetes object (a YAML mapping with apiVersion and kind)", source, doc)
	}
	var tm typeMeta
	if err := json.Unmarshal(trimmed, &tm); err != nil {
		return errorf("%s: document %d: %v", source, doc, err)
	}
	where := func(err error) error {
		name := tm.Metadata.Name
		if tm.Metadata.Namespace != "" {
			name = tm.Metadata.Namespace + "/" + name
		}
		return errorf("%s: document %d: %s %s: %v", source, doc, tm.Kind, name, err)
	}
	if tm.Kind == "List" || (strings.HasSuffix(tm.Kind, "List") && tm.Items != nil) {
		if depth >= maxListDepth {
			return where(errors.New("lists nested too deeply"))
		}
		for _, it := range tm.Items {
			if err := o.decodeValue(itemOf(it, &tm), source, doc, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if tm.APIVersion == "" {
		if v, ok := impliedAPIVersion(tm.Kind); ok {
			// A hand-written manifest without apiVersion (kubectl would
			// refuse it) names a kind only one API group serves here: read
			// it as that, rather than leave it out without a word. The
			// member written last is the one a JSON decoder keeps.
			patched := make([]byte, 0, len(trimmed)+len(v)+16)
			patched = append(patched, trimmed[:len(trimmed)-1]...)
			patched = append(patched, `,"apiVersion":`...)
			patched = append(patched, jsonx.Quote(v)...)
			trimmed, tm.APIVersion = append(patched, '}'), v
		}
	}
	group, version, hasSlash := strings.Cut(tm.APIVersion, "/")
	if !hasSlash {
		group, version = "", tm.APIVersion
	}
	switch {
	case group == "" && version == "v1":
		switch tm.Kind {
		case "ConfigMap":
			return decodeInto(trimmed, &o.ConfigMaps, where)
		case "Service":
			return decodeInto(trimmed, &o.Services, where)
		case "Namespace":
			return decodeInto(trimmed, &o.Namespaces, where)
		}
	case group == gwv1.GroupName:
		switch tm.Kind {
		case "Gateway":
			return decodeInto(trimmed, &o.Gateways, where)
		case "HTTPRoute":
			return decodeInto(trimmed, &o.HTTPRoutes, where)
		case "ReferenceGrant":
			// v1 and v1beta1 ReferenceGrants have the same shape; keep one type.
			return decodeInto(trimmed, &o.ReferenceGrants, where)
		}
	}
	obj, err := model.DecodeToolHive(trimmed)
	if err != nil {
		return where(err)
	}
	switch t := obj.(type) {
	case *model.MCPServer:
		o.MCPServers = append(o.MCPServers, t)
	case *model.MCPRemoteProxy:
		o.MCPRemoteProxies = append(o.MCPRemoteProxies, t)
	case *model.VirtualMCPServer:
		o.VirtualMCPServers = append(o.VirtualMCPServers, t)
	case *model.MCPGroup:
		o.MCPGroups = append(o.MCPGroups, t)
	case *model.MCPServerEntry:
		o.MCPServerEntries = append(o.MCPServerEntries, t)
	case *model.MCPRegistry:
		o.MCPRegistries = append(o.MCPRegistries, t)
	}
	return nil
}

// itemOf is an item of the list tm as the general path reads it: the item
// of a typed list ("ConfigMapList", as the API server's list endpoint
// returns it) is given the list's apiVersion and the kind it names, which
// such items leave out; members of its own come after and win, as the last
// of repeated keys does in encoding/json. Items of a plain List are as
// written.
func itemOf(item []byte, tm *typeMeta) []byte {
	kind, typed := strings.CutSuffix(tm.Kind, "List")
	if !typed || kind == "" {
		return item
	}
	t := bytes.TrimSpace(item)
	if len(t) == 0 || t[0] != '{' {
		return item
	}
	body := bytes.TrimSpace(t[1:])
	out := make([]byte, 0, len(t)+len(tm.APIVersion)+len(kind)+32)
	out = append(out, `{"apiVersion":`...)
	out = append(out, jsonx.Quote(tm.APIVersion)...)
	out = append(out, `,"kind":`...)
	out = append(out, jsonx.Quote(kind)...)
	if len(body) > 0 && body[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body...)
}

func decodeInto[T any](data []byte, dst *[]*T, where func(error) error) error {
	obj := new(T)
	if err := json.Unmarshal(data, obj); err != nil {
		return where(err)
	}
	*dst = append(*dst, obj)
	return nil
}

// DefaultNamespace puts every namespaced object that has no namespace into ns,
// as "kubectl apply" does with a manifest that leaves it out. The library
// expects objects as the API server returns them, always with a namespace.
func (o *Objects) DefaultNamespace(ns string) {
	set := func(m *metav1.ObjectMeta) {
		if m.Namespace == "" {
			m.Namespace = ns
		}
	}
	for _, x := range o.ConfigMaps {
		set(&x.ObjectMeta)
	}
	for _, x := range o.Services {
		set(&x.ObjectMeta)
	}
	for _, x := range o.Gateways {
		set(&x.ObjectMeta)
	}
	for _, x := range o.HTTPRoutes {
		set(&x.ObjectMeta)
	}
	for _, x := range o.ReferenceGrants {
		set(&x.ObjectMeta)
	}
	for _, x := range o.MCPServers {
		set(&x.ObjectMeta)
	}
	for _, x := range o.MCPRemoteProxies {
		set(&x.ObjectMeta)
	}
	for _, x := range o.VirtualMCPServers {
		set(&x.ObjectMeta)
	}
	for _, x := range o.MCPGroups {
		set(&x.ObjectMeta)
	}
	for _, x := range o.MCPServerEntries {
		set(&x.ObjectMeta)
	}
	for _, x := range o.MCPRegistries {
		set(&x.ObjectMeta)
	}
}

// errorf is fmt.Errorf for errors that repeat the input: a file name from a
// directory walk, an object's kind, namespace and name, a decoder's message
// quoting the document. Each is escaped and cut as in a diagnostic, so that
// an error cannot forge lines of the output or drive a terminal.
func errorf(format string, args ...any) error {
	return errors.New(string(model.Sprintf(format, args...)))
}
