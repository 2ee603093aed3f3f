package discovery

import (
	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/mcpreg/mcpreg/model"
)

// Snapshot is the state of a cluster as far as discovery reads it. Slices may
// be in any order; the library neither sorts nor modifies them in place.
// Fill it directly, or with Add from whatever a client or lister returns.
//
// Objects are expected to carry their namespace (as objects read from the API
// server do); an empty namespace is a namespace of its own, not "default".
type Snapshot struct {
	MCPServers        []*model.MCPServer
	MCPRemoteProxies  []*model.MCPRemoteProxy
	VirtualMCPServers []*model.VirtualMCPServer
	// MCPServerEntries are ToolHive's catalog entries for remote servers
	// (v1beta1, ToolHive v0.47 and later).
	MCPServerEntries []*model.MCPServerEntry
	MCPGroups        []*model.MCPGroup

	// Services, Namespaces, Gateways, HTTPRoutes and ReferenceGrants are read by
	// Method 2 (annotated HTTPRoutes).
	Services   []*corev1.Service
	Namespaces []*corev1.Namespace
	Gateways   []*gwv1.Gateway
	HTTPRoutes []*gwv1.HTTPRoute
	// ReferenceGrants holds grants of both API versions; convert v1beta1 ones
	// with ReferenceGrantsFromV1beta1.
	ReferenceGrants []*gwv1.ReferenceGrant
}

// ReferenceGrantsFromV1beta1 converts v1beta1 ReferenceGrants (still the
// storage version in many clusters) to the v1 type the Snapshot holds. The
// v1beta1 type is defined as the v1 type, so this is a pointer conversion: the
// result shares the objects and loses nothing. Nil elements are skipped.
func ReferenceGrantsFromV1beta1(grants []*gwv1beta1.ReferenceGrant) []*gwv1.ReferenceGrant {
	out := make([]*gwv1.ReferenceGrant, 0, len(grants))
	for _, g := range grants {
		if g != nil {
			out = append(out, (*gwv1.ReferenceGrant)(g))
		}
	}
	return out
}
