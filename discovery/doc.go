// Package discovery builds upstream MCP registry entries for the MCP servers a
// Kubernetes cluster exports — by annotations on MCP resources or through
// annotated Gateway API HTTPRoutes — and computes MCPGroup membership and
// status.
//
// The input is a Snapshot: the objects a caller listed from the cluster (or
// decoded from manifests). Nothing here does I/O, reads a clock or keeps state;
// the same snapshot in any order gives byte-identical output and identically
// sorted diagnostics.
//
// # Pipeline
//
// Discover runs four stages, each a function of the one before:
//
//  1. Collect exports. Method 1 reads the annotations of MCPServers,
//     MCPRemoteProxies, VirtualMCPServers and MCPServerEntries (an entry's
//     remote is its spec.remoteUrl unless registry-url replaces it, after
//     ToolHive's endpoint-safety rule: see PrivateEndpoint and
//     BlockedEndpoint); Method 2 follows annotated HTTPRoutes to the MCP resource that controls their
//     backend Service, and builds URLs from their parent Gateways with
//     package urlbuild. Each yields, per MCP resource, candidate URLs and
//     where they came from.
//  2. Merge per resource: a direct registry-url wins and URLs derived from
//     routes are dropped (ConflictingExport).
//  3. Build entries: a resource whose image (MCPServer) or remote URL
//     (MCPRemoteProxy) matches an entry of the source registry enriches a copy
//     of that entry; any other gets a new entry named by the naming scheme.
//  4. Cross-entry checks: a remote URL used by two entries stays on the first
//     (DuplicateRemoteURL); entries that would share a name get distinct names
//     (DuplicateName). Each entry must then pass the upstream rules
//     (model.ValidateServer); one that does not is dropped with a diagnostic.
//
// # Namespaces
//
// Options.Namespaces restricts the result, not the work: every stage runs
// over the resources the label selector matches in all namespaces, so that
// names and remote URLs are settled as without it, and only then are the
// entries kept to those of resources of the chosen namespaces and the
// diagnostics to those about their objects (and about the options).
// Discovery restricted to a namespace thus equals the full result
// restricted to it: a server has the same name and URLs in a namespace's
// registry as in the cluster's. The one exception is an entry enriching a
// source-registry entry from several namespaces: restricted, it is built
// from the chosen namespaces' resources alone (remotes, annotation
// overrides, the diagnostics about building it), with the name and the URLs
// the full result gives it, so that no other namespace's URL is published.
//
// # Annotations (prefix toolhive.stacklok.dev/)
//
//   - registry-export: exactly "true" exports the resource; "false" opts out;
//     anything else is InvalidAnnotationValue. With Options.URLAloneExports,
//     a registry-url annotation alone exports the resource too.
//   - registry-url: the external URL (see CheckURL).
//   - registry-description, registry-title, registry-version (semantic
//     version), registry-tier (Official or Community), registry-name (a full
//     upstream name, overriding the generated one). A resource that enriches
//     a source-registry entry keeps that entry's name, description and
//     version: those three annotations are then ignored, with
//     ConflictingExport when they differ.
//
// No other annotation or label of any object is copied into the output.
//
// The tier is written where ToolHive reads it: in the publisher extensions
// _meta["io.modelcontextprotocol.registry/publisher-provided"]["io.github.stacklok"][key],
// an object that also carries "status": "active". ToolHive reads the first
// extension object whatever its key; by its converter's convention the key is
// the package identifier for container entries and the remote URL for remote
// entries. Discovered entries are remote entries, so a new entry's key is its
// first remote URL; an enriched copy reuses the extension object its source
// entry already has, or keys a new one by its first OCI package identifier.
//
// # HTTPRoutes (Method 2)
//
// An HTTPRoute whose registry-export annotation is exactly "true" exports,
// for each rule, the MCP resource that controls (controller ownerReference,
// UID matched when both sides have one) the Service its heaviest backendRef
// names — across namespaces only where a ReferenceGrant (v1 or v1beta1)
// allows it — at the URLs package urlbuild builds from the rule and the
// listeners of the parent Gateways that accepted the route and admit it.
// A resource needs no annotation to be exported this way, but
// registry-export "false" on it opts out, and its own registry-url wins over
// the route's (ConflictingExport). The label selector chooses resources, not
// routes: a route never exports a resource it leaves out, and its
// diagnostics are reported when it reaches a resource the selector matches
// (or none at all). Options.Namespaces restricts what the result shows (a
// route's diagnostics are shown when its namespace is chosen), not what
// takes part: see "Namespaces" below. Every step that
// fails is diagnosed on the route, naming the rule or parentRef: see
// docs/diagnostics.md in the repository for the reasons.
//
// # Watching
//
// AffectedBy (one object) and AffectedByChange (an update) map a Gateway,
// HTTPRoute, Service, ReferenceGrant, Namespace or MCP resource to the
// resources whose entries may change. Every entry point takes objects as
// clients hand them (see Normalize): the snapshot types, gateway-api v1 and
// v1beta1 objects, *unstructured.Unstructured, and Kinded for objects whose
// TypeMeta is empty; anything else is an error.
package discovery
