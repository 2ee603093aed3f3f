package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// MCPRegistry is a snapshot of ToolHive's MCPRegistry in either of the shapes
// ToolHive has shipped:
//
//   - toolhive.stacklok.dev/v1alpha1 up to ToolHive v0.10: spec.registries[]
//     lists the data sources (a ConfigMap, a git repository, a registry API or
//     a PersistentVolumeClaim), next to displayName, enforceServers,
//     podTemplateSpec, databaseConfig and authConfig. Each entry may also
//     carry configMapSelector, the label-selected ConfigMaps this library
//     merges (an extension of ToolHive's schema).
//   - toolhive.stacklok.dev/v1beta1 (ToolHive v0.47, where v1alpha1 is served
//     with the same schema): spec.configYAML, the registry server's own
//     configuration, with volumes, volumeMounts, pgpassSecretRef and
//     imagePullSecrets. Its sources that read a file of a ConfigMap mounted
//     through volumes and volumeMounts are ConfigMap sources this library
//     merges (see UsesConfigYAML and ConfigYAMLSources).
//
// Every field of both shapes decodes; the ones the library does not
// interpret (podTemplateSpec, databaseConfig, authConfig, and volumes and
// volumeMounts beyond the ConfigMaps they mount, apiStatus, storageRef) are kept as raw JSON. MCPRegistry is
// a runtime.Object, so it can go through a scheme or a fake client.
type MCPRegistry struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MCPRegistrySpec   `json:"spec"`
	Status            MCPRegistryStatus `json:"status,omitempty"`
}

// MCPRegistrySpec holds the fields of both shipped shapes of the spec.
type MCPRegistrySpec struct {
	// DisplayName is a human-readable name for the registry (both shapes).
	DisplayName string `json:"displayName,omitempty"`
	// EnforceServers asks ToolHive to admit only MCPServers whose image a
	// registry of the namespace lists (v1alpha1).
	EnforceServers bool `json:"enforceServers,omitempty"`
	// PodTemplateSpec customises the registry API pod; opaque (both shapes).
	PodTemplateSpec json.RawMessage `json:"podTemplateSpec,omitempty"`
	// DatabaseConfig is the registry API's PostgreSQL settings; opaque
	// (v1alpha1).
	DatabaseConfig json.RawMessage `json:"databaseConfig,omitempty"`
	// AuthConfig is the registry API's authentication; opaque (v1alpha1).
	AuthConfig json.RawMessage `json:"authConfig,omitempty"`
	// Registries are the data sources (v1alpha1).
	Registries []MCPRegistryConfig `json:"registries,omitempty"`

	// ConfigYAML is the registry server's complete config.yaml (v1beta1);
	// the library reads only its data sources (ConfigYAMLSources).
	ConfigYAML string `json:"configYAML,omitempty"`
	// Volumes and VolumeMounts are added to the registry API pod; kept raw,
	// and read by ConfigYAMLSources for the ConfigMaps they mount
	// (v1beta1).
	Volumes      []json.RawMessage `json:"volumes,omitempty"`
	VolumeMounts []json.RawMessage `json:"volumeMounts,omitempty"`
	// PGPassSecretRef names a Secret holding a pgpass file (v1beta1).
	PGPassSecretRef *corev1.SecretKeySelector `json:"pgpassSecretRef,omitempty"`
	// ImagePullSecrets are the registry API's pull secrets (v1beta1).
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty"`
}

// MCPRegistryConfig is one entry of spec.registries: a named data source.
// Exactly one of ConfigMapRef, ConfigMapSelector, Git, API and PVCRef is set
// (SourceTypes lists those that are).
type MCPRegistryConfig struct {
	Name string `json:"name"`
	// Format is the shape of the data: "toolhive" (the CRD's default, which
	// the API server fills in) or "upstream".
	Format string `json:"format,omitempty"`
	// ConfigMapRef names one ConfigMap of the MCPRegistry's namespace and
	// the key holding the data.
	ConfigMapRef *corev1.ConfigMapKeySelector `json:"configMapRef,omitempty"`
	// ConfigMapSelector selects ConfigMaps of the MCPRegistry's namespace by
	// label and merges them (not part of ToolHive's own schema).
	ConfigMapSelector *ConfigMapSelector `json:"configMapSelector,omitempty"`
	// Git, API and PVCRef are sources ToolHive's registry server reads
	// itself; this library cannot merge them.
	Git        *GitSource  `json:"git,omitempty"`
	API        *APISource  `json:"api,omitempty"`
	PVCRef     *PVCSource  `json:"pvcRef,omitempty"`
	SyncPolicy *SyncPolicy `json:"syncPolicy,omitempty"`
	// Filter keeps or drops servers by name and tag.
	Filter *RegistryFilter `json:"filter,omitempty"`
}

// The source types of a registry entry, as SourceTypes names them: the
// field names of spec.registries[].
const (
	SourceConfigMapRef      = "configMapRef"
	SourceConfigMapSelector = "configMapSelector"
	SourceGit               = "git"
	SourceAPI               = "api"
	SourcePVCRef            = "pvcRef"
)

// SourceTypes returns the source fields set on the entry, in the order
// configMapRef, configMapSelector, git, api, pvcRef. A valid entry has
// exactly one.
func (c *MCPRegistryConfig) SourceTypes() []string {
	var set []string
	if c.ConfigMapRef != nil {
		set = append(set, SourceConfigMapRef)
	}
	if c.ConfigMapSelector != nil {
		set = append(set, SourceConfigMapSelector)
	}
	if c.Git != nil {
		set = append(set, SourceGit)
	}
	if c.API != nil {
		set = append(set, SourceAPI)
	}
	if c.PVCRef != nil {
		set = append(set, SourcePVCRef)
	}
	return set
}

// HasConfigMapSource reports whether the entry reads ConfigMaps (configMapRef
// or configMapSelector), the sources this library merges.
func (c *MCPRegistryConfig) HasConfigMapSource() bool {
	return c.ConfigMapRef != nil || c.ConfigMapSelector != nil
}

// DefaultRegistryKey is the ConfigMap key registry data is read from by default.
const DefaultRegistryKey = "registry.json"

// ConfigMapSelector selects ConfigMaps of the MCPRegistry's namespace by label.
type ConfigMapSelector struct {
	MatchLabels      map[string]string                 `json:"matchLabels,omitempty"`
	MatchExpressions []metav1.LabelSelectorRequirement `json:"matchExpressions,omitempty"`
	// Key is the data key to read; DefaultRegistryKey when empty.
	Key string `json:"key,omitempty"`
}

// LabelSelector returns the selector as a metav1.LabelSelector.
func (s *ConfigMapSelector) LabelSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: s.MatchLabels, MatchExpressions: s.MatchExpressions}
}

// GitSource is a git registry source, read by ToolHive's registry server.
type GitSource struct {
	Repository string   `json:"repository,omitempty"`
	Branch     string   `json:"branch,omitempty"`
	Tag        string   `json:"tag,omitempty"`
	Commit     string   `json:"commit,omitempty"`
	Path       string   `json:"path,omitempty"`
	Auth       *GitAuth `json:"auth,omitempty"`
}

// GitAuth is HTTP basic authentication for a git source; the password is a
// Secret reference, never a value.
type GitAuth struct {
	Username          string                   `json:"username,omitempty"`
	PasswordSecretRef corev1.SecretKeySelector `json:"passwordSecretRef"`
}

// APISource is a registry API source, read by ToolHive's registry server.
type APISource struct {
	Endpoint string `json:"endpoint,omitempty"`
}

// PVCSource is a registry file on a PersistentVolumeClaim, read by ToolHive's
// registry server.
type PVCSource struct {
	ClaimName string `json:"claimName,omitempty"`
	// Path is the file inside the volume; registry.json by default.
	Path string `json:"path,omitempty"`
}

// SyncPolicy says how often to sync; no policy means manual sync only.
type SyncPolicy struct {
	Interval string `json:"interval,omitempty"`
}

// RegistryFilter is the name and tag filter of a registry source.
type RegistryFilter struct {
	Names *IncludeExclude `json:"names,omitempty"`
	Tags  *IncludeExclude `json:"tags,omitempty"`
}

// IncludeExclude holds include and exclude patterns.
type IncludeExclude struct {
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
}

// MCPRegistryStatus holds the status fields of both shapes.
type MCPRegistryStatus struct {
	// Phase and Message summarise the registry's state (both shapes).
	Phase   string `json:"phase,omitempty"`
	Message string `json:"message,omitempty"`
	// Conditions are the registry's conditions (both shapes).
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ObservedGeneration is the generation last reconciled (v1beta1).
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// SyncStatus records the last sync (v1alpha1).
	SyncStatus *SyncStatus `json:"syncStatus,omitempty"`
	// LastManualSyncTrigger is the value of the sync-trigger annotation last
	// processed (v1alpha1).
	LastManualSyncTrigger string `json:"lastManualSyncTrigger,omitempty"`
	// LastAppliedFilterHash is the hash of the filter last applied (v1alpha1).
	LastAppliedFilterHash string `json:"lastAppliedFilterHash,omitempty"`
	// APIStatus and StorageRef are ToolHive's own bookkeeping; opaque
	// (v1alpha1).
	APIStatus  json.RawMessage `json:"apiStatus,omitempty"`
	StorageRef json.RawMessage `json:"storageRef,omitempty"`
	// ReadyReplicas and URL describe the registry API deployment (v1beta1).
	ReadyReplicas int32  `json:"readyReplicas,omitempty"`
	URL           string `json:"url,omitempty"`
}

// SyncStatus records the last sync.
type SyncStatus struct {
	Phase        string       `json:"phase,omitempty"`
	Message      string       `json:"message,omitempty"`
	LastAttempt  *metav1.Time `json:"lastAttempt,omitempty"`
	AttemptCount int          `json:"attemptCount,omitempty"`
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`
	LastSyncHash string       `json:"lastSyncHash,omitempty"`
	ServerCount  int          `json:"serverCount,omitempty"`
}

// UsesConfigYAML reports whether the MCPRegistry has the v1beta1 shape, the
// registry server's configuration in spec.configYAML instead of a list of
// sources: its apiVersion is v1beta1, or it sets one of the fields only that
// shape has and no registries. Its ConfigMap sources are the file sources
// of spec.configYAML that ConfigYAMLSources traces to a mounted ConfigMap.
func (r *MCPRegistry) UsesConfigYAML() bool {
	if _, v, _ := strings.Cut(r.APIVersion, "/"); v == "v1beta1" {
		return true
	}
	s := &r.Spec
	return len(s.Registries) == 0 &&
		(s.ConfigYAML != "" || len(s.Volumes) > 0 || len(s.VolumeMounts) > 0 || s.PGPassSecretRef != nil || len(s.ImagePullSecrets) > 0)
}

// MCPRegistryGVK is the group, version and kind of ToolHive's MCPRegistry in
// the version this package's ownerReferences default to.
var MCPRegistryGVK = schema.GroupVersionKind{Group: ToolHiveGroup, Version: "v1alpha1", Kind: KindMCPRegistry}

// AsMCPRegistry reads an MCPRegistry as a client hands it: the typed snapshot
// (*MCPRegistry, returned as is unless its TypeMeta must be filled in) or
// *unstructured.Unstructured from a dynamic client or an unstructured
// controller-runtime object. Clients often leave TypeMeta empty on typed and
// list results: gvk then gives the apiVersion and kind (pass the zero value
// when the object carries them). The object is never changed: a TypeMeta to
// fill in is written on a copy. An object of another group or kind, or one
// that does not decode, is an error naming it.
func AsMCPRegistry(obj runtime.Object, gvk schema.GroupVersionKind) (*MCPRegistry, error) {
	switch o := obj.(type) {
	case *MCPRegistry:
		if o == nil {
			return nil, fmt.Errorf("nil MCPRegistry")
		}
		if o.Kind != "" && o.APIVersion != "" || gvk.Empty() {
			return o, checkMCPRegistryKind(o.APIVersion, o.Kind, o.Namespace, o.Name)
		}
		c := o.DeepCopy()
		if c.Kind == "" {
			c.Kind = gvk.Kind
		}
		if c.APIVersion == "" {
			c.APIVersion = gvk.GroupVersion().String()
		}
		return c, checkMCPRegistryKind(c.APIVersion, c.Kind, c.Namespace, c.Name)
	case *unstructured.Unstructured:
		if o == nil {
			return nil, fmt.Errorf("nil MCPRegistry")
		}
		apiVersion, kind := o.GetAPIVersion(), o.GetKind()
		if apiVersion == "" {
			apiVersion = gvk.GroupVersion().String()
		}
		if kind == "" {
			kind = gvk.Kind
		}
		if kind == "" || apiVersion == "" {
			return nil, fmt.Errorf("object %s/%s has no apiVersion or kind and none was given: cannot tell it is an MCPRegistry", o.GetNamespace(), o.GetName())
		}
		if err := checkMCPRegistryKind(apiVersion, kind, o.GetNamespace(), o.GetName()); err != nil {
			return nil, err
		}
		data, err := json.Marshal(o.Object)
		if err != nil {
			return nil, fmt.Errorf("MCPRegistry %s/%s: %w", o.GetNamespace(), o.GetName(), err)
		}
		reg := &MCPRegistry{}
		if err := json.Unmarshal(data, reg); err != nil {
			return nil, fmt.Errorf("MCPRegistry %s/%s: %w", o.GetNamespace(), o.GetName(), err)
		}
		reg.APIVersion, reg.Kind = apiVersion, kind
		return reg, nil
	case nil:
		return nil, fmt.Errorf("nil MCPRegistry")
	}
	return nil, fmt.Errorf("%T is not an MCPRegistry (want *model.MCPRegistry or *unstructured.Unstructured)", obj)
}

// checkMCPRegistryKind accepts ToolHive's MCPRegistry of any version; an
// empty apiVersion or kind (a typed snapshot read without them) is not held
// against it.
func checkMCPRegistryKind(apiVersion, kind, namespace, name string) error {
	group, _, _ := strings.Cut(apiVersion, "/")
	if kind != "" && kind != KindMCPRegistry || apiVersion != "" && group != ToolHiveGroup {
		return fmt.Errorf("%s %s/%s (apiVersion %q) is not an MCPRegistry of %s", kind, namespace, name, apiVersion, ToolHiveGroup)
	}
	return nil
}

// GetObjectKind makes MCPRegistry a runtime.Object.
func (r *MCPRegistry) GetObjectKind() schema.ObjectKind { return &r.TypeMeta }

// DeepCopyObject makes MCPRegistry a runtime.Object.
func (r *MCPRegistry) DeepCopyObject() runtime.Object {
	if r == nil {
		return nil
	}
	return r.DeepCopy()
}

// DeepCopy returns a copy sharing no memory with r.
func (r *MCPRegistry) DeepCopy() *MCPRegistry {
	if r == nil {
		return nil
	}
	out := &MCPRegistry{TypeMeta: r.TypeMeta}
	r.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	r.Spec.DeepCopyInto(&out.Spec)
	r.Status.DeepCopyInto(&out.Status)
	return out
}

// DeepCopyInto copies s into out, sharing no memory.
func (s *MCPRegistrySpec) DeepCopyInto(out *MCPRegistrySpec) {
	*out = *s
	out.PodTemplateSpec = cloneRaw(s.PodTemplateSpec)
	out.DatabaseConfig = cloneRaw(s.DatabaseConfig)
	out.AuthConfig = cloneRaw(s.AuthConfig)
	if s.Registries != nil {
		out.Registries = make([]MCPRegistryConfig, len(s.Registries))
		for i := range s.Registries {
			s.Registries[i].DeepCopyInto(&out.Registries[i])
		}
	}
	out.Volumes = cloneRaws(s.Volumes)
	out.VolumeMounts = cloneRaws(s.VolumeMounts)
	if s.PGPassSecretRef != nil {
		out.PGPassSecretRef = s.PGPassSecretRef.DeepCopy()
	}
	out.ImagePullSecrets = slices.Clone(s.ImagePullSecrets)
}

// DeepCopyInto copies c into out, sharing no memory.
func (c *MCPRegistryConfig) DeepCopyInto(out *MCPRegistryConfig) {
	*out = *c
	if c.ConfigMapRef != nil {
		out.ConfigMapRef = c.ConfigMapRef.DeepCopy()
	}
	if c.ConfigMapSelector != nil {
		out.ConfigMapSelector = c.ConfigMapSelector.DeepCopy()
	}
	if c.Git != nil {
		g := *c.Git
		if c.Git.Auth != nil {
			a := *c.Git.Auth
			c.Git.Auth.PasswordSecretRef.DeepCopyInto(&a.PasswordSecretRef)
			g.Auth = &a
		}
		out.Git = &g
	}
	if c.API != nil {
		a := *c.API
		out.API = &a
	}
	if c.PVCRef != nil {
		p := *c.PVCRef
		out.PVCRef = &p
	}
	if c.SyncPolicy != nil {
		p := *c.SyncPolicy
		out.SyncPolicy = &p
	}
	out.Filter = c.Filter.DeepCopy()
}

// DeepCopy returns a copy sharing no memory with s.
func (s *ConfigMapSelector) DeepCopy() *ConfigMapSelector {
	if s == nil {
		return nil
	}
	out := &ConfigMapSelector{Key: s.Key}
	if s.MatchLabels != nil {
		out.MatchLabels = make(map[string]string, len(s.MatchLabels))
		for k, v := range s.MatchLabels {
			out.MatchLabels[k] = v
		}
	}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]metav1.LabelSelectorRequirement, len(s.MatchExpressions))
		for i := range s.MatchExpressions {
			s.MatchExpressions[i].DeepCopyInto(&out.MatchExpressions[i])
		}
	}
	return out
}

// DeepCopy returns a copy sharing no memory with f.
func (f *RegistryFilter) DeepCopy() *RegistryFilter {
	if f == nil {
		return nil
	}
	return &RegistryFilter{Names: f.Names.DeepCopy(), Tags: f.Tags.DeepCopy()}
}

// DeepCopy returns a copy sharing no memory with ie.
func (ie *IncludeExclude) DeepCopy() *IncludeExclude {
	if ie == nil {
		return nil
	}
	return &IncludeExclude{Include: slices.Clone(ie.Include), Exclude: slices.Clone(ie.Exclude)}
}

// DeepCopyInto copies s into out, sharing no memory.
func (s *MCPRegistryStatus) DeepCopyInto(out *MCPRegistryStatus) {
	*out = *s
	if s.Conditions != nil {
		out.Conditions = make([]metav1.Condition, len(s.Conditions))
		for i := range s.Conditions {
			s.Conditions[i].DeepCopyInto(&out.Conditions[i])
		}
	}
	if s.SyncStatus != nil {
		ss := *s.SyncStatus
		ss.LastAttempt = s.SyncStatus.LastAttempt.DeepCopy()
		ss.LastSyncTime = s.SyncStatus.LastSyncTime.DeepCopy()
		out.SyncStatus = &ss
	}
	out.APIStatus = cloneRaw(s.APIStatus)
	out.StorageRef = cloneRaw(s.StorageRef)
}

func cloneRaw(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return bytes.Clone(b)
}

func cloneRaws(bs []json.RawMessage) []json.RawMessage {
	if bs == nil {
		return nil
	}
	out := make([]json.RawMessage, len(bs))
	for i, b := range bs {
		out[i] = cloneRaw(b)
	}
	return out
}
