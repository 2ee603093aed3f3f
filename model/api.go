package model

import (
	"sort"
)

// The response bodies of the upstream MCP registry API (the generic registry
// API every registry serves: GET /v0/servers, GET
// /v0/servers/{serverName}/versions/{version}), for a server that publishes
// a Registry. They are plain JSON types: the library serves nothing itself.

// OfficialMetaKey is the _meta key under which a registry writes its own
// metadata about a server in API responses.
const OfficialMetaKey = "io.modelcontextprotocol.registry/official"

// ServerResponse is one server as the API returns it: the entry as
// published, and the registry's metadata about it.
type ServerResponse struct {
	Server *Server      `json:"server"`
	Meta   ResponseMeta `json:"_meta"`
}

// ResponseMeta is the _meta of a ServerResponse.
type ResponseMeta struct {
	Official *OfficialMeta `json:"io.modelcontextprotocol.registry/official,omitempty"`
}

// OfficialMeta is what the registry says of a server: its status (active,
// deprecated or deleted), when it was published and last updated (RFC 3339),
// and whether this version is the latest of the server.
type OfficialMeta struct {
	Status      string `json:"status"`
	PublishedAt string `json:"publishedAt,omitempty"`
	UpdatedAt   string `json:"updatedAt,omitempty"`
	IsLatest    bool   `json:"isLatest"`
}

// ServerList is the body of GET /v0/servers: one page of servers and the
// pagination metadata.
type ServerList struct {
	Servers  []ServerResponse `json:"servers"`
	Metadata ListMetadata     `json:"metadata"`
}

// ListMetadata is the pagination of a ServerList: the cursor of the next
// page (empty on the last page) and the number of servers in this page.
type ListMetadata struct {
	NextCursor string `json:"nextCursor,omitempty"`
	Count      int    `json:"count"`
}

// Page limits of ListServers: the API's default page size and the most a
// request may ask for.
const (
	DefaultPageLimit = 30
	MaxPageLimit     = 100
)

// ListServers returns one page of reg's servers as GET /v0/servers serves
// it: servers sorted by name then version, starting after cursor (the
// NextCursor of the previous page, "" for the first), at most limit of them
// (DefaultPageLimit when limit <= 0, MaxPageLimit at most). Each server is
// marked active, latest when no later server of its name follows, with
// updatedAt the registry's last_updated. The cursor is the last server's
// name and version; callers treat it as opaque. The servers are shared
// with reg, not copied.
func ListServers(reg *Registry, cursor string, limit int) ServerList {
	if limit <= 0 {
		limit = DefaultPageLimit
	}
	limit = min(limit, MaxPageLimit)
	out := ServerList{Servers: []ServerResponse{}}
	if reg == nil {
		return out
	}
	servers := make([]*Server, 0, len(reg.Servers))
	for _, s := range reg.Servers {
		if s != nil {
			servers = append(servers, s)
		}
	}
	key := func(s *Server) string { return s.Name() + "\x00" + s.Version() }
	sort.SliceStable(servers, func(i, j int) bool { return key(servers[i]) < key(servers[j]) })
	start := sort.Search(len(servers), func(i int) bool { return key(servers[i]) > cursor })
	if cursor == "" {
		start = 0
	}
	end := min(start+limit, len(servers))
	for i := start; i < end; i++ {
		s := servers[i]
		latest := i+1 >= len(servers) || servers[i+1].Name() != s.Name()
		out.Servers = append(out.Servers, ServerResponse{Server: s, Meta: ResponseMeta{Official: &OfficialMeta{
			Status: "active", UpdatedAt: reg.LastUpdated, IsLatest: latest,
		}}})
	}
	out.Metadata.Count = len(out.Servers)
	if end < len(servers) && end > start {
		out.Metadata.NextCursor = key(servers[end-1])
	}
	return out
}

// GetServer returns the server of that name and version as GET
// /v0/servers/{serverName}/versions/{version} serves it ("latest" names the
// last version in name-then-version order), and false when there is none.
func GetServer(reg *Registry, name, version string) (ServerResponse, bool) {
	if reg == nil {
		return ServerResponse{}, false
	}
	list := ListServers(&Registry{LastUpdated: reg.LastUpdated, Servers: matching(reg.Servers, name)}, "", MaxPageLimit)
	for i := len(list.Servers) - 1; i >= 0; i-- {
		r := list.Servers[i]
		if version == "latest" && r.Meta.Official.IsLatest || r.Server.Version() == version {
			return r, true
		}
	}
	return ServerResponse{}, false
}

func matching(servers []*Server, name string) []*Server {
	var out []*Server
	for _, s := range servers {
		if s != nil && s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}
