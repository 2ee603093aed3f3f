package nilsafety

import (
	"fmt"
	"reflect"
	"testing"

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
		{"model.CapMessage", model.CapMessage},
		{"model.CheckName", model.CheckName},
		{"model.CheckURL", model.CheckURL},
		{"model.Convert", model.Convert},
		{"model.ConvertWith", model.ConvertWith},
		{"model.DecodeToolHive", model.DecodeToolHive},
		{"model.Echo", model.Echo},
		{"model.FromUnstructured", model.FromUnstructured},
		{"model.IsToolHiveGroup", model.IsToolHiveGroup},
		{"model.MaskURL", model.MaskURL},
		{"model.NamePattern", model.NamePattern},
		{"model.Parse", model.Parse},
		{"model.PublisherMetaSize", model.PublisherMetaSize},
		{"model.QuoteURL", model.QuoteURL},
		{"model.RemoteURLPattern", model.RemoteURLPattern},
		{"model.ShortenDescription", model.ShortenDescription},
		{"model.ToolHiveKinds", model.ToolHiveKinds},
		{"model.ToolHiveObject", model.ToolHiveObject},
		{"model.ValidDocumentVersion", model.ValidDocumentVersion},
		{"merge.Conditions", merge.Conditions},
		{"merge.ConfigMapEntry", merge.ConfigMapEntry},
		{"merge.FilterHash", merge.FilterHash},
		{"merge.Hash", merge.Hash},
		{"merge.IsGenerated", merge.IsGenerated},
		{"merge.OutputConfigMap", merge.OutputConfigMap},
		{"merge.OutputConfigMapName", merge.OutputConfigMapName},
		{"merge.RegistryTrigger", merge.RegistryTrigger},
		{"merge.Selector", merge.Selector},
		{"merge.ValidateMCPRegistry", merge.ValidateMCPRegistry},
		{"discovery.AffectedBy", discovery.AffectedBy},
		{"discovery.AffectedByChange", discovery.AffectedByChange},
		{"discovery.CheckURL", discovery.CheckURL},
		{"discovery.Members", discovery.Members},
		{"discovery.Normalize", discovery.Normalize},
		{"discovery.ReferenceGrantsFromV1beta1", discovery.ReferenceGrantsFromV1beta1},
		{"discovery.ToolHiveEndpointPaths", discovery.ToolHiveEndpointPaths},
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
		{"urlbuild.ParentGateway", urlbuild.ParentGateway},
		{"urlbuild.Rewrite", urlbuild.Rewrite},
		{"urlbuild.SameParentRef", urlbuild.SameParentRef},
		{"urlbuild.SplitHostnames", urlbuild.SplitHostnames},
		{"urlbuild.Strings", urlbuild.Strings},
		{"urlbuild.ValidHostname", urlbuild.ValidHostname},
		{"naming.DNSSubdomain", naming.DNSSubdomain},
		{"naming.Prefix", naming.Prefix},
		{"naming.Qualify", naming.Qualify},
		{"naming.Shorten", naming.Shorten},
		{"naming.Split", naming.Split},
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
