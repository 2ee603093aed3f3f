package merge

import (
	"strings"
	"time"

	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mcpreg/mcpreg/filter"
	"github.com/mcpreg/mcpreg/model"
)

// sourceRuleMessage is the message of the rule on registry entries:
// ToolHive's own (configMapRef, git, api, pvcRef) with configMapSelector.
const sourceRuleMessage = "exactly one source type must be specified (configMapRef, configMapSelector, git, api, or pvcRef)"

// ValidateMCPRegistry checks an MCPRegistry's spec the way the CRD's schema
// and CEL rules would, in Go, so an operator can reject it with field paths
// before merging: at least one entry; entry names present and unique;
// exactly one of configMapRef, configMapSelector, git, api and pvcRef per
// entry (a git, api or pvcRef entry is valid, though SourcesFor cannot merge
// it); a selector with matchLabels or matchExpressions, both well formed; a
// configMapRef with a name; ConfigMap keys that Kubernetes allows; a known
// format; a positive Go duration as syncPolicy.interval ("5m", "1h"); filter
// name patterns that compile (see package filter). An MCPRegistry of the
// v1beta1 shape (spec.configYAML) has no entries to check: it is valid when
// configYAML is set.
func ValidateMCPRegistry(reg *model.MCPRegistry) field.ErrorList {
	var errs field.ErrorList
	if reg == nil {
		return append(errs, field.Required(field.NewPath("spec"), "no MCPRegistry given (nil)"))
	}
	if reg.UsesConfigYAML() {
		if reg.Spec.ConfigYAML == "" {
			errs = append(errs, field.Required(field.NewPath("spec", "configYAML"), "the registry server's configuration"))
		}
		return errs
	}
	p := field.NewPath("spec", "registries")
	if len(reg.Spec.Registries) == 0 {
		errs = append(errs, field.Required(p, "at least one registry source is required"))
	}
	seen := make(map[string]bool, len(reg.Spec.Registries))
	for i := range reg.Spec.Registries {
		c := &reg.Spec.Registries[i]
		ip := p.Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(ip.Child("name"), "every registry source needs a name"))
		case seen[c.Name]:
			errs = append(errs, field.Duplicate(ip.Child("name"), c.Name))
		}
		seen[c.Name] = true
		errs = append(errs, validateSources(c, ip)...)
		if _, err := model.ParseFormat(c.Format); err != nil {
			errs = append(errs, field.NotSupported(ip.Child("format"), c.Format, []string{"toolhive", "upstream", "list"}))
		}
		if c.SyncPolicy != nil && c.SyncPolicy.Interval != "" {
			if d, err := time.ParseDuration(c.SyncPolicy.Interval); err != nil || d <= 0 {
				errs = append(errs, field.Invalid(ip.Child("syncPolicy", "interval"), c.SyncPolicy.Interval,
					"must be a positive duration such as 30s, 5m or 1h"))
			}
		}
		errs = append(errs, validateFilter(c.Filter, ip.Child("filter"))...)
	}
	return errs
}

func validateSources(c *model.MCPRegistryConfig, ip *field.Path) field.ErrorList {
	var errs field.ErrorList
	set := c.SourceTypes()
	switch len(set) {
	case 0:
		errs = append(errs, field.Required(ip, sourceRuleMessage))
	case 1:
	default:
		errs = append(errs, field.Invalid(ip, strings.Join(set, ", "), sourceRuleMessage))
	}
	if r := c.ConfigMapRef; r != nil {
		rp := ip.Child("configMapRef")
		if r.Name == "" {
			errs = append(errs, field.Required(rp.Child("name"), "the ConfigMap to read"))
		}
		errs = append(errs, validateKey(r.Key, rp.Child("key"))...)
	}
	if s := c.ConfigMapSelector; s != nil {
		sp := ip.Child("configMapSelector")
		if len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0 {
			errs = append(errs, field.Required(sp,
				"matchLabels or matchExpressions must be set; an empty selector would select every ConfigMap"))
		} else {
			errs = append(errs, metav1validation.ValidateLabelSelector(s.LabelSelector(),
				metav1validation.LabelSelectorValidationOptions{}, sp)...)
		}
		errs = append(errs, validateKey(s.Key, sp.Child("key"))...)
	}
	return errs
}

func validateKey(key string, p *field.Path) field.ErrorList {
	if key == "" {
		return nil // defaults to registry.json
	}
	var errs field.ErrorList
	for _, msg := range validation.IsConfigMapKey(key) {
		errs = append(errs, field.Invalid(p, key, msg))
	}
	return errs
}

func validateFilter(f *model.RegistryFilter, p *field.Path) field.ErrorList {
	if f == nil || f.Names == nil {
		return nil
	}
	var errs field.ErrorList
	check := func(list []string, lp *field.Path) {
		for j, pat := range list {
			if _, err := filter.New(model.IncludeExclude{Include: []string{pat}}, model.IncludeExclude{}); err != nil {
				msg := err.Error()
				if pe, ok := err.(*filter.PatternError); ok {
					msg = "invalid glob pattern: " + pe.Err.Error()
				}
				errs = append(errs, field.Invalid(lp.Index(j), pat, msg))
			}
		}
	}
	check(f.Names.Include, p.Child("names", "include"))
	check(f.Names.Exclude, p.Child("names", "exclude"))
	return errs
}
