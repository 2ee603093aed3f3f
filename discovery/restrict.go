package discovery

import (
	"slices"

	"github.com/mcpreg/mcpreg/model"
)

// A run with Options.Namespaces set is the full run restricted: every
// stage works on all the resources the label selector matches, whatever
// their namespace, so that names and remote URLs are settled as without
// Namespaces, and only the result is restricted to the entries of the
// chosen namespaces' resources and the diagnostics about their objects. A
// namespace's registry is then a view of the full registry: the same server
// never gets a different name or URL depending on who asks, which a
// settlement among the chosen namespaces alone would give it whenever
// another namespace claims the same name or URL.
//
// The one exception is an entry enriching a source-registry entry from
// resources of chosen namespaces and of others (one catalog server
// deployed in several namespaces): it is shown as built from the chosen
// namespaces' resources alone (see draft.restrictedPart), so that no other
// namespace's URLs or annotation values are published in a namespace's
// registry, with the name and the URLs the full run settled on.

// describeParts resolves the description and version of the parts of the
// mixed drafts as describeDrafts does for whole drafts, and drops the parts
// it drops. It returns the diagnostics about them.
func describeParts(drafts []*draft, cfg *config) model.Diagnostics {
	var ds model.Diagnostics
	for _, d := range drafts {
		if d.enrich == nil || d.enrich.part == nil {
			continue
		}
		kept, dd := describeDrafts([]*draft{d.enrich.part}, cfg)
		ds = append(ds, dd...)
		if len(kept) == 0 {
			d.enrich.part = nil
		}
	}
	return ds
}

// restrict is what the result of a run restricted to Options.Namespaces
// shows of draft d, whose name and remotes are settled: d itself when its
// resources are in chosen namespaces, nil when they are not, and for a
// mixed draft its part, with d's name and those of d's remotes that came
// from the part's resources (nil when none did). The source entry's own
// remotes are those d kept. The diagnostics settling addressed to d's
// primary, when the part's primary is another resource, are returned
// addressed to the part's: a namespace's registry says why its entry was
// renamed or lost a source remote.
func (c *config) restrict(d *draft) (*draft, model.Diagnostics) {
	if d.enrich == nil || !d.enrich.mixed {
		if c.chosenNamespace(d.primary().ref.Namespace) {
			return d, nil
		}
		return nil, nil
	}
	p := d.enrich.part
	if p == nil {
		return nil, nil
	}
	p.name = d.name
	// The part's own claims (restrictedPart) that the entry kept: a URL two
	// of the entry's resources claim is credited to the first of them, which
	// may be in another namespace, but it is the chosen resource's own URL
	// too, so showing it leaks nothing, and dropping it would lose the
	// chosen resource without a word.
	kept := make(map[Remote]bool, len(d.remotes))
	for _, r := range d.remotes {
		kept[Remote{Type: r.Type, URL: r.URL}] = true
	}
	claimed := p.remotes
	p.remotes = nil
	for _, r := range claimed {
		if k := (Remote{Type: r.Type, URL: r.URL}); kept[k] {
			delete(kept, k) // once: the entry's remotes are distinct
			p.remotes = append(p.remotes, r)
		}
	}
	slices.SortFunc(p.remotes, compareRemotes)
	if len(p.remotes) == 0 {
		return nil, nil
	}
	p.enrich.remotes = d.enrich.remotes
	var ds model.Diagnostics
	if p.primary() != d.primary() {
		for _, s := range d.enrich.settled {
			s.Object = p.primary().ref
			ds = append(ds, s)
		}
	}
	return p, ds
}

// restrictDiagnostics keeps, of a run's diagnostics, those about objects of
// the chosen namespaces and those about no namespaced object (the options).
func (c *config) restrictDiagnostics(ds model.Diagnostics) model.Diagnostics {
	return slices.DeleteFunc(ds, func(d model.Diagnostic) bool {
		return d.Object.Namespace != "" && !c.chosenNamespace(d.Object.Namespace)
	})
}
