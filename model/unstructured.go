package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// legacyToolHiveGroup is an API group of ToolHive's kinds that some early
// examples of MCPGroup use; objects of it read as toolhive.stacklok.dev's.
const legacyToolHiveGroup = "mcp.toolhive.stacklok.io"

// IsToolHiveGroup reports whether group is the API group of ToolHive's CRDs
// (or mcp.toolhive.stacklok.io, which some early examples use).
func IsToolHiveGroup(group string) bool {
	return group == ToolHiveGroup || group == legacyToolHiveGroup
}

// ToolHiveKinds lists the kinds FromUnstructured and ToolHiveObject convert,
// sorted.
func ToolHiveKinds() []string {
	return []string{KindMCPGroup, KindMCPRegistry, KindMCPRemoteProxy, KindMCPServer, KindMCPServerEntry, KindVirtualMCPServer}
}

// FromUnstructured converts a ToolHive object held as unstructured data (as
// dynamic clients, unstructured informers and kubectl hand them out) into its
// snapshot type: *MCPServer, *MCPRemoteProxy, *VirtualMCPServer, *MCPGroup,
// *MCPServerEntry or *MCPRegistry. Both API versions (v1alpha1, v1beta1)
// read.
//
// The kind comes from the object's apiVersion and kind. Typed clients and
// listers return objects whose TypeMeta is empty: then gvk, the kind the
// caller listed, is used. When both are set they must name the same group
// and kind. An object of no known ToolHive kind, a nil object, or a field of
// the wrong type is an error naming the object and the field, never a silent
// nil.
//
// The conversion reads the unstructured map directly (no JSON round trip);
// only the fields the snapshot type holds are read, the rest (status,
// managedFields, fields the library does not use) is ignored. The result
// shares strings with u but no maps or slices.
func FromUnstructured(u *unstructured.Unstructured, gvk schema.GroupVersionKind) (any, error) {
	if u == nil || u.Object == nil {
		return nil, errors.New("nil unstructured object")
	}
	gvk, err := toolHiveKind(u.GetObjectKind().GroupVersionKind(), gvk, u)
	if err != nil {
		return nil, err
	}
	return fromMap(gvk, u.Object)
}

// ToolHiveObject returns obj as a ToolHive snapshot type: a snapshot type is
// returned as it is; an *unstructured.Unstructured is converted by
// FromUnstructured; any other runtime.Object of a ToolHive kind (ToolHive's
// own Go types, say) is converted through its unstructured form, so callers
// need not hand the library the operator's types. gvk is the kind to read
// obj as when its TypeMeta is empty (zero: use the object's). An object of
// another kind or type is an error.
func ToolHiveObject(obj any, gvk schema.GroupVersionKind) (any, error) {
	switch o := obj.(type) {
	case nil:
		return nil, errors.New("nil object")
	case *MCPServer, *MCPRemoteProxy, *VirtualMCPServer, *MCPGroup, *MCPServerEntry, *MCPRegistry:
		return o, nil
	case *unstructured.Unstructured:
		return FromUnstructured(o, gvk)
	case runtime.Object:
		gvk, err := toolHiveKind(o.GetObjectKind().GroupVersionKind(), gvk, nil)
		if err != nil {
			return nil, fmt.Errorf("%T: %w", obj, err)
		}
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			return nil, fmt.Errorf("%s: %T: %w", gvk.Kind, obj, err)
		}
		return fromMap(gvk, m)
	}
	return nil, fmt.Errorf("%T is not a ToolHive object", obj)
}

// toolHiveKind picks the kind to read an object as: its own (have) or, when
// it has none, the caller's (want).
func toolHiveKind(have, want schema.GroupVersionKind, u *unstructured.Unstructured) (schema.GroupVersionKind, error) {
	gvk := have
	switch {
	case have.Kind != "" && want.Kind == "" && IsToolHiveGroup(have.Group) && knownKind(have.Kind),
		have.Kind == "" && IsToolHiveGroup(want.Group) && knownKind(want.Kind),
		have.Kind == want.Kind && have.Group == want.Group && IsToolHiveGroup(have.Group) && knownKind(have.Kind):
		// The common cases, decided without building an error message.
		if have.Kind == "" {
			gvk = want
		}
		return gvk, nil
	}
	name := ""
	if u != nil {
		name = u.GetName()
		if ns := u.GetNamespace(); ns != "" {
			name = ns + "/" + name
		}
		name = " " + quoteCut(name)
	}
	switch {
	case have.Kind == "" && want.Kind == "":
		return gvk, fmt.Errorf("object%s has no apiVersion and kind and no kind was given: pass the GroupVersionKind the object was listed as", name)
	case have.Kind == "":
		gvk = want
	case want.Kind != "" && (have.Kind != want.Kind || have.Group != want.Group):
		return gvk, fmt.Errorf("object%s is a %s, not the %s it was given as", name, quoteCut(have.GroupKind().String()), quoteCut(want.GroupKind().String()))
	}
	if !IsToolHiveGroup(gvk.Group) {
		return gvk, fmt.Errorf("object%s: %s is not a ToolHive kind (group %s)", name, quoteCut(gvk.GroupKind().String()), ToolHiveGroup)
	}
	if knownKind(gvk.Kind) {
		return gvk, nil
	}
	return gvk, fmt.Errorf("object%s: kind %s is not one the library reads (%s)", name, quoteCut(gvk.Kind), strings.Join(ToolHiveKinds(), ", "))
}

func knownKind(kind string) bool {
	switch kind {
	case KindMCPServer, KindMCPRemoteProxy, KindVirtualMCPServer, KindMCPGroup, KindMCPServerEntry, KindMCPRegistry:
		return true
	}
	return false
}

// quoteCut quotes a value for an error message, cut to a length that keeps
// messages readable whatever the object holds.
func quoteCut(s string) string {
	const limit = 256
	if len(s) > limit {
		s = strings.ToValidUTF8(s[:limit], "") + "…"
	}
	return fmt.Sprintf("%q", s)
}

// fromMap converts the unstructured content of an object of a known kind.
func fromMap(gvk schema.GroupVersionKind, obj map[string]any) (any, error) {
	kind := gvk.Kind
	r := mapReader{kind: kind}
	meta := r.objectMeta(obj)
	r.where = meta.Namespace + "/" + meta.Name
	spec := r.mapAt(obj, "spec")
	tm := metav1.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: kind}
	var out any
	switch kind {
	case KindMCPServer:
		s := &MCPServer{TypeMeta: tm, ObjectMeta: meta}
		s.Spec.Image = r.str(spec, "spec.image", "image")
		s.Spec.Transport = r.str(spec, "spec.transport", "transport")
		s.Spec.ProxyMode = r.str(spec, "spec.proxyMode", "proxyMode")
		s.Spec.ProxyPort = r.int32(spec, "spec.proxyPort", "proxyPort")
		s.Spec.Port = r.int32(spec, "spec.port", "port")
		s.Spec.GroupRef = r.groupRef(spec, "spec.groupRef")
		out = s
	case KindMCPRemoteProxy:
		p := &MCPRemoteProxy{TypeMeta: tm, ObjectMeta: meta}
		p.Spec.RemoteURL = r.str(spec, "spec.remoteURL", "remoteURL")
		if p.Spec.RemoteURL == "" {
			p.Spec.RemoteURL = r.str(spec, "spec.remoteUrl", "remoteUrl")
		}
		p.Spec.Transport = r.str(spec, "spec.transport", "transport")
		p.Spec.ProxyPort = r.int32(spec, "spec.proxyPort", "proxyPort")
		p.Spec.Port = r.int32(spec, "spec.port", "port")
		p.Spec.GroupRef = r.groupRef(spec, "spec.groupRef")
		out = p
	case KindVirtualMCPServer:
		v := &VirtualMCPServer{TypeMeta: tm, ObjectMeta: meta}
		v.Spec.GroupRef = r.groupRef(spec, fieldGroupRef)
		if v.Spec.GroupRef == nil {
			v.Spec.GroupRef = r.groupRef(r.mapAt(spec, "config"), fieldConfigGroupRef)
			v.Spec.GroupRefInConfig = v.Spec.GroupRef != nil
		}
		out = v
	case KindMCPGroup:
		g := &MCPGroup{TypeMeta: tm, ObjectMeta: meta}
		g.Spec.Description = r.str(spec, "spec.description", "description")
		out = g
	case KindMCPServerEntry:
		out = r.serverEntry(tm, meta, spec)
	case KindMCPRegistry:
		// MCPRegistry has many fields and nested shapes; it is read as its
		// JSON decoder reads it (registries are few, so this costs little).
		data, err := (&unstructured.Unstructured{Object: obj}).MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", kind, r.where, err)
		}
		reg := &MCPRegistry{}
		if err := json.Unmarshal(data, reg); err != nil {
			return nil, fmt.Errorf("%s %s: %w", kind, r.where, err)
		}
		reg.TypeMeta = tm
		out = reg
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

func (r *mapReader) serverEntry(tm metav1.TypeMeta, meta metav1.ObjectMeta, spec map[string]any) *MCPServerEntry {
	e := &MCPServerEntry{TypeMeta: tm, ObjectMeta: meta}
	e.Spec.RemoteURL = r.str(spec, "spec.remoteUrl", "remoteUrl")
	e.Spec.Transport = r.str(spec, "spec.transport", "transport")
	e.Spec.GroupRef = r.groupRef(spec, "spec.groupRef")
	e.Spec.AllowPrivateEndpoint = r.bool(spec, "spec.allowPrivateEndpoint", "allowPrivateEndpoint")
	if m := r.mapAt(spec, "externalAuthConfigRef"); m != nil {
		e.Spec.ExternalAuthConfigRef = &ExternalAuthConfigRef{Name: r.str(m, "spec.externalAuthConfigRef.name", "name")}
	}
	if m := r.mapAt(spec, "headerForward"); m != nil {
		h := &HeaderForward{}
		if p := r.mapAt(m, "addPlaintextHeaders"); p != nil {
			h.AddPlaintextHeaders = r.stringMap(p, "spec.headerForward.addPlaintextHeaders")
		}
		for i, item := range r.list(m, "spec.headerForward.addHeadersFromSecret", "addHeadersFromSecret") {
			field := fmt.Sprintf("spec.headerForward.addHeadersFromSecret[%d]", i)
			im, ok := item.(map[string]any)
			if !ok {
				r.fail(field, "an object", item)
				break
			}
			hs := HeaderFromSecret{HeaderName: r.str(im, field+".headerName", "headerName")}
			if s := r.mapAt(im, "valueSecretRef"); s != nil {
				hs.ValueSecretRef = &SecretKeyRef{
					Name: r.str(s, field+".valueSecretRef.name", "name"),
					Key:  r.str(s, field+".valueSecretRef.key", "key"),
				}
			}
			h.AddHeadersFromSecret = append(h.AddHeadersFromSecret, hs)
		}
		e.Spec.HeaderForward = h
	}
	if m := r.mapAt(spec, "caBundleRef"); m != nil {
		b := &CABundleRef{}
		if c := r.mapAt(m, "configMapRef"); c != nil {
			ref := &ConfigMapKeySelector{
				Name: r.str(c, "spec.caBundleRef.configMapRef.name", "name"),
				Key:  r.str(c, "spec.caBundleRef.configMapRef.key", "key"),
			}
			if v, ok := c["optional"]; ok && v != nil {
				opt := r.bool(c, "spec.caBundleRef.configMapRef.optional", "optional")
				ref.Optional = &opt
			}
			b.ConfigMapRef = ref
		}
		e.Spec.CABundleRef = b
	}
	return e
}

// mapReader reads fields of an unstructured object, remembering the first
// field of the wrong type.
type mapReader struct {
	kind, where string
	err         error
}

func (r *mapReader) fail(field, want string, got any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s %s: %s: want %s, got %s", r.kind, quoteCut(r.where), field, want, jsonTypeName(got))
	}
}

// jsonTypeName names the JSON type of an unstructured value (the value itself
// is tenant data and is not echoed).
func jsonTypeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, int32, int, float64, float32:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// str reads a string field; absent and null read as "".
func (r *mapReader) str(m map[string]any, field, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.fail(field, "a string", v)
	}
	return s
}

func (r *mapReader) bool(m map[string]any, field, key string) bool {
	v, ok := m[key]
	if !ok || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		r.fail(field, "a boolean", v)
	}
	return b
}

// int64 reads an integer field; unstructured content holds int64 (or
// float64 when decoded by encoding/json into any).
func (r *mapReader) int64(m map[string]any, field, key string) int64 {
	v, ok := m[key]
	if !ok || v == nil {
		return 0
	}
	switch n := v.(type) {
	case int64:
		return n
	case int32:
		return int64(n)
	case int:
		return int64(n)
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n)
		}
	}
	r.fail(field, "an integer", v)
	return 0
}

func (r *mapReader) int32(m map[string]any, field, key string) int32 {
	n := r.int64(m, field, key)
	if n < math.MinInt32 || n > math.MaxInt32 {
		r.fail(field, "a 32-bit integer", n)
		return 0
	}
	return int32(n)
}

// mapAt reads an object field; absent and null read as nil.
func (r *mapReader) mapAt(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		r.fail(key, "an object", v)
	}
	return o
}

func (r *mapReader) list(m map[string]any, field, key string) []any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		r.fail(field, "an array", v)
	}
	return l
}

// stringMap copies a map of strings (labels, annotations, headers).
func (r *mapReader) stringMap(m map[string]any, field string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			r.fail(field+"["+k+"]", "a string", v)
			return nil
		}
		out[k] = s
	}
	return out
}

// groupRef reads a groupRef in either spelling: "name" (v1alpha1) or
// {"name": "name"} (v1beta1).
func (r *mapReader) groupRef(m map[string]any, field string) *GroupRef {
	if m == nil {
		return nil
	}
	v, ok := m["groupRef"]
	if !ok || v == nil {
		return nil
	}
	switch g := v.(type) {
	case string:
		return &GroupRef{Name: g}
	case map[string]any:
		return &GroupRef{Name: r.str(g, field+".name", "name")}
	}
	r.fail(field, "a string or an object", v)
	return nil
}

func (r *mapReader) time(m map[string]any, field, key string) *metav1.Time {
	s := r.str(m, field, key)
	if s == "" {
		return nil
	}
	var t metav1.Time
	if err := t.UnmarshalQueryParameter(s); err != nil {
		r.fail(field, "an RFC 3339 time", s)
		return nil
	}
	return &t
}

// objectMeta reads the metadata fields the snapshot types carry: everything
// but managedFields (which no decision of the library reads and which is
// by far the largest part of most objects).
func (r *mapReader) objectMeta(obj map[string]any) metav1.ObjectMeta {
	m := r.mapAt(obj, "metadata")
	var meta metav1.ObjectMeta
	if m == nil {
		return meta
	}
	meta.Name = r.str(m, "metadata.name", "name")
	meta.Namespace = r.str(m, "metadata.namespace", "namespace")
	meta.GenerateName = r.str(m, "metadata.generateName", "generateName")
	meta.UID = types.UID(r.str(m, "metadata.uid", "uid"))
	meta.ResourceVersion = r.str(m, "metadata.resourceVersion", "resourceVersion")
	meta.Generation = r.int64(m, "metadata.generation", "generation")
	if t := r.time(m, "metadata.creationTimestamp", "creationTimestamp"); t != nil {
		meta.CreationTimestamp = *t
	}
	meta.DeletionTimestamp = r.time(m, "metadata.deletionTimestamp", "deletionTimestamp")
	if v, ok := m["deletionGracePeriodSeconds"]; ok && v != nil {
		n := r.int64(m, "metadata.deletionGracePeriodSeconds", "deletionGracePeriodSeconds")
		meta.DeletionGracePeriodSeconds = &n
	}
	if l := r.mapAt(m, "labels"); l != nil {
		meta.Labels = r.stringMap(l, "metadata.labels")
	}
	if a := r.mapAt(m, "annotations"); a != nil {
		meta.Annotations = r.stringMap(a, "metadata.annotations")
	}
	for i, f := range r.list(m, "metadata.finalizers", "finalizers") {
		s, ok := f.(string)
		if !ok {
			r.fail(fmt.Sprintf("metadata.finalizers[%d]", i), "a string", f)
			break
		}
		meta.Finalizers = append(meta.Finalizers, s)
	}
	owners := r.list(m, "metadata.ownerReferences", "ownerReferences")
	if len(owners) > 0 {
		meta.OwnerReferences = make([]metav1.OwnerReference, 0, len(owners))
	}
	for i, o := range owners {
		field := fmt.Sprintf("metadata.ownerReferences[%d]", i)
		om, ok := o.(map[string]any)
		if !ok {
			r.fail(field, "an object", o)
			break
		}
		ref := metav1.OwnerReference{
			APIVersion: r.str(om, field+".apiVersion", "apiVersion"),
			Kind:       r.str(om, field+".kind", "kind"),
			Name:       r.str(om, field+".name", "name"),
			UID:        types.UID(r.str(om, field+".uid", "uid")),
		}
		if v, ok := om["controller"]; ok && v != nil {
			b := r.bool(om, field+".controller", "controller")
			ref.Controller = &b
		}
		if v, ok := om["blockOwnerDeletion"]; ok && v != nil {
			b := r.bool(om, field+".blockOwnerDeletion", "blockOwnerDeletion")
			ref.BlockOwnerDeletion = &b
		}
		meta.OwnerReferences = append(meta.OwnerReferences, ref)
	}
	return meta
}
