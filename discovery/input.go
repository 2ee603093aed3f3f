package discovery

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/mcpreg/mcpreg/model"
)

// Kinded is an object together with the kind to read it as. Typed clients
// and listers return objects whose TypeMeta (apiVersion, kind) is empty; an
// *unstructured.Unstructured or a ToolHive Go type in that state says
// nothing of what it is, so the caller, who knows what it listed or
// watched, wraps it: Kinded{Object: obj, GVK: gvk}. Objects whose TypeMeta
// is set, and the library's own snapshot types, need no wrapping.
type Kinded struct {
	Object runtime.Object
	// GVK is the kind the object was listed as; used when the object's own
	// TypeMeta is empty, checked against it otherwise.
	GVK schema.GroupVersionKind
}

// Normalize returns obj as the type discovery reads for its kind, so that
// every entry point (Snapshot.Add, AffectedBy, AffectedByChange, the watch
// Index) accepts objects as clients hand them:
//
//   - the snapshot types: *model.MCPServer, *model.MCPRemoteProxy,
//     *model.VirtualMCPServer, *model.MCPServerEntry, *model.MCPGroup,
//     *model.MCPRegistry; *corev1.Service, *corev1.Namespace,
//     *corev1.ConfigMap; *gwv1.Gateway, *gwv1.HTTPRoute and
//     *gwv1.ReferenceGrant are returned as they are;
//   - gateway-api v1beta1 Gateway, HTTPRoute and ReferenceGrant (the API
//     serves both versions, and v1beta1 is still ReferenceGrant's storage
//     version) become their v1 type: the v1beta1 types are defined as the v1
//     types, so this is a pointer conversion that loses nothing;
//   - *unstructured.Unstructured of any of those kinds is converted (ToolHive
//     kinds with model.FromUnstructured, which reads the map directly; the
//     core and gateway-api kinds with the apimachinery converter);
//   - any other runtime.Object of a ToolHive kind (ToolHive's own Go types)
//     goes through its unstructured form;
//   - Kinded supplies the kind for any of the above whose TypeMeta is empty.
//
// nil and typed nil pointers give (nil, nil). Anything else, including an
// unstructured object whose kind is unknown or not given, is an error: an
// input discovery cannot read is never silently ignored.
func Normalize(obj any) (any, error) {
	var gvk schema.GroupVersionKind
	if k, ok := obj.(Kinded); ok {
		obj, gvk = k.Object, k.GVK
	} else if k, ok := obj.(*Kinded); ok && k != nil {
		obj, gvk = k.Object, k.GVK
	}
	obj = present(obj)
	switch o := obj.(type) {
	case nil:
		return nil, nil
	case *model.MCPServer, *model.MCPRemoteProxy, *model.VirtualMCPServer, *model.MCPServerEntry,
		*model.MCPGroup, *model.MCPRegistry, *corev1.Service, *corev1.Namespace, *corev1.ConfigMap,
		*gwv1.Gateway, *gwv1.HTTPRoute, *gwv1.ReferenceGrant:
		return o, nil
	case *gwv1beta1.Gateway:
		return (*gwv1.Gateway)(o), nil
	case *gwv1beta1.HTTPRoute:
		return (*gwv1.HTTPRoute)(o), nil
	case *gwv1beta1.ReferenceGrant:
		return (*gwv1.ReferenceGrant)(o), nil
	case *unstructured.Unstructured:
		return fromUnstructured(o, gvk)
	case runtime.Object:
		have := o.GetObjectKind().GroupVersionKind()
		if have.Kind == "" {
			have = gvk
		}
		if model.IsToolHiveGroup(have.Group) {
			return model.ToolHiveObject(o, gvk)
		}
		return nil, fmt.Errorf("discovery does not read %T (kind %q)", obj, have.GroupKind().String())
	}
	return nil, fmt.Errorf("discovery does not read %T: pass a snapshot type, an *unstructured.Unstructured or a Kinded", obj)
}

// fromUnstructured converts an unstructured object of a kind discovery reads.
func fromUnstructured(u *unstructured.Unstructured, gvk schema.GroupVersionKind) (any, error) {
	have := u.GroupVersionKind()
	if have.Kind == "" {
		have = gvk
	} else if gvk.Kind != "" && (gvk.Kind != have.Kind || gvk.Group != have.Group) {
		return nil, fmt.Errorf("unstructured %s %s/%s was given as a %s", have.GroupKind(), u.GetNamespace(), u.GetName(), gvk.GroupKind())
	}
	if model.IsToolHiveGroup(have.Group) {
		return model.FromUnstructured(u, gvk)
	}
	var into any
	switch {
	case have.Group == "" && have.Kind == "Service":
		into = &corev1.Service{}
	case have.Group == "" && have.Kind == "Namespace":
		into = &corev1.Namespace{}
	case have.Group == "" && have.Kind == "ConfigMap":
		into = &corev1.ConfigMap{}
	case have.Group == gwv1.GroupName && have.Kind == "Gateway":
		into = &gwv1.Gateway{}
	case have.Group == gwv1.GroupName && have.Kind == "HTTPRoute":
		into = &gwv1.HTTPRoute{}
	case have.Group == gwv1.GroupName && have.Kind == "ReferenceGrant":
		into = &gwv1.ReferenceGrant{}
	case have.Kind == "":
		return nil, fmt.Errorf("unstructured object %s/%s has no apiVersion and kind: wrap it in discovery.Kinded with the kind it was listed as", u.GetNamespace(), u.GetName())
	default:
		return nil, fmt.Errorf("discovery does not read %s (unstructured %s/%s)", have.GroupKind(), u.GetNamespace(), u.GetName())
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into); err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", have.Kind, u.GetNamespace(), u.GetName(), err)
	}
	into.(runtime.Object).GetObjectKind().SetGroupVersionKind(have)
	return into, nil
}

// Add adds objects to the snapshot, each to the list of its kind, after
// Normalize: snapshot types, v1beta1 gateway-api objects, unstructured
// objects and Kinded values are all accepted, so a snapshot can be filled
// from whatever listers return. nil objects are skipped; ConfigMaps and
// MCPRegistries, which discovery does not read, are skipped too. The first
// object that cannot be read stops Add with an error naming its position;
// the objects before it have been added.
func (s *Snapshot) Add(objs ...any) error {
	for i, obj := range objs {
		o, err := Normalize(obj)
		if err != nil {
			return fmt.Errorf("object %d: %w", i, err)
		}
		s.put(o)
	}
	return nil
}

// put appends o to the slice of its kind; other kinds are ignored.
func (s *Snapshot) put(o any) {
	switch o := o.(type) {
	case *model.MCPServer:
		s.MCPServers = append(s.MCPServers, o)
	case *model.MCPRemoteProxy:
		s.MCPRemoteProxies = append(s.MCPRemoteProxies, o)
	case *model.VirtualMCPServer:
		s.VirtualMCPServers = append(s.VirtualMCPServers, o)
	case *model.MCPServerEntry:
		s.MCPServerEntries = append(s.MCPServerEntries, o)
	case *model.MCPGroup:
		s.MCPGroups = append(s.MCPGroups, o)
	case *corev1.Service:
		s.Services = append(s.Services, o)
	case *corev1.Namespace:
		s.Namespaces = append(s.Namespaces, o)
	case *gwv1.Gateway:
		s.Gateways = append(s.Gateways, o)
	case *gwv1.HTTPRoute:
		s.HTTPRoutes = append(s.HTTPRoutes, o)
	case *gwv1.ReferenceGrant:
		s.ReferenceGrants = append(s.ReferenceGrants, o)
	}
}
