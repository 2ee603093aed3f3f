package merge

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
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

// Merge merges the registry data of the ConfigMaps of the snapshot configMaps
// that src chooses (see Source) into one upstream document; the package
// documentation gives the steps. It never panics and never changes its
// inputs.
func Merge(src Source, configMaps []*corev1.ConfigMap, opts Options) Result {
	m := newMerger(src, opts)
	m.once = true
	return m.run(configMaps, nil)
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
	case len(m.parts) == 0:
		return "no ConfigMap selected"
	case filtered > 0:
		return fmt.Sprintf("the filter removed all %d", filtered)
	case m.total == 0:
		return fmt.Sprintf("the %d selected ConfigMaps hold no server that can be written", len(m.parts))
	}
	return fmt.Sprintf("all %d servers read were dropped", m.total)
}

// summarize adds the PartialSyncFailure summary when a ConfigMap was skipped
// or lost entries.
func (m *merger) summarize() {
	var failed []string
	for _, s := range m.parts {
		switch {
		case s.failure != "":
			failed = append(failed, fmt.Sprintf("%s (%s)", model.Echo(s.ref.Name), s.failure))
		case s.skipped == 1:
			failed = append(failed, fmt.Sprintf("%s (1 entry skipped: %s)", model.Echo(s.ref.Name), s.skipText()))
		case s.skipped > 1:
			failed = append(failed, fmt.Sprintf("%s (%d entries skipped: %s)", model.Echo(s.ref.Name), s.skipped, s.skipText()))
		}
	}
	if len(failed) == 0 {
		return
	}
	slices.Sort(failed)
	m.ds = append(m.ds, model.Warningf(model.ReasonPartialSyncFailure, m.owner, m.ownerField(""),
		"%d of %d ConfigMaps could not be merged in full: %s", len(failed), len(m.parts), joinWithin(failed, summaryListBytes)))
}

// summaryListBytes is the room the PartialSyncFailure summary gives its
// list of ConfigMaps: what a message holds (model.MaxMessageBytes), less
// the sentence around the list.
const summaryListBytes = model.MaxMessageBytes - 256

// joinWithin joins items (each already escaped and cut) while they fit in
// max bytes, then says how many more there are. The summary is what an
// operator's status and Event show, so it names every failed ConfigMap it
// has room for, each whole, rather than the list being cut as one value.
func joinWithin(items []string, max int) model.Text {
	var b strings.Builder
	for i, it := range items {
		more := fmt.Sprintf(" and %d more", len(items)-i)
		sep := ""
		if i > 0 {
			sep = ", "
		}
		if b.Len()+len(sep)+len(it)+len(more) > max && i > 0 {
			b.WriteString(more)
			break
		}
		b.WriteString(sep)
		b.WriteString(it)
	}
	return model.Text(b.String())
}
