package merge

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"unsafe"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/internal/sha256x"
	"github.com/mcpreg/mcpreg/internal/sortkey"
	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/naming"
)

// part is one selected ConfigMap, read. Reading a ConfigMap depends on
// nothing but the ConfigMap and the merge's settings, so the parts of a
// merge can be read in any order or at once (Options.Parallel), and an
// Incremental merge keeps them between merges.
type part struct {
	cm    *corev1.ConfigMap
	ref   model.ObjectRef
	field string // data[key] or binaryData[key]
	// failure is why the ConfigMap was skipped ("MissingKey", ...), or "".
	failure model.Reason
	// skipped counts the entries dropped as invalid or too large, and
	// skipReasons says why, sorted.
	skipped     int
	skipReasons []model.Reason
	// entries are the entries read, valid and each the first of its name
	// (of its name and version, with StrategyVersions) in the ConfigMap,
	// sorted by name, then version. They point into one allocation in the
	// order read; sorting pointers moves 8 bytes where an entry is many
	// times that.
	entries []*entry
	// heads are the loser tree's records of entries, until the merge
	// that reads the part has used them.
	heads []treeHead
	// urlRefs are, for a merge that merges once (hashed is then set), the
	// remote URLs of the entries kept in the order read, each with its
	// hash and entry, until that merge has indexed them (see
	// indexSharedURLs).
	urlRefs []urlRef
	hashed  bool
	// ds are the diagnostics of reading, sorted.
	ds model.Diagnostics
	// idx is the part's position in merge order, set by the merge.
	idx int
}

// skip counts an entry dropped for reason.
func (p *part) skip(reason model.Reason) { p.skipN(reason, 1) }

// skipN counts n entries dropped for reason.
func (p *part) skipN(reason model.Reason, n int) {
	p.skipped += n
	if i, found := slices.BinarySearch(p.skipReasons, reason); !found {
		p.skipReasons = slices.Insert(p.skipReasons, i, reason)
	}
}

// skipText names the reasons entries were dropped for.
func (p *part) skipText() string {
	out := make([]string, len(p.skipReasons))
	for i, r := range p.skipReasons {
		out[i] = string(r)
	}
	return strings.Join(out, ", ")
}

// entry is one server on its way to the output.
//
// The fields the combine reads of every entry kept, in name order and so
// from all over memory, come first and together: the server, the epoch of
// the last combine that marked it, and its sum.
type entry struct {
	s *model.Server
	// What the last combine decided for an entry that is in conflict or
	// shares a remote URL (mark is then the combine's epoch): whether it
	// survives the conflict strategy, and the server written for it (a
	// renamed copy or s) with its sum.
	mark uint64
	// sum is the SHA-256 of the entry's compact JSON (see Hash), zero when
	// pass is false: only the entries the filter keeps are hashed.
	sum  [sha256.Size]byte
	out  *model.Server
	osum *[sha256.Size]byte
	keep bool
	// pass says whether the filter keeps the entry under the name it was
	// read with.
	pass bool
	// dropped is set for an entry dedupe drops as a duplicate.
	dropped bool
	// standIn is set for an entry read without a description, which got
	// the stand-in text: the combine that writes it says so (an entry
	// dropped on the way has its one diagnostic, the drop).
	standIn bool

	part *part
	pos  int    // its position among the entries model.Parse returned
	orig string // the name it was read with
	ver  string // its version
	// field is its path in the ConfigMap; "" until needed.
	field string
	// urls are the entry's remote URLs, read with the rest of the entry
	// while its bytes are in the cache.
	urls []string
}

// compareEntries orders entries by name, then version: the order of the
// output for entries whose names and versions are unique.
func compareEntries(a, b *entry) int {
	return cmp.Or(strings.Compare(a.orig, b.orig), strings.Compare(a.ver, b.ver))
}

// nameKey is the first 64 bytes of a name as eight big-endian numbers,
// zeros past its end. Names whose keys differ compare as their keys do: at the
// first byte where the keys differ either both names have that byte, or
// the shorter name ends there and is a prefix of the longer. Only names
// whose keys are equal need their bytes compared. Sixty-four bytes, not
// eight or sixteen, because real names share long prefixes: a namespace
// such as "io.github.modelcontextprotocol/" is 31 bytes, a server of it
// often begins like another, and a sort or merge of names of one namespace
// would otherwise compare most pairs byte by byte, in names that lie far
// apart in the ConfigMaps' data.
type nameKey [8]uint64

// nameKeyLen is how many bytes of a name its key holds.
const nameKeyLen = 8 * len(nameKey{})

func keyOf(name string) nameKey {
	var k nameKey
	for i := range k {
		if len(name) <= 8*i {
			break
		}
		k[i] = sortkey.Prefix8(name[8*i:])
	}
	return k
}

// read parses one selected ConfigMap into a part. It reads only the
// merger's settings, never its state, so reads may run concurrently.
func (m *merger) read(cm *corev1.ConfigMap) *part {
	p := &part{cm: cm, ref: model.FullRef("v1", "ConfigMap", &cm.ObjectMeta)}

	var data []byte
	if v, ok := cm.Data[m.key]; ok {
		// The servers alias the data they are parsed from. Neither the merge
		// nor the model ever writes into it, so the string's bytes are
		// read in place instead of copied: at scale, a copy would be the
		// largest allocation of the merge.
		data, p.field = unsafe.Slice(unsafe.StringData(v), len(v)), "data["+m.key+"]"
	} else if v, ok := cm.BinaryData[m.key]; ok {
		data, p.field = v, "binaryData["+m.key+"]"
	} else {
		p.failure = model.ReasonMissingKey
		p.ds = append(p.ds, model.Warningf(model.ReasonMissingKey, p.ref, "data["+m.key+"]",
			"ConfigMap skipped: no key %q in data or binaryData%s", m.key, describeKeys(cm)))
		return p
	}

	reg, pds := model.Parse(data, model.ParseOptions{
		Format:           m.format,
		DefaultNamespace: m.opts.DefaultNamespace,
		Source:           p.ref,
		FieldPrefix:      p.field,
	})
	for _, d := range pds {
		switch {
		case d.Severity == model.SeverityInfo:
			// Something read anyway: an upstream document under format
			// "toolhive", a tier written in another case.
		case d.Reason == model.ReasonInvalidJSON, d.Reason == model.ReasonUnknownFormat:
			// A merge goes on without this ConfigMap: a warning, not an error.
			d.Severity = model.SeverityWarning
			d.Message = "ConfigMap skipped: " + d.Message
			p.failure = d.Reason
		case d.Reason == model.ReasonInvalidEntry, d.Reason == model.ReasonInvalidURL:
			// Both drop one entry each: Parse reports a legacy or list
			// entry whose URL the URL policy refuses as InvalidURL, not
			// InvalidEntry, and the ConfigMap has lost it all the same.
			// A summary stands for the entries it leaves unlisted.
			p.skipN(d.Reason, d.Count())
		}
		p.ds = append(p.ds, d)
	}
	if reg == nil {
		if p.failure == "" {
			p.failure = model.ReasonUnknownFormat
		}
		slices.SortFunc(p.ds, model.Diagnostic.Compare)
		return p
	}
	for _, key := range reg.OtherData() {
		p.ds = append(p.ds, model.Warningf(model.ReasonInvalidEntry, p.ref, p.field+".data."+key,
			"data.%s not merged: a merge carries only data.servers", key))
	}

	// The entries of one ConfigMap take one allocation; the remote URLs of
	// one ConfigMap share one slice.
	slab := make([]entry, len(reg.Servers))
	heads := make([]treeHead, 0, len(reg.Servers))
	var urls []string
	var buf []byte
	// The texts to hash, and where each digest goes.
	texts := make([][]byte, 0, len(reg.Servers))
	sums := make([]*[sha256.Size]byte, 0, len(reg.Servers))
	for pos, s := range reg.Servers {
		standIn := m.describe(s, p)
		ok, nds := model.NormalizeWith(s, p.ref, p.field, model.NormalizeOptions{MaxMetaSize: m.opts.MaxMetaSize})
		if len(nds) > 0 {
			// Normalize names fields under the prefix it is given; put the
			// entry's own path in its place.
			f := entryField(p.field, s)
			for _, d := range nds {
				d.Field = f + strings.TrimPrefix(d.Field, p.field)
				p.ds = append(p.ds, d)
			}
		}
		if !ok {
			reason := model.ReasonInvalidEntry
			if len(nds) > 0 && nds[len(nds)-1].Reason == model.ReasonMetaTooLarge {
				reason = model.ReasonMetaTooLarge
			}
			p.skip(reason)
			continue
		}
		// The slab is zeroed: set the fields in place rather than copy a
		// whole entry in.
		e := &slab[len(heads)]
		e.s, e.part, e.pos, e.standIn = s, p, pos, standIn
		e.orig, e.ver = s.Name(), s.Version()
		// What the merge needs of the entry is read now, while its bytes
		// are in the cache, not after the entries are sorted: a duplicate
		// dedupe drops costs this for nothing, but duplicates are rare.
		first := len(urls)
		for u := range s.RemoteURLs() {
			urls = append(urls, u)
		}
		e.urls = urls[first:len(urls):len(urls)]
		// The sum is read only for an entry written under the name it
		// was read with, which the filter must keep (a renamed copy has a
		// sum of its own): hashing one it drops would be wasted. An entry
		// held as one piece of text waits for the others, to be hashed
		// with them in lanes; one that must be written out first is
		// hashed now, while buf holds it.
		if e.pass = m.filter.Match(s); e.pass {
			if text, ok := s.JSONText(); ok {
				texts, sums = append(texts, text), append(sums, &e.sum)
			} else {
				e.sum = sumJSON(s, &buf)
			}
		}
		heads = append(heads, headOf(e))
	}
	sha256x.SumAll(texts, sums)
	dropped := p.dedupe(heads, m.strategy == StrategyVersions)
	if m.once {
		// Hashed now, while the part's bytes are in the cache; the index
		// reads a URL again only for a hash it has seen. The URLs of the
		// duplicates dropped are not indexed.
		p.hashed = true
		p.urlRefs = make([]urlRef, 0, len(urls))
		for i := range slab[:len(heads)] {
			e := &slab[i]
			if dropped > 0 && e.dropped {
				continue
			}
			for _, u := range e.urls {
				p.urlRefs = append(p.urlRefs, urlRef{hash: maphash.String(m.seed, u), url: u, e: e})
			}
		}
	}
	slices.SortFunc(p.ds, model.Diagnostic.Compare)
	return p
}

// sumJSON is the SHA-256 of the compact JSON of s (the digest Hash is made
// of), hashed in place when s holds it as one piece, else written to *buf
// first.
func sumJSON(s *model.Server, buf *[]byte) [sha256.Size]byte {
	if text, ok := s.JSONText(); ok {
		return sha256.Sum256(text)
	}
	*buf = s.AppendJSON((*buf)[:0])
	return sha256.Sum256(*buf)
}

// dedupe keeps the first entry of each name (of each name and version, when
// versions) in the order read, with a DuplicateServer warning for each
// other (marked dropped, and counted in what it returns), and leaves the
// entries sorted by name, then version, in p.entries and their records in
// p.heads. heads are the records of the entries in
// the order read: sorting them, not pointers to the entries, compares keys
// that lie side by side in memory, and reads an entry only for a tie.
func (p *part) dedupe(heads []treeHead, versions bool) (dropped int) {
	// Sort positions, not the records: a comparison reads two records in
	// place, a swap moves two small numbers. The position of a record is
	// also its order read, the last tie-break.
	order := make([]int, len(heads))
	for i := range order {
		order[i] = i
	}
	sortByKeys(heads, order, make([]int, len(order)), func(i, j int) int {
		a, b := &heads[i], &heads[j]
		if c := compareHeadNames(a, b); c != 0 {
			return c
		}
		if versions {
			if c := strings.Compare(a.e.ver, b.e.ver); c != 0 {
				return c
			}
		}
		return cmp.Compare(i, j)
	})
	permute(heads, order)
	out := heads[:0]
	for _, h := range heads {
		if len(out) > 0 && sameName(&out[len(out)-1], &h) {
			first, e := out[len(out)-1].e, h.e
			switch {
			case !versions && first.orig == e.orig:
				p.ds = append(p.ds, model.Warningf(model.ReasonDuplicateServer, p.ref, entryField(p.field, e.s),
					"server %q skipped: %s of this ConfigMap has the same name; the first is kept", e.orig, first.fieldOf()))
				e.dropped = true
				continue
			case versions && first.orig == e.orig && first.ver == e.ver:
				p.ds = append(p.ds, model.Warningf(model.ReasonDuplicateServer, p.ref, entryField(p.field, e.s),
					"server %q version %q skipped: %s of this ConfigMap has the same name and version; the first is kept", e.orig, e.ver, first.fieldOf()))
				e.dropped = true
				continue
			}
		}
		out = append(out, h)
	}
	dropped = len(heads) - len(out)
	clear(heads[len(out):])
	p.heads = out
	p.entries = make([]*entry, len(out))
	for i := range out {
		p.entries[i] = out[i].e
	}
	return dropped
}

// permute puts heads in the order order gives, in place: heads[j] becomes
// the record that was at heads[order[j]]. It follows each cycle of the
// permutation once, marking the positions it has filled in order (which it
// leaves all -1), so it moves each record once and allocates nothing.
func permute(heads []treeHead, order []int) {
	for i := range order {
		if order[i] < 0 {
			continue
		}
		first := heads[i]
		j := i
		for {
			k := order[j]
			order[j] = -1
			if k == i {
				heads[j] = first
				break
			}
			heads[j] = heads[k]
			j = k
		}
	}
}

// fieldOf is the path of an entry in its ConfigMap, computed once and from
// the server as read: the locator finds the entry by its name.
func (e *entry) fieldOf() string {
	if e.field == "" {
		e.field = entryField(e.part.field, e.s)
	}
	return e.field
}

// describe gives an entry without description the stand-in text, since the
// upstream schema requires one and hand-written ConfigMap catalogs often
// leave it out, and reports whether it did. The MissingDescription Info
// waits for the combine (see standInInfo): only an entry that reaches the
// output has a description written for it.
func (m *merger) describe(s *model.Server, p *part) bool {
	// Only a missing description or the empty string literal gets the
	// stand-in; nothing else is decoded.
	if s.HasDescription() {
		return false
	}
	_, server := naming.Split(s.Name())
	s.SetDescription(model.ShortenDescription(fmt.Sprintf("%s from ConfigMap %s/%s", server, p.ref.Namespace, p.ref.Name)))
	return true
}

// standInInfo is the MissingDescription Info of an entry written with the
// stand-in description describe gave it.
func standInInfo(e *entry) model.Diagnostic {
	return model.Infof(model.ReasonMissingDescription, e.part.ref, e.fieldOf()+"."+model.KeyDescription,
		"server %q has no description; wrote %q", e.orig, e.s.Description())
}

func describeKeys(cm *corev1.ConfigMap) string {
	var keys []string
	for k := range cm.Data {
		keys = append(keys, k)
	}
	for k := range cm.BinaryData {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return " (the ConfigMap has no keys)"
	}
	slices.Sort(keys)
	return " (keys: " + joinCapped(keys, 10) + ")"
}
