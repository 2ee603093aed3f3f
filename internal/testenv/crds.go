package testenv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// ToolHive releases whose CRDs the tests install. Each names the module
// version of github.com/stacklok/toolhive the CRD YAMLs are read from.
const (
	// ToolHiveV010 serves toolhive.stacklok.dev/v1alpha1 only: groupRef is a
	// string, MCPRegistry has spec.registries[].
	ToolHiveV010 = "v0.10.0"
	// ToolHiveV047 stores toolhive.stacklok.dev/v1beta1 (groupRef is {name},
	// MCPRegistry carries configYAML) and serves v1alpha1 deprecated.
	ToolHiveV047 = "v0.47.0"
	// GatewayAPIVersion is the Gateway API release whose standard-channel
	// CRDs are installed on every server.
	GatewayAPIVersion = "v1.6.3"
)

// ToolHiveFor returns the ToolHive release whose CRDs define apiVersion:
// v1alpha1 objects are checked against v0.10, v1beta1 objects against v0.47.
// It returns "" for an apiVersion outside toolhive.stacklok.dev.
func ToolHiveFor(apiVersion string) string {
	switch apiVersion {
	case "toolhive.stacklok.dev/v1alpha1":
		return ToolHiveV010
	case "toolhive.stacklok.dev/v1beta1":
		return ToolHiveV047
	}
	return ""
}

// ModuleDir downloads module@version through the Go module proxy (or finds it
// in the module cache) and returns its directory. It runs the go command, so
// it needs no dependency of the calling module on the downloaded one.
func ModuleDir(module, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	// Outside any module, so the caller's go.mod is neither read nor changed.
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil && err == nil {
		err = jerr
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", module, version, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v: %s", module, version, err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: no directory in its answer", module, version)
	}
	return info.Dir, nil
}

// ToolHiveCRDDir returns the directory of ToolHive's CRD YAMLs for release
// (ToolHiveV010 or ToolHiveV047), as the operator-crds Helm chart ships them.
func ToolHiveCRDDir(release string) (string, error) {
	dir, err := ModuleDir("github.com/stacklok/toolhive", release)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "deploy", "charts", "operator-crds", "files", "crds"), nil
}

// GatewayAPICRDDir returns the directory of the Gateway API standard-channel
// CRD YAMLs of GatewayAPIVersion.
func GatewayAPICRDDir() (string, error) {
	dir, err := ModuleDir("sigs.k8s.io/gateway-api", GatewayAPIVersion)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config", "crd", "standard"), nil
}

// CRDs returns the CRDs an API server for ToolHive release installs: the
// Gateway API standard channel and ToolHive's set, with the v0.10 MCPRegistry
// CRD replaced by [MCPRegistrySelectorCRD]'s extension of it. Sorted by name.
func CRDs(release string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	if release != ToolHiveV010 && release != ToolHiveV047 {
		return nil, fmt.Errorf("unknown ToolHive release %q (want %s or %s)", release, ToolHiveV010, ToolHiveV047)
	}
	gwDir, err := GatewayAPICRDDir()
	if err != nil {
		return nil, err
	}
	thDir, err := ToolHiveCRDDir(release)
	if err != nil {
		return nil, err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, dir := range []string{gwDir, thDir} {
		got, err := ReadCRDDir(dir)
		if err != nil {
			return nil, err
		}
		crds = append(crds, got...)
	}
	if release == ToolHiveV010 {
		for i, crd := range crds {
			if crd.Name == "mcpregistries.toolhive.stacklok.dev" {
				if crds[i], err = MCPRegistrySelectorCRD(crd); err != nil {
					return nil, err
				}
			}
		}
	}
	sort.Slice(crds, func(i, j int) bool { return crds[i].Name < crds[j].Name })
	return crds, nil
}

// ReadCRDDir reads every CustomResourceDefinition in the YAML files of dir.
// Documents of other kinds are skipped: the Gateway API directory also holds
// a ValidatingAdmissionPolicy, which guards upgrades of installed CRDs and
// has no part in a fresh test server.
func ReadCRDDir(dir string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no CRD YAML files in %s", dir)
	}
	sort.Strings(files)
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			var head struct{ Kind string }
			if len(raw) == 0 || json.Unmarshal(raw, &head) != nil || head.Kind != "CustomResourceDefinition" {
				continue
			}
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := json.Unmarshal(raw, crd); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			crds = append(crds, crd)
		}
	}
	return crds, nil
}

// MCPRegistrySelectorCRD returns a copy of ToolHive v0.10's MCPRegistry CRD
// with one addition to every served version's spec.registries[] entry:
// configMapSelector, which selects the ConfigMaps to merge by label instead
// of naming one.
//
//	configMapSelector:
//	  matchLabels: {…}          # all must match
//	  matchExpressions: [{key, operator, values}]
//	  key: registry.json        # the data key read from each ConfigMap
//
// Two validation rules come with it, both only about entries that use it: a
// configMapSelector is the entry's only source (no configMapRef, git, api or
// pvcRef beside it), and it has at least one matchLabels or matchExpressions
// term, since an empty selector would select every ConfigMap (the rule tests
// presence; minProperties and minItems keep a present term non-empty, at no
// CEL cost). Objects valid under ToolHive's own CRD stay valid.
func MCPRegistrySelectorCRD(base *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
	if base == nil || base.Name != "mcpregistries.toolhive.stacklok.dev" {
		return nil, errors.New("MCPRegistrySelectorCRD: want the mcpregistries.toolhive.stacklok.dev CRD")
	}
	crd := base.DeepCopy()
	patched := 0
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		spec, ok := v.Schema.OpenAPIV3Schema.Properties["spec"]
		if !ok {
			continue
		}
		regs, ok := spec.Properties["registries"]
		if !ok || regs.Items == nil || regs.Items.Schema == nil {
			continue
		}
		entry := regs.Items.Schema
		if _, exists := entry.Properties["configMapSelector"]; exists {
			return nil, fmt.Errorf("MCPRegistrySelectorCRD: version %s already has configMapSelector", v.Name)
		}
		entry.Properties["configMapSelector"] = configMapSelectorSchema()
		entry.XValidations = append(entry.XValidations,
			apiextensionsv1.ValidationRule{
				Rule:    "!has(self.configMapSelector) || !(has(self.configMapRef) || has(self.git) || has(self.api) || has(self.pvcRef))",
				Message: "configMapSelector cannot be combined with configMapRef, git, api or pvcRef",
			})
		spec.Properties["registries"] = regs
		v.Schema.OpenAPIV3Schema.Properties["spec"] = spec
		patched++
	}
	if patched == 0 {
		return nil, errors.New("MCPRegistrySelectorCRD: no version has spec.registries[] entries")
	}
	return crd, nil
}

func configMapSelectorSchema() apiextensionsv1.JSONSchemaProps {
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	defKey, _ := json.Marshal("registry.json")
	return apiextensionsv1.JSONSchemaProps{
		Description: "ConfigMapSelector selects the ConfigMaps, in the MCPRegistry's namespace, whose registry data is merged. " +
			"Mutually exclusive with configMapRef, git, api and pvcRef.",
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"matchLabels": {
				Description:          "MatchLabels: a ConfigMap must carry every one of these labels.",
				Type:                 "object",
				MinProperties:        ptr(int64(1)),
				AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &str},
			},
			"matchExpressions": {
				Description: "MatchExpressions: label selector requirements, all of which must match.",
				Type:        "array",
				MinItems:    ptr(int64(1)),
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
					Type:     "object",
					Required: []string{"key", "operator"},
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"key":      str,
						"operator": str,
						"values": {
							Type:  "array",
							Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &str},
						},
					},
				}},
			},
			"key": {
				Description: "Key is the ConfigMap data key holding the registry document.",
				Type:        "string",
				MinLength:   ptr(int64(1)),
				Default:     &apiextensionsv1.JSON{Raw: defKey},
			},
		},
		XValidations: apiextensionsv1.ValidationRules{{
			Rule:    "has(self.matchLabels) || has(self.matchExpressions)",
			Message: "configMapSelector needs at least one matchLabels or matchExpressions term; an empty selector would select every ConfigMap",
		}},
	}
}

func ptr[T any](v T) *T { return &v }
