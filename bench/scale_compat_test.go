package bench

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	thtypes "github.com/stacklok/toolhive-core/registry/types"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/bench/thway"
	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// The benchmark compares like with like only if both pipelines keep the same
// servers with the same content. These tests check it on a smaller data set
// of the same shape (conflicts, the filter), small because ToolHive's schema
// validator takes about a millisecond per server. That a ConfigMap of 1,000
// entries fits in 1 MiB is checked in package gen.

var smallScale = gen.ScaleOptions{Seed: 3, Files: 4, Servers: 1000, Shared: 20}

// TestScaleData: the generated files are what the benchmark claims — each
// fits in a ConfigMap, ToolHive's schema validator accepts each, and names
// repeat across files only where Shared says.
func TestScaleData(t *testing.T) {
	files := gen.UpstreamFiles(smallScale)
	if len(files) != smallScale.Files {
		t.Fatalf("%d files, want %d", len(files), smallScale.Files)
	}
	names := map[string]int{}
	excluded := 0
	f, err := thway.NewFilter(nil, gen.ScaleExclude)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if len(file.Data) > merge.MaxConfigMapSize-len(model.DefaultRegistryKey) {
			t.Errorf("%s: %d bytes do not fit in a ConfigMap", file.Name, len(file.Data))
		}
		if err := thtypes.ValidateUpstreamRegistryBytes(file.Data); err != nil {
			t.Errorf("%s: ToolHive rejects it: %v", file.Name, err)
		}
		var reg thtypes.UpstreamRegistry
		if err := json.Unmarshal(file.Data, &reg); err != nil {
			t.Fatal(err)
		}
		if len(reg.Data.Servers) != file.Servers {
			t.Errorf("%s: %d servers, says %d", file.Name, len(reg.Data.Servers), file.Servers)
		}
		for _, s := range reg.Data.Servers {
			names[s.Name]++
			if !f.Keep(s.Name) {
				excluded++
			}
		}
	}
	twice := 0
	for _, n := range names {
		switch n {
		case 1:
		case 2:
			twice++
		default:
			t.Errorf("a name appears %d times", n)
		}
	}
	if want := smallScale.Files / 2 * smallScale.Shared; twice != want {
		t.Errorf("%d names in two files, want %d", twice, want)
	}
	if excluded == 0 || excluded > smallScale.Servers/10 {
		t.Errorf("the filter excludes %d of %d servers; want a few percent", excluded, smallScale.Servers)
	}
}

// TestScaleSideBySide: (a) and (b) keep the same servers with the same
// content; they differ only in the names of conflicting copies, which mcpreg
// prefixes with their ConfigMap's name (ToolHive serves both under one
// name). mcpreg's document passes ToolHive's validator.
func TestScaleSideBySide(t *testing.T) {
	d := newScaleData(smallScale)
	res, doc, err := mcpregMerge(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range res.Diagnostics {
		switch ds.Reason {
		case model.ReasonNameConflict, model.ReasonOutputTooLarge:
		default:
			t.Errorf("unexpected diagnostic: %v", ds)
		}
	}
	if err := thtypes.ValidateUpstreamRegistryBytes([]byte(doc)); err != nil {
		t.Errorf("ToolHive rejects mcpreg's document: %v", err)
	}
	theirs, err := toolhiveMerge(d)
	if err != nil {
		t.Fatal(err)
	}
	a := sameServers(t, []byte(doc), theirs, smallScale)
	if res.Registry == nil || len(res.Registry.Servers) != countEntries(a) {
		t.Errorf("the document and Result.Registry disagree")
	}
}

// sameServers checks that mcpreg's document (ours) and ToolHive's way's
// (theirs) over the data of o hold the same entries with the same content,
// under the same names but for the conflicting copies mcpreg renames
// "team-NNN/<server part>", and returns ours by scaleEntries.
func sameServers(t *testing.T, ours, theirs []byte, o gen.ScaleOptions) map[string][]string {
	t.Helper()
	a, b := scaleEntries(t, ours), scaleEntries(t, theirs)
	if len(a) != len(b) || countEntries(a) != countEntries(b) {
		t.Fatalf("mcpreg keeps %d servers (%d distinct), ToolHive's way %d (%d)", countEntries(a), len(a), countEntries(b), len(b))
	}
	renamed := 0
	for body, names := range b {
		got := a[body]
		if len(got) != len(names) {
			t.Errorf("entry %.300s: ToolHive's way has it as %v, mcpreg as %v", body, names, got)
			continue
		}
		if !slices.Equal(got, names) {
			// A conflicting copy: "team-NNN/<server part>".
			for i := range got {
				_, part, _ := strings.Cut(names[i], "/")
				if !strings.HasPrefix(got[i], "team-") || !strings.HasSuffix(got[i], "/"+part) {
					t.Errorf("%q became %q", names[i], got[i])
				}
				renamed++
			}
		}
	}
	if want := o.Files / 2 * o.Shared * 2; renamed != want {
		t.Errorf("%d entries renamed, want %d", renamed, want)
	}
	return a
}

// scaleEntries decodes a document's servers and indexes them by their
// content without "name" (as canonical JSON), each with its names.
func scaleEntries(t *testing.T, doc []byte) map[string][]string {
	t.Helper()
	var reg struct {
		Data struct {
			Servers []map[string]any `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal(doc, &reg); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, s := range reg.Data.Servers {
		name, _ := s["name"].(string)
		delete(s, "name")
		body, err := json.Marshal(s) // map keys sorted
		if err != nil {
			t.Fatal(err)
		}
		out[string(body)] = append(out[string(body)], name)
	}
	for _, k := range slices.Collect(maps.Keys(out)) {
		slices.Sort(out[k])
	}
	return out
}

func countEntries(m map[string][]string) int {
	n := 0
	for _, names := range m {
		n += len(names)
	}
	return n
}
