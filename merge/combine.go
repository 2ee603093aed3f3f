package merge

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/filter"
	"github.com/mcpreg/mcpreg/model"
)

// merger is one merge's settings and, kept between the merges of an
// Incremental, the ConfigMaps it read and the indexes over their entries.
//
// A merge reads each selected ConfigMap into a part on its own, then
// combines the parts. The combine step touches only what can change
// between merges: the entries whose name several ConfigMaps define or whose
// remote URL several entries use ("special" entries, settled again on every
// merge), while the others, kept in name order with the filter's verdict,
// are only copied to the output. So a merge after one ConfigMap changed
// costs that ConfigMap's reading, the special entries and a copy of the
// list, not the reading, sorting and hashing of every entry.
type merger struct {
	in    Source
	opts  Options
	owner model.ObjectRef
	key   string
	// The settings, parsed; errs holds the Error diagnostic of one that is
	// not valid, which stops every merge.
	format   model.Format
	strategy Strategy
	filter   *filter.Filter
	errs     model.Diagnostics

	// parts are the selected ConfigMaps, read, in merge order, and total
	// the number of their entries.
	parts []*part
	total int
	// names indexes the entries of parts by name, urls by remote URL;
	// conflicts holds the names more than one ConfigMap defines and shared
	// the URLs more than one entry uses.
	names     map[string]holders
	urls      map[string]holders
	conflicts map[string]struct{}
	shared    map[string]struct{}
	// once is set for a merger that merges once (Merge), which needs of
	// the indexes only what the combine reads: the names and URLs several
	// entries hold. Its names and urls then hold only those (sparse is
	// set), and a name held once is found in pass or fail instead; a
	// second merge would index everything again.
	once, sparse bool
	// firstURL is, while a sparse index is built, the first remote URL of
	// each hash with its first entry, and firstMore the first entry of each
	// other URL of a hash already taken.
	firstURL  map[uint64]urlFirst
	firstMore map[string]*entry
	// seed keys the hashes of remote URLs (urlRef): random, so that no
	// tenant can choose URLs whose hashes collide; what the index holds
	// does not depend on it.
	seed maphash.Seed
	// pass and fail are the entries of parts the filter keeps and removes
	// under the names they were read with, sorted by name, then version.
	pass, fail []*entry
	// epoch numbers the combines; an entry marked with the current one is
	// special.
	epoch uint64
	// renamed keeps the renamed copies of the last combine, to reuse.
	renamed map[*entry]*renamedCopy
	// renameDs are the diagnostics of each copy the current combine
	// renamed, given when the copy is written.
	renameDs map[*entry]model.Diagnostics
	// ds are the diagnostics of selection and combining.
	ds model.Diagnostics
}

// nameVersion identifies a server under StrategyVersions.
type nameVersion struct{ name, version string }

// renamedCopy is a conflicting entry under its new name, with its sum.
type renamedCopy struct {
	s   *model.Server
	sum [sha256.Size]byte
}

// holders are the entries of one name or one remote URL. n counts, for a
// name, the ConfigMaps defining it, for a URL, its uses.
type holders struct {
	n    int
	one  *entry
	more []*entry
}

func (h *holders) add(e *entry) {
	if h.one == nil {
		h.one = e
		return
	}
	h.more = append(h.more, e)
}

func (h *holders) remove(e *entry) {
	if h.one == e {
		if k := len(h.more); k > 0 {
			h.one, h.more[k-1], h.more = h.more[k-1], nil, h.more[:k-1]
		} else {
			h.one = nil
		}
		return
	}
	if i := slices.Index(h.more, e); i >= 0 {
		k := len(h.more) - 1
		h.more[i], h.more[k], h.more = h.more[k], nil, h.more[:k]
	}
}

func newMerger(in Source, opts Options) *merger {
	m := &merger{in: in, opts: opts, owner: in.owner(), key: in.Key, seed: maphash.MakeSeed()}
	if m.key == "" {
		m.key = model.DefaultRegistryKey
	}
	strategy := in.Strategy
	if strategy == "" {
		strategy = opts.Strategy
	}
	strategy, err := ParseStrategy(string(strategy))
	if err != nil {
		m.errs = model.Diagnostics{model.Errorf(model.ReasonConflictError, m.owner, m.ownerField("strategy"), "%v", err)}
		return m
	}
	format, err := model.ParseFormat(string(in.Format))
	if err != nil {
		m.errs = model.Diagnostics{model.Errorf(model.ReasonUnknownFormat, m.owner, m.ownerField("format"), "%v", err)}
		return m
	}
	m.format, m.strategy = format, strategy
	f, err := filter.FromRegistryFilter(in.Filter)
	if err != nil {
		field := m.ownerField("filter")
		if pe, ok := err.(*filter.PatternError); ok {
			field = m.ownerField(fmt.Sprintf("filter.%s[%d]", pe.Field, pe.Index))
		}
		m.errs = model.Diagnostics{model.Errorf(model.ReasonInvalidFilter, m.owner, field, "%v", err)}
		return m
	}
	m.filter = f
	return m
}

// run merges the snapshot cms. cached, when not nil, returns the part read
// before from a ConfigMap, or nil; the other selected ConfigMaps are read,
// through Options.Parallel when set.
func (m *merger) run(cms []*corev1.ConfigMap, cached func(*corev1.ConfigMap) *part) Result {
	m.ds = nil
	if len(m.errs) > 0 {
		return Result{Diagnostics: slices.Clone(m.errs)}
	}
	selected, ok := m.selectSources(cms)
	if !ok {
		m.setParts(nil)
		res := Result{Diagnostics: m.ds}
		res.Diagnostics.Sort()
		return res
	}
	parts := make([]*part, len(selected))
	var todo []int
	for i, cm := range selected {
		if cached != nil {
			parts[i] = cached(cm)
		}
		if parts[i] == nil {
			todo = append(todo, i)
		}
	}
	if m.opts.Parallel != nil && len(todo) > 1 {
		// Each call writes its own element of parts and reads only the
		// settings of m.
		m.opts.Parallel(len(todo), func(j int) {
			if j >= 0 && j < len(todo) {
				parts[todo[j]] = m.read(selected[todo[j]])
			}
		})
	}
	for _, i := range todo {
		if parts[i] == nil {
			// Read here what Parallel did not.
			parts[i] = m.read(selected[i])
		}
	}
	m.setParts(parts)
	return m.combine()
}

// setParts makes parts the parts of the merge, indexing the ConfigMaps
// added and unindexing those gone, or indexing everything again when much
// changed.
func (m *merger) setParts(parts []*part) {
	gone := make(map[*part]bool, len(m.parts))
	for _, p := range m.parts {
		gone[p] = true
	}
	var added []*part
	for _, p := range parts {
		if gone[p] {
			delete(gone, p)
		} else {
			added = append(added, p)
		}
	}
	if m.names == nil || m.sparse || len(added)+len(gone) > max(2, len(parts)/8) {
		m.reindex(parts)
		return
	}
	if len(gone) > 0 {
		for p := range gone {
			m.unindex(p)
			p.idx = -1
		}
		inPlace := func(e *entry) bool { return e.part.idx < 0 }
		m.pass = slices.DeleteFunc(m.pass, inPlace)
		m.fail = slices.DeleteFunc(m.fail, inPlace)
	}
	for _, p := range added {
		p.heads = nil // only reindex reads them
		m.index(p)
		pass, fail := p.split()
		m.pass = insertSorted(m.pass, pass)
		m.fail = insertSorted(m.fail, fail)
	}
	m.parts = parts
	for i, p := range parts {
		p.idx = i
	}
}

// reindex indexes parts from scratch. It merges the parts' sorted lists
// first: the entries of one name then come one after the other, so each
// name is stored in the index once, with all its holders, and the kept and
// removed lists come out of the same pass.
func (m *merger) reindex(parts []*part) {
	runs := make([][]treeHead, len(parts))
	n, refs := 0, 0
	for i, p := range parts {
		refs += len(p.urlRefs)
		p.idx = i
		runs[i] = p.heads
		if len(p.heads) != len(p.entries) {
			runs[i] = headsOf(p.entries)
		}
		// The heads serve this one merge of the lists; a part kept for
		// an Incremental merge does not keep them.
		p.heads = nil
		n += len(p.entries)
	}
	m.parts, m.total = parts, n
	m.sparse = m.once
	if m.sparse {
		m.names = make(map[string]holders)
		m.urls = make(map[string]holders)
		m.firstURL = make(map[uint64]urlFirst, refs)
		m.firstMore = nil
	} else {
		m.names = make(map[string]holders, n)
		m.urls = make(map[string]holders, n)
	}
	m.conflicts = make(map[string]struct{})
	m.shared = make(map[string]struct{})
	m.pass, m.fail = make([]*entry, 0, n), nil
	// One group per name; a group has as many entries as ConfigMaps define
	// the name (times its versions, with StrategyVersions).
	t := newLoserTree(runs)
	for t.left > 0 {
		e, key := t.next()
		h := holders{n: 1, one: e}
		m.keep(e, key.pass)
		for t.left > 0 && sameName(&t.heads[t.winner], key) {
			e, key := t.next()
			h.add(e)
			m.keep(e, key.pass)
		}
		if len(h.more) > 0 {
			h.n = countParts(h)
			if h.n > 1 {
				m.conflicts[e.orig] = struct{}{}
			}
		} else if m.sparse {
			continue
		}
		m.names[e.orig] = h
	}
	for _, p := range parts {
		switch {
		case m.sparse && p.hashed:
			m.indexSharedURLs(p.urlRefs)
		case m.sparse:
			for _, e := range p.entries {
				m.indexSharedURLsOf(e)
			}
		default:
			for _, e := range p.entries {
				m.indexURLs(e)
			}
		}
		p.urlRefs, p.hashed = nil, false
	}
	m.firstURL, m.firstMore = nil, nil
}

// urlRef is a remote URL of an entry with its hash (maphash.String with the
// merger's seed). A part keeps those of the entries it does not drop.
type urlRef struct {
	hash uint64
	url  string
	e    *entry
}

// urlFirst is the first remote URL of a hash and its first entry.
type urlFirst struct {
	url string
	e   *entry
}

// indexSharedURLs is indexURLs for a sparse index, for the remote URLs of a
// part's entries as read: a URL's first entry goes to firstURL, and only a
// URL used again to urls, with all its entries. The index is keyed by the
// URLs' hashes, which read computed while the URLs' bytes were in the
// cache: a URL used once, most of them, is then not read again. The order
// in which a URL's entries are added does not matter: the combine marks
// them all, then sorts what it marked.
func (m *merger) indexSharedURLs(refs []urlRef) {
	for i := range refs {
		r := &refs[i]
		m.indexSharedURL(r.hash, r.url, r.e)
	}
}

// indexSharedURLsOf is indexSharedURLs for the remote URLs of e, hashed
// here.
func (m *merger) indexSharedURLsOf(e *entry) {
	for _, u := range e.urls {
		m.indexSharedURL(maphash.String(m.seed, u), u, e)
	}
}

// indexSharedURL indexes the remote URL u, whose hash is hash, for e.
func (m *merger) indexSharedURL(hash uint64, u string, e *entry) {
	f, ok := m.firstURL[hash]
	if !ok {
		m.firstURL[hash] = urlFirst{url: u, e: e}
		return
	}
	first := f.e
	if f.url != u {
		// Another URL has the hash: such URLs are looked up by URL.
		if first, ok = m.firstMore[u]; !ok {
			if m.firstMore == nil {
				m.firstMore = make(map[string]*entry)
			}
			m.firstMore[u] = e
			return
		}
	}
	h, ok := m.urls[u]
	if !ok {
		h = holders{n: 1, one: first}
		m.shared[u] = struct{}{}
	}
	h.n++
	h.add(e)
	m.urls[u] = h
}

// defined returns how many ConfigMaps define name.
func (m *merger) defined(name string) int {
	if h, ok := m.names[name]; ok || !m.sparse {
		return h.n
	}
	// A sparse index leaves out the names one entry holds.
	for _, list := range [][]*entry{m.pass, m.fail} {
		if _, ok := slices.BinarySearchFunc(list, name, func(e *entry, name string) int {
			return strings.Compare(e.orig, name)
		}); ok {
			return 1
		}
	}
	return 0
}

// indexURLs adds the remote URLs of e to the URL index, noting those that
// another entry already uses.
func (m *merger) indexURLs(e *entry) {
	for _, u := range e.urls {
		h := m.urls[u]
		h.n++
		if h.n == 2 {
			m.shared[u] = struct{}{}
		}
		h.add(e)
		m.urls[u] = h
	}
}

// keep appends e to the entries the filter keeps or to those it removes.
func (m *merger) keep(e *entry, pass bool) {
	if pass {
		m.pass = append(m.pass, e)
	} else {
		m.fail = append(m.fail, e)
	}
}

// countParts counts the ConfigMaps that hold the entries of h.
func countParts(h holders) int {
	idx := make([]int, 0, 1+len(h.more))
	idx = append(idx, h.one.part.idx)
	for _, e := range h.more {
		idx = append(idx, e.part.idx)
	}
	slices.Sort(idx)
	return len(slices.Compact(idx))
}

// split returns the entries of p the filter keeps and those it removes,
// each sorted as p.entries.
func (p *part) split() (pass, fail []*entry) {
	pass = make([]*entry, 0, len(p.entries))
	for _, e := range p.entries {
		if e.pass {
			pass = append(pass, e)
		} else {
			fail = append(fail, e)
		}
	}
	return pass, fail
}

// index adds the entries of p to the indexes.
func (m *merger) index(p *part) {
	m.total += len(p.entries)
	for i, e := range p.entries {
		h := m.names[e.orig]
		if i == 0 || p.entries[i-1].orig != e.orig {
			// The first entry of its name in p (entries are sorted).
			h.n++
			if h.n == 2 {
				m.conflicts[e.orig] = struct{}{}
			}
		}
		h.add(e)
		m.names[e.orig] = h
		m.indexURLs(e)
	}
}

// unindex removes the entries of p from the indexes.
func (m *merger) unindex(p *part) {
	m.total -= len(p.entries)
	for i, e := range p.entries {
		h := m.names[e.orig]
		if i == 0 || p.entries[i-1].orig != e.orig {
			h.n--
			if h.n == 1 {
				delete(m.conflicts, e.orig)
			}
		}
		h.remove(e)
		rekey(m.names, e.orig, h)
		for _, u := range e.urls {
			h := m.urls[u]
			h.n--
			if h.n == 1 {
				delete(m.shared, u)
			}
			h.remove(e)
			rekey(m.urls, u, h)
		}
	}
}

// rekey stores h under key, or deletes key when h is empty. The key is
// stored again from a remaining holder: the string the map holds may be
// the bytes of a ConfigMap that is gone, which it would keep alive.
func rekey(idx map[string]holders, key string, h holders) {
	delete(idx, key)
	if h.one != nil {
		idx[strings.Clone(key)] = h
	}
}

// insertSorted inserts the sorted entries add into the sorted list dst.
func insertSorted(dst, add []*entry) []*entry {
	if len(add) == 0 {
		return dst
	}
	out := make([]*entry, 0, len(dst)+len(add))
	for _, e := range add {
		i, _ := slices.BinarySearchFunc(dst, e, compareEntries)
		out = append(out, dst[:i]...)
		out = append(out, e)
		dst = dst[i:]
	}
	return append(out, dst...)
}

// mergeRuns merges sorted lists into one, keeping lists earlier in runs
// first among equal entries.
func mergeRuns(runs [][]*entry) []*entry {
	heads := make([][]treeHead, len(runs))
	for i, r := range runs {
		heads[i] = headsOf(r)
	}
	t := newLoserTree(heads)
	if t.left == 0 {
		return nil
	}
	out := make([]*entry, 0, t.left)
	for t.left > 0 {
		e, _ := t.next()
		out = append(out, e)
	}
	return out
}

// loserTree merges sorted lists of entries in one pass: next returns the
// entries in merged order, lists earlier first among equal entries. A
// tournament (loser) tree over the lists' heads settles each entry in
// about log2(lists) comparisons and one move, where merging the lists
// pairwise would copy every entry once per level, log2(lists) times. The
// heads' keys sit in the tree's own array, so the comparisons read no
// entry, and neither need the caller for the name or the filter's verdict.
//
// Node i (1 ≤ i < k) holds the list that lost the match there; list j
// plays from leaf k+j, so the tree has the shape of a binary heap for any
// k.
type loserTree struct {
	runs   [][]treeHead
	heads  []treeHead
	loser  []int
	winner int
	// left counts the entries not yet returned.
	left int
}

// treeHead is an entry of a list with its key and the filter's verdict on
// it: the tree reads the lists' heads from these, one after the other in
// memory, instead of from the entries, which lie in the order they were
// read; only heads of equal keys and names longer than the keys need their
// entries' names, and only heads of equal names their versions. n is the
// length of the name. done marks an empty list.
type treeHead struct {
	key        nameKey
	e          *entry
	n          int
	pass, done bool
}

// headOf is the record of e. The key is made from the name, which a merge
// reads while the entry's bytes are in the cache; only an Incremental merge
// that indexes its parts again reads names for keys a second time.
func headOf(e *entry) treeHead {
	return treeHead{key: keyOf(e.orig), e: e, n: len(e.orig), pass: e.pass}
}

// compareHeadNames is strings.Compare of the names of x and y. Names whose
// keys are equal are equal up to the shorter one's end when either lies
// within its key, the rest of the longer being zero bytes: their lengths
// order them then.
func compareHeadNames(x, y *treeHead) int {
	for i := range x.key {
		if x.key[i] != y.key[i] {
			return cmp.Compare(x.key[i], y.key[i])
		}
	}
	if x.n <= nameKeyLen || y.n <= nameKeyLen {
		return cmp.Compare(x.n, y.n)
	}
	return strings.Compare(x.e.orig[nameKeyLen:], y.e.orig[nameKeyLen:])
}

// sameName reports whether x and y have the same name.
func sameName(x, y *treeHead) bool {
	return x.key == y.key && x.n == y.n && (x.n <= nameKeyLen || x.e.orig == y.e.orig)
}

// headsOf returns the tree's records of a sorted list of entries.
func headsOf(entries []*entry) []treeHead {
	hs := make([]treeHead, len(entries))
	for i, e := range entries {
		hs[i] = headOf(e)
	}
	return hs
}

// newLoserTree starts merging runs; empty lists take no part.
func newLoserTree(runs [][]treeHead) *loserTree {
	live := make([][]treeHead, 0, len(runs))
	n := 0
	for _, r := range runs {
		if len(r) > 0 {
			live, n = append(live, r), n+len(r)
		}
	}
	k := len(live)
	t := &loserTree{runs: live, heads: make([]treeHead, k), loser: make([]int, k), left: n}
	if k == 0 {
		return t
	}
	for j := range live {
		t.setHead(j)
	}
	// Play every match once, bottom-up: win holds each node's winner.
	win := make([]int, 2*k)
	for j := range k {
		win[k+j] = j
	}
	for i := k - 1; i >= 1; i-- {
		a, b := win[2*i], win[2*i+1]
		if t.less(b, a) {
			a, b = b, a
		}
		win[i], t.loser[i] = a, b
	}
	t.winner = win[1]
	return t
}

// next returns the next entry in merged order and its record, which stays
// where its list holds it. It must not be called when left is 0.
func (t *loserTree) next() (*entry, *treeHead) {
	w := t.winner
	key := &t.runs[w][0]
	t.advance(w)
	t.left--
	return key.e, key
}

// setHead reads the key of list j's first entry.
func (t *loserTree) setHead(j int) {
	if len(t.runs[j]) == 0 {
		t.heads[j] = treeHead{done: true}
		return
	}
	t.heads[j] = t.runs[j][0]
}

// less orders lists by their heads as compareEntries does, an empty list
// last, and equal heads by the lists' order.
func (t *loserTree) less(a, b int) bool {
	x, y := &t.heads[a], &t.heads[b]
	if x.done || y.done {
		if x.done != y.done {
			return y.done
		}
		return a < b
	}
	if c := compareHeads(x, y); c != 0 {
		return c < 0
	}
	return a < b
}

// compareHeads orders heads as compareEntries orders their entries,
// reading the entries only when the keys are equal.
func compareHeads(x, y *treeHead) int {
	if c := compareHeadNames(x, y); c != 0 {
		return c
	}
	return strings.Compare(x.e.ver, y.e.ver)
}

// advance drops the first entry of list w, the winner, and replays its
// matches from its leaf to the root.
func (t *loserTree) advance(w int) {
	t.runs[w] = t.runs[w][1:]
	t.setHead(w)
	k := len(t.runs)
	for i := (w + k) / 2; i >= 1; i /= 2 {
		if l := t.loser[i]; t.less(l, w) {
			t.loser[i], w = w, l
		}
	}
	t.winner = w
}

// byMergeOrder orders entries as the merge meets them: by ConfigMap in
// merge order, then as read.
func byMergeOrder(a, b *entry) int {
	return cmp.Or(cmp.Compare(a.part.idx, b.part.idx), cmp.Compare(a.pos, b.pos))
}

// combine settles the indexed parts into a Result.
func (m *merger) combine() Result {
	m.epoch++
	m.renameDs = nil
	var special, conflicting []*entry
	mark := func(e *entry) {
		if e.mark != m.epoch {
			e.mark, e.keep, e.out, e.osum = m.epoch, true, e.s, &e.sum
			special = append(special, e)
		}
	}
	for name := range m.conflicts {
		h := m.names[name]
		mark(h.one)
		for _, e := range h.more {
			mark(e)
		}
	}
	for u := range m.shared {
		h := m.urls[u]
		mark(h.one)
		for _, e := range h.more {
			mark(e)
		}
	}
	slices.SortFunc(special, byMergeOrder)
	for _, e := range special {
		if m.names[e.orig].n > 1 {
			conflicting = append(conflicting, e)
		}
	}
	renamed := m.renamed
	m.renamed = nil
	if len(conflicting) > 0 {
		switch m.strategy {
		case StrategyError:
			m.refuse(conflicting)
			return m.finish(Result{})
		case StrategyPriority:
			m.shadow(conflicting)
		case StrategyVersions:
			m.versions(conflicting)
		default:
			m.rename(conflicting, renamed)
		}
	}

	// Remote URLs, then the filter, for the special entries; the others
	// were settled when read. In this order the filter only ever removes:
	// an entry that lost its URL to one the filter then removes stays out
	// (excluding the first could otherwise bring the second in).
	var filtered, kept []*entry
	for _, e := range special {
		if e.keep {
			kept = append(kept, e)
		}
	}
	kept = m.dedupeRemoteURLs(kept)
	passed := kept[:0]
	for _, e := range kept {
		pass := e.pass
		if e.out != e.s {
			pass = m.filter.Match(e.out)
		}
		if !pass {
			e.keep = false
			filtered = append(filtered, e)
			continue
		}
		passed = append(passed, e)
	}
	kept = passed
	byName := func(a, b *entry) int {
		return cmp.Or(strings.Compare(a.out.Name(), b.out.Name()), strings.Compare(a.ver, b.ver))
	}
	slices.SortFunc(kept, byName)
	slices.SortFunc(filtered, byName)

	// The output: the entries kept in name order, the special ones placed
	// among the others by binary search.
	servers := make([]*model.Server, 0, len(m.pass)+len(kept))
	h := sha256.New()
	buf := make([]byte, 0, 32<<10)
	emit := func(s *model.Server, sum *[sha256.Size]byte) {
		servers = append(servers, s)
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = append(buf, sum[:]...)
	}
	at := m.positions(m.pass, kept)
	j := 0
	for i, e := range m.pass {
		for ; j < len(kept) && at[j] <= i; j++ {
			emit(kept[j].out, kept[j].osum)
			m.written(kept[j])
		}
		if e.mark != m.epoch {
			emit(e.s, &e.sum)
			if e.standIn {
				m.ds = append(m.ds, standInInfo(e))
			}
		}
	}
	for ; j < len(kept); j++ {
		emit(kept[j].out, kept[j].osum)
		m.written(kept[j])
	}
	h.Write(buf)

	var names []string
	if len(m.fail)+len(filtered) > 0 {
		at := m.positions(m.fail, filtered)
		j := 0
		for i, e := range m.fail {
			for ; j < len(filtered) && at[j] <= i; j++ {
				names = append(names, filtered[j].out.Name())
			}
			if e.mark != m.epoch {
				names = append(names, e.orig)
			}
		}
		for ; j < len(filtered); j++ {
			names = append(names, filtered[j].out.Name())
		}
	}

	reg := model.NewRegistry(m.opts.LastUpdated.UTC().Format(time.RFC3339), servers)
	if len(servers) == 0 {
		m.ds = append(m.ds, model.EmptyRegistryDiagnostic(m.owner, m.ownerField(""), m.whyEmpty(len(names))))
	}
	return m.finish(Result{Registry: reg, Hash: hex.EncodeToString(h.Sum(nil)), Filtered: names})
}

// written gives the diagnostics that wait for a special entry (in conflict
// or sharing a URL) to be written: its rename's, and its stand-in
// description's.
func (m *merger) written(e *entry) {
	if ds, ok := m.renameDs[e]; ok {
		m.ds = append(m.ds, ds...)
	}
	if e.standIn {
		m.ds = append(m.ds, standInInfo(e))
	}
}

// positions returns where each of the entries add (final names, sorted)
// goes in list (names as read, sorted): before list[at[j]].
func (m *merger) positions(list, add []*entry) []int {
	at := make([]int, len(add))
	lo := 0
	for j, e := range add {
		name := e.out.Name()
		i, _ := slices.BinarySearchFunc(list[lo:], e, func(x, _ *entry) int {
			return cmp.Or(strings.Compare(x.orig, name), strings.Compare(x.ver, e.ver))
		})
		lo += i
		at[j] = lo
	}
	return at
}

// finish adds the summary, the diagnostics of reading and the sources to res.
func (m *merger) finish(res Result) Result {
	m.summarize()
	n := len(m.ds)
	for _, p := range m.parts {
		n += len(p.ds)
	}
	ds := make(model.Diagnostics, 0, n)
	for _, p := range m.parts {
		ds = append(ds, p.ds...)
	}
	res.Diagnostics = append(ds, m.ds...)
	res.Diagnostics.Sort()
	for _, p := range m.parts {
		res.Sources = append(res.Sources, p.ref)
	}
	return res
}
