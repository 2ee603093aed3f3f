package nilsafety

import (
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/filter"
	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/naming"
	"github.com/mcpreg/mcpreg/urlbuild"
)

// exported lists the exported functions of the library packages (generic
// ones are called through their instances elsewhere). A new exported
// function belongs here.
func exported() []struct {
	name string
	fn   any
} {
	return []struct {
		name string
		fn   any
	}{
		{"discovery.AffectedBy", discovery.AffectedBy},
		{"discovery.AffectedByChange", discovery.AffectedByChange},
		{"discovery.CheckURL", discovery.CheckURL},
		{"discovery.Diff", discovery.Diff},
		{"discovery.Discover", discovery.Discover},
		{"discovery.Groups", discovery.Groups},
		{"discovery.Members", discovery.Members},
		{"discovery.NewIndex", discovery.NewIndex},
		{"discovery.Normalize", discovery.Normalize},
		{"discovery.ParseImage", discovery.ParseImage},
		{"discovery.ParseNamingScheme", discovery.ParseNamingScheme},
		{"discovery.ReferenceGrantsFromV1beta1", discovery.ReferenceGrantsFromV1beta1},
		{"discovery.ToolHiveEndpointPaths", discovery.ToolHiveEndpointPaths},
		{"filter.FromRegistryFilter", filter.FromRegistryFilter},
		{"filter.New", filter.New},
		{"merge.AffectedBy", merge.AffectedBy},
		{"merge.AffectedByChange", merge.AffectedByChange},
		{"merge.Conditions", merge.Conditions},
		{"merge.ConfigMapEntry", merge.ConfigMapEntry},
		{"merge.DecideSync", merge.DecideSync},
		{"merge.FilterHash", merge.FilterHash},
		{"merge.ForRegistry", merge.ForRegistry},
		{"merge.Hash", merge.Hash},
		{"merge.IsGenerated", merge.IsGenerated},
		{"merge.Merge", merge.Merge},
		{"merge.NewIncremental", merge.NewIncremental},
		{"merge.OutputConfigMap", merge.OutputConfigMap},
		{"merge.OutputConfigMapName", merge.OutputConfigMapName},
		{"merge.ParseStrategy", merge.ParseStrategy},
		{"merge.RegistryTrigger", merge.RegistryTrigger},
		{"merge.Selector", merge.Selector},
		{"merge.SourcesFor", merge.SourcesFor},
		{"merge.SyncInputFor", merge.SyncInputFor},
		{"merge.ValidateMCPRegistry", merge.ValidateMCPRegistry},
		{"model.AsMCPRegistry", model.AsMCPRegistry},
		{"model.Canonicalize", model.Canonicalize},
		{"model.CapMessage", model.CapMessage},
		{"model.CheckName", model.CheckName},
		{"model.CheckURL", model.CheckURL},
		{"model.Convert", model.Convert},
		{"model.ConvertWith", model.ConvertWith},
		{"model.DecodeToolHive", model.DecodeToolHive},
		{"model.DetectFormat", model.DetectFormat},
		{"model.Echo", model.Echo},
		{"model.EmptyRegistryDiagnostic", model.EmptyRegistryDiagnostic},
		{"model.Errorf", model.Errorf},
		{"model.EventFor", model.EventFor},
		{"model.Finish", model.Finish},
		{"model.FinishWith", model.FinishWith},
		{"model.FromUnstructured", model.FromUnstructured},
		{"model.FullRef", model.FullRef},
		{"model.GetServer", model.GetServer},
		{"model.Infof", model.Infof},
		{"model.IsToolHiveGroup", model.IsToolHiveGroup},
		{"model.ListServers", model.ListServers},
		{"model.MCPGroupFromUnstructured", model.MCPGroupFromUnstructured},
		{"model.MCPRegistryFromUnstructured", model.MCPRegistryFromUnstructured},
		{"model.MCPRemoteProxyFromUnstructured", model.MCPRemoteProxyFromUnstructured},
		{"model.MCPServerEntryFromUnstructured", model.MCPServerEntryFromUnstructured},
		{"model.MCPServerFromUnstructured", model.MCPServerFromUnstructured},
		{"model.MaskURL", model.MaskURL},
		{"model.NamePattern", model.NamePattern},
		{"model.NewRegistry", model.NewRegistry},
		{"model.NewServer", model.NewServer},
		{"model.Normalize", model.Normalize},
		{"model.NormalizeWith", model.NormalizeWith},
		{"model.Parse", model.Parse},
		{"model.ParseFormat", model.ParseFormat},
		{"model.ParseServer", model.ParseServer},
		{"model.PublisherMetaSize", model.PublisherMetaSize},
		{"model.QuoteURL", model.QuoteURL},
		{"model.Reasons", model.Reasons},
		{"model.Ref", model.Ref},
		{"model.RemoteURLPattern", model.RemoteURLPattern},
		{"model.ShortenDescription", model.ShortenDescription},
		{"model.Sprintf", model.Sprintf},
		{"model.ToolHiveKinds", model.ToolHiveKinds},
		{"model.ToolHiveObject", model.ToolHiveObject},
		{"model.ValidDocumentVersion", model.ValidDocumentVersion},
		{"model.ValidateJSON", model.ValidateJSON},
		{"model.ValidateRegistry", model.ValidateRegistry},
		{"model.ValidateServer", model.ValidateServer},
		{"model.VirtualMCPServerFromUnstructured", model.VirtualMCPServerFromUnstructured},
		{"model.Warningf", model.Warningf},
		{"naming.Assign", naming.Assign},
		{"naming.DNSSubdomain", naming.DNSSubdomain},
		{"naming.Prefix", naming.Prefix},
		{"naming.Qualify", naming.Qualify},
		{"naming.Shorten", naming.Shorten},
		{"naming.Split", naming.Split},
		{"urlbuild.BasePath", urlbuild.BasePath},
		{"urlbuild.DefaultAllowedRoutes", urlbuild.DefaultAllowedRoutes},
		{"urlbuild.DefaultBackendRef", urlbuild.DefaultBackendRef},
		{"urlbuild.DefaultMatches", urlbuild.DefaultMatches},
		{"urlbuild.DefaultParentRef", urlbuild.DefaultParentRef},
		{"urlbuild.DefaultPathMatch", urlbuild.DefaultPathMatch},
		{"urlbuild.DefaultRouteKinds", urlbuild.DefaultRouteKinds},
		{"urlbuild.DefaultRules", urlbuild.DefaultRules},
		{"urlbuild.ExternalPath", urlbuild.ExternalPath},
		{"urlbuild.Intersect", urlbuild.Intersect},
		{"urlbuild.IsWildcard", urlbuild.IsWildcard},
		{"urlbuild.MatchHostname", urlbuild.MatchHostname},
		{"urlbuild.NewIndex", urlbuild.NewIndex},
		{"urlbuild.ParentGateway", urlbuild.ParentGateway},
		{"urlbuild.Rewrite", urlbuild.Rewrite},
		{"urlbuild.RouteURLs", urlbuild.RouteURLs},
		{"urlbuild.RulePaths", urlbuild.RulePaths},
		{"urlbuild.SameParentRef", urlbuild.SameParentRef},
		{"urlbuild.SplitHostnames", urlbuild.SplitHostnames},
		{"urlbuild.Strings", urlbuild.Strings},
		{"urlbuild.ValidHostname", urlbuild.ValidHostname},
	}
}

// TestNoPanicOnZeroArguments calls every exported function with the zero
// value of each parameter (nil pointers, maps, slices and interfaces, empty
// strings and structs) and fails if any panics: a caller's nil is answered
// with an error or a diagnostic.
func TestNoPanicOnZeroArguments(t *testing.T) {
	for _, f := range exported() {
		t.Run(f.name, func(t *testing.T) {
			v := reflect.ValueOf(f.fn)
			typ := v.Type()
			n := typ.NumIn()
			args := make([]reflect.Value, n)
			for i := range n {
				at := typ.In(i)
				if typ.IsVariadic() && i == n-1 {
					args[i] = reflect.Zero(at)
					continue
				}
				args[i] = reflect.Zero(at)
			}
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s(zero values) panicked: %v", f.name, r)
				}
			}()
			if typ.IsVariadic() {
				v.CallSlice(args)
			} else {
				v.Call(args)
			}
		})
	}
	_ = fmt.Sprint
	var _ = []any{discovery.Discover, filter.New, merge.Merge, model.Parse, naming.Prefix, urlbuild.NewIndex}
}

// TestNoPanicOnNilInside: nil where a value holds values — a Registry with a
// nil server, nil receivers — gives an error or a diagnostic, not a panic.
func TestNoPanicOnNilInside(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f"}
	withNil := func() *model.Registry {
		return &model.Registry{Servers: []*model.Server{nil, model.NewServer("io.ex/a", "d", "1.0.0")}}
	}
	cases := map[string]func(){
		"Finish":             func() { model.Finish(withNil(), obj) },
		"ValidateRegistry":   func() { model.ValidateRegistry(withNil(), obj) },
		"Encode":             func() { withNil().Encode() },
		"SortServers":        func() { withNil().SortServers() },
		"nil Registry":       func() { var r *model.Registry; r.Encode(); r.SortServers(); model.Finish(r, obj) },
		"Normalize nil":      func() { model.Normalize(nil, obj, "") },
		"ValidateServer nil": func() { model.ValidateServer(nil, obj, "") },
		"Ref nil":            func() { model.Ref("ConfigMap", nil) },
		"FullRef nil":        func() { model.FullRef("v1", "ConfigMap", nil) },
		"nil Server":         func() { var s *model.Server; _ = s.Name(); _ = s.Remotes(); _ = s.AppendJSON(nil) },
		"nil Incremental": func() {
			var inc *merge.Incremental
			inc.Update(nil)
			inc.Remove("", "")
			inc.Result()
		},
		"zero Incremental": func() {
			var inc merge.Incremental
			inc.Update(&corev1.ConfigMap{})
			inc.Remove("", "x")
			inc.Result()
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("panicked: %v", r)
				}
			}()
			f()
		})
	}
}
