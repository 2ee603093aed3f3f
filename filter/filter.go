package filter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gobwas/glob"
	"github.com/gobwas/glob/match"

	"github.com/mcpreg/mcpreg/model"
)

// Filter is a compiled name and tag filter. The zero value and nil keep
// everything. A Filter is immutable and safe for concurrent use.
type Filter struct {
	nameInclude []pattern
	nameExclude []pattern
	tagInclude  []string
	tagExclude  []string
}

type pattern struct {
	text string
	g    linearMatcher
	// whole is set when the pattern has a "/": it then only matches whole names.
	whole bool
}

// PatternError reports a name pattern that does not compile. Field is the
// list it came from, as a path under the filter ("names.include" or
// "names.exclude"), and Index its position in that list.
type PatternError struct {
	Field   string
	Index   int
	Pattern string
	Err     error
}

// Error names the list, the position and the pattern (escaped, and cut
// past model.MaxEchoRunes).
func (e *PatternError) Error() string {
	return string(model.Sprintf("%s[%d]: invalid glob pattern %q: %v", e.Field, e.Index, e.Pattern, e.Err))
}

// Limits on a name pattern, checked before it is compiled. gobwas/glob's
// compiler takes time cubic in a pattern's wildcards (a pattern of 4,000
// "*" then "b" takes 3 s to compile, one of 2,000 "{a,b}" 69 s), and
// ToolHive's registry server compiles every pattern it is given with it; a
// pattern of a server name (at most 200 characters) needs far fewer.
const (
	// MaxPatternBytes is the longest name pattern compiled.
	MaxPatternBytes = 4096
	// MaxPatternWildcards is the most "*", "?", "[" and "{" (unescaped) a
	// name pattern may hold: compiling 64 takes a few milliseconds at most.
	MaxPatternWildcards = 64
)

// checkSize refuses a pattern past MaxPatternBytes or MaxPatternWildcards.
func checkSize(t string) error {
	if len(t) > MaxPatternBytes {
		return fmt.Errorf("it is %d bytes long; a name pattern may have at most %d", len(t), MaxPatternBytes)
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '*', '?', '[', '{':
			if n++; n > MaxPatternWildcards {
				return fmt.Errorf("it has more than %d wildcards (\"*\", \"?\", \"[\", \"{\"), which would take the glob compiler too long; write it as several patterns", MaxPatternWildcards)
			}
		}
	}
	return nil
}

// Unwrap returns the compiler's error.
func (e *PatternError) Unwrap() error { return e.Err }

// New compiles a filter from name patterns and tags. It fails on the first
// name pattern (include list first, each list in order) that gobwas/glob or
// path/filepath rejects; the error is a *PatternError.
func New(names, tags model.IncludeExclude) (*Filter, error) {
	f := &Filter{
		tagInclude: slices.Clone(tags.Include),
		tagExclude: slices.Clone(tags.Exclude),
	}
	var err error
	if f.nameInclude, err = compile("names.include", names.Include); err != nil {
		return nil, err
	}
	if f.nameExclude, err = compile("names.exclude", names.Exclude); err != nil {
		return nil, err
	}
	return f, nil
}

// FromRegistryFilter compiles the filter of an MCPRegistry entry. A nil
// filter gives a nil *Filter, which keeps everything.
func FromRegistryFilter(rf *model.RegistryFilter) (*Filter, error) {
	if rf == nil {
		return nil, nil
	}
	var names, tags model.IncludeExclude
	if rf.Names != nil {
		names = *rf.Names
	}
	if rf.Tags != nil {
		tags = *rf.Tags
	}
	return New(names, tags)
}

func compile(field string, texts []string) ([]pattern, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	out := make([]pattern, 0, len(texts))
	for i, t := range texts {
		if err := checkSize(t); err != nil {
			return nil, &PatternError{Field: field, Index: i, Pattern: t, Err: err}
		}
		// ToolHive's registry server validates with filepath.Match before
		// compiling with gobwas/glob; a pattern either rejects is invalid.
		if _, err := filepath.Match(t, "test"); err != nil {
			return nil, &PatternError{Field: field, Index: i, Pattern: t, Err: err}
		}
		g, err := compileGlob(t)
		if err != nil {
			return nil, &PatternError{Field: field, Index: i, Pattern: t, Err: err}
		}
		out = append(out, pattern{text: t, g: g, whole: strings.Contains(t, "/")})
	}
	return out, nil
}

// Empty reports whether the filter has no pattern and no tag, so that it
// keeps every entry and callers may skip it.
func (f *Filter) Empty() bool {
	return f == nil || len(f.nameInclude)+len(f.nameExclude)+len(f.tagInclude)+len(f.tagExclude) == 0
}

// Match reports whether the filter keeps the entry: its name passes the name
// rule and its tags pass the tag rule.
func (f *Filter) Match(s *model.Server) bool {
	if f.Empty() {
		return true
	}
	if !f.MatchName(s.Name()) {
		return false
	}
	if len(f.tagInclude) == 0 && len(f.tagExclude) == 0 {
		return true // do not read _meta when no tag rule is set
	}
	return f.MatchTags(s.Tags())
}

// MatchName applies the name rule alone.
func (f *Filter) MatchName(name string) bool {
	if f == nil {
		return true
	}
	_, short, namespaced := strings.Cut(name, "/")
	for _, p := range f.nameExclude {
		if p.match(name, short, namespaced) {
			return false
		}
	}
	if len(f.nameInclude) == 0 {
		return true
	}
	for _, p := range f.nameInclude {
		if p.match(name, short, namespaced) {
			return true
		}
	}
	return false
}

// match applies one name pattern. A pattern with a "/" is matched against the
// whole name. A pattern without one is also matched against the server part
// after the namespace, so "slack-*", written for the bare names ToolHive's
// legacy catalogs used, still selects io.github.stacklok/slack-mcp.
func (p pattern) match(name, short string, namespaced bool) bool {
	if p.g.Match(name) {
		return true
	}
	return !p.whole && namespaced && p.g.Match(short)
}

// MatchTags applies the tag rule alone: no tag may be excluded, and when
// includes are given at least one tag must be among them. An entry without
// tags fails any include.
func (f *Filter) MatchTags(tags []string) bool {
	if f == nil {
		return true
	}
	for _, t := range tags {
		if slices.Contains(f.tagExclude, t) {
			return false
		}
	}
	if len(f.tagInclude) == 0 {
		return true
	}
	for _, t := range tags {
		if slices.Contains(f.tagInclude, t) {
			return true
		}
	}
	return false
}

// String renders the filter for messages, for example
// `names include ["*/slack-*"] exclude ["*-deprecated"]; tags include ["db"]`.
// The empty filter renders as "no filter".
func (f *Filter) String() string {
	if f.Empty() {
		return "no filter"
	}
	var parts []string
	texts := func(ps []pattern) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.text
		}
		return out
	}
	if s := side(texts(f.nameInclude), texts(f.nameExclude)); s != "" {
		parts = append(parts, "names "+s)
	}
	if s := side(f.tagInclude, f.tagExclude); s != "" {
		parts = append(parts, "tags "+s)
	}
	return strings.Join(parts, "; ")
}

func side(include, exclude []string) string {
	var parts []string
	if len(include) > 0 {
		parts = append(parts, "include "+quoteList(include))
	}
	if len(exclude) > 0 {
		parts = append(parts, "exclude "+quoteList(exclude))
	}
	return strings.Join(parts, " ")
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// compileGlob compiles a pattern with gobwas/glob (no separators, as ToolHive
// does) and prepares the linear-time matcher over its tree.
func compileGlob(t string) (linearMatcher, error) {
	g, err := glob.Compile(t)
	if err != nil {
		return linearMatcher{}, err
	}
	m, ok := g.(match.Matcher)
	if !ok {
		return linearMatcher{}, errUnsupported
	}
	return newLinear(m)
}
