package discovery

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/internal/urlbuild"
	"github.com/mcpreg/mcpreg/model"
)

// routeExports is Method 2: annotated HTTPRoutes, followed per rule
// and backendRef to a Service, through its controller ownerReference to the
// MCP resource (ix.lookup, by kind, name and UID), and to their parent
// Gateways for the URL (package urlbuild). It returns one export per (route,
// resource) with candidate URLs of source sourceRoute, via naming the
// HTTPRoute and field the rule, and only for resources with selected set.
//
// Scope. The label selector chooses MCP resources, not routes: a route in
// any namespace may give URLs to a selected resource (with a ReferenceGrant
// across namespaces), and never to one that is not selected. The
// diagnostics of a route are reported when the route concerns the label
// selector's resources: a route whose backends reach MCP resources, none of
// which the selector matches, is left alone, as those resources are.
// Options.Namespaces plays no part here: routes of every namespace are
// walked, and Discover restricts the result afterwards. A route's
// diagnostics name the route, so they are shown when the route's namespace
// is chosen. Which resource a rule's URLs go to depends on neither option.
//
// Per route: the parentRefs are resolved once (urlbuild.Index.Attach) and
// their diagnostics reported once; per rule (urlbuild.DefaultRules):
//
//   - each backendRef (defaulted as urlbuild.DefaultBackendRef does) of
//     weight > 0 — a weight
//     of 0 takes no traffic (BackendRef.Weight) and is skipped — must be a
//     core Service (else BackendNotFound), in the route's namespace or
//     opened to the route by a ReferenceGrant in the Service's namespace
//     (else RefNotPermitted, checked before existence so that a refused
//     reference tells nothing about the other namespace), present (else
//     BackendNotFound), controlled by an MCP resource (else NoOwner) that
//     the snapshot holds with a matching UID (else OwnerNotFound);
//   - the rule's URLs (urlbuild.Attachment.RuleURLs, with the endpoint path
//     of the resource's remote type and that backendRef's own filters) go
//     to the MCP resource of the backendRef given the most weight (ties: the
//     first), or to none when that backendRef leads to none (see
//     ruleBackends.chosen); reaching several resources is
//     AmbiguousBackends, naming the others;
//   - a URL is kept only where every request an MCP client of the resource's
//     transport sends to it routes to that backendRef, by HTTPRoute
//     precedence over all the snapshot's routes on the listener, exported
//     or not (the index is built with them; ShadowedByRoute,
//     MethodNotRouted otherwise);
//   - a URL over http is kept with an InsecureURL warning, or dropped with it
//     under Options.RequireHTTPS;
//   - a rule whose backendRefs all have weight 0 forwards nothing
//     (BackendNotFound); a rule without backendRefs (a redirect, say) is left
//     alone, unless no rule of the route has any (BackendNotFound).
//
// A registry-export annotation on a route other than "true" or "false" is
// InvalidAnnotationValue, as on MCP resources, and the route is not
// exported.
//
// A resource whose registry-export annotation is "false" has opted out: URLs
// from routes are dropped with ConflictingExport. One without the annotation
// is exported by the route alone.
//
// The routes are read in two passes, in snapshot order. The route index
// files every route (the URL checks need all of them); while it does, with
// each route's memory at hand, the exported ones are attached to their
// Gateways (urlbuild.NewIndexAttaching) and, when of the common shape,
// their backends resolved and their rule's path worked out (routePrep).
// The walk then builds and checks each exported route's URLs from that,
// reading little of the route again. Two routes of one namespace and name
// (which a cluster cannot hold, but concatenated manifests can): one copy
// is used (see the dedupe rule), so what the others gave is dropped
// afterwards. Nothing downstream depends on the order (exports are merged
// per resource in a fixed order, diagnostics sorted).
func routeExports(snap *Snapshot, ix *resourceIndex, cfg *config) ([]export, model.Diagnostics) {
	return routeExportsEarly(snap, ix, cfg, true)
}

// routeExportsEarly is routeExports, with (early) or without the work done
// ahead while the route index files the routes: attaching the exported
// routes, noting their annotations, preparing those of the common shape.
// Both give the same (TestPropertyRouteExportsEarly).
func routeExportsEarly(snap *Snapshot, ix *resourceIndex, cfg *config, early bool) ([]export, model.Diagnostics) {
	var w *routeWalker
	var out []export
	var ds model.Diagnostics
	// routes are the routes walked, spans[i] what routes[i] gave.
	var routes []*gwv1.HTTPRoute
	var spans []routeSpan
	for pos, r := range snap.HTTPRoutes {
		if r == nil {
			continue
		}
		value, ok := w.exportValue(pos, r)
		if !ok {
			continue
		}
		if w == nil {
			w = &routeWalker{
				cfg:      cfg,
				ix:       ix,
				services: indexServices(snap.Services, ix),
				grants:   indexGrants(snap.ReferenceGrants),
			}
			w.permits = w.grants.permits
			out = make([]export, 0, len(snap.HTTPRoutes))
		}
		sp := routeSpan{out: [2]int{len(out), 0}, ds: [2]int{len(ds), 0}}
		switch value {
		case "true":
			if w.gateways == nil {
				// The exported routes are attached while the index files
				// them, their memory at hand, rather than again in the walk;
				// what their annotation says is noted then too.
				if early {
					w.exportSeen = make([]exportSeen, len(snap.HTTPRoutes))
					w.preps = make([]routePrep, len(snap.HTTPRoutes))
					w.gateways = urlbuild.NewIndexAttaching(snap.Gateways, snap.Namespaces, snap.HTTPRoutes, w.noteExport)
				} else {
					w.gateways = urlbuild.NewIndex(snap.Gateways, snap.Namespaces, snap.HTTPRoutes...)
				}
			}
			var d model.Diagnostics
			out, d = w.walk(r, pos, out)
			ds = append(ds, d...)
		case "false":
		default:
			if w.reported(r) {
				ds = append(ds, model.Warningf(model.ReasonInvalidAnnotationValue, routeRef(r), annotationField(AnnotationExport),
					"%s is %q; it must be exactly \"true\" to export the route (or \"false\"); the route is not exported",
					AnnotationExport, value))
			}
		}
		if w.gateways == nil || w.gateways.DuplicateRoutes() {
			// Kept to drop what duplicates gave; not needed once the route
			// index says no two routes of the snapshot share a namespace and
			// name.
			sp.out[1], sp.ds[1] = len(out), len(ds)
			routes, spans = append(routes, r), append(spans, sp)
		}
	}
	if w != nil && w.gateways != nil && !w.gateways.DuplicateRoutes() {
		// No two routes of the snapshot share a namespace and name, so no
		// two of these do.
		return out, ds
	}
	kh := dedupe.NewHasher()
	groups := dedupe.Groups(len(routes), func(i int) uint64 { return kh.Hash(routes[i].Namespace, routes[i].Name) }, func(i, j int) bool {
		return routes[i].Name == routes[j].Name && routes[i].Namespace == routes[j].Namespace
	})
	if groups == nil {
		return out, ds
	}
	var outs, dss [][2]int
	for _, g := range groups {
		// The copy kept is the one a pass in snapshot order keeps: the first,
		// unless a later one is newer than the one kept so far.
		keep := g[0]
		for _, i := range g[1:] {
			if dedupe.Newer(routes[i], &routes[i].ObjectMeta, routes[keep], &routes[keep].ObjectMeta) {
				keep = i
			}
		}
		for _, i := range g {
			if i != keep {
				outs, dss = append(outs, spans[i].out), append(dss, spans[i].ds)
			}
		}
	}
	return dropRanges(out, outs), dropRanges(ds, dss)
}

// exportSeen is what the route index saw of a route's registry-export
// annotation while filing it (routeWalker.noteExport).
type exportSeen uint8

const (
	exportUnseen exportSeen = iota // not filed yet (or nil)
	exportAbsent                   // no annotation
	exportTrue                     // "true"
	exportOther                    // another value, looked up again
)

// noteExport is the route index's question while it files route i: is it
// exported (to be attached then)? The answer is noted so that the walk
// need not look the annotation up again once the route's memory has gone
// cold.
func (w *routeWalker) noteExport(i int, r *gwv1.HTTPRoute) bool {
	value, ok := r.Annotations[AnnotationExport]
	switch {
	case !ok:
		w.exportSeen[i] = exportAbsent
	case value == "true":
		w.exportSeen[i] = exportTrue
		if w.preps != nil {
			w.preps[i] = w.prepare(r)
		}
	default:
		w.exportSeen[i] = exportOther
	}
	return ok && value == "true"
}

// exportValue is route r's registry-export annotation (r at position pos of
// the snapshot's routes), from what noteExport saw when it can.
func (w *routeWalker) exportValue(pos int, r *gwv1.HTTPRoute) (string, bool) {
	if w != nil && pos < len(w.exportSeen) {
		switch w.exportSeen[pos] {
		case exportAbsent:
			return "", false
		case exportTrue:
			return "true", true
		}
	}
	value, ok := r.Annotations[AnnotationExport]
	return value, ok
}

// routeSpan is what one route gave: out[0]:out[1] of the exports,
// ds[0]:ds[1] of the diagnostics.
type routeSpan struct{ out, ds [2]int }

// dropRanges removes the elements of s in the given ranges, which do not
// overlap.
func dropRanges[T any](s []T, ranges [][2]int) []T {
	slices.SortFunc(ranges, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	kept := s[:0]
	next := 0
	for _, r := range ranges {
		if r[0] == r[1] {
			continue // empty: it may start where another ends, or inside none
		}
		kept = append(kept, s[next:r[0]]...)
		next = r[1]
	}
	kept = append(kept, s[next:]...)
	clear(s[len(kept):])
	return kept
}

// routeRef names an HTTPRoute in diagnostics and provenance.
func routeRef(r *gwv1.HTTPRoute) model.ObjectRef {
	return model.ObjectRef{Kind: urlbuild.KindHTTPRoute, Namespace: r.Namespace, Name: r.Name}
}

// ruleFields are the field paths of the first rules, so that the candidate
// URLs of most routes share their field strings.
var ruleFields = func() [16]string {
	var f [16]string
	for i := range f {
		f[i] = "spec.rules[" + strconv.Itoa(i) + "]"
	}
	return f
}()

// ruleField is the field path of rule i.
func ruleField(i int) string {
	if i >= 0 && i < len(ruleFields) {
		return ruleFields[i]
	}
	return "spec.rules[" + strconv.Itoa(i) + "]"
}

// routeWalker holds what Method 2 indexes once per Discover call, and
// scratch space reused from route to route.
type routeWalker struct {
	cfg      *config
	ix       *resourceIndex
	services *serviceIndex
	grants   grantIndex
	// permits is grants.permits, made once: the rules' URL checks ask it
	// of other routes' backendRefs (urlbuild.RuleOptions.Permits).
	permits  func(routeNS, serviceNS, name string) bool
	gateways *urlbuild.Index
	// exportSeen is, by position in the snapshot's routes, what the route
	// index saw of their registry-export annotations (noteExport), and
	// preps what it prepared of the exported ones (prepare).
	exportSeen []exportSeen
	preps      []routePrep

	targets []target
	reached []*resource
	rules   []ruleBackends
	// refs is the block the routes' references in candidates are carved
	// from (see keepRef).
	refs []model.ObjectRef
	// att and urls are reused from route to route and from rule to rule:
	// nothing of them is kept but the URL strings.
	att  urlbuild.Attachment
	urls []urlbuild.URL
	// epType and epPath are the last remote type endpointPath looked up and
	// its path (epSet: there is one).
	epType, epPath string
	epSet          bool
}

// endpointPath is Options.EndpointPaths[remoteType], looked up once per run
// of rules of one remote type rather than once per rule.
func (w *routeWalker) endpointPath(remoteType string) string {
	if !w.epSet || remoteType != w.epType {
		w.epType, w.epPath, w.epSet = remoteType, w.cfg.opts.EndpointPaths[remoteType], true
	}
	return w.epPath
}

// keepRef returns a copy of ref that outlives the walk, carved from a block
// of them: one allocation per 256 routes that give URLs, not one each.
func (w *routeWalker) keepRef(ref model.ObjectRef) *model.ObjectRef {
	if len(w.refs) == cap(w.refs) {
		w.refs = make([]model.ObjectRef, 0, 256)
	}
	w.refs = append(w.refs, ref)
	return &w.refs[len(w.refs)-1]
}

// target is one weighted backendRef of a rule and the MCP resource it
// reaches, nil when it reaches none (diagnosed).
type target struct {
	backend int
	weight  int32
	res     *resource
}

// ruleBackends is what the backendRefs of one rule lead to.
type ruleBackends struct {
	// targets are the backendRefs of weight > 0, in order.
	targets []target
	// reached are the distinct MCP resources the targets reach, in order.
	reached []*resource
	// ds are the diagnostics of backendRefs that lead to no MCP resource.
	ds model.Diagnostics
}

// chosen is the backendRef whose backend the rule's URLs are for: the one
// given the most weight, the first on ties; nil when no backendRef takes
// traffic. Weights are compared per backendRef, not summed per resource, and
// a backendRef that reaches no MCP resource keeps its share: the Gateway
// sends it its traffic (and answers it with errors when the reference is
// refused or the Service missing). So a backendRef that stops resolving (a
// ReferenceGrant removed, a Service deleted) never moves the URLs to another
// resource; it takes them away.
func (b *ruleBackends) chosen() *target {
	var best *target
	for i := range b.targets {
		if t := &b.targets[i]; best == nil || t.weight > best.weight {
			best = t
		}
	}
	return best
}

// labelled reports whether the label selector matches r, whatever its
// namespace: what indexResources recorded as selected.
func (w *routeWalker) labelled(r *resource) bool {
	return r.selected
}

// concerns reports whether a rule's diagnostics belong to this discovery as
// far as the label selector goes: a rule that reaches MCP resources
// concerns it when the selector matches one of them; one that reaches none
// always does.
func (w *routeWalker) concerns(reached []*resource) bool {
	if len(reached) == 0 {
		return true
	}
	for _, r := range reached {
		if w.labelled(r) {
			return true
		}
	}
	return false
}

// routeConcerns is concerns for a whole route: the resources of all its
// rules together.
func (w *routeWalker) routeConcerns(rules []ruleBackends) bool {
	reached := false
	for i := range rules {
		for _, r := range rules[i].reached {
			if w.labelled(r) {
				return true
			}
			reached = true
		}
	}
	return !reached
}

// reported reports whether the diagnostics of route r are reported: it
// concerns the label selector (see routeExports).
func (w *routeWalker) reported(r *gwv1.HTTPRoute) bool {
	return w.routeConcerns(w.resolve(r, routeRef(r)))
}

// routePrep is what the walk needs of an exported route of the common
// shape, worked out while the route index files the route (noteExport),
// its memory at hand, rather than a pass over the routes later: the route
// has one rule, whose weighted backendRefs are one, backendRefs[backend],
// which reaches res without a diagnostic, and the rule's path for res's
// transport (urlbuild.PrepareRule). res is nil when the route does not
// have that shape; the walk resolves any other as it comes. A routePrep is
// made per route: it is kept small.
type routePrep struct {
	res     *resource
	rule    urlbuild.RulePrep
	backend int32
	weight  int32
}

// prepare is the routePrep of route r.
func (w *routeWalker) prepare(r *gwv1.HTTPRoute) routePrep {
	if len(r.Spec.Rules) != 1 {
		return routePrep{}
	}
	rbs := w.resolve(r, routeRef(r))
	b := &rbs[0]
	if len(b.targets) != 1 || b.targets[0].res == nil || len(b.ds) != 0 {
		return routePrep{}
	}
	t := b.targets[0]
	if int(int32(t.backend)) != t.backend {
		return routePrep{}
	}
	return routePrep{
		res:     t.res,
		rule:    urlbuild.PrepareRule(r, 0, w.ruleOptions(t)),
		backend: int32(t.backend),
		weight:  t.weight,
	}
}

// prepared is the walker's scratch space set to what resolve gives for the
// route p was prepared for.
func (w *routeWalker) prepared(p *routePrep) []ruleBackends {
	w.targets = append(w.targets[:0], target{backend: int(p.backend), weight: p.weight, res: p.res})
	w.reached = append(w.reached[:0], p.res)
	w.rules = append(w.rules[:0], ruleBackends{targets: w.targets[:1:1], reached: w.reached[:1:1]})
	return w.rules
}

// ruleOptions are the options of the URLs of a rule whose chosen backendRef
// is t.
func (w *routeWalker) ruleOptions(t target) urlbuild.RuleOptions {
	return urlbuild.RuleOptions{
		EndpointPath: w.endpointPath(t.res.remoteType),
		Backend:      t.backend,
		Transport:    t.res.remoteType,
		Permits:      w.permits,
	}
}

// resolve follows the backendRefs of every rule of route (urlbuild.DefaultRules).
// The result lives in the walker's scratch space until the next call.
func (w *routeWalker) resolve(route *gwv1.HTTPRoute, ref model.ObjectRef) []ruleBackends {
	rules := urlbuild.DefaultRules(route)
	w.targets, w.reached, w.rules = w.targets[:0], w.reached[:0], w.rules[:0]
	for i := range rules {
		w.rules = append(w.rules, w.backends(route, ref, i, &rules[i]))
	}
	return w.rules
}

// backendOf returns a backendRef with the defaults of
// urlbuild.DefaultBackendRef (group "", kind Service, the route's
// namespace, weight 1), without allocating: this runs for every backendRef
// of every exported route.
func backendOf(ref *gwv1.BackendRef, routeNS string) (group, kind, namespace, name string, weight int32) {
	group, kind, namespace, name, weight = "", urlbuild.KindService, routeNS, string(ref.Name), 1
	if ref.Group != nil {
		group = string(*ref.Group)
	}
	if ref.Kind != nil {
		kind = string(*ref.Kind)
	}
	if ref.Namespace != nil && *ref.Namespace != "" {
		namespace = string(*ref.Namespace)
	}
	if ref.Weight != nil {
		weight = *ref.Weight
	}
	return group, kind, namespace, name, weight
}

// backends follows the backendRefs of rule i to the MCP resources they
// reach (see routeExports for the checks and their diagnostics). Its slices
// are carved from the walker's scratch space.
func (w *routeWalker) backends(route *gwv1.HTTPRoute, ref model.ObjectRef, i int, rule *gwv1.HTTPRouteRule) ruleBackends {
	var out ruleBackends
	t0, r0 := len(w.targets), len(w.reached)
	weighted := 0
	for j := range rule.BackendRefs {
		group, kind, ns, name, weight := backendOf(&rule.BackendRefs[j].BackendRef, route.Namespace)
		if weight <= 0 {
			// BackendRef.Weight: 0 means no traffic; the CRD refuses
			// negative weights, which take none either.
			continue
		}
		weighted++
		w.targets = append(w.targets, target{backend: j, weight: weight})
		field := func() string { return ruleField(i) + ".backendRefs[" + strconv.Itoa(j) + "]" }
		if group != "" || kind != urlbuild.KindService {
			out.ds = append(out.ds, model.Warningf(model.ReasonBackendNotFound, ref, field(),
				"backendRef %s/%s is of kind %q in group %q, not a core Service: it leads to no MCP resource", ns, name, kind, group))
			continue
		}
		if rule.BackendRefs[j].Port == nil {
			// BackendObjectReference.Port: required for a Service, a rule
			// the API server refuses (and so no Gateway routes); a manifest
			// read from a file may still hold it.
			out.ds = append(out.ds, model.Warningf(model.ReasonBackendNotFound, ref, field(),
				"backendRef to Service %s/%s has no port: a Service reference needs one, and the API server refuses the route without it", ns, name))
			continue
		}
		if !w.grants.permits(route.Namespace, ns, name) {
			out.ds = append(out.ds, model.Warningf(model.ReasonRefNotPermitted, ref, field(),
				"backendRef to Service %s/%s crosses namespaces, and no ReferenceGrant in namespace %q allows HTTPRoutes from namespace %q to reference it",
				ns, name, ns, route.Namespace))
			continue
		}
		svc, at := w.services.get(ns, name)
		if svc == nil {
			out.ds = append(out.ds, model.Warningf(model.ReasonBackendNotFound, ref, field(), "Service %s/%s not found", ns, name))
			continue
		}
		if port := rule.BackendRefs[j].Port; !servicePort(svc, int32(*port)) {
			// The Gateway has no endpoint to send that share of the
			// traffic to: it answers it with errors.
			out.ds = append(out.ds, model.Warningf(model.ReasonBackendNotFound, ref, field(),
				"Service %s/%s has no port %d: it leads to no backend", ns, name, *port))
			continue
		}
		if !w.services.owned[at] {
			_, why, _ := controllerOwner(svc)
			out.ds = append(out.ds, model.Warningf(model.ReasonNoOwner, ref, field(),
				"Service %s/%s is not controlled by an MCP resource: %s (an MCPServer, MCPRemoteProxy or VirtualMCPServer of group %s must be its controller)",
				ns, name, why, model.ToolHiveGroup))
			continue
		}
		res := w.services.owners[at]
		if res == nil {
			owner, _ := mcpController(svc)
			msg := fmt.Sprintf("Service %s/%s is controlled by %s %s/%s, which is not in the snapshot", ns, name, owner.kind, ns, owner.name)
			if other := w.ix.lookup(owner.kind, ns, owner.name, ""); other != nil {
				msg = fmt.Sprintf("Service %s/%s is controlled by %s %s/%s with UID %q, but that object has UID %q: the Service belongs to an earlier object of that name",
					ns, name, owner.kind, ns, owner.name, owner.uid, other.uid)
			}
			out.ds = append(out.ds, model.Warningf(model.ReasonOwnerNotFound, ref, field(), "%s", model.Text(msg)))
			continue
		}
		w.targets[len(w.targets)-1].res = res
		if !slices.Contains(w.reached[r0:], res) {
			w.reached = append(w.reached, res)
		}
	}
	if weighted == 0 && len(rule.BackendRefs) > 0 {
		out.ds = append(out.ds, model.Warningf(model.ReasonBackendNotFound, ref, ruleField(i)+".backendRefs",
			"every backendRef has weight 0: the rule forwards no traffic"))
	}
	out.targets = w.targets[t0:len(w.targets):len(w.targets)]
	out.reached = w.reached[r0:len(w.reached):len(w.reached)]
	return out
}

// describeTargets lists the backendRefs that reach resources, with their
// weights, for messages; skip is left out.
//
// At most maxListed are listed, each resource's name escaped and cut on its
// own, then "and N more": the list is message text, not one value, so it is
// not cut as a whole after a few names (a rule may have any number of
// backendRefs).
func describeTargets(ts []target, skip *resource) model.Text {
	var b strings.Builder
	n := 0
	for _, t := range ts {
		if t.res == nil || t.res == skip {
			continue
		}
		if n++; n > maxListed {
			continue
		}
		if n > 1 {
			b.WriteString(", ")
		}
		b.WriteString(string(model.Sprintf("%s (backendRefs[%d], weight %d)", t.res.ref.String(), t.backend, t.weight)))
	}
	if n > maxListed {
		fmt.Fprintf(&b, " and %d more", n-maxListed)
	}
	return model.Text(b.String())
}

// servicePort reports whether the Service may be reached on port: it lists
// that port, or lists none (a Service as a manifest may hold it, without
// its spec).
func servicePort(svc *corev1.Service, port int32) bool {
	if len(svc.Spec.Ports) == 0 {
		return true
	}
	for i := range svc.Spec.Ports {
		if svc.Spec.Ports[i].Port == port {
			return true
		}
	}
	return false
}

// describeNowhere lists the backendRefs of weight > 0 that lead to no MCP
// resource ("" for none), at most maxListed of them, and counts them.
func describeNowhere(ts []target) (string, int) {
	var parts []string
	n := 0
	for _, t := range ts {
		if t.res != nil {
			continue
		}
		if n++; n <= maxListed {
			parts = append(parts, fmt.Sprintf("backendRefs[%d] (weight %d)", t.backend, t.weight))
		}
	}
	if n > maxListed {
		parts = append(parts, fmt.Sprintf("%d more", n-maxListed))
	}
	return strings.Join(parts, ", "), n
}

// maxListed is the most backendRefs describeNowhere and describeTargets list.
const maxListed = 10

// checkRouteURL is CheckURL for a URL urlbuild built, with a fast path for
// the common case that skips url.Parse: lower-case http or https, an
// authority checkHost accepts in lower case (urlbuild's hosts and ports
// always are), and after it only printable URL characters without percent
// escapes or a fragment. Anything else (an odd endpoint path, say) takes the
// full check. Both give the same answer (TestCheckRouteURL).
func checkRouteURL(u string) (string, bool, error) {
	rest, insecure := "", false
	switch {
	case strings.HasPrefix(u, "https://"):
		rest = u[len("https://"):]
	case strings.HasPrefix(u, "http://"):
		rest, insecure = u[len("http://"):], true
	default:
		return CheckURL(u)
	}
	if len(u) > MaxURLLength {
		return CheckURL(u)
	}
	authority := len(rest)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '/' || c == '?' {
			authority = i
			break
		}
	}
	if !plainAuthority(rest[:authority]) {
		return CheckURL(u)
	}
	for i := authority; i < len(rest); i++ {
		if !plainPathBytes[rest[i]] {
			return CheckURL(u)
		}
	}
	return u, insecure, nil
}

// plainPathBytes marks the bytes urlByte accepts other than "%" and "#":
// what a path and query may hold on checkRouteURL's fast path. It is
// computed once and only read.
var plainPathBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = urlByte(byte(c)) && c != '%' && c != '#'
	}
	return t
}()

// plainAuthority reports whether a is host[:port] with a lower-case host
// name (not an address: some label has a letter, "-" or "_") that
// dnsname.Valid accepts and a port from 1 to 65535: what checkHost accepts,
// in the common case, without allocating. The host is read once: its labels
// are checked as dnsname.Valid does (1 to 63 bytes of letters, digits, "-"
// and "_", a letter or digit at both ends, 253 bytes at most) with upper
// case left to the full check.
func plainAuthority(a string) bool {
	host, port, hasPort := strings.Cut(a, ":")
	if host == "" || len(host) > 253 {
		return false
	}
	// named: some byte is not a digit or a dot (else the host is an
	// address, or reads as one); last: where the last label starts.
	named, last := false, 0
	for i := 0; i <= len(host); i++ {
		if i == len(host) || host[i] == '.' {
			if n := i - last; n == 0 || n > 63 || !lowerAlnum(host[last]) || !lowerAlnum(host[i-1]) {
				return false
			}
			if i < len(host) {
				last = i + 1
			}
			continue
		}
		switch c := host[i]; {
		case 'a' <= c && c <= 'z', c == '-', c == '_':
			named = true
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	if !named {
		return false
	}
	// A last label of digits or "0x…" makes the host an IPv4 address to a
	// browser; the full check judges it.
	if l := host[last:]; strings.HasPrefix(l, "0x") || allDigits(l) {
		return false
	}
	if !hasPort {
		return true
	}
	// Leading zeros and default ports are normalised by the full check.
	if port == "" || len(port) > 5 || port[0] == '0' || port == "80" || port == "443" {
		return false
	}
	n := 0
	for i := 0; i < len(port); i++ {
		c := port[i]
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 65535
}

// allDigits reports whether s has only decimal digits (strings.Trim with
// the digits as cutset leaving nothing, without building the cutset's set
// on every call).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// lowerAlnum reports whether c is a lower-case letter or a digit.
func lowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// walk is Method 2 for one exported route, at position pos of the routes the
// route index was given: it appends the route's exports to out and returns
// its diagnostics.
func (w *routeWalker) walk(route *gwv1.HTTPRoute, pos int, out []export) ([]export, model.Diagnostics) {
	ref := routeRef(route)
	var prep *routePrep
	if pos < len(w.preps) && w.preps[pos].res != nil {
		prep = &w.preps[pos]
	}
	var rbs []ruleBackends
	hasBackends := prep != nil // its rule has a backendRef
	if prep != nil {
		rbs = w.prepared(prep)
	} else {
		rbs = w.resolve(route, ref)
		for _, r := range urlbuild.DefaultRules(route) {
			hasBackends = hasBackends || len(r.BackendRefs) > 0
		}
	}
	report := w.routeConcerns(rbs)

	var ds model.Diagnostics
	if report && !hasBackends {
		ds = append(ds, model.Warningf(model.ReasonBackendNotFound, ref, "spec.rules",
			"no rule of the route has backendRefs: it forwards to no Service"))
	}
	var att *urlbuild.Attachment
	attach := func() *urlbuild.Attachment {
		if att == nil {
			att = &w.att
			w.gateways.AttachAt(att, route, pos)
			if report {
				ds = append(ds, att.Diagnostics...)
			}
		}
		return att
	}
	if report {
		// The parentRefs' diagnostics are worth reporting even when no rule
		// reaches an MCP resource: both need fixing.
		attach()
	}

	start := len(out) // this route's exports: out[start:]
	// via names the route in its candidates, made for the first.
	var via *model.ObjectRef
	// optedOut collects, per resource that opted out, the URLs it is not given.
	var optedOut []export
	for i := range rbs {
		b := &rbs[i]
		ruleReport := report && w.concerns(b.reached)
		if ruleReport {
			ds = append(ds, b.ds...)
		}
		c := b.chosen()
		if c == nil {
			continue
		}
		if c.res == nil {
			// The heaviest backendRef leads nowhere (its own diagnostic says
			// why): the URLs would mostly not reach any MCP resource.
			if ruleReport && len(b.reached) > 0 {
				ds = append(ds, model.Warningf(model.ReasonAmbiguousBackends, ref, ruleField(i),
					"backendRefs[%d] (weight %d), which leads to no MCP resource, takes the most traffic of the rule; its URLs go to no MCP resource, not to %s",
					c.backend, c.weight, describeTargets(b.targets, nil)))
			}
			continue
		}
		if !ruleReport && !c.res.selected {
			continue
		}
		if ruleReport {
			// Part of the traffic goes elsewhere: to another MCP resource,
			// or to a backendRef that leads to none (a plain Service, or
			// one the Gateway answers with errors).
			nowhere, n := describeNowhere(b.targets)
			lead, take := "leads", "takes"
			if n > 1 {
				lead, take = "lead", "take"
			}
			switch {
			case len(b.reached) > 1 && nowhere != "":
				ds = append(ds, model.Warningf(model.ReasonAmbiguousBackends, ref, ruleField(i),
					"the rule's backendRefs reach %d MCP resources; its URLs go to %s (backendRefs[%d], weight %d), given the most weight (the first on a tie), and not to %s; %s %s to no MCP resource",
					len(b.reached), c.res.ref, c.backend, c.weight, describeTargets(b.targets, c.res), model.Text(nowhere), model.Text(lead)))
			case len(b.reached) > 1:
				ds = append(ds, model.Warningf(model.ReasonAmbiguousBackends, ref, ruleField(i),
					"the rule's backendRefs reach %d MCP resources; its URLs go to %s (backendRefs[%d], weight %d), given the most weight (the first on a tie), and not to %s",
					len(b.reached), c.res.ref, c.backend, c.weight, describeTargets(b.targets, c.res)))
			case nowhere != "":
				ds = append(ds, model.Warningf(model.ReasonAmbiguousBackends, ref, ruleField(i),
					"its URLs go to %s (backendRefs[%d], weight %d), given the most weight (the first on a tie), but %s %s to no MCP resource and %s part of the rule's traffic",
					c.res.ref, c.backend, c.weight, model.Text(nowhere), model.Text(lead), model.Text(take)))
			}
		}
		a := attach()
		var rulePrep *urlbuild.RulePrep
		if prep != nil {
			rulePrep = &prep.rule
		}
		urls, rds := a.AppendPreparedRuleURLs(w.urls[:0], a.Origins, i, w.ruleOptions(*c), rulePrep)
		w.urls = urls
		if ruleReport {
			ds = append(ds, rds...)
		}
		exporting := c.res.selected && c.res.annExport != "false"
		var e *export
		for _, u := range urls {
			n, insecure, err := checkRouteURL(u.URL)
			switch {
			case err != nil:
				if ruleReport {
					ds = append(ds, model.Warningf(model.ReasonInvalidURL, ref, ruleField(i), "%v (through %s of Gateway %s); URL not exported",
						err, u.Origin.Listener, u.Origin.Gateway))
				}
				continue
			case insecure && w.cfg.opts.RequireHTTPS:
				if ruleReport {
					ds = append(ds, model.Warningf(model.ReasonInsecureURL, ref, ruleField(i),
						"URL %q (listener %s of Gateway %s) uses http but https is required; URL not exported", n, u.Origin.Listener, u.Origin.Gateway))
				}
				continue
			case insecure && ruleReport:
				ds = append(ds, model.Warningf(model.ReasonInsecureURL, ref, ruleField(i),
					"URL %q (listener %s of Gateway %s) uses plain http: clients will talk to the server unencrypted", n, u.Origin.Listener, u.Origin.Gateway))
			}
			if !c.res.selected {
				continue
			}
			if via == nil {
				via = w.keepRef(ref)
			}
			cand := candidateURL{url: n, source: sourceRoute, via: via, field: ruleField(i)}
			if !exporting {
				optedOut = addExport(optedOut, c.res, cand)
				continue
			}
			if e == nil {
				e = exportFor(&out, start, c.res)
			}
			e.add(cand)
		}
	}
	for _, e := range optedOut {
		// One diagnostic per (route, resource).
		urls := make([]string, 0, len(e.urls))
		for _, cu := range e.urls {
			urls = append(urls, strconv.Quote(cu.url))
		}
		slices.Sort(urls)
		urls = slices.Compact(urls)
		ds = append(ds, model.Warningf(model.ReasonConflictingExport, e.res.ref, annotationField(AnnotationExport),
			"%s is \"false\": the resource opted out, so the URLs built for it from %s are not exported: %s",
			AnnotationExport, ref, strings.Join(urls, ", ")))
	}
	return out, ds
}

// exportFor returns the export of res among (*out)[start:], the exports of
// the route being walked, adding it when there is none: one export per
// (route, resource).
func exportFor(out *[]export, start int, res *resource) *export {
	for k := start; k < len(*out); k++ {
		if (*out)[k].res == res {
			return &(*out)[k]
		}
	}
	*out = append(*out, export{res: res})
	return &(*out)[len(*out)-1]
}

// addExport adds a URL for res to exports, one export per resource.
func addExport(exports []export, res *resource, url candidateURL) []export {
	if k := slices.IndexFunc(exports, func(e export) bool { return e.res == res }); k >= 0 {
		exports[k].urls = append(exports[k].urls, url)
		return exports
	}
	return append(exports, export{res: res, urls: []candidateURL{url}})
}
