package discovery

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/internal/jsonx"
	"github.com/mcpreg/mcpreg/model"
)

// draft is an entry being built: one MCP resource, or several that enrich
// the same source-registry entry under the same name.
type draft struct {
	// resources is sorted; resources[0], the primary, is the object
	// diagnostics about the entry as a whole name.
	resources []*resource
	// enrich is what only an entry enriching a source-registry entry has,
	// nil for a new entry (most, and a draft exists for every exported
	// resource: at scale, every field is megabytes the collector marks).
	enrich *enrichment
	// description, title, version and tier are the annotation overrides
	// (the name's is name). They come from the primary resource except
	// those in enrich.metaFrom, set by a later one (see absorb).
	// describeDrafts then resolves description and version to those of
	// the entry, so that no value is held twice.
	description, title, version, tier string
	// name is the entry name; nameFrom where it came from (nameField
	// spells it out for diagnostics); generated is true when the naming
	// scheme made it.
	name      string
	nameFrom  nameSource
	generated bool
	// remotes are the discovered remotes.
	remotes []Remote
}

// enrichment is the part of a draft only an entry enriching a
// source-registry entry has.
type enrichment struct {
	// entry is the source-registry entry enriched.
	entry *model.Server
	// metaFrom names the resource each annotation override set by a
	// resource other than the primary comes from (see absorb).
	metaFrom map[string]model.ObjectRef
	// remotes are those the source entry already had (kept as written,
	// headers and all).
	remotes []model.Remote
	// mixed is set, when Options.Namespaces is, on an entry enriched from
	// resources of chosen namespaces and of others: the result shows part
	// in its place, and the diagnostics about building the entry are
	// part's (see restrictedPart). part is nil when it has no chosen
	// resource left or was dropped (describeDrafts).
	mixed bool
	part  *draft
	// diags are, while buildDrafts runs with Options.Namespaces set, the
	// diagnostics of absorb, held until it is known whether the entry is
	// mixed.
	diags model.Diagnostics
	// settled are the diagnostics that settling names and URLs addressed to
	// the entry as a whole, about its primary resource (a rename, a source
	// remote lost): a mixed entry's part, whose primary may be another
	// resource, is told them too (see config.restrict).
	settled model.Diagnostics
}

// source is the source-registry entry enriched, nil for a new entry.
func (d *draft) source() *model.Server {
	if d.enrich == nil {
		return nil
	}
	return d.enrich.entry
}

// sourceRemotes are the remotes the source entry already had, nil for a
// new entry.
func (d *draft) sourceRemotes() []model.Remote {
	if d.enrich == nil {
		return nil
	}
	return d.enrich.remotes
}

// nameSource is where a draft's name came from.
type nameSource uint8

const (
	// nameFromResource: the naming scheme applied to metadata.name.
	nameFromResource nameSource = iota
	// nameFromAnnotation: the registry-name annotation.
	nameFromAnnotation
	// nameFromImage: the source-registry entry matched by spec.image.
	nameFromImage
	// nameFromRemoteURL: the source-registry entry matched by spec.remoteURL.
	nameFromRemoteURL
)

// nameField is the field path the draft's name came from, for diagnostics.
func (d *draft) nameField() string {
	switch d.nameFrom {
	case nameFromAnnotation:
		return annotationField(AnnotationName)
	case nameFromImage:
		return "spec.image"
	case nameFromRemoteURL:
		return "spec.remoteURL"
	}
	return "metadata.name"
}

func (d *draft) primary() *resource { return d.resources[0] }

// buildDrafts turns each merged resource into a draft: a resource matching a source-registry entry joins the draft
// of that entry (several deployments of one server are one entry with several
// remotes), any other gets a draft of its own. Drafts come out in the order
// of ms, sorted by resource first when there is a source registry: the
// first resource enriching an entry is its primary, and its overrides win.
func buildDrafts(ms []*merged, cfg *config) ([]*draft, model.Diagnostics) {
	if cfg.source.enriches() {
		ms = slices.Clone(ms)
		slices.SortFunc(ms, func(a, b *merged) int { return a.res.compare(b.res) })
	}
	type enrichKey struct {
		src  *model.Server
		name string
	}
	bySource := map[enrichKey]*draft{}
	// The drafts, their resource lists and their remotes are carved from
	// slabs sized for every merged resource: one allocation each instead of
	// three per draft. Each carved slice is capped at its length, so that
	// appending to it (absorb) copies rather than overwrites a neighbour.
	nurls := 0
	for _, m := range ms {
		nurls += len(m.urls)
	}
	slab := make([]draft, 0, len(ms))
	primaries := make([]*resource, len(ms))
	remoteSlab := make([]Remote, 0, nurls)
	drafts := make([]*draft, 0, len(ms))
	// Generated names share blocks of memory. The entries do not keep
	// them: an entry's name is decoded from its JSON (model.Server.Set).
	var names stringArena
	var ds model.Diagnostics
	for i, m := range ms {
		if t := m.res.remoteType; t != model.TransportSSE && t != model.TransportStreamableHTTP {
			ds = append(ds, model.Warningf(model.ReasonInvalidEntry, m.res.ref, m.res.typeField(),
				"remote type %q is neither %s nor %s; not exported", t, model.TransportSSE, model.TransportStreamableHTTP))
			continue
		}
		meta, md := readMetadata(m.res)
		r0 := len(remoteSlab)
		// Remotes and drafts are written into their slabs in place (the slabs
		// are zeroed and never outgrown): building each value and copying it
		// in costs a bulk write barrier while the collector runs.
		for _, c := range m.urls {
			remoteSlab = remoteSlab[:len(remoteSlab)+1]
			r := &remoteSlab[len(remoteSlab)-1]
			r.Type, r.URL = m.res.remoteType, c.url
			setRef(&r.Resource, &m.res.ref)
			setRef(&r.Via, c.via)
		}
		remotes := remoteSlab[r0:len(remoteSlab):len(remoteSlab)]
		src, _, unfit := cfg.source.match(m.res)
		if unfit.n > 0 {
			field, what := "", "remote URL"
			if m.res.ref.Kind == model.KindMCPServer {
				field, what = "spec.image", "image"
			}
			others, it := "", "it"
			switch {
			case unfit.n == 2:
				others, it = ", nor is 1 other entry it matches", "them"
			case unfit.n > 2:
				others, it = fmt.Sprintf(", nor are %d other entries it matches", unfit.n-1), "them"
			}
			ds = append(ds, model.Warningf(model.ReasonInvalidEntry, m.res.ref, field,
				"source-registry entry %q, which the resource's %s matches, is not used%s: a registry reader would skip %s (convert or validate the source registry to see why)",
				unfit.first.Name(), what, others, it))
		}
		if src != nil {
			kept := meta.description
			ds = append(ds, keepSourceMetadata(m.res, &meta, src)...)
			if kept != "" && meta.description == "" {
				// The description is not used: that it was too long is
				// no news beside its being ignored.
				md = slices.DeleteFunc(md, func(d model.Diagnostic) bool {
					return d.Reason == model.ReasonDescriptionTooLong && d.Field == annotationField(AnnotationDescription)
				})
			}
		}
		ds = append(ds, md...)
		key := enrichKey{src, meta.name}
		if src != nil {
			if dr := bySource[key]; dr != nil {
				if d := dr.absorb(m.res, meta); cfg.namespaces != nil {
					dr.enrich.diags = append(dr.enrich.diags, d...)
				} else {
					ds = append(ds, d...)
				}
				dr.resources = append(dr.resources, m.res)
				dr.remotes = append(dr.remotes, remotes...)
				continue
			}
		}
		primaries[i] = m.res
		slab = slab[:len(slab)+1]
		dr := &slab[len(slab)-1]
		dr.resources, dr.remotes = primaries[i:i+1:i+1], remotes
		dr.description, dr.title, dr.version, dr.tier = meta.description, meta.title, meta.version, meta.tier
		switch {
		case meta.name != "":
			dr.name, dr.nameFrom = meta.name, nameFromAnnotation
		case src != nil:
			dr.name, dr.nameFrom = src.Name(), nameFromImage
			if m.res.ref.Kind == model.KindMCPRemoteProxy {
				dr.nameFrom = nameFromRemoteURL
			}
		default:
			dr.name, dr.nameFrom = cfg.opts.Naming.nameIn(&names, m.res.ref.Namespace, m.res.ref.Name), nameFromResource
			dr.generated = true
		}
		if src != nil {
			bySource[key] = dr
			remotes, rd := sourceRemotes(m.res, src, cfg.opts.RequireHTTPS)
			ds = append(ds, rd...)
			dr.enrich = &enrichment{entry: src, remotes: remotes}
		}
		drafts = append(drafts, dr)
	}
	if cfg.namespaces != nil {
		for _, dr := range drafts {
			if dr.enrich != nil {
				ds = append(ds, dr.restrictedPart(cfg)...)
			}
		}
	}
	return drafts, ds
}

// sourceRemotes returns the remotes of source entry src that an enriched
// copy publishes, judged as every published URL is: one that uses http is
// reported (InsecureURL) and, when https is required, left out. r is the
// resource the copy is built for.
func sourceRemotes(r *resource, src *model.Server, requireHTTPS bool) ([]model.Remote, model.Diagnostics) {
	all := src.Remotes()
	var ds model.Diagnostics
	keep := all[:0:0]
	for _, rm := range all {
		scheme, _, _ := strings.Cut(rm.URL, ":")
		if !strings.EqualFold(scheme, "http") {
			keep = append(keep, rm)
			continue
		}
		if requireHTTPS {
			ds = append(ds, model.Warningf(model.ReasonInsecureURL, r.ref, "",
				"remote URL %q of source-registry entry %q uses http but https is required; left out of the copy", model.MaskURL(rm.URL), src.Name()))
			continue
		}
		ds = append(ds, model.Warningf(model.ReasonInsecureURL, r.ref, "",
			"remote URL %q of source-registry entry %q uses plain http: clients will talk to the server unencrypted", model.MaskURL(rm.URL), src.Name()))
		keep = append(keep, rm)
	}
	return keep, ds
}

// keepSourceMetadata clears the registry-name, registry-description and
// registry-version annotations of a resource that enriches source-registry
// entry src: an enriched entry keeps the name, description and version of the
// catalog entry it copies, whoever deploys it, and only gains remotes (and a
// title or tier the annotations give). An annotation that says otherwise is
// reported with ConflictingExport, naming the value kept.
func keepSourceMetadata(r *resource, m *entryMeta, src *model.Server) model.Diagnostics {
	var ds model.Diagnostics
	keep := func(v *string, kept, key, what string) {
		if *v != "" && *v != kept {
			ds = append(ds, model.Warningf(model.ReasonConflictingExport, r.ref, annotationField(key),
				"%s %q ignored: this resource enriches the source-registry entry %q, whose %s %q is kept",
				what, *v, src.Name(), what, kept))
		}
		*v = ""
	}
	keep(&m.name, src.Name(), AnnotationName, "name")
	if src.Description() != "" {
		keep(&m.description, src.Description(), AnnotationDescription, "description")
	}
	if src.Version() != "" {
		keep(&m.version, src.Version(), AnnotationVersion, "version")
	}
	return ds
}

// restrictedPart settles, in a run restricted to Options.Namespaces, what
// the result shows of an enriched draft (see enrichment.mixed) and returns
// the diagnostics about building it. A draft whose resources are all in
// chosen namespaces, or none, is shown as built (or not at all), with its
// own diagnostics. A mixed one is shown as the draft of its chosen
// resources alone, part: the first of them is its primary, their
// annotation overrides are absorbed among themselves, and their remotes
// and name are set from d once d's are settled (restrict). Publishing
// another namespace's URLs, descriptions or names in a namespace's registry
// would leak them. The diagnostics of readMetadata were reported when d was
// built, and are the same.
func (d *draft) restrictedPart(cfg *config) model.Diagnostics {
	e := d.enrich
	chosen := 0
	for _, r := range d.resources {
		if cfg.chosenNamespace(r.ref.Namespace) {
			chosen++
		}
	}
	if chosen == 0 || chosen == len(d.resources) {
		ds := e.diags
		e.diags = nil
		return ds
	}
	e.mixed, e.diags = true, nil
	var part *draft
	var ds model.Diagnostics
	for _, r := range d.resources {
		if !cfg.chosenNamespace(r.ref.Namespace) {
			continue
		}
		meta, _ := readMetadata(r)
		// Reported when d was built, as readMetadata's were.
		_ = keepSourceMetadata(r, &meta, e.entry)
		if part == nil {
			part = &draft{
				resources: []*resource{r},
				enrich:    &enrichment{entry: e.entry, remotes: e.remotes},
				name:      d.name,
				nameFrom:  d.nameFrom,
			}
			part.description, part.title, part.version, part.tier = meta.description, meta.title, meta.version, meta.tier
			if d.nameFrom != nameFromAnnotation {
				part.nameFrom = nameFromImage
				if r.ref.Kind == model.KindMCPRemoteProxy {
					part.nameFrom = nameFromRemoteURL
				}
			}
			continue
		}
		ds = append(ds, part.absorb(r, meta)...)
		part.resources = append(part.resources, r)
	}
	if part != nil {
		// The remotes the chosen resources claim, before names and URLs
		// are settled: restrict keeps those the entry keeps, whichever of
		// its resources the settled remote is credited to.
		for _, r := range d.remotes {
			if cfg.chosenNamespace(r.Resource.Namespace) {
				part.remotes = append(part.remotes, r)
			}
		}
	}
	e.part = part
	return ds
}

// absorb adds the overrides of another resource enriching the same entry:
// the first resource (in resource order) that sets a field wins; a different
// value from a later one is dropped with ConflictingExport.
func (d *draft) absorb(r *resource, m entryMeta) model.Diagnostics {
	var ds model.Diagnostics
	take := func(dst *string, v, key, what string) {
		switch {
		case v == "" || v == *dst:
		case *dst == "":
			*dst = v
			if d.enrich.metaFrom == nil {
				d.enrich.metaFrom = map[string]model.ObjectRef{}
			}
			d.enrich.metaFrom[key] = r.ref
		default:
			from, ok := d.enrich.metaFrom[key]
			if !ok {
				from = d.primary().ref
			}
			ds = append(ds, model.Warningf(model.ReasonConflictingExport, r.ref, annotationField(key),
				"%s %q ignored: the entry %q, which this resource enriches together with %s, already has %s %q from it",
				what, v, d.name, from, what, *dst))
		}
	}
	take(&d.description, m.description, AnnotationDescription, "description")
	take(&d.title, m.title, AnnotationTitle, "title")
	take(&d.version, m.version, AnnotationVersion, "version")
	take(&d.tier, m.tier, AnnotationTier, "tier")
	return ds
}

// describeDrafts resolves description and version. The description is the
// source entry's, else the registry-description annotation (see
// keepSourceMetadata), else
// "<Kind> <namespace>/<name>" with a MissingDescription info, or, under
// Options.RequireDescription, the draft is dropped with a MissingDescription
// warning. The version is registry-version, else the source
// entry's, else DefaultVersion (an enriching resource's registry-version was
// cleared when the source entry has a version).
func describeDrafts(drafts []*draft, cfg *config) ([]*draft, model.Diagnostics) {
	var ds model.Diagnostics
	kept := drafts[:0]
	for _, d := range drafts {
		p := d.primary()
		// The diagnostics about building a mixed draft are its part's
		// (restrictedPart), not its own.
		report := d.enrich == nil || !d.enrich.mixed
		switch {
		case d.description != "":
			// The registry-description annotation.
		case d.source() != nil && d.source().Description() != "":
			d.description = d.source().Description()
		case cfg.opts.RequireDescription:
			if report {
				ds = append(ds, model.Warningf(model.ReasonMissingDescription, p.ref, annotationField(AnnotationDescription),
					"no %s annotation and no source-registry entry for this server; not exported (a description is required)",
					AnnotationDescription))
			}
			continue
		default:
			d.description = fmt.Sprintf("%s %s/%s", p.ref.Kind, p.ref.Namespace, p.ref.Name)
			if report {
				ds = append(ds, model.Infof(model.ReasonMissingDescription, p.ref, annotationField(AnnotationDescription),
					"no %s annotation and no source-registry entry for this server; using description %q",
					AnnotationDescription, d.description))
			}
			if n := utf8.RuneCountInString(d.description); n > model.DescriptionMaxLen {
				short := model.ShortenDescription(d.description)
				if report {
					ds = append(ds, model.Warningf(model.ReasonDescriptionTooLong, p.ref, "metadata.name",
						"generated description of %d characters shortened to %d", n, utf8.RuneCountInString(short)))
				}
				d.description = short
			}
		}
		switch {
		case d.version != "":
			// The registry-version annotation.
		case d.source() != nil && d.source().Version() != "":
			d.version = d.source().Version()
		default:
			d.version = DefaultVersion
		}
		kept = append(kept, d)
	}
	return kept, ds
}

// dedupeRemoteURLs keeps each remote URL on one entry (the upstream registry
// rejects a document where two servers share one): drafts are taken in
// resource order and a URL already used by an earlier entry is dropped from a
// later one with DuplicateRemoteURL. A draft left without a discovered remote
// is not emitted. Within one draft, one remote is kept per (type, URL).
func dedupeRemoteURLs(drafts []*draft) ([]*draft, model.Diagnostics) {
	sameRemote := func(a, b Remote) bool { return a.Type == b.Type && a.URL == b.URL }
	for _, d := range drafts {
		if len(d.remotes) > 1 {
			slices.SortFunc(d.remotes, compareRemotes)
		}
	}
	if !sharedRemoteURLs(drafts) {
		// Most often no URL is on two entries: nothing is dropped.
		kept := drafts[:0]
		for _, d := range drafts {
			d.remotes = slices.CompactFunc(d.remotes, sameRemote)
			if len(d.remotes) > 0 {
				kept = append(kept, d)
			}
		}
		return kept, nil
	}
	// Some URL is on two entries: they are taken in resource order.
	sortDrafts(drafts)
	var ds model.Diagnostics
	owner := map[string]*draft{}
	kept := drafts[:0]
	for _, d := range drafts {
		// Every resource's claim is checked before the entry's copies of one
		// URL are folded into one: each resource that loses a URL is told,
		// which a run restricted to its namespace needs when the copy kept
		// in the fold is another namespace's.
		var keep []Remote
		var dropped []Remote
		for _, r := range d.remotes {
			if o := owner[r.URL]; o != nil && o != d {
				if n := len(dropped); n == 0 || dropped[n-1].URL != r.URL || dropped[n-1].Resource != r.Resource {
					dropped = append(dropped, r)
				}
				continue
			}
			keep = append(keep, r)
		}
		keep = slices.CompactFunc(keep, sameRemote)
		for _, r := range dropped {
			o := owner[r.URL]
			msg := model.Sprintf("remote URL %q is already used by the entry of %s; dropped from the entry of %s",
				model.MaskURL(r.URL), o.primary().ref, d.primary().ref)
			if len(keep) == 0 {
				msg += "; the entry has no remote left and is not exported"
			}
			ds = append(ds, model.Warningf(model.ReasonDuplicateRemoteURL, r.Resource, viaField(r), "%s", msg))
		}
		if len(keep) == 0 {
			continue
		}
		d.remotes = keep
		var srcKeep []model.Remote
		for _, r := range d.sourceRemotes() {
			if o := owner[r.URL]; r.URL != "" && o != nil && o != d {
				ds = append(ds, model.Warningf(model.ReasonDuplicateRemoteURL, d.primary().ref, "",
					"remote URL %q of source-registry entry %q is already used by the entry of %s; dropped from the copy",
					model.MaskURL(r.URL), d.source().Name(), o.primary().ref))
				d.enrich.settled = append(d.enrich.settled, ds[len(ds)-1])
				continue
			}
			srcKeep = append(srcKeep, r)
		}
		if d.enrich != nil {
			d.enrich.remotes = srcKeep
		}
		for _, r := range d.remotes {
			owner[r.URL] = d
		}
		for _, r := range d.sourceRemotes() {
			if r.URL != "" {
				owner[r.URL] = d
			}
		}
		kept = append(kept, d)
	}
	return kept, ds
}

// sharedRemoteURLs reports whether two drafts have a remote URL in common,
// their own or their source entry's. It reads the URLs in order, where
// following the owner of each URL looks it up at random.
func sharedRemoteURLs(drafts []*draft) bool {
	n := 0
	for _, d := range drafts {
		n += len(d.remotes) + len(d.sourceRemotes())
	}
	urls, of := make([]string, 0, n), make([]int32, 0, n)
	for i, d := range drafts {
		for _, r := range d.remotes {
			urls, of = append(urls, r.URL), append(of, int32(i))
		}
		for _, r := range d.sourceRemotes() {
			if r.URL != "" {
				urls, of = append(urls, r.URL), append(of, int32(i))
			}
		}
	}
	kh := dedupe.NewHasher()
	groups := dedupe.Groups(len(urls), func(i int) uint64 { return kh.Hash(urls[i]) }, func(i, j int) bool { return urls[i] == urls[j] })
	for _, g := range groups {
		for _, i := range g[1:] {
			if of[i] != of[g[0]] {
				return true
			}
		}
	}
	return false
}

// sortDrafts puts drafts in the order of their primary resources (compare),
// the order in which entries compete for a name or a URL: the index is not
// sorted, as in the common case where nothing competes the order does not
// matter.
func sortDrafts(drafts []*draft) {
	slices.SortFunc(drafts, func(a, b *draft) int { return a.primary().compare(b.primary()) })
}

// viaField is the field a remote's URL was read from.
func viaField(r Remote) string {
	if r.Via == r.Resource {
		return annotationField(AnnotationURL)
	}
	return ""
}

func compareRemotes(a, b Remote) int {
	return cmp.Or(
		cmp.Compare(a.Type, b.Type),
		cmp.Compare(a.URL, b.URL),
		compareRefs(a.Resource, b.Resource),
		compareRefs(a.Via, b.Via),
	)
}

func compareRefs(a, b model.ObjectRef) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

// buildServer writes the draft as an upstream entry. A new entry's members
// are in the order of the upstream schema: name, description, title,
// version, remotes, _meta. An enriched entry is a copy of the source entry
// with name, description, title and version replaced where set, and remotes
// replaced by the source's plus the discovered ones.
func (d *draft) buildServer() *model.Server {
	s := &model.Server{}
	if d.source() != nil {
		s = d.source().Clone()
	}
	s.SetName(d.name)
	s.SetDescription(d.description)
	if d.title != "" {
		s.Set(model.KeyTitle, jsonx.Quote(d.title))
	}
	s.SetVersion(d.version)
	s.SetRemotes(d.allRemotes())
	if d.tier != "" {
		setTier(s, d.tier)
	}
	return s
}

// serverTemplates are empty new entries holding the members buildServer
// writes, in the same order (name, description, title when set, version,
// remotes) with placeholder values: a clone of one has its member list
// allocated once at its final size, and setting a member replaces the value
// in place. They are made per Discover call and never changed.
//
// The values of the entries built are written into chunks of
// serverChunkSize bytes shared by consecutive entries (one allocation per
// chunk rather than one per entry; each value is capped at its end, so
// that appending to one copies it rather than writing over the next), and
// a description or version equal to the previous entry's reuses its bytes:
// many entries share the default version, and entries made from one
// template often share a description. Values are never changed in place
// (model.Server.Set replaces them), so sharing them is safe.
type serverTemplates struct {
	plain, titled *model.Server
	// free is the unused end of the current chunk (length 0).
	free []byte
	// description and version are the last ones written and their JSON.
	description, version         string
	descriptionJSON, versionJSON json.RawMessage
}

// serverChunkSize is the size of the chunks entry values are written into:
// small enough that an entry a caller keeps keeps little else, large enough
// for the values of some fifty entries.
const serverChunkSize = 16 << 10

func newServerTemplates() *serverTemplates {
	mk := func(keys ...string) *model.Server {
		s := &model.Server{}
		for _, k := range keys {
			s.Set(k, json.RawMessage(`""`))
		}
		return s
	}
	return &serverTemplates{
		plain:  mk(model.KeyName, model.KeyDescription, model.KeyVersion, model.KeyRemotes),
		titled: mk(model.KeyName, model.KeyDescription, model.KeyTitle, model.KeyVersion, model.KeyRemotes),
	}
}

// build is d.buildServer(), with the members of a new entry written into
// one buffer and set on a clone of a template: the same members in the same
// order with the same bytes, in a handful of allocations instead of one or
// more per member.
func (t *serverTemplates) build(d *draft) *model.Server {
	if d.source() != nil || t.plain == nil {
		return d.buildServer()
	}
	tmpl := t.plain
	if d.title != "" {
		tmpl = t.titled
	}
	s := tmpl.Clone()
	reuseDescription := t.descriptionJSON != nil && d.description == t.description
	reuseVersion := t.versionJSON != nil && d.version == t.version
	n := len(d.name) + len(d.title) + 16
	if !reuseDescription {
		n += len(d.description)
	}
	if !reuseVersion {
		n += len(d.version)
	}
	for _, r := range d.remotes {
		n += len(r.Type) + len(r.URL) + len(`{"type":"","url":""},`)
	}
	// n is the length of the values unless escapes lengthen them: then
	// the appends below outgrow the chunk into a buffer of their own.
	chunk := t.free
	if cap(chunk) < n {
		chunk = make([]byte, 0, max(n, serverChunkSize))
	}
	buf := chunk
	var ends [5]int
	buf = jsonx.AppendQuote(buf, d.name)
	ends[0] = len(buf)
	if !reuseDescription {
		buf = jsonx.AppendQuote(buf, d.description)
	}
	ends[1] = len(buf)
	if d.title != "" {
		buf = jsonx.AppendQuote(buf, d.title)
	}
	ends[2] = len(buf)
	if !reuseVersion {
		buf = jsonx.AppendQuote(buf, d.version)
	}
	ends[3] = len(buf)
	if remotesInOrder(d.remotes) {
		// What allRemotes would return (no source remotes; one per type and
		// URL, sorted), written without building it.
		buf = append(buf, '[')
		for i, r := range d.remotes {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendRemote(buf, r.Type, r.URL)
		}
		buf = append(buf, ']')
	} else {
		buf = appendRemotesJSON(buf, d.allRemotes())
	}
	ends[4] = len(buf)
	if cap(buf) == cap(chunk) {
		// Written within the chunk: the rest of it is for the next entries.
		t.free = chunk[len(buf):len(buf)]
	} else {
		t.free = chunk
	}
	if !reuseDescription {
		t.description, t.descriptionJSON = d.description, buf[ends[0]:ends[1]:ends[1]]
	}
	if !reuseVersion {
		t.version, t.versionJSON = d.version, buf[ends[2]:ends[3]:ends[3]]
	}
	s.Set(model.KeyName, buf[0:ends[0]:ends[0]])
	s.Set(model.KeyDescription, t.descriptionJSON)
	if d.title != "" {
		s.Set(model.KeyTitle, buf[ends[1]:ends[2]:ends[2]])
	}
	s.Set(model.KeyVersion, t.versionJSON)
	if ends[4] > ends[3] {
		s.Set(model.KeyRemotes, buf[ends[3]:ends[4]:ends[4]])
	} else {
		s.Delete(model.KeyRemotes) // as SetRemotes does with no remotes
	}
	if d.tier != "" {
		setTier(s, d.tier)
	}
	return s
}

// remotesInOrder reports whether rs is strictly increasing by type and URL,
// as dedupeRemoteURLs leaves a draft's remotes: then they are what
// allRemotes returns for an entry without source remotes.
func remotesInOrder(rs []Remote) bool {
	for i := 1; i < len(rs); i++ {
		if cmp.Or(cmp.Compare(rs[i-1].Type, rs[i].Type), cmp.Compare(rs[i-1].URL, rs[i].URL)) >= 0 {
			return false
		}
	}
	return true
}

// appendRemotesJSON appends the value model.Server.SetRemotes writes for a
// non-empty rs (nothing for an empty one).
func appendRemotesJSON(b []byte, rs []model.Remote) []byte {
	if len(rs) == 0 {
		return b
	}
	b = append(b, '[')
	for i, r := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		if len(r.Raw) > 0 {
			b = jsonx.AppendCompact(b, r.Raw)
			continue
		}
		b = appendRemote(b, r.Type, r.URL)
	}
	return append(b, ']')
}

// appendRemote appends {"type":typ,"url":url} as SetRemotes writes it.
func appendRemote(b []byte, typ, url string) []byte {
	b = append(b, `{"type":`...)
	b = jsonx.AppendQuote(b, typ)
	b = append(b, `,"url":`...)
	b = jsonx.AppendQuote(b, url)
	return append(b, '}')
}

// allRemotes is the entry's remotes: one per (type, URL), the source entry's
// copy preferred (it may carry headers), sorted by type and URL.
func (d *draft) allRemotes() []model.Remote {
	out := slices.Clone(d.sourceRemotes())
	type typeURL struct{ typ, url string }
	var seen map[typeURL]bool
	if len(out)+len(d.remotes) > 16 {
		// Many resources enriching one source entry bring many remotes: a
		// set keeps adding them linear.
		seen = make(map[typeURL]bool, len(out)+len(d.remotes))
		for _, o := range out {
			seen[typeURL{o.Type, o.URL}] = true
		}
	}
	for _, r := range d.remotes {
		if seen != nil {
			if k := (typeURL{r.Type, r.URL}); !seen[k] {
				seen[k] = true
				out = append(out, model.Remote{Type: r.Type, URL: r.URL})
			}
			continue
		}
		if !slices.ContainsFunc(out, func(o model.Remote) bool { return o.Type == r.Type && o.URL == r.URL }) {
			out = append(out, model.Remote{Type: r.Type, URL: r.URL})
		}
	}
	slices.SortStableFunc(out, func(a, b model.Remote) int {
		return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.URL, b.URL), bytes.Compare(a.Raw, b.Raw))
	})
	return out
}

// setTier writes the tier into every ToolHive extension object of the entry
// (ToolHive reads an arbitrary one of them), adding "status": "active" where
// missing as ToolHive's schema requires. With none, it adds one keyed by the
// first OCI package identifier, or else the first remote URL. A _meta that is
// not made of objects is left alone: the entry is invalid anyway and is
// dropped by validation, with the reason.
func setTier(s *model.Server, tier string) {
	meta, hasMeta := s.Get(model.KeyMeta)
	if !hasMeta {
		meta = json.RawMessage("{}")
	}
	pp, ok := member(meta, model.PublisherProvidedKey)
	if !ok {
		return
	}
	th, ok := member(pp, model.ToolHivePublisher)
	if !ok {
		return
	}
	exts, _ := jsonx.Members(th)
	updated := false
	for _, e := range exts {
		if jsonx.Kind(e.Value) != '{' {
			continue
		}
		v := e.Value
		if !hasMember(v, "status") {
			v = setMember(v, "status", jsonx.Quote("active"))
		}
		th = setMember(th, e.Key, setMember(v, "tier", jsonx.Quote(tier)))
		updated = true
	}
	if !updated {
		key := ""
		if ids := s.PackageIdentifiers("oci"); len(ids) > 0 {
			key = ids[0]
		} else if rs := s.Remotes(); len(rs) > 0 {
			key = rs[0].URL
		}
		ext := setMember(setMember(nil, "status", jsonx.Quote("active")), "tier", jsonx.Quote(tier))
		th = setMember(th, key, ext)
	}
	s.Set(model.KeyMeta, setMember(meta, model.PublisherProvidedKey, setMember(pp, model.ToolHivePublisher, th)))
}

// member returns the value of key in a JSON object (the last one, as
// encoding/json reads duplicates), "{}" when absent; ok is false when obj is
// not an object or the value is not one.
func member(obj json.RawMessage, key string) (json.RawMessage, bool) {
	ms, err := jsonx.Members(obj)
	if err != nil {
		return nil, false
	}
	var v json.RawMessage
	for _, m := range ms {
		if m.Key == key {
			v = m.Value
		}
	}
	if v == nil {
		return json.RawMessage("{}"), true
	}
	return v, jsonx.Kind(v) == '{'
}

func hasMember(obj json.RawMessage, key string) bool {
	ms, _ := jsonx.Members(obj)
	return slices.ContainsFunc(ms, func(m jsonx.Member) bool { return m.Key == key })
}

// setMember returns obj with key set to val: the first member of that key
// replaced in place (later duplicates dropped), or appended. A nil or
// non-object obj counts as {}.
func setMember(obj json.RawMessage, key string, val json.RawMessage) json.RawMessage {
	ms, _ := jsonx.Members(obj)
	b := []byte{'{'}
	found := false
	n := 0
	write := func(k string, v []byte) {
		if n > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendQuote(b, k)
		b = append(b, ':')
		b = jsonx.AppendCompact(b, v)
		n++
	}
	for _, m := range ms {
		switch {
		case m.Key != key:
			write(m.Key, m.Value)
		case !found:
			write(key, val)
			found = true
		}
	}
	if !found {
		write(key, val)
	}
	return append(b, '}')
}
