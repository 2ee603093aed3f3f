package discovery

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mcpreg/mcpreg/model"
)

// resource is one MCP resource (MCPServer, MCPRemoteProxy or
// VirtualMCPServer) seen through what discovery needs of it.
type resource struct {
	ref  model.ObjectRef
	uid  types.UID
	meta *metav1.ObjectMeta
	// remoteType is the remotes[].type clients use to reach it; typeField
	// the spec field it comes from.
	remoteType string
	typeField  string
	// image is an MCPServer's spec.image; remoteURL an MCPRemoteProxy's
	// spec.remoteURL. They are only used to find a source-registry entry.
	image     string
	remoteURL string
	// selected is false for resources outside Options.Namespaces or the label
	// selector: they exist (Method 2 must not call their Services ownerless)
	// but are never exported.
	selected bool
	obj      any
	// order is the resource's position in resourceIndex.all, which is
	// sorted by compare: a cheap stand-in for compare when sorting.
	order int
}

// kindRank orders kinds in diagnostics-independent work: when two resources
// compete (a name, a URL), an MCPServer goes before an MCPRemoteProxy before a
// VirtualMCPServer.
func kindRank(kind string) int {
	switch kind {
	case model.KindMCPServer:
		return 0
	case model.KindMCPRemoteProxy:
		return 1
	case model.KindVirtualMCPServer:
		return 2
	}
	return 3
}

// compare orders resources by kind rank, namespace, name and UID.
func (r *resource) compare(o *resource) int {
	return cmp.Or(
		cmp.Compare(kindRank(r.ref.Kind), kindRank(o.ref.Kind)),
		cmp.Compare(r.ref.Namespace, o.ref.Namespace),
		cmp.Compare(r.ref.Name, o.ref.Name),
		cmp.Compare(r.uid, o.uid),
	)
}

// resourceIndex holds every MCP resource of a snapshot once, sorted.
type resourceIndex struct {
	all   []*resource
	byRef map[model.ObjectRef]*resource
}

// lookup finds the resource of that kind, namespace and name; when uid is set
// it must match too (SPEC §10: ownerReferences are matched by UID when
// present). It returns nil when there is none.
func (ix *resourceIndex) lookup(kind, namespace, name string, uid types.UID) *resource {
	r := ix.byRef[model.ObjectRef{Kind: kind, Namespace: namespace, Name: name}]
	if r == nil || (uid != "" && r.uid != "" && r.uid != uid) {
		return nil
	}
	return r
}

// indexResources collects the MCP resources of snap. An object listed twice
// (the same kind, namespace and name) is kept once: identical copies silently,
// differing ones with a DuplicateName warning, keeping the first in a fixed
// order (UID, then content) so the choice does not depend on input order.
func indexResources(snap *Snapshot, cfg *config) (*resourceIndex, model.Diagnostics) {
	var all []*resource
	add := func(kind string, meta *metav1.ObjectMeta, remoteType string, obj any) *resource {
		r := &resource{
			ref:        model.Ref(kind, meta),
			uid:        meta.UID,
			meta:       meta,
			remoteType: remoteType,
			obj:        obj,
		}
		r.selected = cfg.inNamespace(meta.Namespace) && cfg.selector.Matches(labels.Set(meta.Labels))
		all = append(all, r)
		return r
	}
	for _, s := range snap.MCPServers {
		if s != nil {
			r := add(model.KindMCPServer, &s.ObjectMeta, s.RemoteType(), s)
			r.image = s.Spec.Image
			r.typeField = "spec.transport"
			if s.EffectiveTransport() == model.TransportStdio {
				r.typeField = "spec.proxyMode"
			}
		}
	}
	for _, p := range snap.MCPRemoteProxies {
		if p != nil {
			r := add(model.KindMCPRemoteProxy, &p.ObjectMeta, p.RemoteType(), p)
			r.remoteURL = p.Spec.RemoteURL
			r.typeField = "spec.transport"
		}
	}
	for _, v := range snap.VirtualMCPServers {
		if v != nil {
			add(model.KindVirtualMCPServer, &v.ObjectMeta, v.RemoteType(), v)
		}
	}
	slices.SortFunc(all, func(a, b *resource) int {
		if c := a.compare(b); c != 0 {
			return c
		}
		return bytes.Compare(encode(a.obj), encode(b.obj))
	})
	ix := &resourceIndex{byRef: make(map[model.ObjectRef]*resource, len(all))}
	var ds model.Diagnostics
	for _, r := range all {
		first, dup := ix.byRef[r.ref]
		if !dup {
			r.order = len(ix.all)
			ix.byRef[r.ref] = r
			ix.all = append(ix.all, r)
			continue
		}
		// Resources outside the namespaces and selector are not discovery's
		// business: their duplicates are not reported either.
		if (first.selected || r.selected) && !bytes.Equal(encode(first.obj), encode(r.obj)) {
			ds = append(ds, model.Warningf(model.ReasonDuplicateName, r.ref, "",
				"%s appears more than once in the snapshot with different content; one copy is used (uid %q), the other ignored",
				r.ref, first.uid))
		}
	}
	return ix, ds
}

// encode is the JSON of a snapshot object, used only to order and compare
// copies of one object; the snapshot types always encode.
func encode(obj any) []byte {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	return b
}
