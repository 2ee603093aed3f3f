// Command registry-server is an example of serving a discovered MCP
// registry: it keeps discovery's watch Index up to date from a stream of
// watch events, rebuilds the registry when an event affects an entry, and
// serves the upstream registry API's list endpoint (GET /v0/servers) and
// detail endpoint (GET /v0/servers/{name}/versions/{version}).
//
// The events come from a watch.Interface, as a client's Watch returns them;
// main feeds it a fake watcher (the one client-go's fake clientsets use)
// with one exported MCPServerEntry, so the example runs without a cluster:
//
//	go run .                               # serves on :8080 (ADDR to change)
//	curl localhost:8080/v0/servers
//	curl localhost:8080/v0/servers/dev.stacklok.toolhive%2Fcatalog.context7/versions/latest
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/watch"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/model"
)

// Registry is the served registry and the index that keeps it fresh. The
// index is not safe for concurrent use, so every event is applied under mu;
// HTTP handlers only read the current document.
type Registry struct {
	opts discovery.Options

	mu    sync.Mutex
	index *discovery.Index
	doc   *model.Registry
	diags model.Diagnostics
	// Rebuilds counts the discoveries run: events that affect no entry run
	// none.
	Rebuilds int
}

// NewRegistry builds the index from the objects the listers hold and
// discovers the first document.
func NewRegistry(opts discovery.Options, objs ...any) (*Registry, error) {
	ix, err := discovery.NewIndex(opts, objs...)
	if err != nil {
		return nil, err
	}
	r := &Registry{opts: opts, index: ix}
	r.rebuild()
	return r, nil
}

func (r *Registry) rebuild() {
	res := discovery.Discover(r.index.Snapshot(), r.opts)
	r.doc, r.diags = res.Registry, res.Diagnostics
	r.Rebuilds++
}

// Apply records one watch event; when it may change an entry, the registry
// is discovered again. It returns the resources the event affected.
func (r *Registry) Apply(ev watch.Event) ([]model.ObjectRef, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var affected []model.ObjectRef
	var err error
	switch ev.Type {
	case watch.Added:
		if affected, err = r.index.AffectedBy(ev.Object); err == nil {
			err = r.index.Add(ev.Object)
		}
	case watch.Modified:
		old, _ := r.index.Get(ev.Object)
		if affected, err = r.index.AffectedByChange(old, ev.Object); err == nil {
			err = r.index.Update(old, ev.Object)
		}
	case watch.Deleted:
		if affected, err = r.index.AffectedBy(ev.Object); err == nil {
			err = r.index.Delete(ev.Object)
		}
	default:
		return nil, nil // bookmarks and errors carry no object to record
	}
	if err != nil {
		return nil, err
	}
	if len(affected) > 0 {
		r.rebuild()
	}
	return affected, nil
}

// Run applies the events of w until it stops, reporting errors to onError.
func (r *Registry) Run(w watch.Interface, onError func(error)) {
	for ev := range w.ResultChan() {
		if _, err := r.Apply(ev); err != nil && onError != nil {
			onError(err)
		}
	}
}

func (r *Registry) current() *model.Registry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.doc
}

// ServeHTTP serves GET /v0/servers (query: cursor, limit) and GET
// /v0/servers/{name}/versions/{version}.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	doc := r.current()
	if doc == nil {
		http.Error(w, "no registry", http.StatusServiceUnavailable)
		return
	}
	path := req.URL.EscapedPath()
	if path == "/v0/servers" {
		limit := 0
		if v := req.URL.Query().Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > model.MaxPageLimit {
				http.Error(w, fmt.Sprintf("limit must be 1 to %d", model.MaxPageLimit), http.StatusBadRequest)
				return
			}
			limit = n
		}
		writeJSON(w, model.ListServers(doc, req.URL.Query().Get("cursor"), limit))
		return
	}
	rest, ok := strings.CutPrefix(path, "/v0/servers/")
	name, version, ok2 := strings.Cut(rest, "/versions/")
	if !ok || !ok2 {
		http.NotFound(w, req)
		return
	}
	name, err1 := url.PathUnescape(name)
	version, err2 := url.PathUnescape(version)
	if err1 != nil || err2 != nil {
		http.Error(w, "bad escape in path", http.StatusBadRequest)
		return
	}
	s, found := model.GetServer(doc, name, version)
	if !found {
		http.NotFound(w, req)
		return
	}
	writeJSON(w, s)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
