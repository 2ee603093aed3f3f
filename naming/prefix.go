package naming

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/model"
)

// MaxLen is the longest server name the upstream schema allows, in characters.
const MaxLen = model.NameMaxLen

// placeholder stands in for a side of a name that is empty after cleaning, so
// that generated names always have two non-empty sides.
const placeholder = "x"

// Split cuts a server name at its first "/" into the reverse-DNS namespace and
// the server part. A name without "/" has an empty namespace.
func Split(name string) (namespace, server string) {
	ns, srv, ok := strings.Cut(name, "/")
	if !ok {
		return "", name
	}
	return ns, srv
}

// Prefix is the name a conflicting copy of name from ConfigMap source gets
// first: "{source}/{server}".
func Prefix(source, name string) string {
	_, srv := Split(name)
	return cleanLeft(source) + "/" + cleanRight(srv)
}

// Qualify is the name a copy gets when its Prefix collides:
// "{source}.{namespace}/{server}", namespace being the name's reverse-DNS
// namespace. A name without namespace gives "{source}/{server}".
func Qualify(source, name string) string {
	ns, srv := Split(name)
	left := cleanLeft(source)
	if ns != "" {
		left += "." + cleanLeft(ns)
	}
	return left + "/" + cleanRight(srv)
}

// Shorten returns name unchanged when it has at most MaxLen characters.
// Otherwise it returns a name of at most MaxLen characters that matches the
// upstream name pattern: the namespace and server parts cut (the shorter part
// kept whole when it fits in half the room), trailing ".", "-" and "_" trimmed,
// and "-" plus the first 8 hex digits of the SHA-256 of the whole name
// appended to the server part, so that different long names stay different.
func Shorten(name string) string {
	if utf8.RuneCountInString(name) <= MaxLen {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	tail := "-" + hex.EncodeToString(sum[:4])
	ns, srv := Split(name)
	ns, srv = cleanLeft(ns), cleanRight(srv)
	room := MaxLen - 1 - len(tail) // "/" and the tail
	nsMax, srvMax := len(ns), len(srv)
	if nsMax+srvMax > room {
		half := room / 2
		switch {
		case nsMax <= half:
			srvMax = room - nsMax
		case srvMax <= half:
			nsMax = room - srvMax
		default:
			nsMax, srvMax = half, room-half
		}
	}
	return trimCut(ns, nsMax) + "/" + trimCut(srv, srvMax) + tail
}

// trimCut cuts s (ASCII after cleaning) to at most n bytes and trims the
// separators a cut may leave at the end, unless that empties it.
func trimCut(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	if t := strings.TrimRight(s, ".-_"); t != "" {
		return t
	}
	return s
}

// cleanLeft maps s onto the namespace side of the upstream pattern,
// [a-zA-Z0-9.-]+, each other character becoming "-".
func cleanLeft(s string) string { return clean(s, false) }

// cleanRight maps s onto the server side, [a-zA-Z0-9._-]+.
func cleanRight(s string) string { return clean(s, true) }

func clean(s string, underscore bool) string {
	if s == "" {
		return placeholder
	}
	ok := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '.' || r == '-' || underscore && r == '_'
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return !ok(r) }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if ok(r) {
			return r
		}
		return '-'
	}, s)
}

// Copy is one server entry to name: the name it has and the ConfigMap (or
// other source) it came from.
type Copy struct {
	Name   string
	Source string
}

// Step says which stage of the prefix rule gave a copy its name.
type Step int

// The stages of Assign, in order.
const (
	Kept Step = iota
	Prefixed
	Qualified
	Suffixed
)

// String returns the stage's name.
func (s Step) String() string {
	switch s {
	case Kept:
		return "Kept"
	case Prefixed:
		return "Prefixed"
	case Qualified:
		return "Qualified"
	case Suffixed:
		return "Suffixed"
	}
	return "Step(" + strconv.Itoa(int(s)) + ")"
}

// Assigned is the outcome for one copy.
type Assigned struct {
	// Name is the final name, unique among the outcomes of one Assign call.
	Name string
	// Step is the stage that gave the name.
	Step Step
	// Shortened is set when the name of that stage was over MaxLen
	// characters and was cut by Shorten.
	Shortened bool
	// Full is the name of that stage before shortening; equal to Name unless
	// Shortened.
	Full string
}

// Assign gives every copy a distinct name by the prefix rule (see the package
// documentation). The i-th outcome belongs to the i-th copy. Copies sharing a
// name are the conflicting ones; callers drop duplicates inside one source
// beforehand if they do not want them renamed.
//
// kept may be nil. A caller that renames a few copies among many names need
// not pass them all: copies are then the copies that may need a new name
// (with every copy of each name among them), and kept reports the names of
// all the other copies, which keep them. The outcomes are those Assign gives
// the same copies when passed with the others; a merge of many servers with
// few conflicts names only the conflicting ones.
func Assign(copies []Copy, kept func(name string) bool) []Assigned {
	count := make(map[string]int, len(copies))
	for _, c := range copies {
		count[c.Name]++
	}
	a := assigner{
		copies: copies,
		out:    make([]Assigned, len(copies)),
		count:  count,
		kept:   kept,
		taken:  map[string]struct{}{},
	}
	var long, conflicting []int
	for i, c := range copies {
		switch {
		case count[c.Name] > 1:
			conflicting = append(conflicting, i)
		case utf8.RuneCountInString(c.Name) > MaxLen:
			long = append(long, i)
		default:
			// Unique names are distinct from each other by definition, and
			// taken (isTaken reads count), so they need no entry in taken:
			// at scale, most names are kept.
			a.out[i] = Assigned{Name: c.Name, Step: Kept, Full: c.Name}
		}
	}
	rest := a.stage(long, Kept, func(c Copy) string { return c.Name })
	next := a.stage(conflicting, Prefixed, func(c Copy) string { return Prefix(c.Source, c.Name) })
	next = a.stage(next, Qualified, func(c Copy) string { return Qualify(c.Source, c.Name) })
	rest = append(rest, next...)
	a.suffix(rest, count)
	return a.out
}

type assigner struct {
	copies []Copy
	out    []Assigned
	// count is the number of copies of each input name.
	count map[string]int
	// kept reports the names of copies not passed, which keep them.
	kept func(string) bool
	// taken holds the names given by the stages, besides the kept ones.
	taken map[string]struct{}
}

func (a *assigner) accept(i int, name, full string, step Step) {
	a.out[i] = Assigned{Name: name, Step: step, Shortened: name != full, Full: full}
	a.taken[name] = struct{}{}
}

// isTaken reports whether a name is given already: kept as the unique name
// of a copy, or given by a stage.
func (a *assigner) isTaken(name string) bool {
	if a.count[name] == 1 && utf8.RuneCountInString(name) <= MaxLen || a.kept != nil && a.kept(name) {
		return true
	}
	_, taken := a.taken[name]
	return taken
}

// stage lets each copy of idx propose a name; a proposal is accepted when no
// earlier stage took it and no other copy of this stage proposes it. The
// copies left over are returned in their input order.
func (a *assigner) stage(idx []int, step Step, propose func(Copy) string) (rejected []int) {
	if len(idx) == 0 {
		return nil
	}
	full := make([]string, len(idx))
	short := make([]string, len(idx))
	count := make(map[string]int, len(idx))
	for k, i := range idx {
		full[k] = propose(a.copies[i])
		short[k] = Shorten(full[k])
		count[short[k]]++
	}
	for k, i := range idx {
		if a.isTaken(short[k]) || count[short[k]] > 1 {
			rejected = append(rejected, i)
			continue
		}
		a.accept(i, short[k], full[k], step)
	}
	return rejected
}

// suffix gives the copies left after the other stages the first free
// "{base}-{n}".
func (a *assigner) suffix(idx []int, count map[string]int) {
	base := func(i int) string {
		c := a.copies[i]
		if count[c.Name] > 1 {
			return Qualify(c.Source, c.Name)
		}
		return c.Name
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		return cmp.Or(
			strings.Compare(base(i), base(j)),
			strings.Compare(a.copies[i].Source, a.copies[j].Source),
			strings.Compare(a.copies[i].Name, a.copies[j].Name),
			cmp.Compare(i, j),
		)
	})
	// next holds, per base, the number to try next: every smaller one was
	// taken when the base was last searched, and taken names stay taken,
	// so n copies sharing a base cost O(n) lookups, not O(n²).
	next := map[string]int{}
	for _, i := range idx {
		b := base(i)
		for n := max(next[b], 2); ; n++ {
			full := b + "-" + strconv.Itoa(n)
			name := Shorten(full)
			if !a.isTaken(name) {
				a.accept(i, name, full, Suffixed)
				next[b] = n + 1
				break
			}
		}
	}
}
