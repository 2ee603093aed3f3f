package discovery

import (
	"cmp"
	"slices"

	"github.com/mcpreg/mcpreg/model"
)

// urlSource says where a candidate URL came from.
type urlSource int

const (
	// sourceAnnotation: the resource's own registry-url annotation (Method 1).
	sourceAnnotation urlSource = iota
	// sourceRoute: built from an annotated HTTPRoute and its Gateway (Method 2).
	sourceRoute
)

// candidateURL is one URL an export method found for a resource.
type candidateURL struct {
	url    string
	source urlSource
	// via is the object the URL was read from: the resource itself for
	// sourceAnnotation, the HTTPRoute for sourceRoute. It points to one
	// copy shared by the candidates of the object (a reference is large,
	// and candidates are copied from stage to stage); never nil.
	via *model.ObjectRef
	// field is the field path in via (an annotation, or a route rule).
	field string
}

func (c candidateURL) compare(d candidateURL) int {
	return cmp.Or(
		cmp.Compare(c.url, d.url),
		cmp.Compare(c.source, d.source),
		compareRefs(*c.via, *d.via),
		cmp.Compare(c.field, d.field),
	)
}

// export is what one export method found for one MCP resource. Several
// exports of one resource (its annotations, several routes) are merged by
// mergeExports.
type export struct {
	res  *resource
	urls []candidateURL
	// one, when hasOne is set, holds the export's only URL (urls is then
	// empty): most exports have one, and holding it here saves allocating
	// urls and, at scale, a cache miss per resource when merging. It is an
	// array so that candidates can return it as a slice without a copy.
	one    [1]candidateURL
	hasOne bool
	// annotated is true when the resource itself asks to be exported
	// (registry-export "true", or registry-url under Options.URLAloneExports).
	annotated bool
	// urlAnnotated is true when the resource has a registry-url annotation,
	// usable or not (an unusable one has been diagnosed already).
	urlAnnotated bool
}

// add adds a candidate URL to the export.
func (e *export) add(c candidateURL) {
	switch {
	case e.hasOne:
		e.urls = []candidateURL{e.one[0], c}
		e.one[0], e.hasOne = candidateURL{}, false
	case len(e.urls) == 0:
		e.one[0], e.hasOne = c, true
	default:
		e.urls = append(e.urls, c)
	}
}

// candidates returns the export's URLs; when the export holds one, the
// slice is e.one, capped (see add): the merged value of a resource with a
// single route shares it, which the export list, dropped once merged,
// allows.
func (e *export) candidates() []candidateURL {
	if !e.hasOne {
		return e.urls
	}
	return e.one[:1:1]
}

// merged is the outcome for one resource: the URLs its entry gets.
type merged struct {
	res  *resource
	urls []candidateURL // sorted, one per URL
}

// mergeExports merges the exports of each resource: a
// direct registry-url wins over URLs derived from routes, which are dropped
// with ConflictingExport unless equal to it; one candidate is kept per URL. A
// resource with no URL left is not exported; if it asked for export by
// annotation and has no registry-url at all, that is diagnosed. The result is
// in index order (see groupExports); lists are the exports of each method.
func mergeExports(lists ...[]export) ([]*merged, model.Diagnostics) {
	exports := groupExports(lists...)
	// The merged values live in one slab whose capacity (one per export) is
	// never exceeded; out has room for one per export too.
	slab := make([]merged, 0, len(exports))
	out := make([]*merged, 0, len(exports))
	var ds model.Diagnostics
	for i := 0; i < len(exports); {
		j := i + 1
		for j < len(exports) && exports[j].res == exports[i].res {
			j++
		}
		group := exports[i:j]
		i = j
		res := group[0].res
		var direct, routed []candidateURL
		annotated, urlAnnotated := false, false
		if e := group[0]; len(group) == 1 && (e.hasOne && e.one[0].source == sourceRoute || len(e.urls) > 0 && e.urls[0].source == sourceRoute) {
			// One route alone (the common case of Method 2): its URLs, all
			// from routes, as they are.
			routed = e.candidates()
			group = nil
		}
		for _, e := range group {
			annotated = annotated || e.annotated
			urlAnnotated = urlAnnotated || e.urlAnnotated
			if e.hasOne {
				if e.one[0].source == sourceAnnotation {
					direct = append(direct, e.one[0])
				} else {
					routed = append(routed, e.one[0])
				}
				continue
			}
			for _, c := range e.urls {
				if c.source == sourceAnnotation {
					direct = append(direct, c)
				} else {
					routed = append(routed, c)
				}
			}
		}
		urls := direct
		if len(direct) > 0 {
			slices.SortFunc(routed, candidateURL.compare)
			for _, c := range routed {
				if !slices.ContainsFunc(direct, func(d candidateURL) bool { return d.url == c.url }) {
					ds = append(ds, model.Warningf(model.ReasonConflictingExport, res.ref, direct[0].field,
						"URL %q from %s %s dropped: the registry-url annotation %q takes precedence",
						c.url, *c.via, c.field, direct[0].url))
				}
			}
		} else {
			urls = routed
		}
		slices.SortFunc(urls, candidateURL.compare)
		urls = slices.CompactFunc(urls, func(a, b candidateURL) bool { return a.url == b.url })
		if len(urls) == 0 {
			if annotated && !urlAnnotated {
				ds = append(ds, model.Warningf(model.ReasonInvalidAnnotationValue, res.ref, annotationField(AnnotationURL),
					"%s is \"true\" but there is no %s annotation and no exported HTTPRoute reaches the resource; not exported",
					AnnotationExport, AnnotationURL))
			}
			continue
		}
		slab = append(slab, merged{res: res, urls: urls})
		out = append(out, &slab[len(slab)-1])
	}
	return out, ds
}

// groupExports returns the exports of lists grouped by resource, in the
// order of the index (resource.order; by compare for resources of equal
// order). Exports of one resource keep their order in the input, which
// nothing depends on: what a resource's exports say is merged whatever their
// order. It returns pointers into lists, which it does not change: moving
// the exports themselves, 88 bytes each, costs more than the look through
// a pointer it saves.
//
// It is a counting sort on the order, linear in the exports and resources:
// a comparison sort of a hundred thousand exports costs several times more.
// When two resources share an order (resources made outside an index, as in
// tests) or an order is negative, it sorts by comparison instead.
func groupExports(lists ...[]export) []*export {
	n, maxOrder, negative := 0, -1, false
	for _, l := range lists {
		n += len(l)
		for k := range l {
			o := l[k].res.order
			maxOrder = max(maxOrder, o)
			negative = negative || o < 0
		}
	}
	byCompare := func() []*export {
		out := make([]*export, 0, n)
		for _, l := range lists {
			for k := range l {
				out = append(out, &l[k])
			}
		}
		slices.SortStableFunc(out, func(a, b *export) int {
			if a.res.order != b.res.order {
				return cmp.Compare(a.res.order, b.res.order)
			}
			return a.res.compare(b.res)
		})
		return out
	}
	if negative {
		return byCompare()
	}
	start := make([]int32, maxOrder+2)
	for _, l := range lists {
		for k := range l {
			start[l[k].res.order+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	sorted := make([]*export, n)
	for _, l := range lists {
		for k := range l {
			o := l[k].res.order
			sorted[start[o]] = &l[k]
			start[o]++
		}
	}
	for i := 1; i < n; i++ {
		if sorted[i].res.order == sorted[i-1].res.order && sorted[i].res != sorted[i-1].res {
			return byCompare()
		}
	}
	return sorted
}
