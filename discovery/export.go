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
	// sourceAnnotation, the HTTPRoute for sourceRoute.
	via model.ObjectRef
	// field is the field path in via (an annotation, or a route rule).
	field string
}

func (c candidateURL) compare(d candidateURL) int {
	return cmp.Or(
		cmp.Compare(c.url, d.url),
		cmp.Compare(c.source, d.source),
		compareRefs(c.via, d.via),
		cmp.Compare(c.field, d.field),
	)
}

// export is what one export method found for one MCP resource. Several
// exports of one resource (its annotations, several routes) are merged by
// mergeExports.
type export struct {
	res  *resource
	urls []candidateURL
	// annotated is true when the resource itself asks to be exported
	// (registry-export "true", or registry-url under Options.URLAloneExports).
	annotated bool
	// urlAnnotated is true when the resource has a registry-url annotation,
	// usable or not (an unusable one has been diagnosed already).
	urlAnnotated bool
}

// merged is the outcome for one resource: the URLs its entry gets.
type merged struct {
	res  *resource
	urls []candidateURL // sorted, one per URL
}

// mergeExports merges the exports of each resource (SPEC §6 Entries): a
// direct registry-url wins over URLs derived from routes, which are dropped
// with ConflictingExport unless equal to it; one candidate is kept per URL. A
// resource with no URL left is not exported; if it asked for export by
// annotation and has no registry-url at all, that is diagnosed. The result is
// sorted by resource.
func mergeExports(exports []export) ([]*merged, model.Diagnostics) {
	// Not a stable sort: what a resource's exports say is merged below
	// whatever their order, and a stable sort of tens of thousands of
	// exports costs more than the rest of the merge. Resources are ordered by
	// their place in the index, which is their compare order.
	slices.SortFunc(exports, func(a, b export) int {
		if a.res.order != b.res.order {
			return cmp.Compare(a.res.order, b.res.order)
		}
		return a.res.compare(b.res)
	})
	var out []*merged
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
		if len(group) == 1 && len(group[0].urls) > 0 && group[0].urls[0].source == sourceRoute {
			// One route alone (the common case of Method 2): its URLs, all
			// from routes, as they are.
			routed = group[0].urls
			group = nil
		}
		for _, e := range group {
			annotated = annotated || e.annotated
			urlAnnotated = urlAnnotated || e.urlAnnotated
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
						c.url, c.via, c.field, direct[0].url))
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
		out = append(out, &merged{res: res, urls: urls})
	}
	return out, ds
}
