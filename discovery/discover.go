package discovery

import (
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/model"
)

// Remote is one discovered remote of an entry and where it came from, so a
// caller can tell which objects to watch and which remotes went stale.
type Remote struct {
	// Type is the remotes[].type: sse or streamable-http.
	Type string
	// URL is the remotes[].url.
	URL string
	// Resource is the MCP resource the remote was discovered for.
	Resource model.ObjectRef
	// Via is the object the URL was read from: Resource itself for a
	// registry-url annotation, or the HTTPRoute it was built from.
	Via model.ObjectRef
}

// Entry is one registry entry of the result with its provenance.
type Entry struct {
	// Name is the entry name (also Server.Name()).
	Name string
	// Server is the entry, the same value as in Result.Registry.
	Server *model.Server
	// Resources are the MCP resources the entry was built from, sorted:
	// one, or several deployments of one source-registry entry.
	Resources []model.ObjectRef
	// SourceEntry is the name of the source-registry entry that was
	// enriched, or "" for an entry built from annotations alone.
	SourceEntry string
	// Remotes are the remotes discovery added, sorted by type and URL.
	// Remotes the source entry already had are not listed.
	Remotes []Remote
}

// Result is what Discover computes.
type Result struct {
	// Registry is the upstream document of the discovered entries, sorted by
	// name; it passes model.ValidateRegistry. Nil only when an Error
	// diagnostic stopped discovery (a label selector that does not parse).
	Registry *model.Registry
	// Entries are the entries of Registry with their provenance, sorted by name.
	Entries []Entry
	// Diagnostics explain every resource skipped, value ignored and name
	// changed, sorted.
	Diagnostics model.Diagnostics
}

// Discover builds the upstream registry entries of the MCP resources snap
// exports (SPEC §6; see the package documentation for the stages and
// annotations). It never fails on bad data: what it cannot use it skips, with
// a diagnostic naming the object, the field and the value. Only a bad
// Options.LabelSelector stops it (an InvalidSelector error, no registry).
func Discover(snap Snapshot, opts Options) Result {
	cfg, ds := compile(opts)
	if cfg == nil {
		ds.Sort()
		return Result{Diagnostics: ds}
	}
	ix, d := indexResources(&snap, cfg)
	ds = append(ds, d...)
	exports, d := annotationExports(ix, cfg)
	ds = append(ds, d...)
	routed, d := routeExports(&snap, ix, cfg)
	ds = append(ds, d...)
	ms, d := mergeExports(append(exports, routed...))
	ds = append(ds, d...)
	drafts, d := buildDrafts(ms, cfg)
	ds = append(ds, d...)
	drafts, d = describeDrafts(drafts, cfg)
	ds = append(ds, d...)
	drafts, d = dedupeRemoteURLs(drafts)
	ds = append(ds, d...)
	drafts, d = nameDrafts(drafts)
	ds = append(ds, d...)

	var entries []Entry
	for _, dr := range drafts {
		s := dr.buildServer()
		if dr.source != nil {
			// A copy of a source entry is as good as the source: check it,
			// shorten what is too long, drop it with the reason if invalid.
			ok, d := model.Normalize(s, dr.primary().ref, "")
			ds = append(ds, d...)
			if !ok {
				continue
			}
		} else if strict := strictNameProblem(s.Name()); strict != "" {
			// A new entry is valid by construction (every part is checked on
			// the way in); only the official registry's stricter name rule is
			// left to report.
			ds = append(ds, model.Warningf(model.ReasonInvalidEntry, dr.primary().ref, dr.nameField, "%s", strict))
		}
		e := Entry{Name: s.Name(), Server: s, Remotes: dr.remotes}
		for _, r := range dr.resources {
			e.Resources = append(e.Resources, r.ref)
		}
		slices.SortFunc(e.Resources, compareRefs)
		if dr.source != nil {
			e.SourceEntry = dr.source.Name()
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	servers := make([]*model.Server, len(entries))
	for i, e := range entries {
		servers[i] = e.Server
	}
	reg := model.NewRegistry(cfg.lastUpdated(), servers)
	ds.Sort()
	return Result{Registry: reg, Entries: entries, Diagnostics: ds}
}
