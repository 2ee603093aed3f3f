package merge

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/filter"
	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/naming"
)

// Strategy says how a server name defined by several ConfigMaps is settled.
type Strategy string

// The conflict strategies. The zero value means StrategyPrefix.
const (
	// StrategyPrefix renames every conflicting copy "{configmap}/{server}",
	// where server is the part of the name after its namespace, so every
	// team's copy stays available under a name that says where it came from.
	StrategyPrefix Strategy = "prefix"
	// StrategyPriority keeps the copy of the first ConfigMap in merge order.
	StrategyPriority Strategy = "priority"
	// StrategyError refuses to merge conflicting data.
	StrategyError Strategy = "error"
	// StrategyVersions keeps the copies of a name that differ in version as
	// versions of one server: several entries with the same name, one per
	// version, as ToolHive's registry server keeps them. Copies of the same
	// name and version are settled as StrategyPriority does (the first
	// ConfigMap in merge order wins, ConflictShadowed for the others), since
	// the server cannot hold one version twice. A ConfigMap may then list
	// several versions of a name itself.
	StrategyVersions Strategy = "versions"
)

// ParseStrategy reads a strategy name; "" is StrategyPrefix.
func ParseStrategy(s string) (Strategy, error) {
	switch Strategy(s) {
	case "", StrategyPrefix:
		return StrategyPrefix, nil
	case StrategyPriority, StrategyError, StrategyVersions:
		return Strategy(s), nil
	}
	return "", fmt.Errorf("unknown conflict strategy %q (want prefix, priority, error or versions)", s)
}

// Result is the outcome of a merge.
type Result struct {
	// Registry is the merged document, or nil when an Error diagnostic
	// stopped the merge (InvalidSelector, InvalidFilter, ConflictError).
	// The raw values of its servers share memory with the ConfigMaps' data,
	// which is read in place: do not modify them (see model.Server.Get).
	Registry *model.Registry
	// Hash is the content hash of Registry's servers (see Hash); "" when
	// Registry is nil.
	Hash string
	// Diagnostics are sorted.
	Diagnostics model.Diagnostics
	// Sources are the ConfigMaps merged, in merge order.
	Sources []model.ObjectRef
	// Filtered lists, sorted, the final names of the servers the filter
	// removed.
	Filtered []string
	// ConfigMap is the output ConfigMap; only ForRegistry renders it, and
	// only for an MCPRegistry with a UID (see OutputConfigMap).
	ConfigMap *corev1.ConfigMap
}

// Document returns the registry document as the CLI prints it (two-space
// indented JSON and a newline), or nil. The output ConfigMap holds the same
// document compact (see ForRegistry).
func (r *Result) Document() []byte {
	if r.Registry == nil {
		return nil
	}
	return r.Registry.Encode()
}

// source is one selected ConfigMap while it is merged.
type source struct {
	cm    *corev1.ConfigMap
	ref   model.ObjectRef
	field string // data[key] or binaryData[key]
	// failure is why the ConfigMap was skipped ("MissingKey", ...), or "".
	failure model.Reason
	// skipped counts the entries dropped as invalid or too large, and
	// skipReasons says why, sorted.
	skipped     int
	skipReasons []model.Reason
}

// skip counts an entry dropped for reason.
func (s *source) skip(reason model.Reason) { s.skipN(reason, 1) }

// skipN counts n entries dropped for reason.
func (s *source) skipN(reason model.Reason, n int) {
	s.skipped += n
	if i, found := slices.BinarySearch(s.skipReasons, reason); !found {
		s.skipReasons = slices.Insert(s.skipReasons, i, reason)
	}
}

// skipText names the reasons entries were dropped for.
func (s *source) skipText() string {
	out := make([]string, len(s.skipReasons))
	for i, r := range s.skipReasons {
		out[i] = string(r)
	}
	return strings.Join(out, ", ")
}

// entry is one server on its way to the output.
type entry struct {
	s     *model.Server
	src   int    // index into merger.sources
	pos   int    // its position among the entries model.Parse returned
	orig  string // the name it was read with
	field string // its path in the ConfigMap; "" until needed
	// urls are the entry's remote URLs, read with the rest of the entry
	// while its bytes are in the cache, for dedupeRemoteURLs.
	urls []string
	// stat indexes merger.stats: what is known of the name orig.
	stat int
}

type merger struct {
	in      Source
	cms     []*corev1.ConfigMap
	opts    Options
	owner   model.ObjectRef
	key     string
	sources []*source
	entries []*entry
	// names indexes stats by the names entries were read with: one map
	// finds both repeats inside a ConfigMap and conflicts between them.
	names map[string]int
	stats []nameStat
	ds    model.Diagnostics
	// selected is the number of ConfigMaps selected.
	selected int
	// render asks for the compact document in doc, hashed as it is written.
	render bool
	doc    string
	// format is the Source's format, parsed.
	format model.Format
	// strategy is the conflict strategy, parsed.
	strategy Strategy
}

// nameVersion identifies a server under StrategyVersions.
type nameVersion struct{ name, version string }

// nameStat is what the merge knows of one name read.
type nameStat struct {
	// count is the number of ConfigMaps defining the name.
	count int
	// src is the last ConfigMap that did, and first the index in entries of
	// its entry of that name.
	src, first int
}

// count returns the number of ConfigMaps defining the name of e.
func (m *merger) count(e *entry) int { return m.stats[e.stat].count }

// Merge merges the registry data of the ConfigMaps of the snapshot configMaps
// that src chooses (see Source) into one upstream document; the package
// documentation gives the steps. It never panics and never changes its
// inputs.
func Merge(src Source, configMaps []*corev1.ConfigMap, opts Options) Result {
	res, _ := merge(src, configMaps, opts, false)
	return res
}

// merge is Merge that, with render, also returns the document as compact
// JSON and a newline — what the output ConfigMap holds — written once, its
// servers' list hashed from the same bytes.
func merge(in Source, configMaps []*corev1.ConfigMap, opts Options, render bool) (Result, string) {
	m := &merger{in: in, cms: configMaps, opts: opts, owner: in.owner(), key: in.Key, render: render}
	if m.key == "" {
		m.key = model.DefaultRegistryKey
	}
	res := m.run()
	res.Diagnostics = m.ds
	res.Diagnostics.Sort()
	for _, s := range m.sources {
		res.Sources = append(res.Sources, s.ref)
	}
	return res, m.doc
}

func (in *Source) owner() model.ObjectRef {
	if in.Owner.Kind != "" {
		return in.Owner
	}
	switch {
	case in.Selector != nil:
		return model.ObjectRef{Kind: "ConfigMapSelector", Namespace: in.Namespace, Name: metav1.FormatLabelSelector(in.Selector)}
	case in.Name != "":
		return model.ObjectRef{Kind: "ConfigMap", Namespace: in.Namespace, Name: in.Name}
	}
	return model.ObjectRef{Kind: "ConfigMapList", Namespace: in.Namespace}
}

func (m *merger) ownerField(f string) string {
	switch {
	case m.in.Field == "":
		return f
	case f == "":
		return m.in.Field
	}
	return m.in.Field + "." + f
}

func (m *merger) run() Result {
	strategy := m.in.Strategy
	if strategy == "" {
		strategy = m.opts.Strategy
	}
	strategy, err := ParseStrategy(string(strategy))
	if err != nil {
		m.ds = append(m.ds, model.Errorf(model.ReasonConflictError, m.owner, m.ownerField("strategy"), "%v", err))
		return Result{}
	}
	format, err := model.ParseFormat(string(m.in.Format))
	if err != nil {
		m.ds = append(m.ds, model.Errorf(model.ReasonUnknownFormat, m.owner, m.ownerField("format"), "%v", err))
		return Result{}
	}
	m.format, m.strategy = format, strategy
	f, err := filter.FromRegistryFilter(m.in.Filter)
	if err != nil {
		field := m.ownerField("filter")
		if pe, ok := err.(*filter.PatternError); ok {
			field = m.ownerField(fmt.Sprintf("filter.%s[%d]", pe.Field, pe.Index))
		}
		m.ds = append(m.ds, model.Errorf(model.ReasonInvalidFilter, m.owner, field, "%v", err))
		return Result{}
	}
	cms, ok := m.selectSources()
	if !ok {
		return Result{}
	}
	m.selected = len(cms)
	for _, cm := range cms {
		m.read(cm)
	}

	conflicts := 0
	for _, st := range m.stats {
		if st.count > 1 {
			conflicts++
		}
	}
	kept := m.entries
	if conflicts > 0 {
		switch strategy {
		case StrategyError:
			m.refuse()
			m.summarize()
			return Result{}
		case StrategyPriority:
			kept = m.shadow()
		case StrategyVersions:
			kept = m.versions()
		default:
			m.rename()
		}
	}

	var filtered []string
	if !f.Empty() {
		out := kept[:0:0]
		for _, e := range kept {
			if f.Match(e.s) {
				out = append(out, e)
			} else {
				filtered = append(filtered, e.s.Name())
			}
		}
		kept = out
		slices.Sort(filtered)
	}
	kept = m.dedupeRemoteURLs(kept)

	servers := make([]*model.Server, len(kept))
	for i, e := range kept {
		servers[i] = e.s
	}
	reg := model.NewRegistry(m.opts.LastUpdated.UTC().Format(time.RFC3339), servers)
	sortServers(reg.Servers)
	m.summarize()
	if len(servers) == 0 {
		m.ds = append(m.ds, model.EmptyRegistryDiagnostic(m.owner, m.ownerField(""), m.whyEmpty(len(filtered))))
	}
	res := Result{Registry: reg, Filtered: filtered}
	if m.render {
		// Names (names and versions, with StrategyVersions) are unique and
		// sorted as Hash sorts them, so the document's list of servers is
		// exactly what Hash hashes.
		// One allocation of the exact size (WriteTo grows the builder, which
		// does not zero it, and String does not copy it); the hash is taken
		// over the servers' list inside the document, not a second encoding.
		var doc strings.Builder
		_, _ = reg.WriteTo(&doc)
		doc.WriteByte('\n')
		m.doc = doc.String()
		res.Hash = hashList(m.doc)
	} else {
		res.Hash = Hash(reg.Servers)
	}
	return res
}

// sortServers sorts servers whose names, or names and versions, are unique
// by name, then version: the order of compareServers for them.
func sortServers(servers []*model.Server) {
	slices.SortFunc(servers, func(a, b *model.Server) int {
		if c := strings.Compare(a.Name(), b.Name()); c != 0 {
			return c
		}
		return strings.Compare(a.Version(), b.Version())
	})
}

// read parses one selected ConfigMap and adds its servers.
func (m *merger) read(cm *corev1.ConfigMap) {
	src := &source{cm: cm, ref: model.FullRef("v1", "ConfigMap", &cm.ObjectMeta)}
	m.sources = append(m.sources, src)
	idx := len(m.sources) - 1

	var data []byte
	if v, ok := cm.Data[m.key]; ok {
		// The servers alias the data they are parsed from. Neither the merge
		// nor the model ever writes into it, so the string's bytes are
		// read in place instead of copied: at scale, a copy would be the
		// largest allocation of the merge.
		data, src.field = unsafe.Slice(unsafe.StringData(v), len(v)), "data["+m.key+"]"
	} else if v, ok := cm.BinaryData[m.key]; ok {
		data, src.field = v, "binaryData["+m.key+"]"
	} else {
		src.failure = model.ReasonMissingKey
		m.ds = append(m.ds, model.Warningf(model.ReasonMissingKey, src.ref, "data["+m.key+"]",
			"ConfigMap skipped: no key %q in data or binaryData%s", m.key, describeKeys(cm)))
		return
	}

	reg, pds := model.Parse(data, model.ParseOptions{
		Format:           m.format,
		DefaultNamespace: m.opts.DefaultNamespace,
		Source:           src.ref,
		FieldPrefix:      src.field,
	})
	for _, d := range pds {
		switch d.Reason {
		case model.ReasonInvalidJSON, model.ReasonUnknownFormat:
			// A merge goes on without this ConfigMap: a warning, not an error.
			d.Severity = model.SeverityWarning
			d.Message = "ConfigMap skipped: " + d.Message
			src.failure = d.Reason
		case model.ReasonInvalidEntry:
			// A summary stands for the entries it leaves unlisted.
			src.skipN(model.ReasonInvalidEntry, d.Count())
		}
		m.ds = append(m.ds, d)
	}
	if reg == nil {
		if src.failure == "" {
			src.failure = model.ReasonUnknownFormat
		}
		return
	}
	for _, key := range reg.OtherData() {
		m.ds = append(m.ds, model.Warningf(model.ReasonInvalidEntry, src.ref, src.field+".data."+key,
			"data.%s not merged: a merge carries only data.servers", key))
	}

	if m.names == nil {
		// Sized by the first ConfigMap, assuming the others are alike.
		m.names = make(map[string]int, len(reg.Servers)*m.selected)
	}
	// The entries and their remote URLs of one ConfigMap take one
	// allocation each.
	slab := make([]entry, 0, len(reg.Servers))
	var urls []string
	// versions finds, with StrategyVersions, the entry of this ConfigMap
	// holding a name and version.
	var versions map[nameVersion]int
	for pos, s := range reg.Servers {
		m.describe(s, src, pos)
		ok, nds := model.NormalizeWith(s, src.ref, src.field, model.NormalizeOptions{MaxMetaSize: m.opts.MaxMetaSize})
		if len(nds) > 0 {
			// Normalize names fields under the prefix it is given; put the
			// entry's own path in its place.
			f := entryField(src.field, s)
			for _, d := range nds {
				d.Field = f + strings.TrimPrefix(d.Field, src.field)
				m.ds = append(m.ds, d)
			}
		}
		if !ok {
			reason := model.ReasonInvalidEntry
			if len(nds) > 0 && nds[len(nds)-1].Reason == model.ReasonMetaTooLarge {
				reason = model.ReasonMetaTooLarge
			}
			src.skip(reason)
			continue
		}
		name := s.Name()
		k, seen := m.names[name]
		again := seen && m.stats[k].src == idx // the name is already in this ConfigMap
		if again && m.strategy != StrategyVersions {
			m.ds = append(m.ds, model.Warningf(model.ReasonDuplicateServer, src.ref, entryField(src.field, s),
				"server %q skipped: %s of this ConfigMap has the same name; the first is kept", name, m.fieldOf(m.entries[m.stats[k].first])))
			continue
		}
		if m.strategy == StrategyVersions {
			// Versions of one name may share a ConfigMap; one version twice
			// may not.
			nv := nameVersion{name, s.Version()}
			if versions == nil {
				versions = make(map[nameVersion]int)
			}
			if at, dup := versions[nv]; dup {
				m.ds = append(m.ds, model.Warningf(model.ReasonDuplicateServer, src.ref, entryField(src.field, s),
					"server %q version %q skipped: %s of this ConfigMap has the same name and version; the first is kept", name, nv.version, m.fieldOf(m.entries[at])))
				continue
			}
			versions[nv] = len(m.entries)
		}
		if !seen {
			k = len(m.stats)
			m.names[name] = k
			m.stats = append(m.stats, nameStat{})
		}
		if !again {
			m.stats[k].count++
			m.stats[k].src, m.stats[k].first = idx, len(m.entries)
		}
		first := len(urls)
		for u := range s.RemoteURLs() {
			urls = append(urls, u)
		}
		slab = append(slab, entry{s: s, src: idx, pos: pos, orig: name, urls: urls[first:len(urls):len(urls)], stat: k})
		m.entries = append(m.entries, &slab[len(slab)-1])
	}
}

// fieldOf is the path of an entry in its ConfigMap, computed once and before
// any rename.
func (m *merger) fieldOf(e *entry) string {
	if e.field == "" {
		src := m.sources[e.src]
		e.field = entryField(src.field, e.s)
	}
	return e.field
}

// describe gives an entry without description the stand-in text, since the
// upstream schema requires one and hand-written ConfigMap catalogs often
// leave it out.
func (m *merger) describe(s *model.Server, src *source, pos int) {
	// Only a missing description or the empty string literal gets the
	// stand-in; nothing else is decoded.
	if raw, ok := s.Get(model.KeyDescription); ok && string(bytes.TrimSpace(raw)) != `""` {
		return
	}
	_, server := naming.Split(s.Name())
	text := model.ShortenDescription(fmt.Sprintf("%s from ConfigMap %s/%s", server, src.ref.Namespace, src.ref.Name))
	s.SetDescription(text)
	m.ds = append(m.ds, model.Infof(model.ReasonMissingDescription, src.ref, entryField(src.field, s)+"."+model.KeyDescription,
		"server %q has no description; wrote %q", s.Name(), text))
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

// joinCapped joins at most n items and says how many more there are, so that
// messages stay short on large merges.
func joinCapped(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// whyEmpty says why a merge kept no server, filtered of them removed by
// the filter.
func (m *merger) whyEmpty(filtered int) string {
	switch {
	case m.selected == 0:
		return "no ConfigMap selected"
	case filtered > 0:
		return fmt.Sprintf("the filter removed all %d", filtered)
	case len(m.entries) == 0:
		return fmt.Sprintf("the %d selected ConfigMaps hold no server that can be written", m.selected)
	}
	return fmt.Sprintf("all %d servers read were dropped", len(m.entries))
}

// summarize adds the PartialSyncFailure summary when a ConfigMap was skipped
// or lost entries.
func (m *merger) summarize() {
	var failed []string
	for _, s := range m.sources {
		switch {
		case s.failure != "":
			failed = append(failed, fmt.Sprintf("%s (%s)", s.ref.Name, s.failure))
		case s.skipped == 1:
			failed = append(failed, fmt.Sprintf("%s (1 entry skipped: %s)", s.ref.Name, s.skipText()))
		case s.skipped > 1:
			failed = append(failed, fmt.Sprintf("%s (%d entries skipped: %s)", s.ref.Name, s.skipped, s.skipText()))
		}
	}
	if len(failed) == 0 {
		return
	}
	slices.Sort(failed)
	m.ds = append(m.ds, model.Warningf(model.ReasonPartialSyncFailure, m.owner, m.ownerField(""),
		"%d of %d ConfigMaps could not be merged in full: %s", len(failed), len(m.sources), strings.Join(failed, ", ")))
}
