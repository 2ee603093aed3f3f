package discovery

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/mcpreg/mcpreg/model"
)

// Condition types and reasons of group status. A group gets two
// conditions, both True once its members are counted: Ready, and the
// condition ToolHive's MCPGroup controller sets (MCPServersChecked, which
// the CRD's "Checked" column prints); the GroupRefValidated condition of a
// member is spelled as ToolHive spells it.
const (
	// ConditionReady is the first MCPGroup condition type; always True once
	// the members are counted.
	ConditionReady = "Ready"
	// ConditionMCPServersChecked is ToolHive's MCPGroup condition type, set
	// with ConditionReasonListMCPServersSucceeded.
	ConditionMCPServersChecked = "MCPServersChecked"
	// ConditionReasonListMCPServersSucceeded is ToolHive's reason of a True
	// MCPServersChecked condition.
	ConditionReasonListMCPServersSucceeded = "ListMCPServersCheckSucceeded"
	// ConditionGroupRefValidated is the condition type on an MCP resource
	// whose groupRef is checked.
	ConditionGroupRefValidated = "GroupRefValidated"
	// ConditionReasonMembersListed is the reason of the Ready condition.
	ConditionReasonMembersListed = "MembersListed"
	// ConditionReasonGroupRefNotFound is the reason of a False
	// GroupRefValidated condition.
	ConditionReasonGroupRefNotFound = "GroupRefNotFound"
	// ConditionReasonGroupRefIsValid is the reason of a True
	// GroupRefValidated condition on an MCPServer, MCPRemoteProxy or
	// MCPServerEntry; ConditionReasonGroupRefValid on a VirtualMCPServer
	// (ToolHive spells them so).
	ConditionReasonGroupRefIsValid = "GroupRefIsValid"
	ConditionReasonGroupRefValid   = "GroupRefValid"
	// GroupPhaseReady is the phase of every computed group.
	GroupPhaseReady = "Ready"
)

// GroupStatus is the computed status of one MCPGroup. Its JSON is the CLI's
// output shape: {"namespace", "name", "status"}.
type GroupStatus struct {
	Namespace string               `json:"namespace"`
	Name      string               `json:"name"`
	Status    model.MCPGroupStatus `json:"status"`
}

// ResourceCondition is a status condition the caller should set on an MCP
// resource (a False GroupRefValidated for a dangling groupRef).
type ResourceCondition struct {
	Object    model.ObjectRef  `json:"object"`
	Condition metav1.Condition `json:"condition"`
}

// GroupsResult is what Groups computes. Every list is sorted.
type GroupsResult struct {
	Groups             []GroupStatus
	ResourceConditions []ResourceCondition
	Diagnostics        model.Diagnostics
}

// Groups computes the status of every MCPGroup of snap: its member
// MCPServers, MCPRemoteProxies and MCPServerEntries (same namespace, groupRef
// naming it), sorted and counted as ToolHive writes status.servers,
// serverCount, remoteProxies, remoteProxyCount, entries and entryCount;
// phase Ready and a Ready condition. Every MCP resource (MCPServer,
// MCPRemoteProxy, VirtualMCPServer, MCPServerEntry) whose groupRef names
// a group that does not exist gets a GroupRefNotFound warning and a False
// GroupRefValidated condition. now is the conditions' lastTransitionTime.
// Objects listed twice count once: an MCPGroup by its highest generation;
// an MCP resource by the copy Discover uses (the highest generation, then
// resourceVersion, then UID, then content), with a DuplicateName warning when
// the copies differ. An MCPGroup without a name
// is left out.
func Groups(snap Snapshot, now time.Time) GroupsResult {
	type key struct{ namespace, name string }
	groups := map[key]*model.MCPGroup{}
	for _, g := range snap.MCPGroups {
		// A group without a name is no object the API server holds, and no
		// groupRef can name it.
		if g == nil || g.Name == "" {
			continue
		}
		k := key{g.Namespace, g.Name}
		if prev := groups[k]; prev == nil || g.Generation > prev.Generation {
			groups[k] = g
		}
	}
	servers := map[key][]string{}
	proxies := map[key][]string{}
	entries := map[key][]string{}
	var res GroupsResult
	ts := metav1.NewTime(now.UTC().Truncate(time.Second))
	// The GroupRefValidated condition of a resource with a groupRef, as
	// ToolHive's controllers word it for each kind: False for a group that
	// does not exist (with a warning), True for one that does, so that a
	// caller setting it also clears a False set before the group existed.
	groupRef := func(kind string, meta *metav1.ObjectMeta, field, group string, found bool) {
		ref := model.Ref(kind, meta)
		c := metav1.Condition{
			Type:               ConditionGroupRefValidated,
			Status:             metav1.ConditionTrue,
			ObservedGeneration: meta.Generation,
			LastTransitionTime: ts,
		}
		g := model.Echo(group)
		switch {
		case !found:
			res.Diagnostics = append(res.Diagnostics, model.Warningf(model.ReasonGroupRefNotFound, ref, field,
				"MCPGroup %q not found in namespace %q", group, meta.Namespace))
			c.Status, c.Reason = metav1.ConditionFalse, ConditionReasonGroupRefNotFound
			c.Message = fmt.Sprintf("MCPGroup '%s' not found in namespace '%s'", g, meta.Namespace)
			if kind == model.KindVirtualMCPServer {
				c.Message = fmt.Sprintf("Referenced MCPGroup %s not found", g)
			}
		case kind == model.KindVirtualMCPServer:
			c.Reason, c.Message = ConditionReasonGroupRefValid, fmt.Sprintf("MCPGroup %s is valid and ready", g)
		case kind == model.KindMCPServerEntry:
			c.Reason, c.Message = ConditionReasonGroupRefIsValid, "Referenced MCPGroup exists and is ready"
		default:
			c.Reason, c.Message = ConditionReasonGroupRefIsValid, fmt.Sprintf("MCPGroup '%s' is valid and ready", g)
		}
		res.ResourceConditions = append(res.ResourceConditions, ResourceCondition{Object: ref, Condition: c})
	}
	// Copies of one resource (the same kind, namespace and name) count once,
	// as discovery keeps them: the newest, then the first by UID, then
	// content, with a DuplicateName warning when they differ. Otherwise one
	// server listed twice with two groupRefs would be a member of both.
	ix, dups := indexResources(&snap, &config{selector: labels.Everything()})
	res.Diagnostics = append(res.Diagnostics, dups...)
	for _, r := range ix.all {
		var meta *metav1.ObjectMeta
		var group string
		var members map[key][]string
		// The field a dangling reference is reported on: spec.groupRef, but
		// a VirtualMCPServer of ToolHive v0.10 keeps it in spec.config.
		field := "spec.groupRef"
		switch o := r.obj.(type) {
		case *model.MCPServer:
			meta, group, members = &o.ObjectMeta, o.Group(), servers
		case *model.MCPRemoteProxy:
			meta, group, members = &o.ObjectMeta, o.Group(), proxies
		case *model.MCPServerEntry:
			meta, group, members = &o.ObjectMeta, o.Group(), entries
		case *model.VirtualMCPServer:
			meta, group, field = &o.ObjectMeta, o.Group(), o.GroupRefField()
		default:
			continue
		}
		if group == "" {
			continue
		}
		k := key{meta.Namespace, group}
		groupRef(r.ref.Kind, meta, field, group, groups[k] != nil)
		if groups[k] == nil {
			continue
		}
		if members != nil {
			members[k] = append(members[k], meta.Name)
		}
	}
	for k, g := range groups {
		s, p, e := sortedUnique(servers[k]), sortedUnique(proxies[k]), sortedUnique(entries[k])
		res.Groups = append(res.Groups, GroupStatus{Namespace: k.namespace, Name: k.name, Status: model.MCPGroupStatus{
			Phase:            GroupPhaseReady,
			Servers:          s,
			ServerCount:      len(s),
			RemoteProxies:    p,
			RemoteProxyCount: len(p),
			Entries:          e,
			EntryCount:       len(e),
			Conditions: []metav1.Condition{{
				Type:               ConditionReady,
				Status:             metav1.ConditionTrue,
				ObservedGeneration: g.Generation,
				LastTransitionTime: ts,
				Reason:             ConditionReasonMembersListed,
				Message: fmt.Sprintf("%s, %s and %s in the group",
					count(len(s), "MCPServer"), count(len(p), "MCPRemoteProxy"), count(len(e), "MCPServerEntry")),
			}, {
				Type:               ConditionMCPServersChecked,
				Status:             metav1.ConditionTrue,
				ObservedGeneration: g.Generation,
				LastTransitionTime: ts,
				Reason:             ConditionReasonListMCPServersSucceeded,
				Message:            "Successfully listed MCPServers, MCPRemoteProxies, and MCPServerEntries in namespace",
			}},
		}})
	}
	slices.SortFunc(res.Groups, func(a, b GroupStatus) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	slices.SortFunc(res.ResourceConditions, func(a, b ResourceCondition) int {
		return cmp.Or(compareRefs(a.Object, b.Object),
			cmp.Compare(a.Condition.ObservedGeneration, b.Condition.ObservedGeneration),
			strings.Compare(a.Condition.Message, b.Condition.Message))
	})
	res.ResourceConditions = slices.CompactFunc(res.ResourceConditions, func(a, b ResourceCondition) bool { return a.Object == b.Object })
	res.Diagnostics.Sort()
	return res
}

// Members returns the names of the MCPServers, MCPRemoteProxies and
// MCPServerEntries of a group (what a VirtualMCPServer aggregates), sorted,
// never nil. It does not check that the group exists.
func Members(snap Snapshot, namespace, group string) (servers, proxies, entries []string) {
	if group != "" {
		// Copies of one resource count once, as in Groups.
		ix, _ := indexResources(&snap, &config{selector: labels.Everything()})
		for _, r := range ix.all {
			if r.ref.Namespace != namespace {
				continue
			}
			switch o := r.obj.(type) {
			case *model.MCPServer:
				if o.Group() == group {
					servers = append(servers, o.Name)
				}
			case *model.MCPRemoteProxy:
				if o.Group() == group {
					proxies = append(proxies, o.Name)
				}
			case *model.MCPServerEntry:
				if o.Group() == group {
					entries = append(entries, o.Name)
				}
			}
		}
	}
	return sortedUnique(servers), sortedUnique(proxies), sortedUnique(entries)
}

func sortedUnique(names []string) []string {
	out := slices.Clone(names)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func count(n int, kind string) string {
	if n == 1 {
		return "1 " + kind
	}
	if strings.HasSuffix(kind, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(kind, "y"))
	}
	return fmt.Sprintf("%d %ss", n, kind)
}
