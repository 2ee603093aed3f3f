package testenv_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/mcpreg/mcpreg/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// repoRoot is the repository root, relative to this package.
const repoRoot = "../.."

// manifestDirs are the trees whose YAML manifests must be objects a real API
// server accepts: the golden inputs and outputs, and the CLI's embedded
// example cluster.
var manifestDirs = []string{"testdata", "cmd/mcpreg/example"}

// invalidOnPurpose lists the objects that test how the library treats an
// object the API server would refuse, keyed "path: Kind namespace/name", with
// the reason. The test checks that the API server does refuse each of them,
// so an entry cannot outlive its reason.
var invalidOnPurpose = map[string]string{
	// The same object twice in one input, as concatenated manifests or lists
	// may hold it; an API server keeps one.
	"testdata/discovery/duplicate-object/input.yaml: MCPServer ns/twice": "the same MCPServer twice: identical copies count once, differing copies are reported",
	"testdata/groups/duplicates/input.yaml: MCPGroup ns/g":               "the same MCPGroup twice: counted once",
	"testdata/groups/duplicates/input.yaml: MCPServer ns/b":              "the same MCPServer twice: a member counted once",
	"testdata/groups/differing-copies/input.yaml: MCPServer ns/s":        "two differing copies of one MCPServer (two dumps) naming two groups: one copy counts, DuplicateName",
	// Two dumps of one cluster: the copies carry the resourceVersion that
	// tells the newer apart, which a create refuses.
	"testdata/discovery/duplicate-object-newer/input.yaml: MCPServer ns/github":   "an older and a newer copy (generation 1 and 2): the newer is used",
	"testdata/discovery/duplicate-object-newer/input.yaml: MCPRemoteProxy ns/crm": "an older and a newer copy (resourceVersion 999 and 1001): the newer is used",

	// MCPGroup manifests as ToolHive's early documentation wrote them, in an
	// API group no ToolHive release serves, which the library reads as
	// toolhive.stacklok.dev (a kind never shipped is ignored).
	"testdata/groups/example-groups-as-written/input.yaml: MCPGroup default/engineering-team":     "API group mcp.toolhive.stacklok.io of early documentation: read as toolhive.stacklok.dev",
	"testdata/groups/example-groups-as-written/input.yaml: MCPServer /github-server":              "API group mcp.toolhive.stacklok.io, no namespace: a member in default",
	"testdata/groups/example-groups-as-written/input.yaml: MCPServer /jira-server":                "API group mcp.toolhive.stacklok.io, no namespace: a member in default",
	"testdata/groups/example-groups-as-written/input.yaml: MCPServer default/standalone-server":   "API group mcp.toolhive.stacklok.io: in no group",
	"testdata/groups/example-groups-as-written/input.yaml: MCPVirtualServer /engineering-virtual": "a kind no ToolHive release shipped: ignored",

	// Values the CRDs' enums and patterns refuse, which a reader must still
	// survive (a manifest from elsewhere, another ToolHive release).
	"testdata/discovery/invalid-transport/input.yaml: MCPServer ns/http-transport":                       "transport \"http\" is no MCP transport: InvalidTransport",
	"testdata/discovery/invalid-transport/input.yaml: MCPServer ns/websocket-proxy":                      "proxyMode \"websocket\": InvalidTransport",
	"testdata/discovery/invalid-transport/input.yaml: MCPRemoteProxy ns/stdio-proxy":                     "a remote proxy cannot be stdio: InvalidTransport",
	"testdata/discovery/naming-toolhive-registry-server/input.yaml: MCPServer team_a/odd":                "namespace team_a cannot be part of a registry-server name: the resource is not exported",
	"testdata/discovery/naming-toolhive-registry-server/input.yaml: MCPRemoteProxy team_a/renamed":       "namespace team_a, with an explicit registry name: exported under that name",
	"testdata/merge/invalid-selector-empty/mcpregistry.yaml: MCPRegistry toolhive-system/empty-selector": "an empty configMapSelector would select every ConfigMap: InvalidSelector",

	// Route and Gateway shapes the Gateway API CRDs refuse, kept to show the
	// URL builder publishes nothing wrong for them.
	"testdata/urlbuild/endpoint-rewrite/routes.yaml: HTTPRoute infra/rewrites":                     "ReplacePrefixMatch with an Exact match, and in a rule with two matches: UnsupportedPathMatch",
	"testdata/urlbuild/rule-paths/routes.yaml: HTTPRoute infra/many-rules":                         "a path with \"//\": no URL is built from it",
	"testdata/urlbuild/listener-port-matching/routes.yaml: HTTPRoute infra/ports-443-and-80":       "two parentRefs to one Gateway told apart by port only",
	"testdata/urlbuild/route-status/routes.yaml: HTTPRoute apps/empty-section-equals-none":         "sectionName \"\" is read as no sectionName",
	"testdata/urlbuild/gateway-addresses/gateways.yaml: Gateway infra/unusable-then-ip":            "status addresses that are no IP address are skipped for the next usable one",
	"testdata/discovery/route-backend-without-port/input.yaml: HTTPRoute team/ra":                  "a Service backendRef without a port: that rule gives no URL (BackendNotFound)",
	"testdata/discovery/listener-https-passthrough/input.yaml: Gateway infra/gw":                   "an HTTPS listener with TLS mode Passthrough: it carries no requests (ListenerNotReady)",
	"testdata/discovery/listener-conflicts/input.yaml: Gateway infra/gw-conflict":                  "two listeners of one port, protocol and hostname: neither carries requests (ListenerNotReady)",
	"testdata/discovery/mcpserverentry-without-groupref/input.yaml: MCPServerEntry catalog/orphan": "an MCPServerEntry without spec.groupRef: not exported (InvalidEntry)",
	"testdata/discovery/listener-https-without-certificate/input.yaml: Gateway infra/gw":           "an HTTPS listener whose TLS block names no certificate: it carries no requests (ListenerNotReady)",
}

// notManifests are YAML files in those trees that are not Kubernetes objects.
func notManifest(path string) bool {
	return filepath.Base(path) == "options.yaml"
}

// object is one decoded manifest document.
type object struct {
	key string // "path: Kind namespace/name"
	obj *unstructured.Unstructured
}

// group is a set of objects applied together: the YAML inputs of one test
// case directory, or its expected output manifests (want-*.yaml), which may
// reuse an input's name.
type group struct {
	name    string
	objects []object
}

func TestManifestsAreRealObjects(t *testing.T) {
	testenv.Require(t)
	groups, err := loadGroups()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, g := range groups {
		total += len(g.objects)
	}
	t.Logf("%d objects in %d groups", total, len(groups))

	ctx := context.Background()
	envs := map[string]*testenv.Env{
		testenv.ToolHiveV010: testenv.Shared(t, testenv.ToolHiveV010),
		testenv.ToolHiveV047: testenv.Shared(t, testenv.ToolHiveV047),
	}
	begin := time.Now()
	var refused []string
	seenInvalid := map[string]bool{}
	for _, g := range groups {
		for _, f := range applyGroup(ctx, t, envs, g) {
			if _, marked := invalidOnPurpose[f.key]; marked {
				seenInvalid[f.key] = true
				continue
			}
			refused = append(refused, fmt.Sprintf("%s\n\t%v", f.key, f.err))
		}
	}
	t.Logf("applied %d objects in %v", total, time.Since(begin).Round(time.Millisecond))
	for _, r := range refused {
		t.Errorf("the API server refuses %s", r)
	}
	if len(refused) > 0 {
		t.Errorf("%d of %d objects refused (mark an input that is invalid on purpose in invalidOnPurpose, with the reason)", len(refused), total)
	}
	for key, reason := range invalidOnPurpose {
		if !seenInvalid[key] {
			t.Errorf("%s is marked invalid on purpose (%s), but the API server accepts it (or it is gone)", key, reason)
		}
	}
}

type failure struct {
	key string
	err error
}

// applyGroup creates the group's objects (their status through the status
// subresource), each on the server of the ToolHive release its apiVersion
// names, with strict field validation; then deletes them again so that the
// next group may reuse the names. It returns the objects refused.
func applyGroup(ctx context.Context, t *testing.T, envs map[string]*testenv.Env, g group) []failure {
	t.Helper()
	release := groupRelease(g)
	var failures []failure
	type created struct {
		env *testenv.Env
		obj *unstructured.Unstructured
	}
	var cleanup []created
	for _, o := range g.objects {
		r := testenv.ToolHiveFor(o.obj.GetAPIVersion())
		if r == "" {
			r = release
		}
		env := envs[r]
		if err := ensureNamespace(ctx, env.Client, o.obj.GetNamespace()); err != nil {
			failures = append(failures, failure{o.key, fmt.Errorf("its namespace: %w", err)})
			continue
		}
		obj, err := create(ctx, env.Client, o.obj)
		if obj != nil && obj.GetKind() != "Namespace" {
			cleanup = append(cleanup, created{env, obj})
		}
		if err != nil {
			failures = append(failures, failure{o.key, err})
		}
	}
	for i := len(cleanup) - 1; i >= 0; i-- {
		c := cleanup[i]
		if err := c.env.Client.Delete(ctx, c.obj); err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("%s: deleting %s %s/%s: %v", g.name, c.obj.GetKind(), c.obj.GetNamespace(), c.obj.GetName(), err)
		}
	}
	return failures
}

// groupRelease is the server for the group's core and Gateway API objects:
// the one its ToolHive objects name, v0.10 when they name none or both.
func groupRelease(g group) string {
	seen := map[string]bool{}
	for _, o := range g.objects {
		if r := testenv.ToolHiveFor(o.obj.GetAPIVersion()); r != "" {
			seen[r] = true
		}
	}
	if len(seen) == 1 && seen[testenv.ToolHiveV047] {
		return testenv.ToolHiveV047
	}
	return testenv.ToolHiveV010
}

var strict = &metav1.CreateOptions{FieldValidation: metav1.FieldValidationStrict}

// create creates in (a Namespace that exists already is updated instead) and
// then writes its status, if it has one, through the status subresource, the
// way a controller would: a create ignores status.
func create(ctx context.Context, c client.Client, in *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	obj := in.DeepCopy()
	status, hasStatus := obj.Object["status"]
	err := c.Create(ctx, obj, &client.CreateOptions{Raw: strict})
	if apierrors.IsAlreadyExists(err) && obj.GetKind() == "Namespace" {
		cur := &unstructured.Unstructured{}
		cur.SetGroupVersionKind(obj.GroupVersionKind())
		if err = c.Get(ctx, client.ObjectKeyFromObject(obj), cur); err != nil {
			return nil, err
		}
		obj = in.DeepCopy()
		obj.SetResourceVersion(cur.GetResourceVersion())
		err = c.Update(ctx, obj, &client.UpdateOptions{Raw: &metav1.UpdateOptions{FieldValidation: metav1.FieldValidationStrict}})
	}
	if err != nil {
		return nil, err
	}
	if hasStatus {
		obj.Object["status"] = status
		err = c.Status().Update(ctx, obj, &client.SubResourceUpdateOptions{UpdateOptions: client.UpdateOptions{
			Raw: &metav1.UpdateOptions{FieldValidation: metav1.FieldValidationStrict},
		}})
		if err != nil {
			return obj, fmt.Errorf("status: %w", err)
		}
	}
	return obj, nil
}

func ensureNamespace(ctx context.Context, c client.Client, ns string) error {
	if ns == "" {
		return nil
	}
	obj := &unstructured.Unstructured{}
	obj.SetAPIVersion("v1")
	obj.SetKind("Namespace")
	obj.SetName(ns)
	if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

// loadGroups reads every YAML manifest under manifestDirs, grouped by
// directory (inputs and want-*.yaml outputs apart), in path order.
func loadGroups() ([]group, error) {
	byName := map[string]*group{}
	var names []string
	for _, dir := range manifestDirs {
		err := filepath.WalkDir(filepath.Join(repoRoot, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" || notManifest(path) {
				return nil
			}
			rel, err := filepath.Rel(repoRoot, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			name := filepath.ToSlash(filepath.Dir(rel))
			if strings.HasPrefix(filepath.Base(rel), "want-") {
				name += " (expected output)"
			}
			objs, err := decodeFile(path, rel)
			if err != nil {
				return err
			}
			g := byName[name]
			if g == nil {
				g = &group{name: name}
				byName[name] = g
				names = append(names, name)
			}
			g.objects = append(g.objects, objs...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(names)
	groups := make([]group, 0, len(names))
	for _, n := range names {
		g := byName[n]
		// Namespaces first, so the objects in them can be created.
		sort.SliceStable(g.objects, func(i, j int) bool {
			return g.objects[i].obj.GetKind() == "Namespace" && g.objects[j].obj.GetKind() != "Namespace"
		})
		groups = append(groups, *g)
	}
	return groups, nil
}

// decodeFile decodes the YAML documents of path (a kind: List contributes its
// items). A document without apiVersion and kind is an error: every YAML file
// in these trees is a manifest unless notManifest says otherwise.
func decodeFile(path, rel string) ([]object, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []object
	for doc := 0; ; doc++ {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: document %d: %w", rel, doc, err)
		}
		if len(u.Object) == 0 {
			continue
		}
		if u.GetAPIVersion() == "" || u.GetKind() == "" {
			return nil, fmt.Errorf("%s: document %d has no apiVersion or kind", rel, doc)
		}
		items := []unstructured.Unstructured{*u}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", rel, doc, err)
			}
			items = list.Items
		}
		for i := range items {
			o := &items[i]
			out = append(out, object{
				key: fmt.Sprintf("%s: %s %s/%s", rel, o.GetKind(), o.GetNamespace(), o.GetName()),
				obj: o,
			})
		}
	}
}
