package discovery

import "github.com/mcpreg/mcpreg/model"

// routeExports is Method 2 of SPEC §6: annotated HTTPRoutes, followed per rule
// and backendRef to a Service, through its controller ownerReference to the
// MCP resource (ix.lookup, by kind, name and UID), and to their parent
// Gateways for the URL. It returns one export per (route, resource) with
// candidate URLs of source sourceRoute, via naming the HTTPRoute and field the
// rule, and only for resources with selected set.
//
// It finds nothing yet: Method 2 arrives with the Gateway API issue, which
// fills in this function (and the urlbuild package it uses) without changing
// the stages around it.
func routeExports(snap *Snapshot, ix *resourceIndex, cfg *config) ([]export, model.Diagnostics) {
	_, _, _ = snap, ix, cfg
	return nil, nil
}
