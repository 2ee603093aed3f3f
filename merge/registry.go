package merge

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// ConfigMapEntry finds the entry of reg to merge: the one named entry, or,
// when entry is "", the only entry with a ConfigMap source. The entries are
// those of spec.registries or, for ToolHive's v1beta1 shape, the sources of
// spec.configYAML (see model.MCPRegistry.ConfigYAMLSources), in that order;
// the index is into that list. The error says why none fits, listing the
// candidates.
func ConfigMapEntry(reg *model.MCPRegistry, entry string) (int, error) {
	if reg == nil {
		return -1, errors.New("no MCPRegistry given (nil)")
	}
	return readEntries(reg).index(reg, entry)
}

// index is ConfigMapEntry over the entries es read of reg.
func (es *regEntries) index(reg *model.MCPRegistry, entry string) (int, error) {
	ref := model.Ref(model.KindMCPRegistry, &reg.ObjectMeta)
	entries := es.list
	one, what, list := "entry", "entries", "spec.registries"
	if reg.UsesConfigYAML() {
		one, what, list = "source", "sources", "spec.configYAML"
	}
	var candidates []string
	var at []int
	named := -1
	for i := range entries {
		c := entries[i].c
		if entry != "" && c.Name == entry {
			if named >= 0 {
				return -1, fmt.Errorf("%s has two %s named %q (%s and %s); names must be unique", ref, what, entry, entries[named].field, entries[i].field)
			}
			named = i
			continue
		}
		if c.HasConfigMapSource() {
			candidates = append(candidates, fmt.Sprintf("%q", c.Name))
			at = append(at, i)
		}
	}
	switch {
	case named >= 0:
		if !entries[named].c.HasConfigMapSource() {
			return -1, fmt.Errorf("%s: %s %q has no ConfigMap source", ref, one, entry)
		}
		return named, nil
	case entry != "":
		return -1, fmt.Errorf("%s has no %s %q (%s with a ConfigMap source: %s)", ref, one, entry, what, orNone(candidates))
	case len(at) == 1:
		return at[0], nil
	case len(at) == 0:
		return -1, fmt.Errorf("%s has no %s with a ConfigMap source in %s", ref, one, list)
	}
	return -1, fmt.Errorf("%s has %d %s with a ConfigMap source (%s); name one", ref, len(at), what, strings.Join(candidates, ", "))
}

// regEntry is an entry of an MCPRegistry as the merge reads it, and where
// it lies.
type regEntry struct {
	c     *model.MCPRegistryConfig
	field string
	// typ and unresolved are a configYAML source's type and why its file
	// is no ConfigMap key (see model.ConfigYAMLSource).
	typ, unresolved string
	yaml            bool
}

// regEntries are the entries of an MCPRegistry, read once for all that a
// merge asks of them (configYAML is parsed then).
type regEntries struct {
	owner model.ObjectRef
	list  []regEntry
	// ds is the NoConfigMapSource warning of a configYAML that does not
	// parse (list is then empty).
	ds model.Diagnostics
}

// readEntries reads the entries of reg: spec.registries, or, for the
// v1beta1 shape, the sources of spec.configYAML.
func readEntries(reg *model.MCPRegistry) *regEntries {
	es := &regEntries{owner: registryOwner(reg)}
	if !reg.UsesConfigYAML() {
		es.list = make([]regEntry, len(reg.Spec.Registries))
		for i := range reg.Spec.Registries {
			es.list[i] = regEntry{c: &reg.Spec.Registries[i], field: fmt.Sprintf("spec.registries[%d]", i)}
		}
		return es
	}
	srcs, err := reg.ConfigYAMLSources()
	if err != nil {
		es.ds = model.Diagnostics{model.Warningf(model.ReasonNoConfigMapSource, es.owner, "spec.configYAML",
			"%s; nothing is merged for the MCPRegistry", model.Text(err.Error()))}
		return es
	}
	es.list = make([]regEntry, len(srcs))
	for i := range srcs {
		es.list[i] = regEntry{c: &srcs[i].Config, field: srcs[i].Field, typ: srcs[i].Type, unresolved: srcs[i].Unresolved, yaml: true}
	}
	return es
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// SourcesFor is the MCPRegistry adapter: the merge sources of its entries
// that read ConfigMaps (configMapRef or configMapSelector), in entry order,
// and diagnostics about the others. Each Source carries the MCPRegistry as
// Owner (with its apiVersion, DefaultAPIVersion when the snapshot has none,
// and its UID), the entry's name and field path, its key, format, filter and
// sync interval; the conflict strategy is left to Options.
//
// Entries whose source is a git repository, a registry API or a
// PersistentVolumeClaim are valid but read by ToolHive's registry server
// itself: each gets an Info SourceNotMergeable naming the entry and its
// source type. An entry with no source or several is a SourceNotMergeable
// warning (ValidateMCPRegistry rejects it), and a configMapRef without a
// name an InvalidSelector error; neither becomes a Source. An MCPRegistry of
// the v1beta1 shape (spec.configYAML; see model.MCPRegistry.UsesConfigYAML)
// gives a Source for each configYAML file source that is a file of a
// ConfigMap mounted through spec.volumes and spec.volumeMounts (see
// model.MCPRegistry.ConfigYAMLSources); one with no such source, or an
// MCPRegistry without registries, gives no sources and a NoConfigMapSource
// warning, so that it is never silently empty. The diagnostics are sorted.
func SourcesFor(reg *model.MCPRegistry) ([]Source, model.Diagnostics) {
	if reg == nil {
		return nil, nil
	}
	return readEntries(reg).sources(reg)
}

// sources is SourcesFor over the entries es read of reg.
func (es *regEntries) sources(reg *model.MCPRegistry) ([]Source, model.Diagnostics) {
	owner, entries, ds := es.owner, es.list, slices.Clone(es.ds)
	switch {
	case len(ds) > 0:
		return nil, ds
	case reg.UsesConfigYAML() && !anyConfigMapSource(entries):
		apiVersion := reg.APIVersion
		if apiVersion == "" {
			apiVersion = "an unstated apiVersion"
		}
		for _, e := range entries {
			_, eds, _ := entrySource(reg, owner, e)
			ds = append(ds, eds...)
		}
		ds = append(ds, model.Warningf(model.ReasonNoConfigMapSource, owner, "spec.configYAML",
			"MCPRegistry of %s holds the registry server's own configuration (spec.configYAML), and none of its sources is a file of a ConfigMap mounted through spec.volumes and spec.volumeMounts; nothing is merged for it", apiVersion))
		ds.Sort()
		return nil, ds
	case len(entries) == 0:
		ds = append(ds, model.Warningf(model.ReasonNoConfigMapSource, owner, "spec.registries",
			"MCPRegistry has no registries and names no ConfigMap source; nothing is merged for it"))
		return nil, ds
	}
	var out []Source
	for _, e := range entries {
		src, eds, ok := entrySource(reg, owner, e)
		ds = append(ds, eds...)
		if ok {
			out = append(out, src)
		}
	}
	ds.Sort()
	return out, ds
}

func anyConfigMapSource(entries []regEntry) bool {
	for _, e := range entries {
		if e.c.HasConfigMapSource() {
			return true
		}
	}
	return false
}

// noConfigMapSource is what ForRegistry reports when reg, or its entry
// named entry, names no ConfigMap source: SourcesFor's diagnostics of the
// object or of that entry, as Errors. nil when that is not why
// ConfigMapEntry found no entry to merge.
func noConfigMapSource(reg *model.MCPRegistry, es *regEntries, entry string) model.Diagnostics {
	owner, entries := es.owner, es.list
	var ds model.Diagnostics
	switch {
	case len(es.ds) > 0 || len(entries) == 0 || !anyConfigMapSource(entries) && reg.UsesConfigYAML():
		_, ds = es.sources(reg)
	case entry != "":
		n, at := 0, -1
		for i := range entries {
			if entries[i].c.Name == entry {
				n, at = n+1, i
			}
		}
		if n != 1 || entries[at].c.HasConfigMapSource() {
			return nil
		}
		_, ds, _ = entrySource(reg, owner, entries[at])
	default:
		if anyConfigMapSource(entries) {
			return nil
		}
		_, ds = es.sources(reg)
		ds = append(ds, model.Errorf(model.ReasonNoConfigMapSource, owner, "spec.registries",
			"no entry of the MCPRegistry has a ConfigMap source (configMapRef or configMapSelector); nothing to merge"))
	}
	for k := range ds {
		ds[k].Severity = model.SeverityError
	}
	ds.Sort()
	return ds
}

// registryOwner is the ObjectRef of an MCPRegistry as a merge owner.
func registryOwner(reg *model.MCPRegistry) model.ObjectRef {
	apiVersion := reg.APIVersion
	if apiVersion == "" {
		apiVersion = DefaultAPIVersion
	}
	return model.FullRef(apiVersion, model.KindMCPRegistry, &reg.ObjectMeta)
}

// maxEntryName bounds an entry name echoed in a diagnostic.
const maxEntryName = 253

// entrySource is the Source of entry i of reg, with the diagnostics of
// SourcesFor about it; ok is false when the entry gives no Source.
func entrySource(reg *model.MCPRegistry, owner model.ObjectRef, e regEntry) (Source, model.Diagnostics, bool) {
	c, field := e.c, e.field
	name := quoteCapped(c.Name, maxEntryName)
	noun := "entry"
	if e.yaml {
		noun = "source"
	}
	types := c.SourceTypes()
	if e.yaml && !c.HasConfigMapSource() {
		// A source of the registry server's configuration the library
		// cannot read: ToolHive's registry server reads it itself.
		switch e.typ {
		case "":
			return Source{}, model.Diagnostics{model.Warningf(model.ReasonSourceNotMergeable, owner, field,
				"source %s sets no data source (file, git, api, managed or kubernetes); nothing to merge", name)}, false
		case "file":
			return Source{}, model.Diagnostics{model.Infof(model.ReasonSourceNotMergeable, owner, field+".file",
				"source %s reads a file that is no ConfigMap key: %s; ToolHive's registry server reads it itself, not mergeable here", name, model.Text(e.unresolved))}, false
		case "managed", "kubernetes":
			return Source{}, model.Diagnostics{model.Infof(model.ReasonSourceNotMergeable, owner, field+"."+e.typ,
				"source %s is a %s source, which ToolHive's registry server keeps itself; not mergeable here", name, e.typ)}, false
		}
	}
	switch {
	case len(types) == 0:
		return Source{}, model.Diagnostics{model.Warningf(model.ReasonSourceNotMergeable, owner, field,
			"entry %s sets no source (configMapRef, configMapSelector, git, api or pvcRef); nothing to merge", name)}, false
	case len(types) > 1:
		return Source{}, model.Diagnostics{model.Warningf(model.ReasonSourceNotMergeable, owner, field,
			"entry %s sets %s; exactly one source is allowed, so it is not merged", name, strings.Join(types, ", "))}, false
	case !c.HasConfigMapSource():
		return Source{}, model.Diagnostics{model.Infof(model.ReasonSourceNotMergeable, owner, field+"."+types[0],
			"%s %s reads from %s, which ToolHive's registry server fetches itself; not mergeable here", noun, name, sourceTypeName(types[0]))}, false
	}
	src := Source{
		Owner:     owner,
		Entry:     c.Name,
		Field:     field,
		Namespace: reg.Namespace,
		Filter:    c.Filter,
	}
	if f, err := model.ParseFormat(c.Format); err == nil {
		src.Format = f
	} else {
		src.Format = model.Format(c.Format) // Merge reports it as UnknownFormat
	}
	if c.SyncPolicy != nil {
		src.Interval = c.SyncPolicy.Interval
	}
	if c.ConfigMapSelector != nil {
		src.Selector = c.ConfigMapSelector.LabelSelector()
		src.Key = c.ConfigMapSelector.Key
	} else {
		src.Name = c.ConfigMapRef.Name
		src.Key = c.ConfigMapRef.Key
		if src.Name == "" {
			return Source{}, model.Diagnostics{model.Errorf(model.ReasonInvalidSelector, owner, field+".configMapRef.name",
				"entry %s: configMapRef has no name", name)}, false
		}
	}
	return src, nil, true
}

// sourceTypeName says what a source field reads, for messages.
func sourceTypeName(t string) string {
	switch t {
	case model.SourceGit:
		return "a git repository (git)"
	case model.SourceAPI:
		return "a registry API (api)"
	case model.SourcePVCRef:
		return "a PersistentVolumeClaim (pvcRef)"
	}
	return t
}

// quoteCapped quotes s for a message, cut to at most n bytes (on a rune
// boundary) with an ellipsis, so that a hostile value stays short.
func quoteCapped(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// ForRegistry merges the ConfigMaps an MCPRegistry entry selects (or names)
// from the snapshot configMaps: SourcesFor's Source of that entry, merged
// with Merge. When the MCPRegistry has a UID (it was read from the API
// server), it also renders the output ConfigMap (OutputConfigMap), holding
// the document as compact JSON and a newline: the reader of the file is
// ToolHive's registry server, and compact JSON of registry entries takes
// about 40% fewer bytes than indented, which matters under the 1 MiB a
// ConfigMap holds. Without a UID no ownerReference the API server accepts
// can be written, so Result.ConfigMap stays nil; a document the ConfigMap
// could not hold is an OutputTooLarge Error all the same, naming the
// ConfigMap it would be.
//
// entry may be "" when exactly one entry has a ConfigMap source. The error is
// for an entry that cannot be found (no entry of that name, two of it,
// several candidates for "") and for an Options.GeneratedBy that is not a
// valid label value; everything about the objects is a diagnostic on the
// MCPRegistry or a ConfigMap. Without a result, and with an Error: an
// MCPRegistry that names no ConfigMap source (a v1beta1 configYAML none of
// whose sources is a mounted ConfigMap file, no registries, or only git,
// api and pvcRef entries: NoConfigMapSource, with
// SourceNotMergeable for each entry), an entry asked for that has none
// (SourceNotMergeable), and an entry that sets a ConfigMap source and
// another, which the API server's validation refuses (SourceNotMergeable).
// What SourcesFor says of the other entries comes with the result, at most
// as a Warning: a broken entry stops its own merge, not another's.
func ForRegistry(reg *model.MCPRegistry, entry string, configMaps []*corev1.ConfigMap, opts Options) (Result, error) {
	if err := checkGeneratedBy(opts); err != nil {
		return Result{}, err
	}
	if reg == nil {
		return Result{}, errors.New("no MCPRegistry given (nil)")
	}
	es := readEntries(reg)
	i, err := es.index(reg, entry)
	if err != nil {
		// An MCPRegistry, or the entry asked for, that names no ConfigMap
		// source is a fact about the object, diagnosed as SourcesFor does,
		// and an Error: there is no result. An entry that cannot be found
		// is the caller's to fix: the error.
		if ds := noConfigMapSource(reg, es, entry); len(ds) > 0 {
			return Result{Diagnostics: ds}, nil
		}
		return Result{}, err
	}
	owner := es.owner
	src, ds, ok := entrySource(reg, owner, es.list[i])
	if !ok {
		// The entry asked for cannot be merged (it sets several sources, as
		// the API server's validation refuses): there is no result, which
		// is an Error, though SourcesFor, listing every entry, warns and
		// goes on with the others.
		for k := range ds {
			ds[k].Severity = model.SeverityError
		}
		return Result{Diagnostics: ds}, nil
	}
	res := Merge(src, configMaps, opts)
	// What SourcesFor says of the other entries (not mergeable here) is
	// about the same MCPRegistry: report it with the merge. The entry merged
	// gave a Source, so SourcesFor says nothing of it, and a broken other
	// entry (a configMapRef without a name, an Error in SourcesFor, which
	// the API server stores as name "") stops only its own merge: here it is
	// a Warning, as an entry with several sources or none already is.
	_, all := es.sources(reg)
	if len(all) > 0 {
		for k := range all {
			if all[k].Severity == model.SeverityError {
				all[k].Severity = model.SeverityWarning
			}
		}
		res.Diagnostics = append(res.Diagnostics, all...)
		res.Diagnostics.Sort()
	}
	if res.Registry != nil {
		var ds model.Diagnostics
		if reg.UID != "" {
			cm, cds, err := res.Render(src, opts)
			if err == nil {
				res.ConfigMap, ds = cm, cds
			}
		} else {
			// No ConfigMap without a UID, but the document is the same: one
			// the API server could not store is as much an Error for a
			// caller holding the object without its UID (a manifest on
			// disk, as the CLI reads) as for the operator.
			meta := metav1.ObjectMeta{Namespace: src.Namespace, Name: OutputConfigMapName(owner.Name, src.Entry)}
			ds = tooLarge(&meta, res.Registry.CompactLen()+1, opts.MaxOutputBytes)
		}
		if len(ds) > 0 {
			res.Diagnostics = append(res.Diagnostics, ds...)
			res.Diagnostics.Sort()
		}
	}
	return res, nil
}
