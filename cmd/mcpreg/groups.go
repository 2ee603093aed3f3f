package main

import (
	"encoding/json"
	"time"

	"github.com/mcpreg/mcpreg/discovery"
)

// runGroups is the 'groups' verb: it prints, for each MCPGroup, its
// namespace, name and computed status as a JSON array sorted by namespace and
// name; dangling groupRefs are reported on stderr (GroupRefNotFound). --now
// sets the conditions' lastTransitionTime.
func runGroups(e *env, args []string) int {
	var c common
	fs := newFlagSet(e, "groups", "[-f PATH]...")
	c.register(fs, true, "`RFC3339` time for the conditions' lastTransitionTime (default: the current time)")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if err := c.check(); err != nil {
		return usageError(e, "groups: %v", err)
	}
	if len(pos) > 0 {
		return usageError(e, "groups: unexpected argument %q (manifests are given with -f)", pos[0])
	}
	objs, err := loadObjects(e, c.files)
	if err != nil {
		return usageError(e, "groups: %v", err)
	}
	now, _ := time.Parse(time.RFC3339, c.lastUpdated(e))
	res := discovery.Groups(snapshotOf(objs), now)
	groups := res.Groups
	if groups == nil {
		groups = []discovery.GroupStatus{}
	}
	doc, err := json.MarshalIndent(groups, "", "  ")
	if err != nil {
		return emit(e, &c, nil, res.Diagnostics)
	}
	return emit(e, &c, append(doc, '\n'), res.Diagnostics)
}
