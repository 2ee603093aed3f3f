package model

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Severity says whether a diagnostic stopped the work (Error), dropped or
// changed data the user should look at (Warning), or only explains (Info).
type Severity int

// Severities, most severe first so that sorting puts errors on top within an object.
const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityInfo
)

// String returns "Error", "Warning" or "Info".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "Error"
	case SeverityWarning:
		return "Warning"
	case SeverityInfo:
		return "Info"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// MarshalText writes the lower-case form the CLI's JSON diagnostics use.
func (s Severity) MarshalText() ([]byte, error) {
	return []byte(strings.ToLower(s.String())), nil
}

// UnmarshalText accepts the severity names in any case.
func (s *Severity) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "error":
		*s = SeverityError
	case "warning":
		*s = SeverityWarning
	case "info":
		*s = SeverityInfo
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Reason is the machine-readable cause of a diagnostic. The set of reasons is a
// public contract: tests and users match on these strings, so a reason is
// never renamed or removed within a major version.
type Reason string

// The reasons. docs/diagnostics.md gives the severity, meaning and remedy of each.
const (
	ReasonInvalidSelector        Reason = "InvalidSelector"
	ReasonNoConfigMapsSelected   Reason = "NoConfigMapsSelected"
	ReasonMissingKey             Reason = "MissingKey"
	ReasonInvalidJSON            Reason = "InvalidJSON"
	ReasonUnknownFormat          Reason = "UnknownFormat"
	ReasonInvalidEntry           Reason = "InvalidEntry"
	ReasonDuplicateServer        Reason = "DuplicateServer"
	ReasonNameConflict           Reason = "NameConflict"
	ReasonConflictShadowed       Reason = "ConflictShadowed"
	ReasonConflictError          Reason = "ConflictError"
	ReasonNameCollision          Reason = "NameCollision"
	ReasonNameTooLong            Reason = "NameTooLong"
	ReasonDescriptionTooLong     Reason = "DescriptionTooLong"
	ReasonPartialSyncFailure     Reason = "PartialSyncFailure"
	ReasonOutputTooLarge         Reason = "OutputTooLarge"
	ReasonInvalidFilter          Reason = "InvalidFilter"
	ReasonInvalidAnnotationValue Reason = "InvalidAnnotationValue"
	ReasonInvalidURL             Reason = "InvalidURL"
	ReasonInsecureURL            Reason = "InsecureURL"
	ReasonMissingDescription     Reason = "MissingDescription"
	ReasonConflictingExport      Reason = "ConflictingExport"
	ReasonRouteNotAccepted       Reason = "RouteNotAccepted"
	ReasonStaleRouteStatus       Reason = "StaleRouteStatus"
	ReasonParentNotFound         Reason = "ParentNotFound"
	ReasonNoMatchingListener     Reason = "NoMatchingListener"
	ReasonNotAllowedByListeners  Reason = "NotAllowedByListeners"
	ReasonRefNotPermitted        Reason = "RefNotPermitted"
	ReasonBackendNotFound        Reason = "BackendNotFound"
	ReasonNoOwner                Reason = "NoOwner"
	ReasonOwnerNotFound          Reason = "OwnerNotFound"
	ReasonUnsupportedPathMatch   Reason = "UnsupportedPathMatch"
	ReasonGatewayAddressPending  Reason = "GatewayAddressPending"
	ReasonNoConcreteHostname     Reason = "NoConcreteHostname"
	ReasonAmbiguousBackends      Reason = "AmbiguousBackends"
	ReasonDuplicateName          Reason = "DuplicateName"
	ReasonDuplicateRemoteURL     Reason = "DuplicateRemoteURL"
	ReasonGroupRefNotFound       Reason = "GroupRefNotFound"
)

// Reasons of the MCPServerEntry endpoint-safety rule: ToolHive refuses an
// entry whose spec.remoteUrl names an internal endpoint, and discovery does
// not export it.
const (
	// ReasonPrivateEndpoint (Warning): spec.remoteUrl is a private (RFC 1918,
	// IPv6 unique-local) address or a host under cluster.local, and the entry
	// does not set spec.allowPrivateEndpoint. The message names the range.
	ReasonPrivateEndpoint Reason = "PrivateEndpoint"
	// ReasonBlockedEndpoint (Warning): spec.remoteUrl is a loopback,
	// unspecified, link-local or cloud metadata address, or the Kubernetes
	// API service; refused whatever spec.allowPrivateEndpoint says. The
	// message names the rule.
	ReasonBlockedEndpoint Reason = "BlockedEndpoint"
)

// Reasons about documents ToolHive's registry server would refuse or rewrite
// although they pass the upstream schema.
const (
	// ReasonEmptyRegistry (Warning) says the document has no server. It is
	// a valid registry document, and it is written; but ToolHive's registry
	// server refuses one and keeps serving the servers it had, so a caller
	// that publishes to it should hold the previous document instead.
	ReasonEmptyRegistry Reason = "EmptyRegistry"
	// ReasonMetaTooLarge (Warning) says an entry was dropped because its
	// publisher-provided _meta, measured as the registry server measures it,
	// is over the size limit: the server would fail the whole source for it.
	ReasonMetaTooLarge Reason = "MetaTooLarge"
	// ReasonDuplicateKey (Warning) says an object of registry data gives a
	// key more than once: the last member is kept, as encoding/json (and so
	// ToolHive's registry server) reads it, and the earlier ones are dropped.
	ReasonDuplicateKey Reason = "DuplicateKey"
	// ReasonDuplicatePackage (Warning) says a package repeating the
	// (registryType, identifier, transport type) of an earlier package of
	// the same entry was removed: the server fails the whole source for it.
	ReasonDuplicatePackage Reason = "DuplicatePackage"
	// ReasonDuplicateRemote (Warning) says a remote repeating the (type, URL)
	// of an earlier remote of the same entry was removed: the server keeps
	// one of them silently.
	ReasonDuplicateRemote Reason = "DuplicateRemote"
	// ReasonInexactNumber (Warning) says a number in an entry's
	// publisher-provided _meta changes value when read as a float64, as the
	// registry server reads it (12345678901234567890 comes back as
	// 12345678901234567000). The number is written as it was read.
	ReasonInexactNumber Reason = "InexactNumber"
)

// Reasons about MCPRegistry objects whose sources this library cannot merge.
const (
	// ReasonSourceNotMergeable (Info) names an MCPRegistry entry whose source
	// is a git repository, a registry API or a PersistentVolumeClaim:
	// ToolHive's registry server reads those itself, so there is nothing to
	// merge here. The entry is valid and is left out of the merge sources.
	// An entry with no source or several is reported under it too, as a
	// Warning, or as an Error when that entry is the one to merge.
	ReasonSourceNotMergeable Reason = "SourceNotMergeable"
	// ReasonNoConfigMapSource (Warning) is an MCPRegistry that names no
	// ConfigMap source at all: a v1beta1 object none of whose spec.configYAML
	// sources is a file of a ConfigMap mounted through spec.volumes and
	// spec.volumeMounts, or a v1alpha1 object without registries. Nothing is
	// merged for it.
	ReasonNoConfigMapSource Reason = "NoConfigMapSource"
)

// The reasons of Gateway API request routing: a URL built from an HTTPRoute
// is published only when the requests an MCP client sends to it reach the
// route's backend.
const (
	// ReasonGatewayNotReady: the parent Gateway's status says it is not
	// Accepted or not Programmed, so it routes nothing; no URL through it.
	ReasonGatewayNotReady Reason = "GatewayNotReady"
	// ReasonListenerNotReady: the listener's entry in the Gateway's
	// status.listeners says it is not Programmed or its references are not
	// resolved (a missing certificate, say); no URL through it.
	ReasonListenerNotReady Reason = "ListenerNotReady"
	// ReasonShadowedByRoute: a request to the URL would be taken by another
	// rule (of this or another HTTPRoute on the listener) that wins by
	// HTTPRoute precedence and leads elsewhere; the URL is not published and
	// the message names the rule that takes it.
	ReasonShadowedByRoute Reason = "ShadowedByRoute"
	// ReasonMethodNotRouted: a request the transport needs (POST, GET or
	// DELETE for streamable-http; GET on the stream and POST on the message
	// endpoint for SSE) is not routed to the backend because the rule's
	// method condition leaves it out; the URL is not published.
	ReasonMethodNotRouted Reason = "MethodNotRouted"
)

// Reasons lists every reason the library emits, in the order they were
// introduced; docs/diagnostics.md in the repository documents each.
func Reasons() []Reason {
	return []Reason{
		ReasonInvalidSelector, ReasonNoConfigMapsSelected, ReasonMissingKey, ReasonInvalidJSON,
		ReasonUnknownFormat, ReasonInvalidEntry, ReasonDuplicateServer, ReasonNameConflict,
		ReasonConflictShadowed, ReasonConflictError, ReasonNameCollision, ReasonNameTooLong,
		ReasonDescriptionTooLong, ReasonPartialSyncFailure, ReasonOutputTooLarge, ReasonInvalidFilter,
		ReasonInvalidAnnotationValue, ReasonInvalidURL, ReasonInsecureURL, ReasonMissingDescription,
		ReasonConflictingExport, ReasonRouteNotAccepted, ReasonStaleRouteStatus, ReasonParentNotFound,
		ReasonNoMatchingListener, ReasonNotAllowedByListeners, ReasonRefNotPermitted,
		ReasonBackendNotFound, ReasonNoOwner, ReasonOwnerNotFound, ReasonUnsupportedPathMatch,
		ReasonGatewayAddressPending, ReasonNoConcreteHostname, ReasonAmbiguousBackends,
		ReasonDuplicateName, ReasonDuplicateRemoteURL, ReasonGroupRefNotFound,
		ReasonSourceNotMergeable, ReasonNoConfigMapSource,
		ReasonEmptyRegistry, ReasonMetaTooLarge, ReasonDuplicateKey, ReasonDuplicatePackage, ReasonDuplicateRemote,
		ReasonInexactNumber,
		ReasonGatewayNotReady, ReasonListenerNotReady, ReasonShadowedByRoute, ReasonMethodNotRouted,
		ReasonPrivateEndpoint, ReasonBlockedEndpoint,
	}
}

// ObjectRef names the object a diagnostic is about. For registry data that did
// not come from a Kubernetes object (a file on the command line), Kind is
// "File" and Name is the path.
//
// APIVersion and UID are set where the library knows them (the ConfigMaps a
// merge reads, the owner of a merge source), so that a diagnostic can become
// an Event about the object (see EventFor) and a watch result a reconcile
// request. They are not part of the JSON form, which stays {kind, namespace,
// name}, nor of String.
type ObjectRef struct {
	APIVersion string `json:"-"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	UID        string `json:"-"`
}

// String renders kind/namespace/name, or kind/name for cluster-scoped objects.
func (o ObjectRef) String() string {
	if o.Namespace == "" {
		return o.Kind + "/" + o.Name
	}
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

func (o ObjectRef) compare(p ObjectRef) int {
	return cmp.Or(
		cmp.Compare(o.Kind, p.Kind),
		cmp.Compare(o.Namespace, p.Namespace),
		cmp.Compare(o.Name, p.Name),
		cmp.Compare(o.APIVersion, p.APIVersion),
		cmp.Compare(o.UID, p.UID),
	)
}

// Diagnostic reports one thing the library dropped, renamed, changed or refused,
// naming the object, the field and the value involved.
type Diagnostic struct {
	Severity Severity  `json:"severity"`
	Reason   Reason    `json:"reason"`
	Object   ObjectRef `json:"object"`
	// Field is a field path inside Object (for example
	// "metadata.annotations[toolhive.stacklok.dev/registry-url]" or
	// "data.servers[3].name"); empty when the whole object is meant.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	// Omitted is set on a summary: the number of diagnostics of this reason
	// about this object that the list leaves out (see MaxPerObjectReason).
	// Zero on every other diagnostic.
	Omitted int `json:"omitted,omitempty"`
}

// MaxPerObjectReason is how many diagnostics of one reason and severity
// about one object a sorted list keeps. The rest are replaced by one summary
// of that reason, severity and object, with no field and their number in
// Omitted: a ConfigMap of 200,000 null entries gives 10 diagnostics and a
// summary, not 200,000 lines, and the count of what was dropped is still
// exact (Infos, which drop nothing, are counted apart).
const MaxPerObjectReason = 10

// Count is the number of diagnostics d stands for: Omitted for a summary,
// else 1.
func (d Diagnostic) Count() int {
	if d.Omitted > 0 {
		return d.Omitted
	}
	return 1
}

// String renders the diagnostic on one line for humans. Every part is
// escaped, so a value from the input cannot start a line of its own.
func (d Diagnostic) String() string {
	d = d.safe()
	var b strings.Builder
	b.WriteString(strings.ToLower(d.Severity.String()))
	b.WriteString(" ")
	b.WriteString(string(d.Reason))
	b.WriteString(" ")
	b.WriteString(d.Object.String())
	if d.Field != "" {
		b.WriteString(" ")
		b.WriteString(d.Field)
	}
	b.WriteString(": ")
	b.WriteString(d.Message)
	return b.String()
}

// MarshalJSON writes the keys severity (lower case), reason, object, field,
// message and, on a summary, omitted, in that fixed order: the CLI's --diagnostics json lines are a stable
// format. Parts are escaped and cut as String does.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	type wire Diagnostic
	return json.Marshal(wire(d.safe()))
}

// Compare orders diagnostics by object, field, reason, severity, message and
// Omitted, so that lists sort the same whatever order the inputs came in.
func (d Diagnostic) Compare(e Diagnostic) int {
	return cmp.Or(
		d.Object.compare(e.Object),
		cmp.Compare(d.Field, e.Field),
		cmp.Compare(d.Reason, e.Reason),
		cmp.Compare(d.Severity, e.Severity),
		cmp.Compare(d.Message, e.Message),
		cmp.Compare(d.Omitted, e.Omitted),
	)
}

// Diagnostics is a list of diagnostics. Functions of this module return it sorted.
type Diagnostics []Diagnostic

// Sort sorts the list in place (see Diagnostic.Compare), drops exact
// duplicates and keeps at most MaxPerObjectReason diagnostics of each
// (object, reason), the first in that order, summarising the rest in one.
func (ds *Diagnostics) Sort() {
	slices.SortFunc(*ds, Diagnostic.Compare)
	*ds = slices.Compact(*ds)
	ds.capPerObjectReason()
}

// objectReason is the group a diagnostic is capped in: its object, reason
// and severity. Severity is part of it so that Infos (a value respelled, say)
// never stand in a summary for, or count as, Warnings of the same reason
// (entries dropped).
type objectReason struct {
	object   ObjectRef
	reason   Reason
	severity Severity
}

// capPerObjectReason replaces, in a sorted list, the diagnostics of each
// (object, reason, severity) after the first MaxPerObjectReason by one
// summary.
// Summaries already in the list are folded into the new one, so sorting a
// capped list again changes nothing.
func (ds *Diagnostics) capPerObjectReason() {
	list := *ds
	var seen map[objectReason]int
	over := false
	for _, d := range list {
		if d.Omitted > 0 {
			over = true
			break
		}
		if seen == nil {
			seen = map[objectReason]int{}
		}
		k := objectReason{d.Object, d.Reason, d.Severity}
		seen[k]++
		if seen[k] > MaxPerObjectReason {
			over = true
			break
		}
	}
	if !over {
		return
	}
	// One pass: count what each group keeps and what it leaves out.
	type group struct {
		kept, omitted int
	}
	groups := map[objectReason]*group{}
	var order []objectReason
	out := list[:0:0]
	for _, d := range list {
		k := objectReason{d.Object, d.Reason, d.Severity}
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
			order = append(order, k)
		}
		if d.Omitted == 0 && g.kept < MaxPerObjectReason {
			g.kept++
			out = append(out, d)
			continue
		}
		g.omitted += d.Count()
	}
	for _, k := range order {
		if g := groups[k]; g.omitted > 0 {
			out = append(out, summaryDiagnostic(k, g.omitted))
		}
	}
	slices.SortFunc(out, Diagnostic.Compare)
	*ds = out
}

// limiter formats at most MaxPerObjectReason diagnostics of each reason and
// severity about the one object a parse reports on and only counts the rest:
// Sort would cap the list anyway, but a document of 200,000 null entries
// would first cost 200,000 formatted messages and their sort.
type limiter struct {
	counts map[reasonSeverity]int
}

// reasonSeverity is what limiter counts by.
type reasonSeverity struct {
	reason   Reason
	severity Severity
}

// ok counts a diagnostic of reason r and severity sev and reports whether to
// build it.
func (l *limiter) ok(r Reason, sev Severity) bool {
	if l.counts == nil {
		l.counts = map[reasonSeverity]int{}
	}
	k := reasonSeverity{r, sev}
	l.counts[k]++
	return l.counts[k] <= MaxPerObjectReason
}

// flush appends a summary about obj for each reason and severity over the
// limit.
func (l *limiter) flush(ds Diagnostics, obj ObjectRef) Diagnostics {
	over := make([]reasonSeverity, 0, len(l.counts))
	for k, n := range l.counts {
		if n > MaxPerObjectReason {
			over = append(over, k)
		}
	}
	slices.SortFunc(over, func(a, b reasonSeverity) int {
		return cmp.Or(cmp.Compare(a.reason, b.reason), cmp.Compare(a.severity, b.severity))
	})
	for _, k := range over {
		ds = append(ds, summaryDiagnostic(objectReason{obj, k.reason, k.severity}, l.counts[k]-MaxPerObjectReason))
	}
	return ds
}

// summaryDiagnostic stands for n diagnostics of one reason and severity about
// one object.
func summaryDiagnostic(k objectReason, n int) Diagnostic {
	return Diagnostic{
		Severity: k.severity, Reason: k.reason, Object: k.object, Omitted: n,
		Message: fmt.Sprintf("%d more %s diagnostics about this object are not listed (at most %d are)", n, k.reason, MaxPerObjectReason),
	}
}

// Sorted returns a sorted copy without exact duplicates.
func (ds Diagnostics) Sorted() Diagnostics {
	out := slices.Clone(ds)
	out.Sort()
	return out
}

// HasErrors reports whether any diagnostic has severity Error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == SeverityError })
}

// Count returns how many problems the diagnostics stand for: each counts
// one, a summary the number it stands for (Diagnostic.Count).
func (ds Diagnostics) Count() int {
	n := 0
	for _, d := range ds {
		n += d.Count()
	}
	return n
}

// WithReason returns the diagnostics with the given reason, in order.
func (ds Diagnostics) WithReason(r Reason) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Reason == r {
			out = append(out, d)
		}
	}
	return out
}

// WithSeverity returns the diagnostics of the given severity, in order.
func (ds Diagnostics) WithSeverity(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// newDiagnostic builds a diagnostic whose message repeats input values only
// escaped and cut (see Sprintf) and whose field path is escaped and held to
// MaxFieldRunes, so that no tenant value reaches a log or terminal raw.
func newDiagnostic(sev Severity, reason Reason, obj ObjectRef, field string, msg Text) Diagnostic {
	return Diagnostic{
		Severity: sev, Reason: reason, Object: obj,
		Field:   capField(field),
		Message: string(msg),
	}
}

// Errorf builds an Error diagnostic. The message is formatted by Sprintf:
// string arguments are input values, escaped and cut to MaxEchoRunes.
func Errorf(reason Reason, obj ObjectRef, field, format string, args ...any) Diagnostic {
	return newDiagnostic(SeverityError, reason, obj, field, Sprintf(format, args...))
}

// Warningf builds a Warning diagnostic, formatting as Errorf does.
func Warningf(reason Reason, obj ObjectRef, field, format string, args ...any) Diagnostic {
	return newDiagnostic(SeverityWarning, reason, obj, field, Sprintf(format, args...))
}

// Infof builds an Info diagnostic, formatting as Errorf does.
func Infof(reason Reason, obj ObjectRef, field, format string, args ...any) Diagnostic {
	return newDiagnostic(SeverityInfo, reason, obj, field, Sprintf(format, args...))
}
