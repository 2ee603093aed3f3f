package discovery

import (
	"math"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/internal/sortkey"
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
	// A registry without servers comes with an EmptyRegistry warning: it is
	// a valid document, but ToolHive's registry server would refuse it.
	Registry *model.Registry
	// Entries are the entries of Registry with their provenance, sorted by name.
	Entries []Entry
	// Diagnostics explain every resource skipped, value ignored and name
	// changed, sorted.
	Diagnostics model.Diagnostics
}

// Discover builds the upstream registry entries of the MCP resources snap
// exports (see the package documentation for the stages and annotations). It never fails on bad data: what it cannot use it skips, with
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
	ms, d := mergeExports(exports, routed)
	ds = append(ds, d...)
	drafts, d := buildDrafts(ms, cfg)
	ds = append(ds, d...)
	if cfg.namespaces != nil {
		ds = append(ds, describeParts(drafts, cfg)...)
	}
	drafts, d = describeDrafts(drafts, cfg)
	ds = append(ds, d...)
	drafts, d = dedupeRemoteURLs(drafts)
	ds = append(ds, d...)
	drafts, d = nameDrafts(drafts)
	ds = append(ds, d...)
	tmpl := newServerTemplates()

	// Entries are sorted by name. The drafts kept are first collected with
	// their servers, their order by name is worked out on small keys (names
	// are unique: nameDrafts saw to it; ties, which cannot happen, would
	// keep draft order), and each entry is written once, in its place:
	// sorting the Entry values themselves moves 88-byte structs holding
	// pointers, which at 100,000 entries cost more than everything after it.
	built := make([]builtEntry, 0, len(drafts))
	nrefs := 0
	for _, dr := range drafts {
		if cfg.namespaces != nil {
			// Names and URLs are settled: the result shows the chosen
			// namespaces' part of it (restrict.go).
			var rd model.Diagnostics
			dr, rd = cfg.restrict(dr)
			ds = append(ds, rd...)
			if dr == nil {
				continue
			}
		}
		s := tmpl.build(dr)
		if dr.source() != nil {
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
			ds = append(ds, model.Warningf(model.ReasonInvalidEntry, dr.primary().ref, dr.nameField(), "%s", model.Text(strict)))
		}
		built = append(built, builtEntry{name: s.Name(), server: s, draft: dr})
		nrefs += len(dr.resources)
	}
	order := sortByName(built)
	// The entries are written in draft order, each to its place by name:
	// reading the drafts in order and writing at random costs less than the
	// reverse at scale.
	rank := make([]int32, len(built))
	for i, k := range order {
		rank[k] = int32(i)
	}
	entries := make([]Entry, len(built))
	servers := make([]*model.Server, len(built))
	// One backing array holds every entry's Resources; each entry's slice is
	// capped so that a caller appending to one cannot write into the next.
	refs := make([]model.ObjectRef, nrefs)
	for k := range built {
		b := &built[k]
		dr := b.draft
		n := len(dr.resources)
		rs := refs[:n:n]
		refs = refs[n:]
		if n == 1 {
			setRef(&rs[0], &dr.resources[0].ref)
		} else {
			for j, r := range dr.resources {
				rs[j] = r.ref
			}
			slices.SortFunc(rs, compareRefs)
		}
		i := rank[k]
		// Written field by field into the zeroed slice: copying a whole
		// Entry in costs a bulk write barrier while the collector runs.
		e := &entries[i]
		e.Name, e.Server, e.Resources, e.Remotes = b.name, b.server, rs, dr.remotes
		if dr.source() != nil {
			e.SourceEntry = dr.source().Name()
		}
		servers[i] = b.server
	}
	if cfg.namespaces != nil {
		ds = cfg.restrictDiagnostics(ds)
	}
	reg := model.NewRegistry(cfg.lastUpdated(), servers)
	if len(servers) == 0 {
		ds = append(ds, model.EmptyRegistryDiagnostic(optionsRef, "", "no MCP resource in the snapshot exports a server that can be written"))
	}
	ds.Sort()
	return Result{Registry: reg, Entries: entries, Diagnostics: ds}
}

// setRef sets *dst to *src field by field: copying the whole reference
// into the heap costs a bulk write barrier while the collector runs, where
// its string fields cost a pointer write each.
func setRef(dst, src *model.ObjectRef) {
	dst.APIVersion, dst.Kind, dst.Namespace, dst.Name, dst.UID = src.APIVersion, src.Kind, src.Namespace, src.Name, src.UID
}

// builtEntry is an entry of the result before sorting: its name, server and
// the draft it was built from.
type builtEntry struct {
	name   string
	server *model.Server
	draft  *draft
}

// sortByName returns the positions of the entries in built sorted by name
// (then by position, which unique names never need). It sorts keys holding
// the sixteen bytes of each name after the prefix all names share, which
// mostly decide: comparing the names themselves reads them at random,
// a cache miss each at scale.
func sortByName(built []builtEntry) []int32 {
	lcp := 0
	if len(built) > 0 {
		first := built[0].name
		lcp = len(first)
		for i := 1; i < len(built) && lcp > 0; i++ {
			n := built[i].name
			j := 0
			for j < lcp && j < len(n) && n[j] == first[j] {
				j++
			}
			lcp = j
		}
	}
	keys := make([]nameKey, len(built))
	for i := range built {
		rest := built[i].name[lcp:]
		k := nameKey{len: int32(min(len(rest), math.MaxInt32)), at: int32(i)}
		k.p[0] = sortkey.Prefix8(rest)
		if len(rest) > 8 {
			k.p[1] = sortkey.Prefix8(rest[8:])
		}
		keys[i] = k
	}
	keys = radixSortKeys(keys)
	// Keys of equal sixteen bytes are in position order; names longer than
	// sixteen bytes, or of different lengths, are told apart by the names
	// themselves (stable: equal names, which unique names never are, keep
	// position order).
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].p == keys[i].p {
			j++
		}
		if run := keys[i:j]; len(run) > 1 && slices.ContainsFunc(run, func(k nameKey) bool { return k.len > 16 || k.len != run[0].len }) {
			slices.SortStableFunc(run, func(a, b nameKey) int { return strings.Compare(built[a.at].name, built[b.at].name) })
		}
		i = j
	}
	order := make([]int32, len(keys))
	for i, k := range keys {
		order[i] = k.at
	}
	return order
}

// nameKey is the sort key of a name: the sixteen bytes after the prefix all
// names share (big-endian, zero-padded), their length, and the name's
// position.
type nameKey struct {
	p   [2]uint64
	len int32
	at  int32
}

// radixSortKeys sorts keys by p, stably (keys of equal p stay in the order
// given): most significant byte first, each of the sixteen bytes splitting a
// run of keys into the runs of its 256 values with a pass that counts and
// one that moves, and runs of at most 32 keys finished by insertion. A
// comparison sort of n keys makes about n·log2(n) calls to a comparison
// function; here each key is moved once per byte that tells it apart from
// more than 32 others, and no byte is looked at twice. It uses a scratch
// buffer as long as keys.
func radixSortKeys(keys []nameKey) []nameKey {
	tmp := make([]nameKey, len(keys))
	msdSortKeys(keys, tmp, 0)
	return keys
}

// msdSortKeys sorts keys by p from byte d (0 the most significant of p[0],
// 15 the least significant of p[1]), which the keys' earlier bytes all
// share; tmp is scratch space of the same length. The recursion is at most
// sixteen deep, and each level reads each key at most once.
func msdSortKeys(keys, tmp []nameKey, d int) {
	for len(keys) > 32 && d < 16 {
		var count [256]int32
		for i := range keys {
			count[keyByte(&keys[i], d)]++
		}
		if count[keyByte(&keys[0], d)] == int32(len(keys)) {
			d++ // one value at this byte: on to the next
			continue
		}
		var at [256]int32
		sum := int32(0)
		for b, c := range count {
			at[b], sum = sum, sum+c
		}
		for i := range keys {
			b := keyByte(&keys[i], d)
			tmp[at[b]] = keys[i]
			at[b]++
		}
		copy(keys, tmp)
		start := int32(0)
		for _, c := range count {
			if c > 1 {
				msdSortKeys(keys[start:start+c], tmp[start:start+c], d+1)
			}
			start += c
		}
		return
	}
	// Insertion, stable: a key moves before those it is strictly less than.
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for j > 0 && lessKey(&k, &keys[j-1]) {
			keys[j] = keys[j-1]
			j--
		}
		keys[j] = k
	}
}

// keyByte is byte d of k.p, from the most significant byte of p[0].
func keyByte(k *nameKey, d int) byte {
	if d < 8 {
		return byte(k.p[0] >> (56 - 8*d))
	}
	return byte(k.p[1] >> (56 - 8*(d-8)))
}

// lessKey orders keys by p.
func lessKey(a, b *nameKey) bool {
	return a.p[0] < b.p[0] || a.p[0] == b.p[0] && a.p[1] < b.p[1]
}
