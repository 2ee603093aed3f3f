package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ToolHiveGroup is the API group of ToolHive's CRDs.
const ToolHiveGroup = "toolhive.stacklok.dev"

// Kinds of the ToolHive CRDs the library reads.
const (
	KindMCPServer        = "MCPServer"
	KindMCPRemoteProxy   = "MCPRemoteProxy"
	KindVirtualMCPServer = "VirtualMCPServer"
	KindMCPGroup         = "MCPGroup"
	KindMCPRegistry      = "MCPRegistry"
)

// GroupRef names an MCPGroup in the same namespace. ToolHive's v1alpha1 API
// spells it as a string, v1beta1 as {"name": ...}; both decode into GroupRef.
// It encodes as the v1beta1 object.
type GroupRef struct {
	Name string `json:"name"`
}

// UnmarshalJSON accepts "name", {"name": "name"} and null.
func (g *GroupRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*g = GroupRef{}
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &g.Name)
	}
	type plain GroupRef
	return json.Unmarshal(b, (*plain)(g))
}

// MCPServer is a snapshot of ToolHive's MCPServer: the fields the library reads.
type MCPServer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MCPServerSpec `json:"spec"`
}

// MCPServerSpec holds the MCPServer fields the library reads.
type MCPServerSpec struct {
	Image string `json:"image,omitempty"`
	// Transport is stdio (the default when empty), sse or streamable-http.
	Transport string `json:"transport,omitempty"`
	// ProxyMode is how a stdio server is exposed: sse or streamable-http
	// (the default when empty).
	ProxyMode string    `json:"proxyMode,omitempty"`
	ProxyPort int32     `json:"proxyPort,omitempty"`
	Port      int32     `json:"port,omitempty"`
	GroupRef  *GroupRef `json:"groupRef,omitempty"`
}

// EffectiveTransport is spec.transport with its default applied.
func (s *MCPServer) EffectiveTransport() string {
	if s.Spec.Transport == "" {
		return TransportStdio
	}
	return s.Spec.Transport
}

// RemoteType is the remotes[].type clients use to reach the server through
// ToolHive's proxy: the transport itself, or for stdio the proxy mode.
func (s *MCPServer) RemoteType() string {
	if t := s.EffectiveTransport(); t != TransportStdio {
		return t
	}
	if s.Spec.ProxyMode == "" {
		return TransportStreamableHTTP
	}
	return s.Spec.ProxyMode
}

// Group returns the name of the MCPGroup the server belongs to, or "".
func (s *MCPServer) Group() string { return groupName(s.Spec.GroupRef) }

// MCPRemoteProxy is a snapshot of ToolHive's MCPRemoteProxy.
type MCPRemoteProxy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MCPRemoteProxySpec `json:"spec"`
}

// MCPRemoteProxySpec holds the MCPRemoteProxy fields the library reads.
type MCPRemoteProxySpec struct {
	// RemoteURL is spec.remoteURL (v1alpha1) or spec.remoteUrl (v1beta1).
	RemoteURL string `json:"remoteURL,omitempty"`
	// Transport is streamable-http (the default when empty) or sse.
	Transport string    `json:"transport,omitempty"`
	ProxyPort int32     `json:"proxyPort,omitempty"`
	Port      int32     `json:"port,omitempty"`
	GroupRef  *GroupRef `json:"groupRef,omitempty"`
}

// UnmarshalJSON accepts both spellings of the remote URL field.
func (s *MCPRemoteProxySpec) UnmarshalJSON(b []byte) error {
	type plain MCPRemoteProxySpec
	var p struct {
		plain
		RemoteURLv1beta1 string `json:"remoteUrl,omitempty"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = MCPRemoteProxySpec(p.plain)
	if s.RemoteURL == "" {
		s.RemoteURL = p.RemoteURLv1beta1
	}
	return nil
}

// RemoteType is the remotes[].type of the proxy: its transport, default streamable-http.
func (p *MCPRemoteProxy) RemoteType() string {
	if p.Spec.Transport == "" {
		return TransportStreamableHTTP
	}
	return p.Spec.Transport
}

// Group returns the name of the MCPGroup the proxy belongs to, or "".
func (p *MCPRemoteProxy) Group() string { return groupName(p.Spec.GroupRef) }

// VirtualMCPServer is a snapshot of ToolHive's VirtualMCPServer.
type VirtualMCPServer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              VirtualMCPServerSpec `json:"spec"`
}

// VirtualMCPServerSpec holds the VirtualMCPServer fields the library reads.
type VirtualMCPServerSpec struct {
	// GroupRef is spec.groupRef, or spec.config.groupRef in ToolHive versions
	// that nest it; required.
	GroupRef *GroupRef `json:"groupRef,omitempty"`
	// GroupRefInConfig is true when GroupRef was read from
	// spec.config.groupRef, where ToolHive v0.10 keeps it (v0.47 has
	// spec.groupRef, which wins when both are set). A diagnostic about the
	// reference names the field the object's author wrote, and the JSON
	// encoding puts the reference back there.
	GroupRefInConfig bool `json:"-"`
}

// Field paths of a VirtualMCPServer's group reference in the two shapes
// ToolHive has shipped.
const (
	fieldGroupRef       = "spec.groupRef"
	fieldConfigGroupRef = "spec.config.groupRef"
)

// UnmarshalJSON accepts groupRef at spec level or under spec.config.
func (s *VirtualMCPServerSpec) UnmarshalJSON(b []byte) error {
	var p struct {
		GroupRef *GroupRef `json:"groupRef,omitempty"`
		Config   *struct {
			GroupRef *GroupRef `json:"groupRef,omitempty"`
		} `json:"config,omitempty"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = VirtualMCPServerSpec{GroupRef: p.GroupRef}
	if s.GroupRef == nil && p.Config != nil && p.Config.GroupRef != nil {
		s.GroupRef, s.GroupRefInConfig = p.Config.GroupRef, true
	}
	return nil
}

// MarshalJSON writes the group reference where it was read from:
// spec.groupRef as {"name": ...}, or, for GroupRefInConfig,
// spec.config.groupRef as the string ToolHive v0.10 has there. Two copies
// of one object that differ only in that place so encode differently.
func (s VirtualMCPServerSpec) MarshalJSON() ([]byte, error) {
	if s.GroupRefInConfig && s.GroupRef != nil {
		var p struct {
			Config struct {
				GroupRef string `json:"groupRef"`
			} `json:"config"`
		}
		p.Config.GroupRef = s.GroupRef.Name
		return json.Marshal(p)
	}
	return json.Marshal(struct {
		GroupRef *GroupRef `json:"groupRef,omitempty"`
	}{s.GroupRef})
}

// GroupRefField is the path of the field the group reference was read
// from: spec.config.groupRef (ToolHive v0.10's place) or spec.groupRef.
func (v *VirtualMCPServer) GroupRefField() string {
	if v.Spec.GroupRefInConfig {
		return fieldConfigGroupRef
	}
	return fieldGroupRef
}

// RemoteType of a VirtualMCPServer is always streamable-http.
func (*VirtualMCPServer) RemoteType() string { return TransportStreamableHTTP }

// Group returns the name of the MCPGroup the virtual server aggregates.
func (v *VirtualMCPServer) Group() string { return groupName(v.Spec.GroupRef) }

func groupName(g *GroupRef) string {
	if g == nil {
		return ""
	}
	return g.Name
}

// MCPGroup is a snapshot of ToolHive's MCPGroup.
type MCPGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MCPGroupSpec `json:"spec"`
}

// MCPGroupSpec holds the MCPGroup fields.
type MCPGroupSpec struct {
	Description string `json:"description,omitempty"`
}

// MCPGroupStatus is the computed status of an MCPGroup, with the field names
// of the CRD's status.
type MCPGroupStatus struct {
	Phase            string   `json:"phase"`
	Servers          []string `json:"servers"`
	ServerCount      int      `json:"serverCount"`
	RemoteProxies    []string `json:"remoteProxies"`
	RemoteProxyCount int      `json:"remoteProxyCount"`
	// Entries and EntryCount are the group's MCPServerEntries, as ToolHive
	// v0.47 and later write them.
	Entries    []string           `json:"entries"`
	EntryCount int                `json:"entryCount"`
	Conditions []metav1.Condition `json:"conditions"`
}

// Ref returns the ObjectRef of an object of the given kind.
func Ref(kind string, meta *metav1.ObjectMeta) ObjectRef {
	if meta == nil {
		return ObjectRef{Kind: kind}
	}
	return ObjectRef{Kind: kind, Namespace: meta.Namespace, Name: meta.Name}
}

// FullRef returns the ObjectRef of an object with its apiVersion and UID,
// what an Event's involved object and an ownerReference need.
func FullRef(apiVersion, kind string, meta *metav1.ObjectMeta) ObjectRef {
	if meta == nil {
		return ObjectRef{APIVersion: apiVersion, Kind: kind}
	}
	return ObjectRef{APIVersion: apiVersion, Kind: kind, Namespace: meta.Namespace, Name: meta.Name, UID: string(meta.UID)}
}

// DecodeToolHive decodes a ToolHive object of a known kind from JSON into its
// snapshot type (*MCPServer, *MCPRemoteProxy, *VirtualMCPServer, *MCPGroup,
// *MCPServerEntry or *MCPRegistry). The API version may be v1alpha1 or v1beta1. Objects of another
// group or kind return (nil, nil).
func DecodeToolHive(data []byte) (any, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return nil, err
	}
	group, _, _ := strings.Cut(tm.APIVersion, "/")
	if !IsToolHiveGroup(group) {
		return nil, nil
	}
	var obj any
	switch tm.Kind {
	case KindMCPServer:
		obj = &MCPServer{}
	case KindMCPRemoteProxy:
		obj = &MCPRemoteProxy{}
	case KindVirtualMCPServer:
		obj = &VirtualMCPServer{}
	case KindMCPGroup:
		obj = &MCPGroup{}
	case KindMCPServerEntry:
		obj = &MCPServerEntry{}
	case KindMCPRegistry:
		obj = &MCPRegistry{}
	default:
		return nil, nil
	}
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", tm.Kind, err)
	}
	return obj, nil
}

// MCPServerFromUnstructured converts an unstructured MCPServer; an object
// with an empty TypeMeta is read as an MCPServer.
func MCPServerFromUnstructured(u *unstructured.Unstructured) (*MCPServer, error) {
	return fromUnstructured[*MCPServer](u, KindMCPServer)
}

// MCPRemoteProxyFromUnstructured converts an unstructured MCPRemoteProxy; an
// object with an empty TypeMeta is read as an MCPRemoteProxy.
func MCPRemoteProxyFromUnstructured(u *unstructured.Unstructured) (*MCPRemoteProxy, error) {
	return fromUnstructured[*MCPRemoteProxy](u, KindMCPRemoteProxy)
}

// VirtualMCPServerFromUnstructured converts an unstructured VirtualMCPServer;
// an object with an empty TypeMeta is read as a VirtualMCPServer.
func VirtualMCPServerFromUnstructured(u *unstructured.Unstructured) (*VirtualMCPServer, error) {
	return fromUnstructured[*VirtualMCPServer](u, KindVirtualMCPServer)
}

// MCPGroupFromUnstructured converts an unstructured MCPGroup; an object with
// an empty TypeMeta is read as an MCPGroup.
func MCPGroupFromUnstructured(u *unstructured.Unstructured) (*MCPGroup, error) {
	return fromUnstructured[*MCPGroup](u, KindMCPGroup)
}

// MCPServerEntryFromUnstructured converts an unstructured MCPServerEntry; an
// object with an empty TypeMeta is read as an MCPServerEntry.
func MCPServerEntryFromUnstructured(u *unstructured.Unstructured) (*MCPServerEntry, error) {
	return fromUnstructured[*MCPServerEntry](u, KindMCPServerEntry)
}

// MCPRegistryFromUnstructured converts an unstructured MCPRegistry; an object
// with an empty TypeMeta is read as an MCPRegistry.
func MCPRegistryFromUnstructured(u *unstructured.Unstructured) (*MCPRegistry, error) {
	return fromUnstructured[*MCPRegistry](u, KindMCPRegistry)
}

func fromUnstructured[T any](u *unstructured.Unstructured, kind string) (T, error) {
	var zero T
	obj, err := FromUnstructured(u, schema.GroupVersionKind{Group: ToolHiveGroup, Version: "v1beta1", Kind: kind})
	if err != nil {
		return zero, err
	}
	return obj.(T), nil
}
