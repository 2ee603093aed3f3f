package merge

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/naming"
)

// maxListed bounds the ConfigMaps a conflict message lists.
const maxListed = 10

// byName groups conflicting entries, in merge order, by name.
func byName(conflicting []*entry) map[string][]*entry {
	out := make(map[string][]*entry)
	for _, e := range conflicting {
		out[e.orig] = append(out[e.orig], e)
	}
	return out
}

// listSources names the ConfigMaps of entries, except skip, for a message:
// the first maxListed, then how many more. It reads at most maxListed+1
// names, so each of k copies of one name costs O(1) here and all of them
// O(k), where listing every other ConfigMap would cost O(k²).
func listSources(es []*entry, skip *entry) model.Text {
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
			names = append(names, e.part.ref.Name)
		}
	}
	return joinNames(names, total)
}

// joinNames joins names, the first of total, for a message: each escaped
// and cut on its own, so that a list of long ConfigMap names (253 characters
// each are valid) is not cut as one value after its first names, then how
// many more there are.
func joinNames(names []string, total int) model.Text {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(model.Echo(n))
	}
	if total > len(names) {
		fmt.Fprintf(&b, " and %d more", total-len(names))
	}
	return model.Text(b.String())
}

// refuse reports one ConflictError per conflicting name (StrategyError).
func (m *merger) refuse(conflicting []*entry) {
	h := byName(conflicting)
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		es := h[name]
		m.ds = append(m.ds, model.Errorf(model.ReasonConflictError, m.owner, m.ownerField(""),
			"server %q is defined by %d ConfigMaps: %s; the conflict strategy is %q, so nothing is merged",
			name, len(es), listSources(es, nil), StrategyError))
	}
}

// shadow keeps the first copy of each name in merge order (StrategyPriority).
func (m *merger) shadow(conflicting []*entry) {
	winner := make(map[string]*entry)
	for _, e := range conflicting {
		w, taken := winner[e.orig]
		if !taken {
			winner[e.orig] = e
			continue
		}
		e.keep = false
		m.ds = append(m.ds, model.Warningf(model.ReasonConflictShadowed, e.part.ref, e.fieldOf(),
			"server %q skipped: ConfigMap %s, earlier in priority order, defines it too", e.orig, w.part.ref.Name))
	}
}

// versions keeps the copies of each conflicting name as versions of one
// server (StrategyVersions): each is kept with a NameConflict Info naming
// the other ConfigMaps, except a copy of a version an earlier ConfigMap in
// merge order already defines, which is dropped with ConflictShadowed.
func (m *merger) versions(conflicting []*entry) {
	h := byName(conflicting)
	lists := make(map[string]model.Text, len(h))
	winner := make(map[nameVersion]*entry)
	for _, e := range conflicting {
		nv := nameVersion{e.orig, e.ver}
		if w, taken := winner[nv]; taken {
			e.keep = false
			m.ds = append(m.ds, model.Warningf(model.ReasonConflictShadowed, e.part.ref, e.fieldOf(),
				"server %q version %q skipped: ConfigMap %s, earlier in priority order, defines the same version; the conflict strategy %q keeps one entry per name and version",
				e.orig, nv.version, w.part.ref.Name, StrategyVersions))
			continue
		}
		winner[nv] = e
		list, ok := lists[e.orig]
		if !ok {
			list = listDistinctSources(h[e.orig])
			lists[e.orig] = list
		}
		m.ds = append(m.ds, model.Infof(model.ReasonNameConflict, e.part.ref, e.fieldOf(),
			"server %q version %q kept as one version of the server, which ConfigMaps %s define (conflict strategy %q)",
			e.orig, nv.version, list, StrategyVersions))
	}
}

// listDistinctSources names the ConfigMaps of entries, each once, for a
// message: the first maxListed, then how many more. The entries of one
// ConfigMap are adjacent in merge order, so one pass finds them.
func listDistinctSources(es []*entry) model.Text {
	var names []string
	total := 0
	for i, e := range es {
		if i > 0 && es[i-1].part == e.part {
			continue
		}
		total++
		if len(names) < maxListed {
			names = append(names, e.part.ref.Name)
		}
	}
	return joinNames(names, total)
}

// rename gives every conflicting copy a name by the prefix rule
// (StrategyPrefix) and diagnoses each rename. A renamed copy is a copy of
// the server, so that the entry as read stays as it was for the next merge
// of an Incremental; last holds the copies of that merge, reused when the
// name is the same.
func (m *merger) rename(conflicting []*entry, last map[*entry]*renamedCopy) {
	// Only the conflicting copies are named: every other name read is
	// unique and valid (at most naming.MaxLen characters), so Assign would
	// keep it.
	copies := make([]naming.Copy, len(conflicting))
	for i, e := range conflicting {
		copies[i] = naming.Copy{Name: e.orig, Source: e.part.ref.Name}
	}
	assigned := naming.Assign(copies, func(name string) bool {
		return m.defined(name) == 1 && utf8.RuneCountInString(name) <= naming.MaxLen
	})
	h := byName(conflicting)
	var buf []byte // the renamed copies' JSON, one after the other
	for i, a := range assigned {
		e := conflicting[i]
		if a.Name == e.orig {
			continue
		}
		c := last[e]
		if c == nil || c.s.Name() != a.Name {
			s := e.s.Clone()
			s.SetName(a.Name)
			buf = s.AppendJSON(buf[:0])
			c = &renamedCopy{s: s, sum: sha256.Sum256(buf)}
		}
		if m.renamed == nil {
			m.renamed = make(map[*entry]*renamedCopy)
		}
		m.renamed[e] = c
		e.out, e.osum = c.s, &c.sum
		src := e.part
		field := e.fieldOf()
		// The diagnostics of a rename wait for the output (see
		// renameDiagnostics): a renamed copy that then loses its remote URL
		// or is filtered out has its drop as its one diagnostic, or none.
		var ds model.Diagnostics
		ds = append(ds, model.Infof(model.ReasonNameConflict, src.ref, field,
			"server %q is also defined by ConfigMap %s; renamed to %q",
			e.orig, listSources(h[e.orig], e), a.Name))
		switch a.Step {
		case naming.Qualified:
			ds = append(ds, model.Warningf(model.ReasonNameCollision, src.ref, field,
				"server %q: the prefixed name %q collides with another server's name; renamed to %q",
				e.orig, naming.Shorten(naming.Prefix(src.ref.Name, e.orig)), a.Name))
		case naming.Suffixed:
			tried := fmt.Sprintf("the prefixed name %q and the qualified name %q",
				naming.Shorten(naming.Prefix(src.ref.Name, e.orig)), naming.Shorten(naming.Qualify(src.ref.Name, e.orig)))
			ds = append(ds, model.Warningf(model.ReasonNameCollision, src.ref, field,
				"server %q: %s collide with other servers' names; renamed to %q", e.orig, tried, a.Name))
		}
		if a.Shortened {
			ds = append(ds, model.Warningf(model.ReasonNameTooLong, src.ref, field,
				"server %q: the name %q is %d characters, over the limit of %d; shortened to %q",
				e.orig, a.Full, utf8.RuneCountInString(a.Full), naming.MaxLen, a.Name))
		}
		// A name the merge makes gets the warning a name read gets when
		// only the official registry's stricter rule refuses it (a
		// ConfigMap named "x" gives "x/github-mcp").
		if _, strict := model.CheckName(a.Name); strict != "" {
			ds = append(ds, model.Warningf(model.ReasonInvalidEntry, src.ref, field+".name",
				"server %q renamed to %q: %s", e.orig, a.Name, model.Text(strict)))
		}
		if m.renameDs == nil {
			m.renameDs = make(map[*entry]model.Diagnostics)
		}
		m.renameDs[e] = ds
	}
}

// dedupeRemoteURLs drops, in merge order, each server with a remote URL an
// earlier server of another server part (the part of its output name after
// the "/") already uses: the upstream registry refuses a URL two servers
// claim. Servers of one server part may share a URL: the versions of a
// server (StrategyVersions) and the copies several ConfigMaps define, which
// the prefix strategy keeps as team-a/api and team-b/api, describe one
// deployment. The test reads output names only, never where a name came
// from, so that merging the output again keeps every server it holds.
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
		_, part := naming.Split(e.out.Name())
		for _, u := range e.urls {
			if o, taken := owner[u]; taken && o != e && !sameServerPart(o, part) {
				clash, url = o, u
				break
			}
		}
		if clash != nil {
			e.keep = false
			// A renamed copy's rename is not diagnosed when it is dropped
			// (renameDs): this says both names.
			name := model.Sprintf("%q", e.out.Name())
			if e.out != e.s {
				name = model.Sprintf("%q (renamed from %q for a conflict)", e.out.Name(), e.orig)
			}
			m.ds = append(m.ds, model.Warningf(model.ReasonDuplicateRemoteURL, e.part.ref, e.fieldOf(),
				"server %s skipped: its remote URL %q is already used by server %q from ConfigMap %s",
				name, model.MaskURL(url), clash.out.Name(), clash.part.ref.Name))
			continue
		}
		for _, u := range e.urls {
			// The first holder in merge order is the one a later claimant
			// is told about; copies of it keep the URL alongside.
			if _, taken := owner[u]; !taken {
				owner[u] = e
			}
		}
		out = append(out, e)
	}
	return out
}

// sameServerPart tells whether o's output name has server part part.
func sameServerPart(o *entry, part string) bool {
	_, p := naming.Split(o.out.Name())
	return p == part
}
