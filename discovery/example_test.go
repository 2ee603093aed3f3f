package discovery_test

import (
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/model"
)

// An MCPServer exported by its annotations.
func ExampleDiscover() {
	server := &model.MCPServer{ObjectMeta: metav1.ObjectMeta{
		Name:      "my-mcp-server",
		Namespace: "production",
		Annotations: map[string]string{
			discovery.AnnotationExport:      "true",
			discovery.AnnotationURL:         "https://mcp.example.com/servers/my-mcp-server",
			discovery.AnnotationDescription: "Production MCP server for code analysis",
		},
	}}
	res := discovery.Discover(
		discovery.Snapshot{MCPServers: []*model.MCPServer{server}},
		discovery.Options{LastUpdated: time.Date(2025, 10, 15, 10, 30, 0, 0, time.UTC)},
	)
	for _, e := range res.Entries {
		fmt.Println(e.Name, e.Resources)
		fmt.Println(string(e.Server.AppendJSON(nil)))
	}
	fmt.Println(len(res.Diagnostics), "diagnostics")
	// Output:
	// dev.stacklok.toolhive/production.my-mcp-server [MCPServer/production/my-mcp-server]
	// {"name":"dev.stacklok.toolhive/production.my-mcp-server","description":"Production MCP server for code analysis","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://mcp.example.com/servers/my-mcp-server"}]}
	// 0 diagnostics
}

// Two resources that would get one name: the MCPServer keeps it.
func ExampleDiscover_duplicateName() {
	meta := func(url string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: "x", Namespace: "ns", Annotations: map[string]string{
			discovery.AnnotationExport: "true", discovery.AnnotationURL: url, discovery.AnnotationDescription: "x",
		}}
	}
	res := discovery.Discover(discovery.Snapshot{
		MCPRemoteProxies: []*model.MCPRemoteProxy{{ObjectMeta: meta("https://mcp.example.com/proxy")}},
		MCPServers:       []*model.MCPServer{{ObjectMeta: meta("https://mcp.example.com/server")}},
	}, discovery.Options{})
	for _, e := range res.Entries {
		fmt.Println(e.Name, e.Resources)
	}
	for _, d := range res.Diagnostics {
		fmt.Println(d.Reason, d.Object)
	}
	// Output:
	// dev.stacklok.toolhive/ns.x [MCPServer/ns/x]
	// dev.stacklok.toolhive/ns.x-mcpremoteproxy [MCPRemoteProxy/ns/x]
	// DuplicateName MCPRemoteProxy/ns/x
}

func ExampleCheckURL() {
	for _, u := range []string{
		"HTTPS://MCP.Example.com/Servers/X",
		"http://mcp.internal:8080/x",
		"https://admin:secret@mcp.example.com/x",
		"javascript:alert(1)",
	} {
		n, insecure, err := discovery.CheckURL(u)
		fmt.Printf("%q %v %v\n", n, insecure, err)
	}
	// Output:
	// "https://mcp.example.com/Servers/X" false <nil>
	// "http://mcp.internal:8080/x" true <nil>
	// "" false URL "https://***@mcp.example.com/x" has user information; credentials must not be published
	// "" false URL "javascript:alert(1)" has scheme "javascript"; only https and http are allowed
}

func ExampleParseImage() {
	digest := "sha256:" + strings.Repeat("0", 64)
	for _, s := range []string{"nginx", "stacklok/mcp-github:v1", "ghcr.io/a/b:v2@" + digest, "ghcr.io/a/b@sha256:00", "ghcr.io/A/b"} {
		ref, ok := discovery.ParseImage(s)
		fmt.Println(ref.Repository, ref.Tag, strings.TrimSuffix(ref.Digest, strings.Repeat("0", 60)), ok)
	}
	// Output:
	// docker.io/library/nginx latest  true
	// docker.io/stacklok/mcp-github v1  true
	// ghcr.io/a/b v2 sha256:0000 true
	//    false
	//    false
}

// A group's members and a dangling groupRef.
func ExampleGroups() {
	snap := discovery.Snapshot{
		MCPGroups: []*model.MCPGroup{{ObjectMeta: metav1.ObjectMeta{Name: "engineering-team", Namespace: "default"}}},
		MCPServers: []*model.MCPServer{
			{ObjectMeta: metav1.ObjectMeta{Name: "jira-server", Namespace: "default"}, Spec: model.MCPServerSpec{GroupRef: &model.GroupRef{Name: "engineering-team"}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "github-server", Namespace: "default"}, Spec: model.MCPServerSpec{GroupRef: &model.GroupRef{Name: "engineering-team"}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "slack-server", Namespace: "default"}, Spec: model.MCPServerSpec{GroupRef: &model.GroupRef{Name: "marketing"}}},
		},
		MCPServerEntries: []*model.MCPServerEntry{
			{ObjectMeta: metav1.ObjectMeta{Name: "context7", Namespace: "default"}, Spec: model.MCPServerEntrySpec{
				RemoteURL: "https://mcp.context7.com/mcp", Transport: "streamable-http", GroupRef: &model.GroupRef{Name: "engineering-team"}}},
		},
	}
	res := discovery.Groups(snap, time.Date(2025, 10, 15, 10, 30, 0, 0, time.UTC))
	for _, g := range res.Groups {
		fmt.Println(g.Name, g.Status.Phase, g.Status.ServerCount, g.Status.Servers, g.Status.EntryCount, g.Status.Entries)
	}
	for _, c := range res.ResourceConditions {
		fmt.Println(c.Object, c.Condition.Type, c.Condition.Status, c.Condition.Reason)
	}
	servers, proxies, entries := discovery.Members(snap, "default", "engineering-team")
	fmt.Println(servers, proxies, entries)
	// Output:
	// engineering-team Ready 2 [github-server jira-server] 1 [context7]
	// MCPServer/default/github-server GroupRefValidated True GroupRefIsValid
	// MCPServer/default/jira-server GroupRefValidated True GroupRefIsValid
	// MCPServer/default/slack-server GroupRefValidated False GroupRefNotFound
	// MCPServerEntry/default/context7 GroupRefValidated True GroupRefIsValid
	// [github-server jira-server] [] [context7]
}

func ExampleDiff() {
	entry := func(url string) *model.Server {
		s := model.NewServer("com.example/x", "x", "1.0.0")
		s.SetRemotes([]model.Remote{{Type: "sse", URL: url}})
		return s
	}
	prev := model.NewRegistry("2025-01-01T00:00:00Z", []*model.Server{entry("https://old.example/x")})
	next := model.NewRegistry("2025-01-02T00:00:00Z", []*model.Server{entry("https://new.example/x")})
	c := discovery.Diff(prev, next)
	fmt.Println(c.Changed, c.AddedRemotes, c.RemovedRemotes)
	// Output:
	// [com.example/x] [{com.example/x sse https://new.example/x}] [{com.example/x sse https://old.example/x}]
}
