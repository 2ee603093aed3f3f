package model

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// ConfigYAMLSource is one data source of an MCPRegistry's spec.configYAML
// (ToolHive's v1beta1 shape, the registry server's own configuration), as
// the library reads it.
type ConfigYAMLSource struct {
	// Config is the source as an entry of spec.registries would hold it:
	// its name, format, sync policy and filter, and ConfigMapRef when its
	// file is a key of a ConfigMap mounted through spec.volumes and
	// spec.volumeMounts. Git and API are set (empty) for those sources.
	Config MCPRegistryConfig
	// Field is where the source lies: "spec.configYAML: sources[0]".
	Field string
	// Type is the source's kind in the configuration: "file", "git",
	// "api", "managed", "kubernetes", or "" when it sets none.
	Type string
	// Unresolved says why a file source is not a ConfigMap key ("" when it
	// is, and for the other types).
	Unresolved string
}

// maxConfigYAMLItems bounds the sources, volumes, volume mounts and the
// items of ConfigMap volumes read from one MCPRegistry: resolving a file
// compares it with every mount and the items of one volume, so the work
// stays under this squared.
const maxConfigYAMLItems = 1000

// registryServerConfig is the part of the registry server's configuration
// that says where data comes from: sources (each a file, git, api, managed
// or kubernetes source) and registries, which name sources or, in the
// configuration's earlier form, are sources themselves.
type registryServerConfig struct {
	Sources    []registryServerSource `json:"sources"`
	Registries []registryServerSource `json:"registries"`
}

type registryServerSource struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	File   *struct {
		Path string `json:"path"`
	} `json:"file"`
	Git        json.RawMessage `json:"git"`
	API        json.RawMessage `json:"api"`
	Managed    json.RawMessage `json:"managed"`
	Kubernetes json.RawMessage `json:"kubernetes"`
	SyncPolicy *SyncPolicy     `json:"syncPolicy"`
	Filter     *RegistryFilter `json:"filter"`
}

func (s *registryServerSource) sourceType() string {
	switch {
	case s.File != nil:
		return "file"
	case s.Git != nil:
		return "git"
	case s.API != nil:
		return "api"
	case s.Managed != nil:
		return "managed"
	case s.Kubernetes != nil:
		return "kubernetes"
	}
	return ""
}

// ConfigYAMLSources reads the data sources of spec.configYAML, in order:
// its sources, then the registries that are sources themselves (the
// configuration's earlier form; a registry that only names sources is not
// one). A file source whose path lies in a volume mount (the deepest one
// that holds it) of a ConfigMap volume is that ConfigMap's key: the item
// projected to that path, or the key of that name when the volume lists no
// items. The error is for configYAML, spec.volumes or spec.volumeMounts that
// do not parse; more than 1,000 sources, volumes or mounts are an error too.
func (r *MCPRegistry) ConfigYAMLSources() ([]ConfigYAMLSource, error) {
	var cfg registryServerConfig
	if err := yaml.Unmarshal([]byte(r.Spec.ConfigYAML), &cfg); err != nil {
		return nil, fmt.Errorf("spec.configYAML does not parse: %s", Echo(err.Error()))
	}
	if len(cfg.Sources)+len(cfg.Registries) > maxConfigYAMLItems || len(r.Spec.Volumes) > maxConfigYAMLItems || len(r.Spec.VolumeMounts) > maxConfigYAMLItems {
		return nil, fmt.Errorf("spec.configYAML, spec.volumes or spec.volumeMounts holds more than %d items", maxConfigYAMLItems)
	}
	volumes := make(map[string]*corev1.ConfigMapVolumeSource, len(r.Spec.Volumes))
	items := 0
	for i, raw := range r.Spec.Volumes {
		var v corev1.Volume
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("spec.volumes[%d] does not parse: %s", i, Echo(err.Error()))
		}
		if _, seen := volumes[v.Name]; !seen {
			volumes[v.Name] = v.ConfigMap
		}
		if v.ConfigMap != nil {
			if items += len(v.ConfigMap.Items); items > maxConfigYAMLItems {
				return nil, fmt.Errorf("spec.volumes holds more than %d ConfigMap items", maxConfigYAMLItems)
			}
		}
	}
	mounts := make([]corev1.VolumeMount, len(r.Spec.VolumeMounts))
	for i, raw := range r.Spec.VolumeMounts {
		if err := json.Unmarshal(raw, &mounts[i]); err != nil {
			return nil, fmt.Errorf("spec.volumeMounts[%d] does not parse: %s", i, Echo(err.Error()))
		}
	}
	var out []ConfigYAMLSource
	add := func(list string, i int, s *registryServerSource) {
		c := ConfigYAMLSource{
			Config: MCPRegistryConfig{Name: s.Name, Format: s.Format, SyncPolicy: s.SyncPolicy, Filter: s.Filter},
			Field:  fmt.Sprintf("spec.configYAML: %s[%d]", list, i),
			Type:   s.sourceType(),
		}
		switch c.Type {
		case "file":
			name, key, why := resolveFile(s.File.Path, volumes, mounts)
			if why != "" {
				c.Unresolved = why
			} else {
				c.Config.ConfigMapRef = &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
			}
		case "git":
			c.Config.Git = &GitSource{}
		case "api":
			c.Config.API = &APISource{}
		}
		out = append(out, c)
	}
	for i := range cfg.Sources {
		add("sources", i, &cfg.Sources[i])
	}
	for i := range cfg.Registries {
		if cfg.Registries[i].sourceType() != "" {
			add("registries", i, &cfg.Registries[i])
		}
	}
	return out, nil
}

// resolveFile finds the ConfigMap key a file path of the registry server's
// container holds, through the deepest volume mount that holds the path.
func resolveFile(file string, volumes map[string]*corev1.ConfigMapVolumeSource, mounts []corev1.VolumeMount) (name, key, why string) {
	file = path.Clean(file)
	best, bestLen, rel := -1, -1, ""
	for i := range mounts {
		m := &mounts[i]
		mp := path.Clean(m.MountPath)
		var r string
		switch {
		case m.SubPath != "":
			if file != mp {
				continue
			}
			r = m.SubPath
		case strings.HasPrefix(file, mp+"/") || mp == "/" && strings.HasPrefix(file, "/"):
			r = strings.TrimPrefix(strings.TrimPrefix(file, mp), "/")
		default:
			continue
		}
		if len(mp) > bestLen {
			best, bestLen, rel = i, len(mp), r
		}
	}
	if best < 0 {
		return "", "", string(Sprintf("%q lies in no volume mount (spec.volumeMounts)", file))
	}
	m := &mounts[best]
	cm := volumes[m.Name]
	if cm == nil {
		return "", "", string(Sprintf("%q is mounted from volume %q, which is no ConfigMap volume (spec.volumes)", file, m.Name))
	}
	if len(cm.Items) == 0 {
		if strings.Contains(rel, "/") {
			return "", "", string(Sprintf("%q is no key of ConfigMap %q: the volume projects each key as a file of its own name", file, cm.Name))
		}
		return cm.Name, rel, ""
	}
	for _, it := range cm.Items {
		if path.Clean(it.Path) == rel {
			return cm.Name, it.Key, ""
		}
	}
	return "", "", string(Sprintf("%q is no item of ConfigMap volume %q (its items project other paths)", file, m.Name))
}
