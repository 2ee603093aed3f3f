package main

import (
	"bufio"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/mcpreg/mcpreg/internal/manifest"
	"github.com/mcpreg/mcpreg/model"
)

// exampleFS is the example cluster read when no -f is given: one file per
// concern (merge, discovery by annotation, groups, Gateway API).
//
//go:embed example/*.yaml
var exampleFS embed.FS

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// common holds the flags every verb shares.
type common struct {
	files       stringList
	now         string
	diagnostics string
}

// nowLastUpdated is the usage of --now in a verb that writes a registry
// document.
const nowLastUpdated = "`RFC3339` time for meta.last_updated (default: the current time)"

// register adds the shared flags to fs; nowUsage says what --now sets in
// the verb's output.
func (c *common) register(fs *flag.FlagSet, withFiles bool, nowUsage string) {
	if withFiles {
		fs.Var(&c.files, "f", "manifest `PATH`: a file, a directory (read recursively) or - for stdin; repeatable")
	}
	fs.StringVar(&c.now, "now", "", nowUsage)
	fs.StringVar(&c.diagnostics, "diagnostics", "text", "diagnostics format on stderr: text or json")
}

// check validates the common flags after parsing.
func (c *common) check() error {
	if c.diagnostics != "text" && c.diagnostics != "json" {
		return fmt.Errorf("--diagnostics must be text or json, not %q", c.diagnostics)
	}
	if c.now != "" {
		// RFC 3339 allows a lower-case "t" and "z"; the document gets
		// them in upper case, the form every reader accepts.
		upper := strings.ToUpper(c.now)
		t, err := time.Parse(time.RFC3339, upper)
		if err != nil || !model.IsRFC3339(upper) {
			return fmt.Errorf("--now %q is not an RFC 3339 time (like 2025-01-02T15:04:05Z)", c.now)
		}
		c.now = upper
		// Conditions carry the time in UTC, and RFC 3339 has four-digit
		// years: 9999-12-31T23:59:59-01:00 parses but is in the year 10000
		// in UTC, which no reader of a condition accepts.
		if y := t.UTC().Year(); y < 0 || y > 9999 {
			return fmt.Errorf("--now %q is in the year %d in UTC; meta.last_updated needs a year from 0000 to 9999", c.now, y)
		}
	}
	return nil
}

// checkNamespace refuses a --namespace value no namespace can have (a
// namespace name is a DNS label): "a,b" or "A" would match nothing and
// leave an empty result, not the usage error it is.
func checkNamespace(ns string) error {
	if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
		return fmt.Errorf("--namespace %q is not a namespace name: %s", ns, strings.Join(errs, "; "))
	}
	return nil
}

// lastUpdated is the meta.last_updated the verb writes: --now as given (an
// RFC 3339 time keeps its offset and fraction of a second), else the
// current time in UTC, to the second.
func (c *common) lastUpdated(e *env) string {
	if c.now != "" {
		return c.now // checked by check
	}
	return e.now().UTC().Format(time.RFC3339)
}

// stamp sets meta.last_updated of a document the library built from the
// time lastUpdated parses to (the library writes times in UTC) to
// lastUpdated itself.
func (c *common) stamp(e *env, reg *model.Registry) {
	if reg != nil {
		reg.LastUpdated = c.lastUpdated(e)
	}
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: mcpreg %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags that may come before or after positional arguments
// ("mcpreg convert FILE --default-namespace NS") and returns the positionals.
// ok is false after a usage error (already reported); help is true for -h.
func parseFlags(fs *flag.FlagSet, args []string) (positional []string, status int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 || rest[0] == "--" {
			if len(rest) > 0 {
				positional = append(positional, rest[1:]...)
			}
			if name := emptyFlag(fs); name != "" {
				fmt.Fprintf(fs.Output(), "mcpreg: flag -%s needs a value (leave the flag out for its default)\n", name)
				fs.Usage()
				return nil, exitUsage, false
			}
			return positional, 0, true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// emptyOK are the flags whose empty value means something: a selector or a
// filter pattern (the library judges those), a list given nothing.
var emptyOK = map[string]bool{"selector": true, "include": true, "exclude": true, "include-tag": true, "exclude-tag": true}

// emptyFlag returns the name of a flag given an empty value that cannot take
// one, or "". An empty --now, --conflict or --namespace from a script's unset
// variable would otherwise quietly mean the default (the current time, the
// prefix strategy, every namespace), which is not what was asked.
func emptyFlag(fs *flag.FlagSet) string {
	var name string
	fs.Visit(func(f *flag.Flag) {
		if name == "" && f.Value.String() == "" && !emptyOK[f.Name] {
			name = f.Name
		}
	})
	return name
}

// usageError reports bad usage and returns the usage exit status. The
// message is escaped and cut as a diagnostic is: it may quote a manifest
// (an error naming a file found in a directory, or an object).
func usageError(e *env, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "mcpreg: %s\n", model.Sprintf(format, args...))
	return exitUsage
}

// kubectlDefaultNamespace is where namespaced objects without a namespace are
// placed, as kubectl apply would with the default context.
const kubectlDefaultNamespace = "default"

// loadObjects reads the manifests named by -f, or the embedded example cluster
// when there are none; objects without a namespace are put in "default".
// Errors name the file and the document.
func loadObjects(e *env, paths []string) (*manifest.Objects, error) {
	return loadObjectsIn(e, paths, kubectlDefaultNamespace)
}

// loadObjectsIn is loadObjects putting objects without a namespace in ns,
// as kubectl apply -n ns would.
func loadObjectsIn(e *env, paths []string, ns string) (*manifest.Objects, error) {
	all, err := readObjects(e, paths)
	if err != nil {
		return nil, err
	}
	all.DefaultNamespace(ns)
	return all, nil
}

func readObjects(e *env, paths []string) (*manifest.Objects, error) {
	all := &manifest.Objects{}
	if len(paths) == 0 {
		entries, err := fs.Glob(exampleFS, "example/*.yaml")
		if err != nil {
			return nil, err
		}
		slices.Sort(entries)
		for _, name := range entries {
			data, err := exampleFS.ReadFile(name)
			if err != nil {
				return nil, err
			}
			o, err := manifest.Decode(data, "(example) "+name)
			if err != nil {
				return nil, err
			}
			all.Append(o)
		}
		return all, nil
	}
	for _, p := range paths {
		files, err := expand(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := readInput(e, f)
			if err != nil {
				return nil, err
			}
			o, err := manifest.Decode(data, f)
			if err != nil {
				return nil, err
			}
			all.Append(o)
		}
	}
	return all, nil
}

// expand turns a -f argument into files: the file itself, "-" for stdin, or
// the manifest files under a directory, sorted, recursively.
func expand(p string) ([]string, error) {
	if p == "-" {
		return []string{p}, nil
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	root := p
	if lst, err := os.Lstat(p); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		// WalkDir does not follow a root that is a symbolic link: it would
		// report the link itself, not a directory, and read nothing. A
		// trailing separator makes the walk start in the link's target
		// while the paths in errors still begin with what the user typed.
		root = p + string(filepath.Separator)
	}
	var files []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		// Only regular files are read, a symbolic link's by its target: a
		// link to a directory inside the tree is not followed whatever its
		// name, and a pipe or device named like a manifest would block
		// the read or never end.
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				return err
			}
			mode = st.Mode().Type()
		}
		if mode.IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	return files, nil
}

// readInput reads a file, or stdin for "-".
func readInput(e *env, path string) ([]byte, error) {
	if path == "-" {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("stdin: %v", err)
		}
		return b, nil
	}
	return os.ReadFile(path)
}

// report writes diagnostics to stderr in the chosen format, sorted.
func report(e *env, c *common, ds model.Diagnostics) {
	ds = ds.Sorted()
	for _, d := range ds {
		if c.diagnostics == "json" {
			b, err := json.Marshal(d)
			if err != nil {
				continue
			}
			fmt.Fprintf(e.stderr, "%s\n", b)
			continue
		}
		fmt.Fprintln(e.stderr, d.String())
	}
}

// emit prints a registry document and the diagnostics and picks the exit
// status. A document that comes with an Error is not printed. A document
// without servers is printed (exit 0) with its EmptyRegistry warning: it is
// a valid registry, and the warning is there for whoever publishes it to
// ToolHive's registry server, which refuses an empty one.
func emit(e *env, c *common, doc []byte, ds model.Diagnostics) int {
	var write func(io.Writer) error
	if doc != nil {
		write = func(w io.Writer) error {
			_, err := w.Write(doc)
			return err
		}
	}
	return emitWith(e, c, write, ds)
}

// emitRegistry is emit for a registry document, streamed to stdout through
// a buffer rather than built whole first: the largest thing the command
// would hold, half again the size of the registry data it read.
func emitRegistry(e *env, c *common, reg *model.Registry, ds model.Diagnostics) int {
	if reg == nil {
		return emitWith(e, c, nil, ds)
	}
	return emitWith(e, c, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		if _, err := reg.WriteIndentTo(bw); err != nil {
			return err
		}
		return bw.Flush()
	}, ds)
}

// emitWith is emit with the document written by write; nil for none.
func emitWith(e *env, c *common, write func(io.Writer) error, ds model.Diagnostics) int {
	report(e, c, ds)
	// Any Error stops the verb: the document a library function still
	// returns alongside one (an output ConfigMap over 1 MiB, say) is not one
	// to apply, so it is not written and the exit status is 1.
	if errs := ds.WithSeverity(model.SeverityError); len(errs) > 0 || write == nil {
		if c.diagnostics == "text" {
			var reasons []string
			for _, d := range errs {
				if !slices.Contains(reasons, string(d.Reason)) {
					reasons = append(reasons, string(d.Reason))
				}
			}
			if len(errs) > 0 {
				fmt.Fprintf(e.stderr, "mcpreg: no document written: %s (%s)\n", plural(errs.Count(), "error"), strings.Join(reasons, ", "))
			} else {
				// Not reached by the verbs: each result without a document
				// comes with an Error saying why.
				fmt.Fprintln(e.stderr, "mcpreg: no document written")
			}
		}
		return exitError
	}
	if err := write(e.stdout); err != nil {
		fmt.Fprintf(e.stderr, "mcpreg: writing output: %v\n", err)
		return exitError
	}
	return exitOK
}

// fileRef names a registry file in diagnostics.
func fileRef(path string) model.ObjectRef {
	if path == "-" {
		path = "(stdin)"
	}
	return model.ObjectRef{Kind: "File", Name: path}
}
