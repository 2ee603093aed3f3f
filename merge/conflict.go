package merge

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/naming"
)

// maxListed bounds the ConfigMaps a conflict message lists.
const maxListed = 10

// holders maps each conflicting name to its entries, in merge order.
func (m *merger) holders() map[string][]*entry {
	out := make(map[string][]*entry)
	for _, e := range m.entries {
		if m.count(e) > 1 {
			out[e.orig] = append(out[e.orig], e)
		}
	}
	return out
}

// listSources names the ConfigMaps of entries, except skip, for a message:
// the first maxListed, then how many more. It reads at most maxListed+1
// names, so each of k copies of one name costs O(1) here and all of them
// O(k), where listing every other ConfigMap would cost O(k²).
func (m *merger) listSources(es []*entry, skip *entry) string {
	total := len(es)
	if skip != nil {
		total--
	}
	names := make([]string, 0, min(total, maxListed))
	for _, e := range es {
		if len(names) == maxListed {
			break
		}
		if e != skip {
			names = append(names, m.sources[e.src].ref.Name)
		}
	}
	if total <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names, ", "), total-maxListed)
}

// refuse reports one ConflictError per conflicting name (StrategyError).
func (m *merger) refuse() {
	h := m.holders()
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		es := h[name]
		m.ds = append(m.ds, model.Errorf(model.ReasonConflictError, m.owner, m.ownerField(""),
			"server %q is defined by %d ConfigMaps: %s; the conflict strategy is %q, so nothing is merged",
			name, len(es), m.listSources(es, nil), StrategyError))
	}
}

// shadow keeps the first copy of each name in merge order (StrategyPriority)
// and returns the entries kept.
func (m *merger) shadow() []*entry {
	winner := make(map[string]*entry)
	kept := m.entries[:0:0]
	for _, e := range m.entries {
		if m.count(e) == 1 {
			kept = append(kept, e)
			continue
		}
		w, taken := winner[e.orig]
		if !taken {
			winner[e.orig] = e
			kept = append(kept, e)
			continue
		}
		src, wsrc := m.sources[e.src], m.sources[w.src]
		m.ds = append(m.ds, model.Warningf(model.ReasonConflictShadowed, src.ref, m.fieldOf(e),
			"server %q skipped: ConfigMap %s, earlier in priority order, defines it too", e.orig, wsrc.ref.Name))
	}
	return kept
}

// versions keeps the copies of each conflicting name as versions of one
// server (StrategyVersions): each is kept with a NameConflict Info naming
// the other ConfigMaps, except a copy of a version an earlier ConfigMap in
// merge order already defines, which is dropped with ConflictShadowed.
func (m *merger) versions() []*entry {
	h := m.holders()
	lists := make(map[string]string, len(h))
	winner := make(map[nameVersion]*entry)
	kept := m.entries[:0:0]
	for _, e := range m.entries {
		if m.count(e) == 1 {
			kept = append(kept, e)
			continue
		}
		src := m.sources[e.src]
		nv := nameVersion{e.orig, e.s.Version()}
		if w, taken := winner[nv]; taken {
			m.ds = append(m.ds, model.Warningf(model.ReasonConflictShadowed, src.ref, m.fieldOf(e),
				"server %q version %q skipped: ConfigMap %s, earlier in priority order, defines the same version; the conflict strategy %q keeps one entry per name and version",
				e.orig, nv.version, m.sources[w.src].ref.Name, StrategyVersions))
			continue
		}
		winner[nv] = e
		kept = append(kept, e)
		list, ok := lists[e.orig]
		if !ok {
			list = m.listDistinctSources(h[e.orig])
			lists[e.orig] = list
		}
		m.ds = append(m.ds, model.Infof(model.ReasonNameConflict, src.ref, m.fieldOf(e),
			"server %q version %q kept as one version of the server, which ConfigMaps %s define (conflict strategy %q)",
			e.orig, nv.version, list, StrategyVersions))
	}
	return kept
}

// listDistinctSources names the ConfigMaps of entries, each once, for a
// message: the first maxListed, then how many more. The entries of one
// ConfigMap are adjacent in merge order, so one pass finds them.
func (m *merger) listDistinctSources(es []*entry) string {
	var names []string
	total := 0
	for i, e := range es {
		if i > 0 && es[i-1].src == e.src {
			continue
		}
		total++
		if len(names) < maxListed {
			names = append(names, m.sources[e.src].ref.Name)
		}
	}
	if total <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names, ", "), total-maxListed)
}

// rename gives every conflicting copy a name by the prefix rule
// (StrategyPrefix) and diagnoses each rename.
func (m *merger) rename() {
	// Only the conflicting copies are named: every other name read is
	// unique and valid (at most naming.MaxLen characters), so Assign would
	// keep it.
	var conflicting []*entry
	var copies []naming.Copy
	for _, e := range m.entries {
		if m.count(e) > 1 {
			conflicting = append(conflicting, e)
			copies = append(copies, naming.Copy{Name: e.orig, Source: m.sources[e.src].ref.Name})
		}
	}
	assigned := naming.Assign(copies, func(name string) bool {
		k, ok := m.names[name]
		return ok && m.stats[k].count == 1 && utf8.RuneCountInString(name) <= naming.MaxLen
	})
	h := m.holders()
	for i, a := range assigned {
		e := conflicting[i]
		if a.Name == e.orig {
			continue
		}
		src := m.sources[e.src]
		field := m.fieldOf(e) // before SetName: the locator finds the entry by its name
		e.s.SetName(a.Name)
		conflict := m.count(e) > 1
		if conflict {
			m.ds = append(m.ds, model.Infof(model.ReasonNameConflict, src.ref, field,
				"server %q is also defined by ConfigMap %s; renamed to %q",
				e.orig, m.listSources(h[e.orig], e), a.Name))
		}
		switch a.Step {
		case naming.Qualified:
			m.ds = append(m.ds, model.Warningf(model.ReasonNameCollision, src.ref, field,
				"server %q: the prefixed name %q collides with another server's name; renamed to %q",
				e.orig, naming.Shorten(naming.Prefix(src.ref.Name, e.orig)), a.Name))
		case naming.Suffixed:
			tried := fmt.Sprintf("its shortened name %q", naming.Shorten(e.orig))
			if conflict {
				tried = fmt.Sprintf("the prefixed name %q and the qualified name %q",
					naming.Shorten(naming.Prefix(src.ref.Name, e.orig)), naming.Shorten(naming.Qualify(src.ref.Name, e.orig)))
			}
			m.ds = append(m.ds, model.Warningf(model.ReasonNameCollision, src.ref, field,
				"server %q: %s collide with other servers' names; renamed to %q", e.orig, tried, a.Name))
		}
		if a.Shortened {
			m.ds = append(m.ds, model.Warningf(model.ReasonNameTooLong, src.ref, field,
				"server %q: the name %q is %d characters, over the limit of %d; shortened to %q",
				e.orig, a.Full, utf8.RuneCountInString(a.Full), naming.MaxLen, a.Name))
		}
	}
}

// dedupeRemoteURLs drops, in merge order, each server with a remote URL an
// earlier server already uses: ToolHive's registry server rejects a document
// where two servers share one.
func (m *merger) dedupeRemoteURLs(kept []*entry) []*entry {
	var owner map[string]*entry
	out := kept[:0:0]
	for _, e := range kept {
		if len(e.urls) == 0 {
			out = append(out, e)
			continue
		}
		if owner == nil {
			n := 0
			for _, e := range kept {
				n += len(e.urls)
			}
			owner = make(map[string]*entry, n)
		}
		var clash *entry
		var url string
		for _, u := range e.urls {
			// Versions of one server (StrategyVersions) may share a URL.
			if o, taken := owner[u]; taken && o != e && o.s.Name() != e.s.Name() {
				clash, url = o, u
				break
			}
		}
		if clash != nil {
			src, csrc := m.sources[e.src], m.sources[clash.src]
			m.ds = append(m.ds, model.Warningf(model.ReasonDuplicateRemoteURL, src.ref, m.fieldOf(e),
				"server %q skipped: its remote URL %q is already used by server %q from ConfigMap %s",
				e.s.Name(), model.MaskURL(url), clash.s.Name(), csrc.ref.Name))
			continue
		}
		for _, u := range e.urls {
			owner[u] = e
		}
		out = append(out, e)
	}
	return out
}
