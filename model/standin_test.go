package model

import "testing"

// TestStandInSource: where a stand-in description says a converted entry
// came from. A file is named by its base name only (the directories name the
// converting machine, not the data).
func TestStandInSource(t *testing.T) {
	for _, tc := range []struct {
		ref  ObjectRef
		want string
	}{
		{ObjectRef{}, ""},
		{ObjectRef{Kind: "File", Name: "registry.json"}, "file registry.json"},
		{ObjectRef{Kind: "File", Name: "/home/alice/work/registry.json"}, "file registry.json"},
		{ObjectRef{Kind: "File", Name: `C:\data\registry.json`}, "file registry.json"},
		{ObjectRef{Kind: "File", Name: "dir/"}, "file dir/"},
		{ObjectRef{Kind: "File", Name: "-"}, "standard input"},
		{ObjectRef{Kind: "File", Name: "(stdin)"}, "standard input"},
		{ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}, "ConfigMap ns/cm"},
		{ObjectRef{Kind: "Catalog", Name: "c"}, "Catalog c"},
	} {
		if got := standInSource(tc.ref); got != tc.want {
			t.Errorf("standInSource(%+v) = %q, want %q", tc.ref, got, tc.want)
		}
	}
}
