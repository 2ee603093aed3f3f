package discovery

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math/bits"
	"reflect"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/model"
)

// resource is one MCP resource (MCPServer, MCPRemoteProxy,
// VirtualMCPServer or MCPServerEntry) seen through what discovery needs of
// it.
type resource struct {
	ref  model.ObjectRef
	uid  types.UID
	meta *metav1.ObjectMeta
	// remoteType is the remotes[].type clients use to reach it; typeFrom
	// the spec field it comes from (see typeField).
	remoteType string
	// image is an MCPServer's spec.image; remoteURL an MCPRemoteProxy's
	// spec.remoteURL. They are only used to find a source-registry entry.
	image     string
	remoteURL string
	obj       any
	// order is the resource's position in resourceIndex.all: a small
	// number that names it, to group what concerns one resource.
	order int

	// The values of the annotations discovery reads, taken from the object
	// once by indexResources (readAnnotations): the later stages read them
	// here rather than look into the object's map again, a cache miss or
	// more each at scale. annHas says which are present (has* bits);
	// annExport is registry-export's value and anns those of the others
	// present, in the order of their bits. A resource mostly has one or
	// two of them: a field for each would add 88 bytes to every resource,
	// held all through discovery, megabytes the collector marks at scale.
	annExport string
	anns      []string
	annHas    uint8
	// typeFrom is the field remoteType comes from (see typeField).
	typeFrom typeSource
	// selected is false for resources the label selector does not match:
	// they exist (Method 2 must not call their Services ownerless) but are
	// never exported. Options.Namespaces does not clear it: resources of
	// every namespace take part in settling names and URLs, and the result
	// is restricted to the chosen namespaces afterwards (see restrict).
	selected bool
	// dup is set on a copy of a resource the index does not hold (see
	// indexResources); slabAt is the resource's position in the index's
	// slab.
	dup    bool
	slabAt int32
}

// typeSource is the spec field a resource's remote type comes from.
type typeSource uint8

const (
	typeFromNone typeSource = iota
	typeFromTransport
	typeFromProxyMode
)

// typeField is the spec field path remoteType comes from, for diagnostics
// ("" when unknown).
func (r *resource) typeField() string {
	switch r.typeFrom {
	case typeFromTransport:
		return "spec.transport"
	case typeFromProxyMode:
		return "spec.proxyMode"
	}
	return ""
}

// Bits of resource.annHas.
const (
	hasExport uint8 = 1 << iota
	hasURL
	hasDescription
	hasTitle
	hasVersion
	hasTier
	hasName
)

// numAnnotationBits is the number of has* bits.
const numAnnotationBits = 7

// readAnnotations records the annotations discovery reads, looking at each
// annotation once rather than looking each of them up. The values other
// than registry-export's are appended to *slab, from which r.anns is carved
// (capped, so that nothing appended later reaches into it); nil slab
// allocates them on their own.
func (r *resource) readAnnotations(ann map[string]string, slab *stringSlab) {
	var vals [numAnnotationBits]string
	for k, v := range ann {
		name, ok := strings.CutPrefix(k, AnnotationPrefix)
		if !ok {
			continue
		}
		var bit uint8
		switch name {
		case "registry-export":
			r.annExport, r.annHas = v, r.annHas|hasExport
			continue
		case "registry-url":
			bit = hasURL
		case "registry-description":
			bit = hasDescription
		case "registry-title":
			bit = hasTitle
		case "registry-version":
			bit = hasVersion
		case "registry-tier":
			bit = hasTier
		case "registry-name":
			bit = hasName
		default:
			continue
		}
		vals[bits.TrailingZeros8(bit)] = v
		r.annHas |= bit
	}
	n := bits.OnesCount8(r.annHas &^ hasExport)
	if n == 0 {
		return
	}
	var out []string
	if slab != nil {
		out = slab.take(n)
	} else {
		out = make([]string, n)
	}
	j := 0
	for i := range vals {
		if bit := uint8(1) << i; bit != hasExport && r.annHas&bit != 0 {
			out[j] = vals[i]
			j++
		}
	}
	r.anns = out
}

// annotation returns the value of the annotation key, one of those
// readAnnotations records, and whether it is present.
func (r *resource) annotation(key string) (string, bool) {
	var bit uint8
	switch key {
	case AnnotationExport:
		return r.annExport, r.annHas&hasExport != 0
	case AnnotationURL:
		bit = hasURL
	case AnnotationDescription:
		bit = hasDescription
	case AnnotationTitle:
		bit = hasTitle
	case AnnotationVersion:
		bit = hasVersion
	case AnnotationTier:
		bit = hasTier
	case AnnotationName:
		bit = hasName
	}
	if r.annHas&bit == 0 {
		return "", false
	}
	return r.anns[bits.OnesCount8(r.annHas&(bit-1)&^hasExport)], true
}

// stringSlab hands out string slices carved from chunks shared by many: one
// allocation per chunk instead of one per slice. A chunk holds
// stringSlabChunk strings (more for a larger request), so that a caller
// keeping one slice keeps little else.
type stringSlab struct {
	free []string
}

const stringSlabChunk = 1024

// take returns a zeroed slice of n strings, capped at n.
func (s *stringSlab) take(n int) []string {
	if len(s.free) < n {
		s.free = make([]string, max(n, stringSlabChunk))
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// kindRank orders kinds in diagnostics-independent work: when two resources
// compete (a name, a URL), an MCPServer goes before an MCPRemoteProxy before a
// VirtualMCPServer.
func kindRank(kind string) int {
	switch kind {
	case model.KindMCPServer:
		return 0
	case model.KindMCPRemoteProxy:
		return 1
	case model.KindVirtualMCPServer:
		return 2
	case model.KindMCPServerEntry:
		return 3
	}
	return 4
}

// compare orders resources by kind rank, namespace, name and UID.
func (r *resource) compare(o *resource) int {
	return cmp.Or(
		cmp.Compare(kindRank(r.ref.Kind), kindRank(o.ref.Kind)),
		cmp.Compare(r.ref.Namespace, o.ref.Namespace),
		cmp.Compare(r.ref.Name, o.ref.Name),
		cmp.Compare(r.uid, o.uid),
	)
}

// resourceIndex holds every MCP resource of a snapshot once, in snapshot
// order.
type resourceIndex struct {
	all []*resource
	// slab holds the resources in snapshot order, duplicates (dup) too.
	slab []resource
	// table finds resources in all by kind, namespace and name, built when
	// lookup first needs it (see keyTable: cheaper at scale than a map keyed
	// by object reference, and not built at all when every look-up finds
	// the resource it tries first).
	table *keyTable
	// next[k] is the slab position after the last resource of kind rank k
	// that lookup found.
	next [3]int
}

// lookup finds the resource of that kind, namespace and name; when uid is set
// it must match too (a Service owned by a deleted and recreated resource of
// the same name must not be attributed to the new one). It returns nil when there is none.
//
// Look-ups tend to come in the order of the snapshot (a Service per
// resource, listed in the same order), so the resource of that kind after
// the last one found is tried first: when it is the one, the look-up costs
// a comparison instead of a probe of the table at a random place.
func (ix *resourceIndex) lookup(kind, namespace, name string, uid types.UID) *resource {
	var r *resource
	k := kindRank(kind)
	if k < len(ix.next) {
		if c := ix.next[k]; c < len(ix.slab) {
			if o := &ix.slab[c]; !o.dup && o.ref.Name == name && o.ref.Namespace == namespace && o.ref.Kind == kind {
				r = o
			}
		}
	}
	if r == nil {
		if ix.table == nil {
			ix.buildTable()
		}
		at := ix.table.find(ix.table.Hash(kind, namespace, name), func(i int) bool {
			ref := &ix.all[i].ref
			return ref.Name == name && ref.Namespace == namespace && ref.Kind == kind
		})
		if at < 0 {
			return nil
		}
		r = ix.all[at]
	}
	if k < len(ix.next) {
		ix.next[k] = int(r.slabAt) + 1
	}
	if uid != "" && r.uid != "" && r.uid != uid {
		return nil
	}
	return r
}

// indexResources collects the MCP resources of snap. An object listed twice
// (the same kind, namespace and name) is kept once: identical copies silently,
// differing ones with a DuplicateName warning, keeping the newest (higher
// generation, then resourceVersion) and, among copies of one age, the first
// in a fixed order (UID, then content), so the choice does not depend on
// input order.
func indexResources(snap *Snapshot, cfg *config) (*resourceIndex, model.Diagnostics) {
	// The resources live in one slab (its capacity is never exceeded, so the
	// pointers into it stay valid): one allocation instead of one each.
	slab := make([]resource, 0, len(snap.MCPServers)+len(snap.MCPRemoteProxies)+len(snap.VirtualMCPServers)+len(snap.MCPServerEntries))
	var anns stringSlab
	add := func(kind string, meta *metav1.ObjectMeta, remoteType string, obj any) *resource {
		// Written in place, field by field: the slab is zeroed, and copying a
		// whole resource in costs a bulk write barrier while the collector
		// runs.
		slab = slab[:len(slab)+1]
		r := &slab[len(slab)-1]
		r.ref.Kind, r.ref.Namespace, r.ref.Name = kind, meta.Namespace, meta.Name // model.Ref, field by field
		r.uid, r.meta, r.remoteType, r.obj = meta.UID, meta, remoteType, obj
		r.slabAt = int32(len(slab) - 1)
		r.readAnnotations(meta.Annotations, &anns)
		r.selected = cfg.selector.Matches(labels.Set(meta.Labels))
		return r
	}
	for _, s := range snap.MCPServers {
		if s != nil {
			r := add(model.KindMCPServer, &s.ObjectMeta, s.RemoteType(), s)
			r.image = s.Spec.Image
			r.typeFrom = typeFromTransport
			if s.EffectiveTransport() == model.TransportStdio {
				r.typeFrom = typeFromProxyMode
			}
		}
	}
	for _, p := range snap.MCPRemoteProxies {
		if p != nil {
			r := add(model.KindMCPRemoteProxy, &p.ObjectMeta, p.RemoteType(), p)
			r.remoteURL = p.Spec.RemoteURL
			r.typeFrom = typeFromTransport
		}
	}
	for _, v := range snap.VirtualMCPServers {
		if v != nil {
			add(model.KindVirtualMCPServer, &v.ObjectMeta, v.RemoteType(), v)
		}
	}
	for _, e := range snap.MCPServerEntries {
		if e != nil {
			r := add(model.KindMCPServerEntry, &e.ObjectMeta, e.RemoteType(), e)
			r.remoteURL = e.Spec.RemoteURL
			r.typeFrom = typeFromTransport
		}
	}
	internNames(slab)
	// Copies of one object (the same kind, namespace and name): the newest
	// (compareAge), then the first by compare, then by content
	// (compareCopies), is used; the others are set aside (dup).
	kh := dedupe.NewHasher()
	groups := dedupe.Groups(len(slab), func(i int) uint64 {
		ref := &slab[i].ref
		return kh.Hash(ref.Kind, ref.Namespace, ref.Name)
	}, func(i, j int) bool { return slab[i].ref == slab[j].ref })
	var ds model.Diagnostics
	for _, g := range groups {
		first := &slab[g[0]]
		for _, i := range g[1:] {
			if r := &slab[i]; cmp.Or(compareAge(r, first), r.compare(first), compareCopies(r, first)) < 0 {
				first = r
			}
		}
		for _, i := range g {
			r := &slab[i]
			if r == first {
				continue
			}
			r.dup = true
			// Resources the selector leaves out are not discovery's
			// business: their duplicates are not reported either.
			if !(first.selected || r.selected) || sameContent(first.obj, r.obj) {
				continue
			}
			if compareAge(first, r) != 0 {
				ds = append(ds, model.Warningf(model.ReasonDuplicateName, r.ref, "",
					"%s appears more than once in the snapshot with different content; the newer copy (%s) is used, the older (%s) ignored",
					r.ref, model.Text(ageOf(first.meta)), model.Text(ageOf(r.meta))))
				continue
			}
			ds = append(ds, model.Warningf(model.ReasonDuplicateName, r.ref, "",
				"%s appears more than once in the snapshot with different content; one copy is used (uid %q), the other ignored",
				r.ref, first.uid))
		}
	}
	// The resources are not sorted: in the common case nothing discovery
	// decides depends on their order (see sortDrafts), and a sort of a
	// hundred thousand of them would read them at random many times over.
	ix := &resourceIndex{
		all:  make([]*resource, 0, len(slab)),
		slab: slab,
	}
	for i := range slab {
		r := &slab[i]
		if r.dup {
			continue
		}
		r.order = len(ix.all)
		ix.all = append(ix.all, r)
	}
	return ix, ds
}

// buildTable indexes the resources by kind, namespace and name.
func (ix *resourceIndex) buildTable() {
	ix.table = newKeyTable(len(ix.all))
	for i, r := range ix.all {
		ix.table.add(ix.table.Hash(r.ref.Kind, r.ref.Namespace, r.ref.Name), i)
	}
}

// compareAge orders two copies of one object newest first: the higher
// metadata.generation, then the higher resourceVersion, as dedupe.Newer
// reads them (and so as copies of Services, Gateways and routes are
// settled). Concatenated manifests of an older and a newer state of a
// resource must give the newer state's entry and group membership whatever
// their order; copies that agree on both are left to compare and
// compareCopies.
func compareAge(a, b *resource) int {
	return dedupe.CompareAge(b.meta, a.meta)
}

// encode is the JSON of a snapshot object, used only to order and compare
// copies of one object; the snapshot types always encode.
// compareCopies orders two copies of one object with different content.
// Annotations and labels are compared by the first key (in byte order) on
// which the two copies differ, where the copy that has the key, or the
// smaller value, comes first; then the whole objects by their JSON, where
// the maps, equal by then, encode alike. Metadata added to every copy alike
// therefore never changes which copy is used: a comparison of the encodings
// alone would, since an added key can sort between the keys where the
// copies differ.
func compareCopies(a, b *resource) int {
	return cmp.Or(
		compareMaps(a.meta.Annotations, b.meta.Annotations),
		compareMaps(a.meta.Labels, b.meta.Labels),
		bytes.Compare(encode(a.obj), encode(b.obj)),
	)
}

// compareMaps orders two maps by the first key, in byte order, that only
// one of them has or that they map to different values. It reads each map
// once and sorts their keys: both are bounded by the object's size.
func compareMaps(a, b map[string]string) int {
	var first string
	found := false
	consider := func(k string) {
		if !found || k < first {
			first, found = k, true
		}
	}
	for k, va := range a {
		if vb, ok := b[k]; !ok || va != vb {
			consider(k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			consider(k)
		}
	}
	if !found {
		return 0
	}
	va, inA := a[first]
	vb, inB := b[first]
	switch {
	case inA && !inB:
		return -1
	case inB && !inA:
		return 1
	}
	return strings.Compare(va, vb)
}

// sameContent reports whether two copies of one object say the same, whatever
// apiVersion each was read as: ToolHive serves its kinds in two versions of
// one schema, so a dump may list an object once in each (see
// docs/compatibility.md). Only copies are compared, a rare case.
func sameContent(a, b any) bool {
	ea, eb := encode(a), encode(b)
	if bytes.Equal(ea, eb) {
		return true
	}
	var ma, mb map[string]any
	if json.Unmarshal(ea, &ma) != nil || json.Unmarshal(eb, &mb) != nil {
		return false
	}
	delete(ma, "apiVersion")
	delete(mb, "apiVersion")
	return reflect.DeepEqual(ma, mb)
}

func encode(obj any) []byte {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	return b
}

// internNames copies the namespaces and names of the resources into one
// string and points their refs at it. The strings are equal, so nothing
// changes but where they live: hashing, comparing and naming a hundred
// thousand resources then reads a few contiguous megabytes instead of
// strings strewn over the snapshot, a cache miss each.
func internNames(rs []resource) {
	n := 0
	for i := range rs {
		n += len(rs[i].ref.Namespace) + len(rs[i].ref.Name)
	}
	var b strings.Builder
	b.Grow(n)
	for i := range rs {
		b.WriteString(rs[i].ref.Namespace)
		b.WriteString(rs[i].ref.Name)
	}
	all := b.String()
	for i := range rs {
		r := &rs[i].ref
		ns, name := len(r.Namespace), len(r.Name)
		r.Namespace, r.Name = all[:ns], all[ns:ns+name]
		all = all[ns+name:]
	}
}

// ageOf says what tells a copy's age, for a message: its generation and,
// when it has one, its resourceVersion.
func ageOf(m *metav1.ObjectMeta) string {
	if m.ResourceVersion == "" {
		return "generation " + strconv.FormatInt(m.Generation, 10)
	}
	return string(model.Sprintf("generation %d, resourceVersion %q", m.Generation, m.ResourceVersion))
}
