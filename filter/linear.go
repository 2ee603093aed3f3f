package filter

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/gobwas/glob/match"
)

// Linear-time matching with gobwas/glob's semantics.
//
// gobwas/glob compiles a pattern into a tree of matchers. Most of them test a
// whole string in one pass, but a BTree (a fixed-length part with a left and
// a right side) tries every position of its middle part and matches both
// sides again at each one: nested BTrees make matching polynomial in the name
// length with the number of stars as the degree ("a*a*a*a*a*a*a*?" against a
// 70-character name runs for minutes).
//
// linearMatcher evaluates the same tree differently: each node maps the set
// of positions where it may start to the set of positions where it may end,
// the way a regular expression is simulated over all its states at once.
// Every node's step costs O(len(name)) times the size of its pattern text, so
// a whole match costs O(len(pattern) × len(name)). The step of each node type
// is the exact relation its Match method computes on substrings (quirks
// included: "?" accepts the empty string when gobwas/glob tests it alone, a
// prefix and a suffix may overlap), and a BTree is the concatenation of its
// parts, which is what its search computes when its middle part has a fixed
// length or reports every end it may have. The few trees whose search
// depends on where an earlier candidate ended are refused when the filter is
// compiled (errUnsupported), so a compiled filter never disagrees with the
// registry server.
//
// Positions are byte offsets into the name. Valid server names are ASCII, and
// on ASCII the two matchers agree exactly. On other text this one counts
// runes wherever gobwas/glob means to: its fixed-length parts slice and skip
// by rune counts taken as byte counts, so it may split a multi-byte
// character, and its answer then depends on the bytes of that character.

// errUnsupported explains why a pattern is refused.
var errUnsupported = errors.New("this combination of alternatives of different lengths, stars and character classes cannot be matched in linear time with the registry server's glob semantics; write it as several patterns")

// errEmptyInRow explains the refusal of patterns gobwas/glob panics on.
var errEmptyInRow = errors.New("an empty alternative next to fixed-length parts (such as an unclosed or empty \"{\") makes the registry server's glob matcher fail")

type linearMatcher struct {
	root match.Matcher
	// direct is set when the tree has no BTree: gobwas/glob's own Match is
	// then a single pass (or a few) over the name, and faster than sets.
	direct bool
}

// newLinear checks that every node of m has a linear step.
func newLinear(m match.Matcher) (linearMatcher, error) {
	if err := checkNode(m, false); err != nil {
		return linearMatcher{}, err
	}
	return linearMatcher{root: m, direct: !hasBTree(m)}, nil
}

// hasBTree reports whether a BTree occurs in m. The other matchers of an
// accepted tree take O(len(pattern) × len(name)) in gobwas/glob itself.
func hasBTree(m match.Matcher) bool {
	switch v := m.(type) {
	case match.BTree:
		return true
	case match.AnyOf:
		for _, c := range v.Matchers {
			if hasBTree(c) {
				return true
			}
		}
	case match.EveryOf:
		for _, c := range v.Matchers {
			if hasBTree(c) {
				return true
			}
		}
	case match.Row:
		for _, c := range v.Matchers {
			if hasBTree(c) {
				return true
			}
		}
	}
	return false
}

// checkNode reports whether m (searched with Index when asValue) is one the
// step functions below compute exactly.
func checkNode(m match.Matcher, asValue bool) error {
	if asValue && m.Len() == 0 {
		// A BTree never tries its empty middle part at its input's end.
		return errUnsupported
	}
	if asValue && m.Len() < 0 {
		switch v := m.(type) {
		case match.Super, match.Prefix, match.Min, match.Max:
			return nil
		case match.Contains:
			if !v.Not {
				return nil
			}
			return errUnsupported
		case match.AnyOf:
			for _, c := range v.Matchers {
				if err := checkNode(c, true); err != nil {
					return err
				}
			}
			return nil
		case match.BTree:
			// BTree.Index never finds anything: as a middle part it
			// matches nothing, but its own parts must still be checked
			// for use by Match.
			return checkNode(v, false)
		default:
			return errUnsupported
		}
	}
	switch v := m.(type) {
	case match.Text, match.Super, match.Prefix, match.Suffix, match.PrefixSuffix,
		match.Min, match.Max, match.Single, match.List, match.Range, match.Nothing:
		return nil
	case match.Any:
		if len(v.Separators) == 0 {
			return nil
		}
		return errUnsupported
	case match.Contains:
		if v.Needle == "" && v.Not {
			return errUnsupported
		}
		return nil
	case match.EveryOf:
		// Compiled only for runs of negated classes: exactly Max runes.
		if maxOf(v) < 0 {
			return errUnsupported
		}
		for _, c := range v.Matchers {
			if err := checkNode(c, false); err != nil {
				return err
			}
		}
		return nil
	case match.Row:
		return checkRow(v)
	case match.AnyOf:
		for _, c := range v.Matchers {
			if err := checkNode(c, false); err != nil {
				return err
			}
		}
		return nil
	case match.BTree:
		if misreports(v.Value) || misreports(v.Left) || misreports(v.Right) {
			// A BTree trusts these lengths to bound its search.
			return errUnsupported
		}
		if err := checkNode(v.Value, true); err != nil {
			return err
		}
		if v.Value.Len() < 0 && v.Left != nil {
			return errUnsupported
		}
		if v.Value.Len() < 0 && canEmpty(v.Value) && (v.Right == nil || canEmpty(v.Right)) {
			// Such a BTree never matches the empty string (its search
			// loop does not start on an empty input) although its parts
			// do: refused rather than tracked.
			return errUnsupported
		}
		if v.Left != nil {
			if err := checkNode(v.Left, false); err != nil {
				return err
			}
		}
		if v.Right != nil {
			if err := checkNode(v.Right, false); err != nil {
				return err
			}
		}
		return nil
	default:
		return errUnsupported
	}
}

// checkFixed accepts the fixed-length matchers that the exact-slice steps
// (Row parts, fixed middle parts) call Match on: none contains a BTree, so
// each call is linear in the slice.
func checkFixed(m match.Matcher) error {
	if m.Len() < 0 {
		return errUnsupported
	}
	switch v := m.(type) {
	case match.Text, match.Single, match.List, match.Range, match.Nothing:
		return nil
	case match.Row:
		return checkRow(v)
	case match.AnyOf:
		for _, c := range v.Matchers {
			if err := checkFixed(c); err != nil {
				return err
			}
		}
		return nil
	default:
		return errUnsupported
	}
}

// checkRow refuses a row with an empty part: gobwas/glob's Row slices one
// rune past such a part and panics at the end of the name.
func checkRow(r match.Row) error {
	for _, c := range r.Matchers {
		if c.Len() == 0 {
			return errEmptyInRow
		}
		if err := checkFixed(c); err != nil {
			return err
		}
	}
	return nil
}

// misreports reports whether m claims a fixed length it does not have:
// AnyOf.Len skips the variable-length alternatives that come first, so
// "{a*,b}" claims one rune.
func misreports(m match.Matcher) bool {
	a, ok := m.(match.AnyOf)
	if !ok || a.Len() < 0 {
		return false
	}
	for _, c := range a.Matchers {
		if c.Len() != a.Len() || misreports(c) {
			return true
		}
	}
	return false
}

// canEmpty reports whether m may match the empty string (it may say true
// for a matcher that cannot, never the reverse).
func canEmpty(m match.Matcher) bool {
	switch v := m.(type) {
	case match.Text:
		return v.Str == ""
	case match.Prefix:
		return v.Prefix == ""
	case match.Suffix:
		return v.Suffix == ""
	case match.PrefixSuffix:
		return v.Prefix == "" && v.Suffix == ""
	case match.Contains:
		return v.Not || v.Needle == ""
	case match.Min:
		return false
	case match.Row:
		return v.RunesLength == 0
	case match.BTree:
		return v.Value.Len() == 0
	case match.AnyOf:
		for _, c := range v.Matchers {
			if canEmpty(c) {
				return true
			}
		}
		return false
	case match.EveryOf:
		for _, c := range v.Matchers {
			if !canEmpty(c) {
				return false
			}
		}
		return true
	default:
		return m.Match("")
	}
}

func maxOf(e match.EveryOf) int {
	for _, c := range e.Matchers {
		if m, ok := c.(match.Max); ok {
			return m.Limit
		}
	}
	return -1
}

// posSet is a set of byte positions 0..len(name).
type posSet []bool

type evaluator struct {
	s string
	// free holds sets to reuse; a match allocates a handful of them.
	free []posSet
}

func (e *evaluator) get() posSet {
	if n := len(e.free); n > 0 {
		p := e.free[n-1]
		e.free = e.free[:n-1]
		clear(p)
		return p
	}
	return make(posSet, len(e.s)+1)
}

func (e *evaluator) put(p posSet) { e.free = append(e.free, p) }

// Match reports whether the pattern matches the whole of s.
func (l linearMatcher) Match(s string) bool {
	if l.direct {
		return l.root.Match(s)
	}
	return l.matchSets(s)
}

// matchSets is Match by moving position sets through the tree.
func (l linearMatcher) matchSets(s string) bool {
	e := evaluator{s: s}
	start := e.get()
	start[0] = true
	end := e.step(l.root, start)
	return end[len(s)]
}

// advance returns the position k runes after i, or -1 past the end.
func (e *evaluator) advance(i, k int) int {
	for ; k > 0; k-- {
		if i >= len(e.s) {
			return -1
		}
		_, w := utf8.DecodeRuneInString(e.s[i:])
		i += w
	}
	return i
}

// first returns the smallest member of p, or -1.
func first(p posSet) int {
	for i, ok := range p {
		if ok {
			return i
		}
	}
	return -1
}

// fromFirst sets every rune boundary at or after i (a Super-like tail).
func (e *evaluator) fromFirst(out posSet, i int) {
	if i < 0 {
		return
	}
	out[i] = true
	for i < len(e.s) {
		_, w := utf8.DecodeRuneInString(e.s[i:])
		i += w
		out[i] = true
	}
}

// step returns the set of positions where m, used through Match on the
// substring from a position in in, may end. It consumes in.
func (e *evaluator) step(m match.Matcher, in posSet) posSet {
	s := e.s
	out := e.get()
	switch v := m.(type) {
	case match.Text:
		for i, ok := range in {
			if ok && strings.HasPrefix(s[i:], v.Str) {
				out[i+len(v.Str)] = true
			}
		}
	case match.Super, match.Any:
		e.fromFirst(out, first(in))
	case match.Nothing:
		copy(out, in)
	case match.Prefix:
		for i, ok := range in {
			if ok && strings.HasPrefix(s[i:], v.Prefix) {
				e.fromFirst(out, i+len(v.Prefix))
				break
			}
		}
	case match.Suffix:
		if i0 := first(in); i0 >= 0 {
			for j := i0 + len(v.Suffix); j <= len(s); j++ {
				if strings.HasSuffix(s[:j], v.Suffix) {
					out[j] = true
				}
			}
		}
	case match.PrefixSuffix:
		for i, ok := range in {
			if ok && strings.HasPrefix(s[i:], v.Prefix) {
				for j := i + max(len(v.Prefix), len(v.Suffix)); j <= len(s); j++ {
					if strings.HasSuffix(s[:j], v.Suffix) {
						out[j] = true
					}
				}
				break
			}
		}
	case match.Contains:
		e.stepContains(v, in, out)
	case match.Min:
		if i0 := first(in); i0 >= 0 {
			// Min.Match counts to its limit inside its loop over runes:
			// the empty string never matches, even Min(0).
			if j := e.advance(i0, max(v.Limit, 1)); j >= 0 {
				e.fromFirst(out, j)
			}
		}
	case match.Max:
		e.stepMax(v.Limit, in, out)
	case match.Single, match.List, match.Range:
		for i, ok := range in {
			if !ok {
				continue
			}
			// Match decodes one rune and accepts the empty string when
			// U+FFFD (what an empty string decodes to) is accepted.
			if m.Match("") {
				out[i] = true
			}
			if i < len(s) {
				_, w := utf8.DecodeRuneInString(s[i:])
				if m.Match(s[i : i+w]) {
					out[i+w] = true
				}
			}
		}
	case match.EveryOf:
		k := maxOf(v)
		for i, ok := range in {
			if !ok {
				continue
			}
			// Max(k) and Min(k) together: exactly k runes; the other
			// parts are checked on that slice (each is linear in it).
			if j := e.advance(i, k); j >= 0 && v.Match(s[i:j]) {
				out[j] = true
			}
		}
	case match.Row, match.AnyOf:
		if v, ok := v.(match.AnyOf); ok {
			for _, c := range v.Matchers {
				cin := e.get()
				copy(cin, in)
				r := e.step(c, cin)
				for j, ok := range r {
					out[j] = out[j] || ok
				}
				e.put(r)
			}
			break
		}
		e.stepFixed(m, in, out)
	case match.BTree:
		// Each step consumes its input set.
		cur := in
		if v.Left != nil {
			cur = e.step(v.Left, cur)
		}
		cur = e.stepValue(v.Value, cur)
		if v.Right != nil {
			cur = e.step(v.Right, cur)
		}
		e.put(out)
		return cur
	}
	e.put(in)
	return out
}

// stepFixed matches a fixed-length matcher on exactly its length in runes
// from each start, as Row and a fixed middle part of a BTree do.
func (e *evaluator) stepFixed(m match.Matcher, in, out posSet) {
	n := m.Len()
	for i, ok := range in {
		if !ok {
			continue
		}
		if j := e.advance(i, n); j >= 0 && m.Match(e.s[i:j]) {
			out[j] = true
		}
	}
}

// stepValue returns the ends of the middle part of a BTree found by Index.
func (e *evaluator) stepValue(m match.Matcher, in posSet) posSet {
	if m.Len() > 0 {
		out := e.get()
		e.stepFixed(m, in, out)
		e.put(in)
		return out
	}
	switch v := m.(type) {
	case match.AnyOf:
		out := e.get()
		for _, c := range v.Matchers {
			cin := e.get()
			copy(cin, in)
			r := e.stepValue(c, cin)
			for j, ok := range r {
				out[j] = out[j] || ok
			}
			e.put(r)
		}
		e.put(in)
		return out
	case match.BTree:
		e.put(in)
		return e.get()
	}
	// Super, Prefix, Min, Max and Contains report every end at the start.
	return e.step(m, in)
}

func (e *evaluator) stepContains(v match.Contains, in, out posSet) {
	s := e.s
	if !v.Not {
		if i0 := first(in); i0 >= 0 {
			if k := strings.Index(s[i0:], v.Needle); k >= 0 {
				e.fromFirst(out, i0+k+len(v.Needle))
			}
		}
		return
	}
	// s[i:j] lacks the needle while j < (its next occurrence at or after i)
	// + len(needle): a union of intervals [i, hi(i)], swept left to right
	// after hi is computed right to left.
	his := make([]int, len(s)+1)
	next := -1
	for i := len(s); i >= 0; i-- {
		if strings.HasPrefix(s[i:], v.Needle) {
			next = i
		}
		his[i] = len(s)
		if next >= 0 {
			his[i] = next + len(v.Needle) - 1
		}
	}
	e.sweep(in, out, his)
}

// sweep sets every rune boundary j with i <= j <= his[i] for some i in in.
func (e *evaluator) sweep(in, out posSet, his []int) {
	reach := -1
	for j := 0; j <= len(e.s); j++ {
		if in[j] {
			reach = max(reach, his[j])
		}
		if j <= reach && (j == len(e.s) || utf8.RuneStart(e.s[j])) {
			out[j] = true
		}
	}
}

func (e *evaluator) stepMax(k int, in, out posSet) {
	his := make([]int, len(e.s)+1)
	for i := range his {
		if in[i] {
			his[i] = e.advanceMax(i, k)
		}
	}
	e.sweep(in, out, his)
}

// advanceMax returns the position k runes after i, or the end of the name.
func (e *evaluator) advanceMax(i, k int) int {
	for ; k > 0 && i < len(e.s); k-- {
		_, w := utf8.DecodeRuneInString(e.s[i:])
		i += w
	}
	return i
}
