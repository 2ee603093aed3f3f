package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/model"
)

func entry(name, remote string) *model.MCPServerEntry {
	return &model.MCPServerEntry{
		ObjectMeta: metav1.ObjectMeta{Namespace: "catalog", Name: name, Annotations: map[string]string{
			discovery.AnnotationExport: "true", discovery.AnnotationDescription: "Entry " + name}},
		Spec: model.MCPServerEntrySpec{RemoteURL: remote, Transport: model.TransportStreamableHTTP, GroupRef: &model.GroupRef{Name: "vendors"}},
	}
}

func list(t *testing.T, srv *httptest.Server, query string) model.ServerList {
	t.Helper()
	resp, err := http.Get(srv.URL + "/v0/servers" + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v0/servers%s: %s", query, resp.Status)
	}
	var raw struct {
		Servers []struct {
			Server json.RawMessage    `json:"server"`
			Meta   model.ResponseMeta `json:"_meta"`
		} `json:"servers"`
		Metadata model.ListMetadata `json:"metadata"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	out := model.ServerList{Metadata: raw.Metadata}
	for _, s := range raw.Servers {
		var srv model.Server
		if err := srv.UnmarshalJSON(s.Server); err != nil {
			t.Fatal(err)
		}
		out.Servers = append(out.Servers, model.ServerResponse{Server: &srv, Meta: s.Meta})
	}
	return out
}

func names(l model.ServerList) []string {
	var out []string
	for _, s := range l.Servers {
		out = append(out, s.Server.Name())
	}
	return out
}

// TestRegistryServerFollowsEvents: the served list follows the watch
// events of a fake client (created, changed, deleted; unstructured objects
// without TypeMeta included), and events that affect no entry rebuild
// nothing.
func TestRegistryServerFollowsEvents(t *testing.T) {
	reg, err := NewRegistry(discovery.Options{LastUpdated: time.Date(2025, 10, 15, 10, 30, 0, 0, time.UTC)},
		entry("a", "https://a.example.com/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(reg)
	defer srv.Close()
	if got := names(list(t, srv, "")); len(got) != 1 || got[0] != "dev.stacklok.toolhive/catalog.a" {
		t.Fatalf("initial list %v", got)
	}

	events := watch.NewFakeWithChanSize(10, false)
	done := make(chan struct{})
	var errs []error
	go func() { reg.Run(events, func(err error) { errs = append(errs, err) }); close(done) }()
	events.Add(entry("b", "https://b.example.com/mcp"))
	changed := entry("a", "https://a2.example.com/mcp")
	events.Modify(changed)
	// A ConfigMap affects no entry: no rebuild.
	events.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "catalog", Name: "unrelated"}})
	// An object of a kind discovery cannot read is reported, not ignored.
	events.Add(&corev1.Pod{})
	events.Stop()
	<-done
	if len(errs) != 1 {
		t.Errorf("errors %v, want one for the Pod", errs)
	}
	if reg.Rebuilds != 3 {
		t.Errorf("%d discoveries, want 3 (start, b added, a changed)", reg.Rebuilds)
	}
	l := list(t, srv, "?limit=1")
	if l.Metadata.Count != 1 || l.Metadata.NextCursor == "" || l.Servers[0].Server.Remotes()[0].URL != "https://a2.example.com/mcp" {
		t.Errorf("page 1: %+v", l.Metadata)
	}
	l2 := list(t, srv, "?limit=1&cursor="+url.QueryEscape(l.Metadata.NextCursor))
	if got := names(l2); len(got) != 1 || got[0] != "dev.stacklok.toolhive/catalog.b" || l2.Metadata.NextCursor != "" {
		t.Errorf("page 2: %v %+v", got, l2.Metadata)
	}

	// Deleting b through an unstructured object as a dynamic client hands it.
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("toolhive.stacklok.dev/v1beta1")
	u.SetKind(model.KindMCPServerEntry)
	u.SetNamespace("catalog")
	u.SetName("b")
	if _, err := reg.Apply(watch.Event{Type: watch.Deleted, Object: u}); err != nil {
		t.Fatal(err)
	}
	if got := names(list(t, srv, "")); len(got) != 1 || got[0] != "dev.stacklok.toolhive/catalog.a" {
		t.Errorf("after delete: %v", got)
	}

	resp, err := http.Get(srv.URL + "/v0/servers/" + url.PathEscape("dev.stacklok.toolhive/catalog.a") + "/versions/latest")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("detail: %s", resp.Status)
	}
	for _, bad := range []string{"/v0/servers?limit=0", "/v0/servers?limit=x", "/v0/servers/none/versions/latest", "/other"} {
		resp, err := http.Get(srv.URL + bad)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("GET %s: %s", bad, resp.Status)
		}
	}
}
