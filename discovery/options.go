package discovery

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/mcpreg/mcpreg/internal/labelsel"
	"github.com/mcpreg/mcpreg/model"
)

// Options controls Discover. The zero value is the default: all
// namespaces, no label selector, no source registry, the ToolHive operator
// naming scheme, registry-export required, description optional, http URLs
// allowed with a warning.
type Options struct {
	// Namespaces restricts the result to the entries of MCP resources in
	// these namespaces and the diagnostics about their objects; empty means
	// all namespaces. Names (DuplicateName), remote URLs (DuplicateRemoteURL)
	// and every other claim between resources are settled first among all
	// the resources LabelSelector matches, whatever their namespace, as
	// without Namespaces: a namespace's registry is a view of the full
	// registry, so a server never gets a different name or URL depending on
	// who asks. The result is the full one restricted to these namespaces,
	// with one exception: a source-registry entry enriched from several
	// namespaces is built from the resources of these namespaces only (its
	// remotes, its annotation overrides and the diagnostics about building
	// it), so that no other namespace's URL is published; its name and which
	// URLs it keeps are the full result's. Diagnostics about no namespaced
	// object (the options, an empty registry) are always kept.
	Namespaces []string

	// LabelSelector selects MCP resources by label, in Kubernetes selector
	// syntax ("team=a,tier in (gold,silver),!legacy"); empty selects all. A
	// selector that does not parse is an InvalidSelector error and Discover
	// returns no registry.
	LabelSelector string

	// SourceRegistry is the registry whose entries discovered servers enrich
	// instead of getting new ones: an MCPServer whose image matches an entry's
	// OCI package, or an MCPRemoteProxy whose spec.remoteURL matches one of an
	// entry's remotes, gets a copy of that entry with the discovered remotes
	// added. Nil means no source registry.
	SourceRegistry *model.Registry

	// Naming is how new entries are named; the zero value is
	// NamingToolHiveOperator.
	Naming NamingScheme

	// URLAloneExports makes a registry-url annotation export its resource even
	// without registry-export, for clusters annotated before registry-export
	// existed. By default registry-export must be exactly "true", so that a
	// URL recorded for other reasons never publishes a server; registry-export
	// "false" opts out either way.
	URLAloneExports bool

	// RequireDescription makes a registry-description annotation mandatory for
	// a server not found in the source registry: without one it is skipped
	// with a MissingDescription warning. By default such an entry gets the
	// description "<Kind> <namespace>/<name>" and a MissingDescription info,
	// because an HTTPRoute alone can export an unannotated MCPServer and the
	// upstream schema requires a description.
	RequireDescription bool

	// RequireHTTPS refuses http URLs (InsecureURL warning, URL dropped). URLs
	// are always http or https: the upstream schema allows no other scheme
	// (remotes[].url must match ^https?://), so this is the one choice of
	// schemes there is.
	RequireHTTPS bool

	// EndpointPaths maps a remote type (sse, streamable-http) to the path the
	// backend serves it on (ToolHive's proxy: /sse and /mcp). Method 2 uses it
	// to build the external URL through the route's URLRewrite. A registry-url
	// annotation is taken as given and is not changed by it.
	EndpointPaths map[string]string

	// LastUpdated is written as meta.last_updated (RFC 3339, UTC). The library
	// reads no clock: callers pass the time.
	LastUpdated time.Time
}

// ToolHiveEndpointPaths returns the paths ToolHive's proxy serves MCP on,
// per remote type, for Options.EndpointPaths: streamable-http at /mcp, and
// sse at /sse (the SSE stream; the client then posts to the /messages
// endpoint the stream announces, which needs no entry of its own). Passing
// it makes a route-exported server's URL the external path that reaches
// its MCP endpoint rather than the route's root. Each call returns a new
// map the caller may change.
func ToolHiveEndpointPaths() map[string]string {
	return map[string]string{
		model.TransportStreamableHTTP: "/mcp",
		model.TransportSSE:            "/sse",
	}
}

// NamingScheme says how a new registry entry is named after the MCP resource
// it is built for.
type NamingScheme int

const (
	// NamingToolHiveOperator names entries dev.stacklok.toolhive/{namespace}.{name}
	// (the ToolHive operator's format). It is the default.
	NamingToolHiveOperator NamingScheme = iota
	// NamingToolHiveRegistryServer names entries com.toolhive.k8s.{namespace}/{name}
	// (ToolHive registry server's Kubernetes source).
	NamingToolHiveRegistryServer
)

// String returns the scheme's name as the CLI spells it.
func (n NamingScheme) String() string {
	switch n {
	case NamingToolHiveOperator:
		return "toolhive-operator"
	case NamingToolHiveRegistryServer:
		return "toolhive-registry-server"
	}
	return fmt.Sprintf("NamingScheme(%d)", int(n))
}

// ParseNamingScheme reads "toolhive-operator" or "toolhive-registry-server";
// "" is the default.
func ParseNamingScheme(s string) (NamingScheme, error) {
	switch strings.TrimSpace(s) {
	case "", "toolhive-operator":
		return NamingToolHiveOperator, nil
	case "toolhive-registry-server":
		return NamingToolHiveRegistryServer, nil
	}
	return 0, fmt.Errorf("unknown naming scheme %q (want toolhive-operator or toolhive-registry-server)", s)
}

// Name returns the entry name the scheme gives an MCP resource. Values other
// than the named constants behave as the default. The result may break the
// upstream name rules for names no Kubernetes API server would accept (or be
// longer than 200 characters); Discover diagnoses and fixes those.
func (n NamingScheme) Name(namespace, name string) string {
	if n == NamingToolHiveRegistryServer {
		return "com.toolhive.k8s." + namespace + "/" + name
	}
	return "dev.stacklok.toolhive/" + namespace + "." + name
}

// nameIn is Name(namespace, name) written into a: an equal string, in a
// block of the arena rather than an allocation of its own.
func (n NamingScheme) nameIn(a *stringArena, namespace, name string) string {
	if n == NamingToolHiveRegistryServer {
		return a.concat("com.toolhive.k8s.", namespace, "/", name)
	}
	return a.concat("dev.stacklok.toolhive/", namespace, ".", name)
}

// optionsRef is the object diagnostics about the options themselves name.
var optionsRef = model.ObjectRef{Kind: "Options", Name: "discovery"}

// config is Options checked and compiled once per Discover call.
type config struct {
	opts Options
	// namespaces are Options.Namespaces (nil: all). They choose what the
	// result shows, never what takes part in settling names and URLs.
	namespaces map[string]bool
	selector   labels.Selector
	source     *sourceIndex
}

func compile(opts Options) (*config, model.Diagnostics) {
	cfg := &config{opts: opts, selector: labels.Everything()}
	if len(opts.Namespaces) > 0 {
		cfg.namespaces = make(map[string]bool, len(opts.Namespaces))
		for _, ns := range opts.Namespaces {
			cfg.namespaces[ns] = true
		}
	}
	var ds model.Diagnostics
	if strings.TrimSpace(opts.LabelSelector) != "" {
		sel, err := labels.Parse(opts.LabelSelector)
		if err != nil {
			ds = append(ds, model.Errorf(model.ReasonInvalidSelector, optionsRef, "labelSelector",
				"label selector %q does not parse: %v", opts.LabelSelector, err))
			return nil, ds
		}
		// Every MCP resource is matched against it, whatever the number of
		// values it lists.
		cfg.selector = labelsel.Fast(sel)
	}
	cfg.source = newSourceIndex(opts.SourceRegistry)
	return cfg, ds
}

// chosenNamespace reports whether the result shows the entries and
// diagnostics of objects in namespace ns (Options.Namespaces).
func (c *config) chosenNamespace(ns string) bool {
	return c.namespaces == nil || c.namespaces[ns]
}

// lastUpdated is meta.last_updated.
func (c *config) lastUpdated() string {
	return c.opts.LastUpdated.UTC().Format(time.RFC3339)
}
