package merge

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// The test fixtures: ConfigMaps in namespace "ns" labelled reg=true, holding
// upstream documents built from testServer values.

const testNS = "ns"

var regLabels = map[string]string{"reg": "true"}

var regSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"reg": "true"}}

// testServer is one upstream entry of a fixture. ID is written as the
// unknown member "x-id", which the merge must pass through unchanged, so
// tests can follow an entry through renames.
type testServer struct {
	Name        string
	Description *string
	Version     string
	ID          string
	URL         string
	Tags        []string
	// Schema writes "$schema" first, as published entries have it: an
	// entry read compact then keeps its text, which the merge hashes and
	// writes in place.
	Schema bool
}

func (s testServer) json() map[string]any {
	m := map[string]any{"name": s.Name, "version": s.Version}
	if s.Version == "" {
		m["version"] = "1.0.0"
	}
	if s.Description != nil {
		m["description"] = *s.Description
	} else {
		m["description"] = "server " + s.ID
	}
	if s.Schema {
		m["$schema"] = model.ServerSchemaURL
	}
	if s.ID != "" {
		m["x-id"] = s.ID
	}
	if s.URL != "" {
		m["remotes"] = []any{map[string]any{"type": "streamable-http", "url": s.URL}}
	}
	if len(s.Tags) > 0 {
		m["_meta"] = map[string]any{"io.modelcontextprotocol.registry/publisher-provided": map[string]any{
			"com.example": map[string]any{"x": map[string]any{"tags": s.Tags}}}}
	}
	return m
}

func upstreamDoc(servers ...testServer) string {
	list := make([]any, len(servers))
	for i, s := range servers {
		list[i] = s.json()
	}
	b, err := json.Marshal(map[string]any{"version": "1.0.0", "meta": map[string]any{"last_updated": "2024-01-01T00:00:00Z"}, "data": map[string]any{"servers": list}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func configMap(name string, labels map[string]string, data string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, Labels: labels},
		Data:       map[string]string{"registry.json": data},
	}
}

func names(r Result) []string {
	if r.Registry == nil {
		return nil
	}
	var out []string
	for _, s := range r.Registry.Servers {
		out = append(out, s.Name())
	}
	return out
}

func reasons(r Result) string {
	var out []string
	for _, d := range r.Diagnostics {
		out = append(out, string(d.Reason))
	}
	return strings.Join(out, ",")
}

func ptr[T any](v T) *T { return &v }

func serverID(s interface {
	Get(string) (json.RawMessage, bool)
}) string {
	raw, ok := s.Get("x-id")
	if !ok {
		return ""
	}
	var id string
	_ = json.Unmarshal(raw, &id)
	return id
}

func idf(cm, i int) string { return fmt.Sprintf("c%d-e%d", cm, i) }

// testInput is a merge as one value, the settings of Source and Options and
// the ConfigMaps side by side, so that table rows stay short.
type testInput struct {
	Owner            model.ObjectRef
	OwnerField       string
	Namespace        string
	ConfigMaps       []*corev1.ConfigMap
	Selector         *metav1.LabelSelector
	Name             string
	Key              string
	Format           model.Format
	DefaultNamespace string
	Strategy         Strategy
	Filter           *model.RegistryFilter
	LastUpdated      time.Time
	MaxMetaSize      int
}

// mergeIn runs Merge on a testInput.
func mergeIn(in testInput) Result {
	return Merge(Source{
		Owner: in.Owner, Field: in.OwnerField, Namespace: in.Namespace, Selector: in.Selector, Name: in.Name,
		Key: in.Key, Format: in.Format, Filter: in.Filter, Strategy: in.Strategy,
	}, in.ConfigMaps, Options{DefaultNamespace: in.DefaultNamespace, LastUpdated: in.LastUpdated, MaxMetaSize: in.MaxMetaSize})
}

// cmRef is a configMapRef as ToolHive spells it.
func cmRef(name, key string) *corev1.ConfigMapKeySelector {
	return &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
}
