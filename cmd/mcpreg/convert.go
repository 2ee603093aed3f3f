package main

import (
	"fmt"

	"github.com/mcpreg/mcpreg/model"
)

// runConvert reads registry data of any shape (upstream, legacy, list) and prints it as an
// upstream document, entries normalised and sorted by name.
func runConvert(e *env, args []string) int {
	var c common
	fs := newFlagSet(e, "convert", "FILE [--default-namespace NS] [--format auto|upstream|toolhive|list] [--max-meta-size BYTES]")
	c.register(fs, false, nowLastUpdated)
	ns := fs.String("default-namespace", model.DefaultNamespace, "reverse-DNS `NS` for legacy names without one")
	format := fs.String("format", "auto", "input `FORMAT`: auto, upstream, toolhive or list")
	maxMeta := fs.Int("max-meta-size", model.DefaultMaxMetaSize, "drop entries whose publisher-provided _meta measures over `BYTES` as ToolHive's registry server measures it; 0 or negative for no limit")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if err := c.check(); err != nil {
		return usageError(e, "convert: %v", err)
	}
	if len(pos) != 1 {
		return usageError(e, "convert: want exactly one FILE (or - for stdin), got %d", len(pos))
	}
	f, err := model.ParseFormat(*format)
	if err != nil {
		return usageError(e, "convert: %v", err)
	}
	if *ns == "" || !model.NamePattern().MatchString(*ns+"/x") {
		return usageError(e, "convert: --default-namespace %q is not a valid reverse-DNS namespace", *ns)
	}
	data, err := readInput(e, pos[0])
	if err != nil {
		return usageError(e, "convert: %v", err)
	}
	src := fileRef(pos[0])
	limit := *maxMeta
	if limit <= 0 {
		limit = -1 // 0 would mean the default
	}
	out, ds := model.ConvertWith(data, model.ParseOptions{Format: f, DefaultNamespace: *ns, Source: src}, c.lastUpdated(e), model.NormalizeOptions{MaxMetaSize: limit})
	if out == nil {
		return emit(e, &c, nil, ds)
	}
	return emitRegistry(e, &c, out, ds)
}

// runValidate checks an upstream registry document against the upstream rules
// (model.ValidateRegistry) and exits
// 1 when any rule is broken, naming the server and the rule.
func runValidate(e *env, args []string) int {
	var c common
	fs := newFlagSet(e, "validate", "FILE")
	c.register(fs, false, "`RFC3339` time; accepted as every verb accepts it, and unused: validate writes no document")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if err := c.check(); err != nil {
		return usageError(e, "validate: %v", err)
	}
	if len(pos) != 1 {
		return usageError(e, "validate: want exactly one FILE (or - for stdin), got %d", len(pos))
	}
	data, err := readInput(e, pos[0])
	if err != nil {
		return usageError(e, "validate: %v", err)
	}
	src := fileRef(pos[0])
	ds := model.ValidateJSON(data, src)
	// What ToolHive's registry server refuses or changes in a document the
	// upstream rules accept.
	if reg, _ := model.Parse(data, model.ParseOptions{Format: model.FormatUpstream, Source: src}); reg != nil {
		ds = append(ds, model.CheckServerCompat(reg, src, model.NormalizeOptions{})...)
		ds.Sort()
	}
	report(e, &c, ds)
	// The verdict names the file as the diagnostics do, escaped and cut:
	// whoever named it may have put a terminal escape or a line break in it.
	name := model.Echo(src.Name)
	if ds.HasErrors() {
		if c.diagnostics == "text" {
			n := ds.WithSeverity(model.SeverityError).Count()
			fmt.Fprintf(e.stderr, "%s: invalid (%s)\n", name, plural(n, "error"))
		}
		return exitError
	}
	if c.diagnostics == "text" {
		fmt.Fprintf(e.stderr, "%s: valid\n", name)
	}
	return exitOK
}
