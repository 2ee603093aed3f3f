package model

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KindMCPServerEntry is the kind of ToolHive's MCPServerEntry (v1beta1,
// ToolHive v0.47 and later): a catalog entry for a remote MCP server that
// runs no workload of its own.
const KindMCPServerEntry = "MCPServerEntry"

// MCPServerEntry is a snapshot of ToolHive's MCPServerEntry. It declares a
// remote MCP server endpoint and creates no pods, Services or Deployments:
// its remote is spec.remoteUrl itself.
type MCPServerEntry struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MCPServerEntrySpec `json:"spec"`
}

// MCPServerEntrySpec holds the MCPServerEntry fields, as ToolHive v0.47's CRD
// defines them.
type MCPServerEntrySpec struct {
	// RemoteURL is the URL of the remote MCP server (http or https; the CRD
	// checks only the scheme prefix).
	RemoteURL string `json:"remoteUrl,omitempty"`
	// Transport is sse or streamable-http. It is required and has no
	// default: the entry points at a server its author does not control.
	Transport string `json:"transport,omitempty"`
	// GroupRef names the MCPGroup the entry belongs to; required.
	GroupRef *GroupRef `json:"groupRef,omitempty"`
	// AllowPrivateEndpoint lets RemoteURL name a private or in-cluster
	// endpoint (RFC 1918 and IPv6 unique-local addresses, *.cluster.local).
	// Loopback, link-local, cloud metadata and kubernetes.default stay
	// refused whatever it says.
	AllowPrivateEndpoint bool `json:"allowPrivateEndpoint,omitempty"`
	// ExternalAuthConfigRef names an MCPExternalAuthConfig of the same
	// namespace used for token exchange with the remote.
	ExternalAuthConfigRef *ExternalAuthConfigRef `json:"externalAuthConfigRef,omitempty"`
	// HeaderForward lists headers ToolHive adds to requests to the remote.
	HeaderForward *HeaderForward `json:"headerForward,omitempty"`
	// CABundleRef names a ConfigMap key holding CA certificates for TLS to
	// the remote.
	CABundleRef *CABundleRef `json:"caBundleRef,omitempty"`
}

// ExternalAuthConfigRef names an MCPExternalAuthConfig in the same namespace.
type ExternalAuthConfigRef struct {
	Name string `json:"name"`
}

// HeaderForward is the headers ToolHive injects into requests to a remote.
type HeaderForward struct {
	// AddPlaintextHeaders maps header names to literal values.
	AddPlaintextHeaders map[string]string `json:"addPlaintextHeaders,omitempty"`
	// AddHeadersFromSecret takes header values from Secrets.
	AddHeadersFromSecret []HeaderFromSecret `json:"addHeadersFromSecret,omitempty"`
}

// HeaderFromSecret is one header whose value is read from a Secret key.
type HeaderFromSecret struct {
	HeaderName     string        `json:"headerName"`
	ValueSecretRef *SecretKeyRef `json:"valueSecretRef,omitempty"`
}

// SecretKeyRef names a key of a Secret in the same namespace.
type SecretKeyRef struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// CABundleRef points at the ConfigMap key holding a CA bundle.
type CABundleRef struct {
	ConfigMapRef *ConfigMapKeySelector `json:"configMapRef,omitempty"`
}

// ConfigMapKeySelector names a key of a ConfigMap in the same namespace (the
// shape of corev1.ConfigMapKeySelector).
type ConfigMapKeySelector struct {
	Name     string `json:"name,omitempty"`
	Key      string `json:"key"`
	Optional *bool  `json:"optional,omitempty"`
}

// RemoteType is the remotes[].type of the entry: its transport.
func (e *MCPServerEntry) RemoteType() string { return e.Spec.Transport }

// Group returns the name of the MCPGroup the entry belongs to, or "".
func (e *MCPServerEntry) Group() string { return groupName(e.Spec.GroupRef) }
