package discovery

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/model"
)

// Changes is the difference between two registry documents, for events and
// stale-remote cleanup. Every list is sorted.
type Changes struct {
	// Added, Removed and Changed are entry names: only in next, only in
	// previous, and in both with different content.
	Added   []string
	Removed []string
	Changed []string
	// AddedRemotes and RemovedRemotes are remotes by entry name: a remote of
	// an added entry is added, of a removed entry removed.
	AddedRemotes   []RemoteChange
	RemovedRemotes []RemoteChange
}

// RemoteChange names one remote of one entry.
type RemoteChange struct {
	Server string
	Type   string
	URL    string
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Added)+len(c.Removed)+len(c.Changed)+len(c.AddedRemotes)+len(c.RemovedRemotes) == 0
}

// Diff compares two registry documents entry by entry (by name; a nil
// registry is empty). An entry changed when its JSON differs in any way.
// meta.last_updated is not compared. When a document holds two entries of one
// name (an invalid document), the first is compared.
func Diff(previous, next *model.Registry) Changes {
	prev, nxt := byName(previous), byName(next)
	var c Changes
	for _, name := range sortedKeys(prev) {
		p := prev[name]
		n, ok := nxt[name]
		if !ok {
			c.Removed = append(c.Removed, name)
			c.RemovedRemotes = append(c.RemovedRemotes, remoteChanges(name, p.Remotes(), nil)...)
			continue
		}
		if !bytes.Equal(p.AppendJSON(nil), n.AppendJSON(nil)) {
			c.Changed = append(c.Changed, name)
			c.AddedRemotes = append(c.AddedRemotes, remoteChanges(name, n.Remotes(), p.Remotes())...)
			c.RemovedRemotes = append(c.RemovedRemotes, remoteChanges(name, p.Remotes(), n.Remotes())...)
		}
	}
	for _, name := range sortedKeys(nxt) {
		if _, ok := prev[name]; !ok {
			c.Added = append(c.Added, name)
			c.AddedRemotes = append(c.AddedRemotes, remoteChanges(name, nxt[name].Remotes(), nil)...)
		}
	}
	sortChanges(c.AddedRemotes)
	sortChanges(c.RemovedRemotes)
	return c
}

func byName(r *model.Registry) map[string]*model.Server {
	m := map[string]*model.Server{}
	if r == nil {
		return m
	}
	for _, s := range r.Servers {
		if s == nil {
			continue
		}
		if _, dup := m[s.Name()]; !dup {
			m[s.Name()] = s
		}
	}
	return m
}

func sortedKeys(m map[string]*model.Server) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// remoteChanges lists the (type, url) pairs of have that are not in other.
func remoteChanges(server string, have, other []model.Remote) []RemoteChange {
	var out []RemoteChange
	for _, r := range have {
		if !slices.ContainsFunc(other, func(o model.Remote) bool { return o.Type == r.Type && o.URL == r.URL }) {
			out = append(out, RemoteChange{Server: server, Type: r.Type, URL: r.URL})
		}
	}
	return out
}

func sortChanges(cs []RemoteChange) {
	slices.SortFunc(cs, func(a, b RemoteChange) int {
		return cmp.Or(strings.Compare(a.Server, b.Server), strings.Compare(a.Type, b.Type), strings.Compare(a.URL, b.URL))
	})
}
