package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

const mergeSynopsis = `-f PATH... --mcpregistry NAME [--namespace NS] [--entry ENTRY] [--conflict STRATEGY]
                    [--max-meta-size BYTES]
       mcpreg merge -f PATH... --namespace NS --selector k=v[,k=v...] [--key K]
                    [--include G]... [--exclude G]... [--include-tag T]... [--exclude-tag T]...
                    [--conflict prefix|priority|error|versions] [--max-meta-size BYTES]`

// mergeFlags are the flags of the merge verb.
type mergeFlags struct {
	common
	mcpregistry, namespace, entry string
	selector, key, conflict       string
	maxMetaSize                   int
	include, exclude              stringList
	includeTag, excludeTag        stringList
	set                           map[string]bool // flags given on the command line
}

// runMerge is the 'merge' verb: it merges the ConfigMaps an
// MCPRegistry entry selects, or those a label selector picks in a namespace,
// and prints the upstream registry document.
func runMerge(e *env, args []string) int {
	var f mergeFlags
	fs := newFlagSet(e, "merge", mergeSynopsis)
	f.register(fs, true, nowLastUpdated)
	fs.StringVar(&f.mcpregistry, "mcpregistry", "", "merge for the MCPRegistry `NAME`, with its entry's selector, key, format and filter")
	fs.StringVar(&f.namespace, "namespace", "", "`NS` of the MCPRegistry (optional when its name is unique) or of the ConfigMaps to select; objects the manifests give no namespace are read as in NS")
	fs.StringVar(&f.entry, "entry", "", "the MCPRegistry `ENTRY` to merge (optional when only one entry has a ConfigMap source)")
	fs.StringVar(&f.selector, "selector", "", "label `SELECTOR` of the ConfigMaps, Kubernetes syntax (k=v,k2 in (a,b),!k3)")
	fs.StringVar(&f.key, "key", "", "ConfigMap `KEY` holding registry data (default registry.json)")
	fs.Var(&f.include, "include", "keep only servers whose name matches the glob `G`; repeatable")
	fs.Var(&f.exclude, "exclude", "drop servers whose name matches the glob `G`; repeatable")
	fs.Var(&f.includeTag, "include-tag", "keep only servers with the tag `T`; repeatable")
	fs.Var(&f.excludeTag, "exclude-tag", "drop servers with the tag `T`; repeatable")
	fs.StringVar(&f.conflict, "conflict", "prefix", "conflict `STRATEGY`: prefix, priority, error or versions")
	fs.IntVar(&f.maxMetaSize, "max-meta-size", model.DefaultMaxMetaSize, "drop entries whose publisher-provided _meta measures over `BYTES` as ToolHive's registry server measures it; 0 or negative for no limit")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if err := f.check(); err != nil {
		return usageError(e, "merge: %v", err)
	}
	if f.namespace != "" {
		if err := checkNamespace(f.namespace); err != nil {
			return usageError(e, "merge: %v", err)
		}
	}
	if len(pos) > 0 {
		return usageError(e, "merge: unexpected argument %q (manifests are given with -f)", pos[0])
	}
	strategy, err := merge.ParseStrategy(f.conflict)
	if err != nil {
		return usageError(e, "merge: --conflict: %v", err)
	}
	lastUpdated, _ := time.Parse(time.RFC3339, f.lastUpdated(e)) // lastUpdated writes RFC 3339

	var res merge.Result
	if f.mcpregistry != "" {
		for _, name := range []string{"selector", "key", "include", "exclude", "include-tag", "exclude-tag"} {
			if f.set[name] {
				return usageError(e, "merge: --%s cannot be used with --mcpregistry: the MCPRegistry entry sets it", name)
			}
		}
		objs, err := loadObjectsIn(e, f.files, f.defaultNamespace())
		if err != nil {
			return usageError(e, "merge: %v", err)
		}
		reg, err := findRegistry(objs.MCPRegistries, f.mcpregistry, f.namespace)
		if err != nil {
			return usageError(e, "merge: %v", err)
		}
		res, err = merge.ForRegistry(reg, f.entry, objs.ConfigMaps, merge.Options{Strategy: strategy, LastUpdated: lastUpdated, MaxMetaSize: f.metaLimit(), Parallel: readParallel})
		if err != nil {
			return usageError(e, "merge: %v", err)
		}
	} else {
		switch {
		case f.set["entry"]:
			return usageError(e, "merge: --entry needs --mcpregistry")
		case !f.set["selector"]:
			return usageError(e, "merge: give --mcpregistry NAME, or --namespace NS and --selector k=v")
		case f.namespace == "":
			return usageError(e, "merge: --selector needs --namespace: ConfigMaps are selected in one namespace only")
		}
		objs, err := loadObjectsIn(e, f.files, f.defaultNamespace())
		if err != nil {
			return usageError(e, "merge: %v", err)
		}
		res = f.mergeSelected(objs.ConfigMaps, strategy, lastUpdated)
		res.Diagnostics = append(res.Diagnostics, f.sizeWarning(res.Registry)...)
		res.Diagnostics.Sort()
	}
	f.stamp(e, res.Registry)
	code := emitRegistry(e, &f.common, res.Registry, res.Diagnostics)
	if code == exitOK && f.diagnostics == "text" {
		fmt.Fprintln(e.stderr, summary(&res))
	}
	return code
}

// mergeSelected is the form without an MCPRegistry: the flags make the entry.
func (f *mergeFlags) mergeSelected(cms []*corev1.ConfigMap, strategy merge.Strategy, lastUpdated time.Time) merge.Result {
	owner := f.selectorOwner()
	ls, err := parseSelector(f.selector)
	if err != nil {
		return merge.Result{Diagnostics: model.Diagnostics{model.Errorf(model.ReasonInvalidSelector, owner, "",
			"invalid selector %q: %v", f.selector, err)}}
	}
	var filter *model.RegistryFilter
	if len(f.include)+len(f.exclude) > 0 {
		filter = &model.RegistryFilter{Names: &model.IncludeExclude{Include: f.include, Exclude: f.exclude}}
	}
	if len(f.includeTag)+len(f.excludeTag) > 0 {
		if filter == nil {
			filter = &model.RegistryFilter{}
		}
		filter.Tags = &model.IncludeExclude{Include: f.includeTag, Exclude: f.excludeTag}
	}
	return merge.Merge(merge.Source{
		Owner:     owner,
		Namespace: f.namespace,
		Selector:  ls,
		Key:       f.key,
		Strategy:  strategy,
		Filter:    filter,
	}, cms, merge.Options{LastUpdated: lastUpdated, MaxMetaSize: f.metaLimit(), Parallel: readParallel})
}

// selectorOwner is the object diagnostics of the selector form name: the
// selector in its namespace.
func (f *mergeFlags) selectorOwner() model.ObjectRef {
	return model.ObjectRef{Kind: "ConfigMapSelector", Namespace: f.namespace, Name: f.selector}
}

// defaultNamespace is the namespace of objects the manifests give none:
// --namespace, which names the namespace the merge reads, as kubectl apply
// -n would place them; "default" without it.
func (f *mergeFlags) defaultNamespace() string {
	if f.namespace != "" {
		return f.namespace
	}
	return kubectlDefaultNamespace
}

// sizeWarning is the OutputTooLarge warning of the selector form when the
// document, compact, would not fit in a ConfigMap with the key the output
// ConfigMap uses. The form writes no ConfigMap, so the document is still
// printed (a merge of any size may be wanted on stdout), where the
// --mcpregistry form, which renders the output ConfigMap, stops with an
// Error.
func (f *mergeFlags) sizeWarning(reg *model.Registry) model.Diagnostics {
	if reg == nil {
		return nil
	}
	n, _ := reg.WriteTo(io.Discard)
	size := int64(len(merge.OutputKey)) + n
	if size <= merge.MaxConfigMapSize {
		return nil
	}
	owner := f.selectorOwner()
	return model.Diagnostics{model.Warningf(model.ReasonOutputTooLarge, owner, "",
		"the merged registry is %d bytes (compact, under the key %q); a ConfigMap holds at most %d, so it cannot be stored as an MCPRegistry's output ConfigMap", size, merge.OutputKey, merge.MaxConfigMapSize)}
}

// parseSelector reads --selector, in the label selector syntax of kubectl -l,
// into the LabelSelector a merge.Source takes. metav1.ParseToLabelSelector is
// not enough: it refuses "k!=v", which kubectl accepts, and it keeps only the
// last of two equalities on one key, so "a=1,a=2" would select a=2 where the
// selector, every requirement of which must hold, selects nothing.
func parseSelector(s string) (*metav1.LabelSelector, error) {
	reqs, err := labels.ParseToRequirements(s)
	if err != nil {
		return nil, err
	}
	ls := &metav1.LabelSelector{}
	for _, r := range reqs {
		key, values := r.Key(), r.Values().List() // sorted: the selector does not depend on spelling order
		var op metav1.LabelSelectorOperator
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals:
			if v, ok := ls.MatchLabels[key]; !ok {
				if ls.MatchLabels == nil {
					ls.MatchLabels = map[string]string{}
				}
				ls.MatchLabels[key] = values[0]
				continue
			} else if v == values[0] {
				continue
			}
			// A second, different value for the key: both must hold, which
			// no ConfigMap can satisfy; an expression keeps that.
			op = metav1.LabelSelectorOpIn
		case selection.NotEquals:
			op = metav1.LabelSelectorOpNotIn // k!=v is k notin (v): both also match a ConfigMap without k
		case selection.In:
			op = metav1.LabelSelectorOpIn
		case selection.NotIn:
			op = metav1.LabelSelectorOpNotIn
		case selection.Exists:
			op, values = metav1.LabelSelectorOpExists, nil
		case selection.DoesNotExist:
			op, values = metav1.LabelSelectorOpDoesNotExist, nil
		default:
			return nil, fmt.Errorf("%q is not supported in a label selector of ConfigMaps", r.Operator())
		}
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: values})
	}
	return ls, nil
}

// metaLimit is --max-meta-size as the library takes it: 0 would mean the
// default, so any negative value is no limit.
func (f *mergeFlags) metaLimit() int {
	if f.maxMetaSize <= 0 {
		return -1
	}
	return f.maxMetaSize
}

// findRegistry finds the MCPRegistry by name, in namespace when given. The
// same object read twice (from two -f) is one match; when the copies differ
// (an older and a newer manifest of it), the one dedupe.Newer prefers is
// merged, as discovery settles copies of other kinds, so that the order of
// the -f flags does not choose.
func findRegistry(regs []*model.MCPRegistry, name, namespace string) (*model.MCPRegistry, error) {
	var found *model.MCPRegistry
	var namespaces []string
	for _, r := range regs {
		if r.Name != name || namespace != "" && r.Namespace != namespace {
			continue
		}
		if !slices.Contains(namespaces, r.Namespace) {
			namespaces = append(namespaces, r.Namespace)
		}
		if found == nil || r.Namespace == found.Namespace && dedupe.Newer(r, &r.ObjectMeta, found, &found.ObjectMeta) {
			found = r
		}
	}
	switch {
	case found == nil && namespace != "":
		return nil, fmt.Errorf("no MCPRegistry %q in namespace %q", name, namespace)
	case found == nil:
		return nil, fmt.Errorf("no MCPRegistry %q", name)
	case len(namespaces) > 1:
		slices.Sort(namespaces)
		return nil, fmt.Errorf("MCPRegistry %q is in several namespaces (%s); choose one with --namespace", name, strings.Join(namespaces, ", "))
	}
	return found, nil
}

// summary is the closing line in text mode, like validate's: how much was
// merged and what the filter removed.
func summary(r *merge.Result) string {
	s := fmt.Sprintf("merged %s from %s", plural(len(r.Registry.Servers), "server"), plural(len(r.Sources), "ConfigMap"))
	if n := len(r.Filtered); n > 0 {
		s += fmt.Sprintf("; the filter removed %d: %s", n, capList(r.Filtered, 10))
	}
	return s
}

func capList(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
