package merge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/internal/manifest"
	"github.com/mcpreg/mcpreg/model"
)

// goldenDir holds one directory per case: manifests (ConfigMaps, MCPRegistries),
// an optional options.yaml, and the expected want.json (absent when no
// document results), want-diagnostics.txt and, for MCPRegistry cases,
// want-configmap.yaml.
const goldenDir = "../testdata/merge"

// caseOptions is options.yaml of a golden case. Without Selector or Name the
// case merges for the MCPRegistry (by name, or the only one) with ForRegistry.
type caseOptions struct {
	MCPRegistry    string                `json:"mcpregistry"`
	Entry          string                `json:"entry"`
	Namespace      string                `json:"namespace"`
	Selector       string                `json:"selector"`
	Name           string                `json:"name"`
	Key            string                `json:"key"`
	Format         string                `json:"format"`
	Strategy       string                `json:"strategy"`
	Filter         *model.RegistryFilter `json:"filter"`
	MaxOutputBytes int                   `json:"maxOutputBytes"`
	MaxMetaSize    int                   `json:"maxMetaSize"`
	// SourcesOnly runs SourcesFor on the MCPRegistry instead of a merge:
	// its diagnostics are the case's output.
	SourcesOnly bool `json:"sourcesOnly"`
}

var goldenNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func loadOptions(t *testing.T, dir string) caseOptions {
	t.Helper()
	var o caseOptions
	data, err := os.ReadFile(filepath.Join(dir, "options.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		return o
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, &o); err != nil {
		t.Fatalf("options.yaml: %v", err)
	}
	return o
}

// runCase merges a golden case as its options say.
func runCase(t *testing.T, objs *manifest.Objects, o caseOptions) Result {
	t.Helper()
	strategy, err := ParseStrategy(o.Strategy)
	if err != nil {
		t.Fatal(err)
	}
	if o.Selector == "" && o.Name == "" {
		var reg *model.MCPRegistry
		for _, r := range objs.MCPRegistries {
			if o.MCPRegistry == "" || r.Name == o.MCPRegistry {
				if reg != nil {
					t.Fatalf("several MCPRegistries match; set mcpregistry in options.yaml")
				}
				reg = r
			}
		}
		if reg == nil {
			t.Fatal("no MCPRegistry in the case")
		}
		if o.SourcesOnly {
			_, ds := SourcesFor(reg)
			return Result{Diagnostics: ds}
		}
		res, err := ForRegistry(reg, o.Entry, objs.ConfigMaps, Options{Strategy: strategy, LastUpdated: goldenNow, MaxOutputBytes: o.MaxOutputBytes, MaxMetaSize: o.MaxMetaSize})
		if err != nil {
			t.Fatalf("ForRegistry: %v", err)
		}
		return res
	}
	format, err := model.ParseFormat(o.Format)
	if err != nil {
		t.Fatal(err)
	}
	in := testInput{
		Namespace:   o.Namespace,
		ConfigMaps:  objs.ConfigMaps,
		Name:        o.Name,
		Key:         o.Key,
		Format:      format,
		Strategy:    strategy,
		Filter:      o.Filter,
		LastUpdated: goldenNow,
		MaxMetaSize: o.MaxMetaSize,
	}
	if o.Selector != "" {
		if in.Selector, err = metav1.ParseToLabelSelector(o.Selector); err != nil {
			t.Fatal(err)
		}
	}
	return mergeIn(in)
}

func diagnosticLines(ds model.Diagnostics) []byte {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// checkAbsent fails when a golden file exists that the case should not have,
// or removes it with -update.
func checkAbsent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		if golden.Update() {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s exists but the case produced none", path)
	}
}

// TestGolden runs every case of testdata/merge and checks that, together,
// they show every reason a merge reports (docs/diagnostics.md).
func TestGolden(t *testing.T) {
	seen := map[model.Reason]bool{}
	for _, dir := range golden.Cases(t, goldenDir) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			objs := golden.LoadObjects(t, dir)
			o := loadOptions(t, dir)
			res := runCase(t, objs, o)
			for _, d := range res.Diagnostics {
				seen[d.Reason] = true
			}
			golden.Check(t, filepath.Join(dir, "want-diagnostics.txt"), diagnosticLines(res.Diagnostics))
			if doc := res.Document(); doc != nil {
				golden.Check(t, filepath.Join(dir, "want.json"), doc)
				if ds := model.ValidateJSON(doc, model.ObjectRef{Kind: "File", Name: "want.json"}); ds.HasErrors() {
					t.Errorf("the merged document breaks the upstream rules:\n%s", diagnosticLines(ds))
				}
			} else {
				checkAbsent(t, filepath.Join(dir, "want.json"))
				if !res.Diagnostics.HasErrors() && !o.SourcesOnly {
					t.Error("no document and no Error diagnostic")
				}
			}
			if res.ConfigMap != nil {
				y, err := yaml.Marshal(res.ConfigMap)
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join(dir, "want-configmap.yaml"), y)
			} else {
				checkAbsent(t, filepath.Join(dir, "want-configmap.yaml"))
			}
		})
	}
	for _, r := range mergeReasons {
		if !seen[r] {
			t.Errorf("no golden case shows %s", r)
		}
	}
}

// TestGoldenOutputsMergeAlone checks, on every golden case that gives a
// document, that merging the document alone gives it back byte for byte: a
// registry built by one merge is a fixed point of the next, whatever shapes
// (renamed copies, shared URLs, versions) it holds.
func TestGoldenOutputsMergeAlone(t *testing.T) {
	for _, dir := range golden.Cases(t, goldenDir) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			o := loadOptions(t, dir)
			doc, err := os.ReadFile(filepath.Join(dir, "want.json"))
			if errors.Is(err, os.ErrNotExist) {
				t.Skip("the case gives no document")
			}
			if err != nil {
				t.Fatal(err)
			}
			strategy, err := ParseStrategy(o.Strategy)
			if err != nil {
				t.Fatal(err)
			}
			self := mergeIn(testInput{Namespace: testNS, Selector: regSelector, LastUpdated: goldenNow, Strategy: strategy,
				MaxMetaSize: o.MaxMetaSize, ConfigMaps: []*corev1.ConfigMap{configMap("merged", regLabels, string(doc))}})
			if got := self.Document(); string(got) != string(doc) {
				t.Errorf("merging want.json alone changed it:\n%s\ndiagnostics:\n%s", got, diagnosticLines(self.Diagnostics))
			}
		})
	}
}

// mergeReasons are the reasons a merge reports (docs/diagnostics.md).
var mergeReasons = []model.Reason{
	model.ReasonInvalidSelector, model.ReasonNoConfigMapsSelected, model.ReasonMissingKey,
	model.ReasonInvalidJSON, model.ReasonUnknownFormat, model.ReasonInvalidEntry,
	model.ReasonDuplicateServer, model.ReasonNameConflict, model.ReasonConflictShadowed,
	model.ReasonConflictError, model.ReasonNameCollision, model.ReasonNameTooLong,
	model.ReasonDescriptionTooLong, model.ReasonPartialSyncFailure, model.ReasonOutputTooLarge,
	model.ReasonInvalidFilter, model.ReasonMissingDescription, model.ReasonDuplicateRemoteURL,
	model.ReasonSourceNotMergeable, model.ReasonNoConfigMapSource, model.ReasonDuplicateKey,
}
