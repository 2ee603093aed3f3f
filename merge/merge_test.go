package merge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

var now = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func TestParseStrategy(t *testing.T) {
	for in, want := range map[string]Strategy{"": StrategyPrefix, "prefix": StrategyPrefix, "priority": StrategyPriority, "error": StrategyError} {
		got, err := ParseStrategy(in)
		if err != nil || got != want {
			t.Errorf("ParseStrategy(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseStrategy("Prefix"); err == nil {
		t.Error(`ParseStrategy("Prefix") accepted a misspelling`)
	}
	res := mergeIn(testInput{Strategy: "first-wins", ConfigMaps: []*corev1.ConfigMap{configMap("a", nil, upstreamDoc())}})
	if res.Registry != nil || !res.Diagnostics.HasErrors() {
		t.Errorf("an unknown strategy merged: %v", res.Diagnostics)
	}
}

// TestMergeTable checks one behaviour per row on small inputs.
func TestMergeTable(t *testing.T) {
	a := func(name, id string) testServer { return testServer{Name: name, ID: id} }
	u := func(name, id, url string) testServer { return testServer{Name: name, ID: id, URL: url} }
	tests := []struct {
		name    string
		in      testInput
		want    []string // output names; nil with wantNil
		wantNil bool
		reasons string // comma-separated, sorted as Diagnostics are
	}{
		{
			name: "selector orders by name: priority keeps the first name",
			in: testInput{Namespace: testNS, Selector: regSelector, Strategy: StrategyPriority, ConfigMaps: []*corev1.ConfigMap{
				configMap("zeta", regLabels, upstreamDoc(a("io.ex/ss", "z"))),
				configMap("alpha", regLabels, upstreamDoc(a("io.ex/ss", "a"))),
			}},
			want:    []string{"io.ex/ss"},
			reasons: "ConflictShadowed",
		},
		{
			name: "explicit ConfigMaps keep the order given",
			in: testInput{Strategy: StrategyPriority, ConfigMaps: []*corev1.ConfigMap{
				configMap("zeta", nil, upstreamDoc(a("io.ex/ss", "z"))),
				configMap("alpha", nil, upstreamDoc(a("io.ex/ss", "a"))),
			}},
			want:    []string{"io.ex/ss"},
			reasons: "ConflictShadowed",
		},
		{
			name: "other namespaces are never selected",
			in: testInput{Namespace: "other", Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, upstreamDoc(a("io.ex/ss", "a"))),
			}},
			want:    []string{},
			reasons: "EmptyRegistry,NoConfigMapsSelected",
		},
		{
			name: "name mode",
			in: testInput{Namespace: testNS, Name: "b", ConfigMaps: []*corev1.ConfigMap{
				configMap("a", nil, upstreamDoc(a("io.ex/aa", "a"))),
				configMap("b", nil, upstreamDoc(a("io.ex/bb", "b"))),
			}},
			want: []string{"io.ex/bb"},
		},
		{
			name:    "selector and name together",
			in:      testInput{Namespace: testNS, Name: "b", Selector: regSelector},
			wantNil: true,
			reasons: "InvalidSelector",
		},
		{
			name:    "empty selector",
			in:      testInput{Namespace: testNS, Selector: &metav1.LabelSelector{}},
			wantNil: true,
			reasons: "InvalidSelector",
		},
		{
			name:    "no ConfigMaps given",
			in:      testInput{},
			want:    []string{},
			reasons: "EmptyRegistry,NoConfigMapsSelected",
		},
		{
			name: "the same object twice is one source",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, upstreamDoc(a("io.ex/ss", "a"))),
				configMap("a", regLabels, upstreamDoc(a("io.ex/ss", "a"))),
			}},
			want: []string{"io.ex/ss"},
		},
		{
			name: "a newer copy without the labels is not selected, nor the older one",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				withRV(configMap("a", regLabels, upstreamDoc(a("io.ex/old", "a"))), "10"),
				withRV(configMap("a", nil, upstreamDoc(a("io.ex/new", "a"))), "11"),
				configMap("b", regLabels, upstreamDoc(a("io.ex/bb", "b"))),
			}},
			want:    []string{"io.ex/bb"},
			reasons: "DuplicateName",
		},
		{
			name: "a newer copy without the labels, listed first",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				withRV(configMap("a", nil, upstreamDoc(a("io.ex/new", "a"))), "11"),
				configMap("b", regLabels, upstreamDoc(a("io.ex/bb", "b"))),
				withRV(configMap("a", regLabels, upstreamDoc(a("io.ex/old", "a"))), "10"),
			}},
			want:    []string{"io.ex/bb"},
			reasons: "DuplicateName",
		},
		{
			name: "a newer copy that gained the labels is selected",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				withRV(configMap("a", nil, upstreamDoc(a("io.ex/old", "a"))), "10"),
				withRV(configMap("a", regLabels, upstreamDoc(a("io.ex/new", "a"))), "11"),
			}},
			want:    []string{"io.ex/new"},
			reasons: "DuplicateName",
		},
		{
			name: "copies of one resourceVersion that differ: one is read, whatever the order, the other reported",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, upstreamDoc(a("io.ex/one", "a"))),
				configMap("a", regLabels, upstreamDoc(a("io.ex/two", "a"))),
			}},
			want:    []string{"io.ex/two"},
			reasons: "DuplicateName",
		},
		{
			name: "copies the selector concerns neither of are not reported",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", nil, upstreamDoc(a("io.ex/one", "a"))),
				configMap("a", nil, upstreamDoc(a("io.ex/two", "a"))),
				configMap("b", regLabels, upstreamDoc(a("io.ex/bb", "b"))),
			}},
			want: []string{"io.ex/bb"},
		},
		{
			name: "copies of the ConfigMap named that differ are reported",
			in: testInput{Namespace: testNS, Name: "a", ConfigMaps: []*corev1.ConfigMap{
				withRV(configMap("a", nil, upstreamDoc(a("io.ex/new", "a"))), "11"),
				withRV(configMap("a", nil, upstreamDoc(a("io.ex/old", "a"))), "10"),
			}},
			want:    []string{"io.ex/new"},
			reasons: "DuplicateName",
		},
		{
			name: "a filter on prefixed names",
			in: testInput{Namespace: testNS, Selector: regSelector, Filter: &model.RegistryFilter{Names: &model.IncludeExclude{Include: []string{"team-a/*"}}},
				ConfigMaps: []*corev1.ConfigMap{
					configMap("team-a", regLabels, upstreamDoc(a("io.ex/ss", "a"), a("io.ex/tt", "t"))),
					configMap("team-b", regLabels, upstreamDoc(a("io.ex/ss", "b"))),
				}},
			want: []string{"team-a/ss"},
			// The copy the filter removes is not diagnosed, its rename
			// neither.
			reasons: "NameConflict",
		},
		{
			name: "a prefixed copy that loses its URL has the loss as its one diagnostic",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("team-0", regLabels, upstreamDoc(u("io.z/gateway", "z", "https://api.example.com/mcp"))),
				configMap("team-a", regLabels, upstreamDoc(u("io.x/api", "a", "https://api.example.com/mcp"))),
				configMap("team-b", regLabels, upstreamDoc(u("io.x/api", "b", "https://api.example.com/mcp"))),
			}},
			want:    []string{"io.z/gateway"},
			reasons: "DuplicateRemoteURL,DuplicateRemoteURL",
		},
		{
			name: "prefixed copies at one URL are all kept",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("team-a", regLabels, upstreamDoc(u("io.ex/ss", "a", "https://x.example/mcp"))),
				configMap("team-b", regLabels, upstreamDoc(u("io.ex/ss", "b", "https://x.example/mcp"))),
			}},
			want:    []string{"team-a/ss", "team-b/ss"},
			reasons: "NameConflict,NameConflict",
		},
		{
			name: "the merged copies merged again: one source, both kept",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("merged", regLabels, upstreamDoc(u("team-a/ss", "a", "https://x.example/mcp"), u("team-b/ss", "b", "https://x.example/mcp"))),
			}},
			want: []string{"team-a/ss", "team-b/ss"},
		},
		{
			name: "names of another server part at one URL: the later in merge order is dropped",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("b", regLabels, upstreamDoc(u("io.ex/tt", "b", "https://x.example/mcp"))),
				configMap("a", regLabels, upstreamDoc(u("io.ex/ss", "a", "https://x.example/mcp"))),
			}},
			want:    []string{"io.ex/ss"},
			reasons: "DuplicateRemoteURL",
		},
		{
			name: "two publishers' names of one server part at one URL are both kept",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, upstreamDoc(u("io.ex/ss", "a", "https://x.example/mcp"))),
				configMap("b", regLabels, upstreamDoc(u("dev.other/ss", "b", "https://x.example/mcp"))),
			}},
			want: []string{"dev.other/ss", "io.ex/ss"},
		},
		{
			name:    "a bad filter stops the merge",
			in:      testInput{Filter: &model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"["}}}},
			wantNil: true,
			reasons: "InvalidFilter",
		},
		{
			name: "the error strategy without conflicts merges",
			in: testInput{Strategy: StrategyError, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", nil, upstreamDoc(a("io.ex/aa", "a"))),
				configMap("b", nil, upstreamDoc(a("io.ex/bb", "b"))),
			}},
			want: []string{"io.ex/aa", "io.ex/bb"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.LastUpdated = now
			res := mergeIn(tt.in)
			if tt.wantNil {
				if res.Registry != nil {
					t.Errorf("got a registry %v, want none", names(res))
				}
			} else if res.Registry == nil {
				t.Fatalf("no registry: %v", res.Diagnostics)
			} else if got := names(res); !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("names = %q, want %q", got, tt.want)
			}
			if got := reasons(res); got != tt.reasons {
				t.Errorf("reasons = %q, want %q\n%v", got, tt.reasons, res.Diagnostics)
			}
		})
	}
}

// withRV sets a ConfigMap's resourceVersion: a later copy of the same object.
func withRV(cm *corev1.ConfigMap, rv string) *corev1.ConfigMap {
	cm.ResourceVersion = rv
	return cm
}

// TestPriorityKeepsFirstSourceContent checks which copy priority keeps.
func TestPriorityKeepsFirstSourceContent(t *testing.T) {
	cms := []*corev1.ConfigMap{
		configMap("zeta", regLabels, upstreamDoc(testServer{Name: "io.ex/ss", ID: "z"})),
		configMap("alpha", regLabels, upstreamDoc(testServer{Name: "io.ex/ss", ID: "a"})),
	}
	res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, Strategy: StrategyPriority, ConfigMaps: cms, LastUpdated: now})
	if got := serverID(res.Registry.Servers[0]); got != "a" {
		t.Errorf("selector priority kept %q, want the copy of ConfigMap alpha", got)
	}
	res = mergeIn(testInput{Strategy: StrategyPriority, ConfigMaps: cms, LastUpdated: now})
	if got := serverID(res.Registry.Servers[0]); got != "z" {
		t.Errorf("explicit priority kept %q, want the copy of the first ConfigMap given", got)
	}
}

func TestBinaryDataKeyAndCustomKey(t *testing.T) {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "bin", Namespace: testNS, Labels: regLabels},
		BinaryData: map[string][]byte{"servers.json": []byte(upstreamDoc(testServer{Name: "io.ex/bin", ID: "b"}))},
	}
	res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, Key: "servers.json", ConfigMaps: []*corev1.ConfigMap{cm}, LastUpdated: now})
	if got := names(res); !slices.Equal(got, []string{"io.ex/bin"}) {
		t.Errorf("names = %q (%v)", got, res.Diagnostics)
	}
	res = mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{cm}, LastUpdated: now})
	if len(res.Diagnostics.WithReason(model.ReasonMissingKey)) != 1 {
		t.Errorf("the default key was found: %v", res.Diagnostics)
	}
}

func TestGeneratedConfigMapsAreNotSelected(t *testing.T) {
	src := Source{Owner: model.ObjectRef{Kind: model.KindMCPRegistry, Namespace: testNS, Name: "r", UID: "u1"}, Entry: "e", Namespace: testNS}
	doc := []byte(upstreamDoc(testServer{Name: "io.ex/out", ID: "o"}))
	out, _, err := OutputConfigMap(src, doc, "h", 0)
	if err != nil {
		t.Fatal(err)
	}
	out.Labels["reg"] = "true" // labels that would match
	if !IsGenerated(out) {
		t.Fatal("the output ConfigMap is not recognised as generated")
	}
	res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{out}, LastUpdated: now})
	if len(res.Sources) != 0 {
		t.Errorf("selected the output ConfigMap: %v", res.Sources)
	}
	// Without the label, the controller ownerReference alone marks it.
	delete(out.Labels, GeneratedByLabel)
	if !IsGenerated(out) {
		t.Error("a ConfigMap controlled by an MCPRegistry is not recognised as generated")
	}
	out.OwnerReferences[0].Controller = nil
	if IsGenerated(out) {
		t.Error("a ConfigMap merely owned (not controlled) counts as generated")
	}
}

func TestOutputConfigMap(t *testing.T) {
	src := Source{
		Owner: model.ObjectRef{APIVersion: "toolhive.stacklok.dev/v1beta1", Kind: "MCPRegistry",
			Namespace: "toolhive-system", Name: "all-teams-registry", UID: "uid-1"},
		Entry:     "team-registries",
		Namespace: "toolhive-system",
		Filter:    &model.RegistryFilter{Names: &model.IncludeExclude{Include: []string{"io.github.*"}}},
	}
	cm, ds, err := OutputConfigMap(src, []byte("{}\n"), "abc", 0)
	if err != nil || len(ds) != 0 {
		t.Errorf("error %v, diagnostics: %v", err, ds)
	}
	yes := true
	want := &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        "all-teams-registry-team-registries-merged",
			Namespace:   "toolhive-system",
			Labels:      map[string]string{GeneratedByLabel: GeneratedByValue},
			Annotations: map[string]string{HashAnnotation: "abc", EntryAnnotation: "team-registries", FilterHashAnnotation: FilterHash(src.Filter)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1beta1", Kind: "MCPRegistry",
				Name: "all-teams-registry", UID: "uid-1", Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Data: map[string]string{"registry.json": "{}\n"},
	}
	if diff := cmp.Diff(want, cm); diff != "" {
		t.Errorf("output ConfigMap (-want +got):\n%s", diff)
	}
	src.Owner.APIVersion, src.Entry, src.Filter = "", "Team Registries", nil
	cm, _, err = OutputConfigMap(src, nil, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cm.Annotations[FilterHashAnnotation]; ok {
		t.Error("a filter hash annotation without a filter")
	}
	if got := cm.OwnerReferences[0].APIVersion; got != DefaultAPIVersion {
		t.Errorf("apiVersion = %q, want %q", got, DefaultAPIVersion)
	}
	if got := cm.Name; !strings.HasPrefix(got, "all-teams-registry-team-registries-merged-") {
		t.Errorf("name for an entry with spaces = %q", got)
	}
	// An owner without a UID: the API server would refuse the ownerReference.
	src.Owner.UID = ""
	if cm, _, err := OutputConfigMap(src, nil, "", 0); err == nil || cm != nil || !strings.Contains(err.Error(), "no UID") {
		t.Errorf("no UID: ConfigMap %v, error %v", cm, err)
	}
	if cm, _, err := OutputConfigMap(Source{Entry: "e"}, nil, "", 0); err == nil || cm != nil {
		t.Errorf("no owner: ConfigMap %v, error %v", cm, err)
	}
}

// TestOutputTooLarge builds a merge over 1 MiB with the default limit.
func TestOutputTooLarge(t *testing.T) {
	var servers []testServer
	for i := range 8000 {
		servers = append(servers, testServer{Name: "io.github.example/server-" + strings.Repeat("x", 40) + "-" + itoa(i), ID: itoa(i)})
	}
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "big", Namespace: testNS, UID: "u-big"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels},
		}}},
	}
	res, err := ForRegistry(reg, "", []*corev1.ConfigMap{configMap("big", regLabels, upstreamDoc(servers...))}, Options{LastUpdated: now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Registry == nil || res.ConfigMap == nil {
		t.Fatal("no registry or ConfigMap")
	}
	if n := len(res.ConfigMap.Data[OutputKey]); n <= MaxConfigMapSize {
		t.Fatalf("the fixture is only %d bytes", n)
	}
	too := res.Diagnostics.WithReason(model.ReasonOutputTooLarge)
	if len(too) != 1 || too[0].Severity != model.SeverityError || too[0].Object.Name != "big-e-merged" {
		t.Errorf("OutputTooLarge diagnostics: %v", too)
	}

	// The same MCPRegistry without its UID (a manifest written by hand)
	// gets no ConfigMap but the same Error, word for word: the document is
	// the same and so is its size.
	noUID := reg.DeepCopy()
	noUID.UID = ""
	res2, err := ForRegistry(noUID, "", []*corev1.ConfigMap{configMap("big", regLabels, upstreamDoc(servers...))}, Options{LastUpdated: now})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Registry == nil || res2.ConfigMap != nil {
		t.Fatalf("without a UID: registry %v, ConfigMap %v; want a registry and no ConfigMap", res2.Registry != nil, res2.ConfigMap != nil)
	}
	if diff := cmp.Diff(too, res2.Diagnostics.WithReason(model.ReasonOutputTooLarge)); diff != "" {
		t.Errorf("OutputTooLarge without a UID differs (-with UID +without):\n%s", diff)
	}
	// Under the limit, neither says anything.
	res3, err := ForRegistry(noUID, "", []*corev1.ConfigMap{configMap("big", regLabels, upstreamDoc(servers...))}, Options{LastUpdated: now, MaxOutputBytes: len(res.ConfigMap.Data[OutputKey]) + len(OutputKey)})
	if err != nil {
		t.Fatal(err)
	}
	if too := res3.Diagnostics.WithReason(model.ReasonOutputTooLarge); len(too) != 0 {
		t.Errorf("a document that just fits: %v", too)
	}
}

// TestOutputTooLargeIndentedData: an MCPRegistry without a UID measures the
// document it would write, compact, not the indented data it was merged
// from: the same ConfigMap with and without a UID gets the same verdict.
func TestOutputTooLargeIndentedData(t *testing.T) {
	var servers []any
	for i := range 200 {
		servers = append(servers, testServer{Name: "io.github.example/server-" + itoa(i), ID: itoa(i), URL: "https://s" + itoa(i) + ".example.com/mcp", Tags: []string{"a", "b"}}.json())
	}
	indented, err := json.MarshalIndent(map[string]any{"version": "1.0.0", "meta": map[string]any{"last_updated": "2024-01-01T00:00:00Z"}, "data": map[string]any{"servers": servers}}, "", "        ")
	if err != nil {
		t.Fatal(err)
	}
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "big", Namespace: testNS, UID: "u-big"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels},
		}}},
	}
	cms := []*corev1.ConfigMap{configMap("big", regLabels, string(indented))}
	res, err := ForRegistry(reg, "", cms, Options{LastUpdated: now})
	if err != nil || res.ConfigMap == nil {
		t.Fatalf("with a UID: ConfigMap %v, error %v", res.ConfigMap != nil, err)
	}
	// A limit the rendered document just fits in, well under the indented data.
	limit := len(res.ConfigMap.Data[OutputKey]) + len(OutputKey)
	if limit >= len(indented) {
		t.Fatalf("the fixture's data (%d bytes) is not larger than the limit %d", len(indented), limit)
	}
	for _, owner := range []*model.MCPRegistry{reg, func() *model.MCPRegistry { r := reg.DeepCopy(); r.UID = ""; return r }()} {
		res, err := ForRegistry(owner, "", cms, Options{LastUpdated: now, MaxOutputBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		if too := res.Diagnostics.WithReason(model.ReasonOutputTooLarge); len(too) != 0 {
			t.Errorf("UID %q: a document that just fits: %v", owner.UID, too)
		}
		res, err = ForRegistry(owner, "", cms, Options{LastUpdated: now, MaxOutputBytes: limit - 1})
		if err != nil {
			t.Fatal(err)
		}
		if too := res.Diagnostics.WithReason(model.ReasonOutputTooLarge); len(too) != 1 {
			t.Errorf("UID %q: a document one byte over: %v", owner.UID, too)
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestHash(t *testing.T) {
	cms := []*corev1.ConfigMap{
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"}, testServer{Name: "io.ex/bb", ID: "b"})),
	}
	r1 := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now})
	r2 := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now.Add(time.Hour)})
	if r1.Hash == "" || r1.Hash != r2.Hash {
		t.Errorf("hash depends on last_updated: %q vs %q", r1.Hash, r2.Hash)
	}
	if len(r1.Hash) != 64 {
		t.Errorf("hash %q is not SHA-256 hex", r1.Hash)
	}
	reversed := slices.Clone(r1.Registry.Servers)
	slices.Reverse(reversed)
	if Hash(reversed) != r1.Hash {
		t.Error("Hash depends on the order of servers")
	}
	if !slices.IsSortedFunc(r1.Registry.Servers, compareServers) || reversed[0].Name() != "io.ex/bb" {
		t.Error("Hash sorted its argument in place")
	}
	cms2 := []*corev1.ConfigMap{configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a2"}, testServer{Name: "io.ex/bb", ID: "b"}))}
	if r3 := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms2, LastUpdated: now}); r3.Hash == r1.Hash {
		t.Error("hash does not see a changed server")
	}
	if Hash(nil) != Hash([]*model.Server{}) {
		t.Error("nil and empty hash differently")
	}
}

func TestMergeDoesNotChangeInputs(t *testing.T) {
	cms := []*corev1.ConfigMap{
		configMap("team-a", regLabels, upstreamDoc(testServer{Name: "io.ex/ss", ID: "a", Description: ptr(strings.Repeat("d", 150))})),
		{ObjectMeta: metav1.ObjectMeta{Name: "team-b", Namespace: testNS, Labels: regLabels},
			BinaryData: map[string][]byte{"registry.json": []byte(upstreamDoc(testServer{Name: "io.ex/ss", ID: "b"}))}},
	}
	before, _ := json.Marshal(cms)
	res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now})
	if res.Registry == nil {
		t.Fatal(res.Diagnostics)
	}
	after, _ := json.Marshal(cms)
	if string(before) != string(after) {
		t.Error("Merge changed its input ConfigMaps")
	}
}

func TestConfigMapEntry(t *testing.T) {
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{
			{Name: "git", Git: &model.GitSource{Repository: "https://x"}},
			{Name: "sel", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels}},
		}},
	}
	if i, err := ConfigMapEntry(reg, ""); err != nil || i != 1 {
		t.Errorf(`ConfigMapEntry("") = %d, %v; want 1`, i, err)
	}
	if _, err := ConfigMapEntry(reg, "git"); err == nil || !strings.Contains(err.Error(), "no ConfigMap source") {
		t.Errorf(`ConfigMapEntry("git") error = %v`, err)
	}
	if _, err := ConfigMapEntry(reg, "nope"); err == nil || !strings.Contains(err.Error(), `"sel"`) {
		t.Errorf(`ConfigMapEntry("nope") error = %v; want it to list "sel"`, err)
	}
	reg.Spec.Registries = append(reg.Spec.Registries, model.MCPRegistryConfig{Name: "ref", ConfigMapRef: cmRef("cm", "")})
	if _, err := ConfigMapEntry(reg, ""); err == nil || !strings.Contains(err.Error(), "2 entries") {
		t.Errorf(`ConfigMapEntry("") with two candidates: error = %v`, err)
	}
	// An entry with several sources, one of them a ConfigMap: no result,
	// and an Error that says why (as the API server's validation would).
	for name, set := range map[string]func(c *model.MCPRegistryConfig){
		"configMapRef and configMapSelector": func(c *model.MCPRegistryConfig) { c.ConfigMapRef = cmRef("cm", "") },
		"configMapSelector and git":          func(c *model.MCPRegistryConfig) { c.Git = &model.GitSource{Repository: "https://x"} },
	} {
		bad := reg.DeepCopy()
		set(&bad.Spec.Registries[1])
		res, err := ForRegistry(bad, "sel", nil, Options{})
		errs := res.Diagnostics.WithSeverity(model.SeverityError)
		if err != nil || res.Registry != nil || len(errs) != 1 || errs[0].Reason != model.ReasonSourceNotMergeable || errs[0].Field != "spec.registries[1]" {
			t.Errorf("ForRegistry of an entry with %s: %v, registry %v, diagnostics %v; want one SourceNotMergeable error on spec.registries[1]", name, err, res.Registry != nil, res.Diagnostics)
		}
	}
	reg.Spec.Registries = reg.Spec.Registries[:1]
	if _, err := ConfigMapEntry(reg, ""); err == nil {
		t.Error("ConfigMapEntry found an entry in a registry without ConfigMap sources")
	}
}

func TestForRegistryBadFormat(t *testing.T) {
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: testNS},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", Format: "yaml", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels},
		}}},
	}
	res, err := ForRegistry(reg, "", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Registry != nil || reasons(res) != "UnknownFormat" || res.Diagnostics[0].Field != "spec.registries[0].format" {
		t.Errorf("result %v %v", names(res), res.Diagnostics)
	}
}

// TestForRegistryDocument: the output ConfigMap holds the document compact,
// with a newline — the same document the CLI prints indented — and the hash
// taken from its bytes is Hash of the servers.
func TestForRegistryDocument(t *testing.T) {
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: testNS, UID: "u-r"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels},
		}}},
	}
	indented := "{\n  \"data\": {\"servers\": [\n    {\"name\": \"io.ex/bb\", \"description\": \"b <&>\", \"version\": \"1.0.0\", \"x-id\": [1, {\"k\": null}]}\n  ]}\n}"
	cms := []*corev1.ConfigMap{
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a", URL: "https://a.example.com/mcp"}, testServer{Name: "io.ex/cc", ID: "c"})),
		configMap("b", regLabels, indented),
		configMap("c", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a2"})), // renamed: no longer the bytes read
	}
	res, err := ForRegistry(reg, "", cms, Options{LastUpdated: now})
	if err != nil || res.ConfigMap == nil {
		t.Fatalf("no ConfigMap: %v %v", err, res.Diagnostics)
	}
	doc := res.ConfigMap.Data[OutputKey]
	if want := string(res.Registry.AppendJSON(nil)) + "\n"; doc != want {
		t.Errorf("ConfigMap document\n%s\nwant AppendJSON's\n%s", doc, want)
	}
	var compact, indentedOut any
	if err := json.Unmarshal([]byte(doc), &compact); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(res.Document(), &indentedOut); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(indentedOut, compact); diff != "" {
		t.Errorf("the ConfigMap and the CLI documents differ (-cli +configmap):\n%s", diff)
	}
	if strings.Contains(doc[:len(doc)-1], "\n") {
		t.Error("the ConfigMap document is not compact")
	}
	if h := Hash(res.Registry.Servers); res.Hash != h || res.ConfigMap.Annotations[HashAnnotation] != h {
		t.Errorf("hash %q, annotation %q, Hash of the servers %q", res.Hash, res.ConfigMap.Annotations[HashAnnotation], h)
	}
	if plain := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now}); plain.Hash != res.Hash {
		t.Errorf("Merge's hash %q differs from ForRegistry's %q", plain.Hash, res.Hash)
	}
}

// TestVersionsStrategy: one name in several versions stays one server with
// several entries, sorted by version; the hash of the rendered document is
// Hash of its servers; the same version twice falls back to priority.
func TestVersionsStrategy(t *testing.T) {
	src := Source{Namespace: testNS, Selector: regSelector, Strategy: StrategyVersions}
	cms := []*corev1.ConfigMap{
		configMap("b", regLabels, upstreamDoc(testServer{Name: "io.ex/ss", Version: "2.0.0", ID: "b1"}, testServer{Name: "io.ex/ss", Version: "10.0.0", ID: "b2"})),
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/ss", Version: "1.0.0", ID: "a1"}, testServer{Name: "io.ex/ss", Version: "2.0.0", ID: "a2"})),
	}
	res := Merge(src, cms, Options{LastUpdated: now})
	var got []string
	for _, s := range res.Registry.Servers {
		got = append(got, s.Name()+"@"+s.Version()+"="+serverID(s))
	}
	// Sorted by version as a string, the order Hash uses; a2 wins 2.0.0
	// (ConfigMap a comes first by name).
	want := []string{"io.ex/ss@1.0.0=a1", "io.ex/ss@10.0.0=b2", "io.ex/ss@2.0.0=a2"}
	if !slices.Equal(got, want) {
		t.Errorf("servers %q, want %q", got, want)
	}
	if r := reasons(res); r != "NameConflict,NameConflict,ConflictShadowed,NameConflict" {
		t.Errorf("reasons %s: %v", r, res.Diagnostics)
	}
	if ds := model.ValidateJSON(res.Document(), model.ObjectRef{Kind: "Test"}); ds.HasErrors() {
		t.Errorf("invalid: %v", ds)
	}
	reg := &model.MCPRegistry{ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: testNS, UID: "u"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{Name: "e", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regSelector.MatchLabels}}}}}
	fr, err := ForRegistry(reg, "", cms, Options{Strategy: StrategyVersions, LastUpdated: now})
	if err != nil {
		t.Fatal(err)
	}
	if fr.Hash != Hash(fr.Registry.Servers) || fr.Hash != res.Hash {
		t.Errorf("hash %s, Hash %s, Merge %s", fr.Hash, Hash(fr.Registry.Servers), res.Hash)
	}
	// Under another strategy the same input is a conflict as before.
	if r := reasons(Merge(Source{Namespace: testNS, Selector: regSelector, Strategy: StrategyPriority}, cms, Options{LastUpdated: now})); !strings.Contains(r, "DuplicateServer") {
		t.Errorf("priority: %s", r)
	}
}

// TestRenamedNameGetsOfficialWarning: a name the prefix rule makes gets the
// warning a name read gets when only the official registry's stricter rule
// refuses it: ConfigMap "x" gives "x/foo", one character before the "/".
func TestRenamedNameGetsOfficialWarning(t *testing.T) {
	s := testServer{Name: "io.xx/foo", Description: ptr("d"), ID: "a"}
	res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, LastUpdated: now, ConfigMaps: []*corev1.ConfigMap{
		configMap("x", regLabels, upstreamDoc(s)),
		configMap("yy", regLabels, upstreamDoc(s)),
	}})
	if got := names(res); !slices.Equal(got, []string{"x/foo", "yy/foo"}) {
		t.Fatalf("names %v", got)
	}
	var warned []string
	for _, d := range res.Diagnostics.WithReason(model.ReasonInvalidEntry) {
		if d.Severity == model.SeverityWarning && strings.Contains(d.Message, "official MCP registry") {
			warned = append(warned, d.Object.Name+" "+d.Field)
		}
	}
	if want := []string{"x data[registry.json].data.servers[0].name"}; !slices.Equal(warned, want) {
		t.Errorf("official-name warnings on %v, want %v; all: %v", warned, want, res.Diagnostics)
	}
}

// TestForRegistryWithoutConfigMapSource: an MCPRegistry that names no
// ConfigMap source gives no result and an Error that says so, not an error
// value: it is a fact about the object, not a wrong call.
func TestForRegistryWithoutConfigMapSource(t *testing.T) {
	for name, reg := range map[string]*model.MCPRegistry{
		"v1beta1": {TypeMeta: metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1beta1", Kind: "MCPRegistry"},
			ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns"}, Spec: model.MCPRegistrySpec{ConfigYAML: "sources: []\n"}},
		"no registries": {ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns"}},
		"git only": {ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns"},
			Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{Name: "g", Git: &model.GitSource{Repository: "https://x"}}}}},
	} {
		res, err := ForRegistry(reg, "", nil, Options{})
		errs := res.Diagnostics.WithSeverity(model.SeverityError)
		if err != nil || res.Registry != nil || len(errs.WithReason(model.ReasonNoConfigMapSource)) != 1 {
			t.Errorf("%s: %v, registry %v, diagnostics %v; want one NoConfigMapSource error", name, err, res.Registry != nil, res.Diagnostics)
		}
	}
}

// TestStandInDescriptionOnlyForWrittenEntries: an entry without a
// description gets the stand-in and a MissingDescription Info only when it
// reaches the output; one dropped on the way (a bad name, a duplicate in its
// ConfigMap, shadowed by another ConfigMap, removed by the filter) has its
// drop as its one diagnostic, or none for the filter, which the result's
// Filtered lists.
func TestStandInDescriptionOnlyForWrittenEntries(t *testing.T) {
	doc := func(entries ...string) string {
		return `{"version":"1.0.0","meta":{"last_updated":"2024-01-01T00:00:00Z"},"data":{"servers":[` + strings.Join(entries, ",") + `]}}`
	}
	bare := func(name string) string {
		return `{"name":"` + name + `","version":"1.0.0","remotes":[{"type":"sse","url":"https://` + strings.NewReplacer("/", ".", " ", "-").Replace(name) + `.example.com/sse"}]}`
	}
	tests := []struct {
		name   string
		in     testInput
		want   []string // output names
		infos  []string // fields of the MissingDescription Infos
		others string   // the other reasons, sorted as Diagnostics are
	}{
		{
			name: "a bad name: the InvalidEntry alone",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, doc(bare("io.ex/bad name"), bare("io.ex/good"))),
			}},
			want:   []string{"io.ex/good"},
			infos:  []string{"data[registry.json].data.servers[1].description"},
			others: "InvalidEntry,PartialSyncFailure",
		},
		{
			name: "a duplicate in its ConfigMap: the DuplicateServer alone",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, doc(bare("io.ex/one"), bare("io.ex/one"))),
			}},
			want:   []string{"io.ex/one"},
			infos:  []string{"data[registry.json].data.servers[0].description"},
			others: "DuplicateServer",
		},
		{
			name: "shadowed by another ConfigMap: the ConflictShadowed alone",
			in: testInput{Namespace: testNS, Selector: regSelector, Strategy: StrategyPriority, ConfigMaps: []*corev1.ConfigMap{
				configMap("a", regLabels, doc(bare("io.ex/one"))),
				configMap("b", regLabels, doc(bare("io.ex/one"))),
			}},
			want:   []string{"io.ex/one"},
			infos:  []string{"data[registry.json].data.servers[0].description"},
			others: "ConflictShadowed",
		},
		{
			name: "renamed copies are written, each with its Info",
			in: testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
				configMap("aa", regLabels, doc(bare("io.ex/one"))),
				configMap("bb", regLabels, doc(bare("io.ex/one"))),
			}},
			want:   []string{"aa/one", "bb/one"},
			infos:  []string{"data[registry.json].data.servers[0].description", "data[registry.json].data.servers[0].description"},
			others: "NameConflict,NameConflict",
		},
		{
			name: "removed by the filter: no Info",
			in: testInput{Namespace: testNS, Selector: regSelector, Filter: &model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"*/gone"}}},
				ConfigMaps: []*corev1.ConfigMap{configMap("a", regLabels, doc(bare("io.ex/gone"), bare("io.ex/kept")))}},
			want:  []string{"io.ex/kept"},
			infos: []string{"data[registry.json].data.servers[1].description"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mergeIn(tt.in)
			if got := names(res); !slices.Equal(got, tt.want) {
				t.Fatalf("names = %q, want %q", got, tt.want)
			}
			var infos, others []string
			for _, d := range res.Diagnostics {
				if d.Reason == model.ReasonMissingDescription {
					infos = append(infos, d.Field)
					continue
				}
				if d.Severity != model.SeverityInfo || d.Reason == model.ReasonNameConflict {
					others = append(others, string(d.Reason))
				}
			}
			if !slices.Equal(infos, tt.infos) {
				t.Errorf("MissingDescription fields = %q, want %q\n%v", infos, tt.infos, res.Diagnostics)
			}
			if got := strings.Join(others, ","); got != tt.others {
				t.Errorf("other reasons = %q, want %q\n%v", got, tt.others, res.Diagnostics)
			}
		})
	}
}

// TestDroppedRenamedCopySaysBothNames: a prefixed copy dropped for a remote
// URL another server holds is named in its one diagnostic by both names, the
// one it was read with and the one it would have had.
func TestDroppedRenamedCopySaysBothNames(t *testing.T) {
	u := func(name, id, url string) testServer { return testServer{Name: name, ID: id, URL: url} }
	res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: []*corev1.ConfigMap{
		configMap("team-0", regLabels, upstreamDoc(u("io.z/gateway", "z", "https://api.example.com/mcp"))),
		configMap("team-a", regLabels, upstreamDoc(u("io.x/api", "a", "https://api.example.com/mcp"))),
		configMap("team-b", regLabels, upstreamDoc(u("io.x/api", "b", "https://api.example.com/mcp"))),
	}})
	for _, d := range res.Diagnostics {
		if d.Reason == model.ReasonDuplicateRemoteURL && !strings.Contains(d.Message, `(renamed from "io.x/api" for a conflict)`) {
			t.Errorf("%v: does not say the name it was read with", d)
		}
	}
}
