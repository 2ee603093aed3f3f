package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// This file holds what ToolHive's registry server (thv-registry-api,
// checked against v1.5.1) does to a document beyond its schema check, and
// the canonical form that survives it:
//
//   - it stores only the publisher-provided block of _meta, serialised
//     with encoding/json (keys sorted, <, > and & escaped as \u003c, numbers
//     re-encoded through float64), and fails the whole source when that is
//     over its database.maxMetaSize (262,144 bytes by default);
//   - it keys packages by (registryType, identifier, transport type) and
//     fails the whole source when an entry repeats a key;
//   - it keys remotes by (type, URL), keeps the first of a repeat silently
//     and lists remotes back in (type, URL) order;
//   - it always lists $schema on an entry.
//
// The canonical form settles the first three with a diagnostic. The last
// two are left to the server: an entry passes through as written, and
// comes back the same apart from what the package documentation lists
// ($schema added, remote and package order, number spelling, an added
// empty _meta).

// DefaultMaxMetaSize is the size limit, in bytes, on an entry's
// publisher-provided _meta as PublisherMetaSize measures it: ToolHive's
// registry server's default database.maxMetaSize (since its v0.6.3; 65,536
// before).
const DefaultMaxMetaSize = 262144

// NormalizeOptions tunes NormalizeWith and FinishWith. The zero value gives
// the defaults.
type NormalizeOptions struct {
	// MaxMetaSize is the largest publisher-provided _meta an entry may
	// carry, in bytes as PublisherMetaSize measures it; an entry over it is
	// dropped with MetaTooLarge. 0 means DefaultMaxMetaSize; a negative
	// value turns the check off (the server's own setting for no limit).
	MaxMetaSize int
}

func (o NormalizeOptions) maxMetaSize() int {
	if o.MaxMetaSize == 0 {
		return DefaultMaxMetaSize
	}
	return o.MaxMetaSize
}

// metaExpansion bounds how much longer encoding/json's re-encoding of a
// JSON value can be than its text: one byte of a string becomes at most
// six (`<` as \u003c, an invalid byte as \ufffd), and a number at most
// 21/4 times its literal (1e20 as 100000000000000000000); whitespace and
// repeated keys only shrink it.
const metaExpansion = 6

// PublisherMetaSize returns the size in bytes of the entry's
// publisher-provided _meta as ToolHive's registry server measures it: the
// length of encoding/json's Marshal of the block decoded into a map, so keys
// are sorted, whitespace is dropped, <, > and & count six bytes each
// (\u003c) and numbers are re-encoded through float64. It returns 0 when the
// entry has no such block, an empty one or one that does not decode (the
// server measures nothing then; the schema check rejects the last).
func PublisherMetaSize(s *Server) int {
	if s == nil {
		return 0
	}
	raw := publisherBlock(s)
	if raw == nil {
		return 0
	}
	return measureMeta(raw)
}

// publisherBlock returns the raw value of _meta's publisher-provided key,
// or nil.
func publisherBlock(s *Server) []byte {
	meta, ok := s.Get(KeyMeta)
	if !ok || jsonx.Kind(meta) != '{' {
		return nil
	}
	var block []byte
	x := s.spanIndex()
	_ = jsonx.ForEachMemberIn(meta, &x, func(k, v []byte) bool {
		if jsonx.KeyIs(k, PublisherProvidedKey) {
			block = v // the last one counts, as in encoding/json
		}
		return true
	})
	return block
}

// measureMeta is the server's measure of one publisher-provided block.
func measureMeta(raw []byte) int {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || len(m) == 0 {
		return 0
	}
	b, err := json.Marshal(m)
	if err != nil {
		return 0
	}
	return len(b)
}

// metaTooLarge reports the measured size when an entry's publisher-provided
// block raw (see publisherBlock) is over limit. Blocks short enough that no re-encoding can reach the
// limit are not decoded.
func metaTooLarge(raw []byte, limit int) (size int, over bool) {
	if limit < 0 || raw == nil {
		return 0, false
	}
	if len(raw) <= limit/metaExpansion {
		return 0, false
	}
	size = measureMeta(raw)
	return size, size > limit
}

// maxInexactListed bounds the numbers one InexactNumber message lists.
const maxInexactListed = 3

// maxNumberEcho bounds the characters of a number literal a message repeats.
const maxNumberEcho = 40

// inexactNumbers returns the number literals of raw (a valid JSON value)
// whose value changes when read as a float64 and written back, each with
// what the server writes for it, and how many there are in all; at most
// maxInexactListed pairs are returned. Strings are skipped whole.
func inexactNumbers(raw []byte) (pairs [][2]string, n int) {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			end := jsonx.StringEnd(raw, i)
			if end < 0 {
				return pairs, n
			}
			i = end - 1
		case c == '-' || isDigit(c):
			j := i + 1
			for j < len(raw) && isNumberByte(raw[j]) {
				j++
			}
			if back, changed := throughFloat64(raw[i:j]); changed {
				n++
				if len(pairs) < maxInexactListed {
					pairs = append(pairs, [2]string{abbreviateNumber(string(raw[i:j])), back})
				}
			}
			i = j - 1
		}
	}
	return pairs, n
}

// throughFloat64 returns what encoding/json writes for the number literal
// lit after decoding it into a float64, and whether that is a different
// value. A different spelling of the same value (2.0 as 2, 1e3 as 1000) is
// not a change. A literal beyond float64's range is reported by validation,
// not here.
func throughFloat64(lit []byte) (back string, changed bool) {
	// Integers of up to 15 digits are float64s exactly.
	if len(lit) <= 15 && !bytes.ContainsAny(lit, ".eE") {
		return string(lit), false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return "", false
	}
	b, err := json.Marshal(f)
	if err != nil {
		return "", false
	}
	back = string(b)
	if back == string(lit) {
		return back, false
	}
	var x, y big.Rat
	if _, ok := x.SetString(string(lit)); !ok {
		return back, false
	}
	if _, ok := y.SetString(back); !ok {
		return back, false
	}
	return back, x.Cmp(&y) != 0
}

func abbreviateNumber(s string) string {
	if len(s) <= maxNumberEcho {
		return s
	}
	return s[:maxNumberEcho-3] + "..."
}

// packageKey is what the registry server keys an entry's packages by.
type packageKey struct{ registryType, identifier, transport string }

// readPackageKey reads the key of one package object.
func readPackageKey(el []byte, x *jsonx.SpanIndex) packageKey {
	var k packageKey
	_ = jsonx.ForEachMemberIn(el, x, func(key, v []byte) bool {
		switch {
		case jsonx.KeyIs(key, "registryType"):
			k.registryType, _ = jsonx.String(v)
		case jsonx.KeyIs(key, "identifier"):
			k.identifier, _ = jsonx.String(v)
		case jsonx.KeyIs(key, "transport"):
			k.transport = ""
			_ = jsonx.ForEachMember(v, func(tk, tv []byte) bool {
				if jsonx.KeyIs(tk, "type") {
					k.transport, _ = jsonx.String(tv)
				}
				return true
			})
		}
		return true
	})
	return k
}

// lost describes what removing a copy loses: nothing when it is the same
// JSON as the copy kept, otherwise the members that differ. With check (a
// check that removes nothing, see CheckServerCompat) it only compares the
// two.
func lost(kept, removed []byte, check bool) Text {
	if bytes.Equal(jsonx.AppendCompact(nil, kept), jsonx.AppendCompact(nil, removed)) {
		if check {
			return "it is identical to the first"
		}
		return "it is identical to the copy kept, so nothing is lost"
	}
	km, _ := jsonx.Members(kept)
	rm, _ := jsonx.Members(removed)
	var keys []string
	for _, m := range rm {
		i := slices.IndexFunc(km, func(k jsonx.Member) bool { return k.Key == m.Key })
		if i < 0 || !bytes.Equal(jsonx.AppendCompact(nil, km[i].Value), jsonx.AppendCompact(nil, m.Value)) {
			keys = append(keys, m.Key)
		}
	}
	for _, m := range km {
		if !slices.ContainsFunc(rm, func(r jsonx.Member) bool { return r.Key == m.Key }) {
			keys = append(keys, m.Key)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if len(keys) == 0 {
		if check {
			return "it holds the same members as the first"
		}
		return "it holds the same members as the copy kept, so nothing is lost"
	}
	quoted := make([]string, 0, min(len(keys), 5))
	for _, k := range keys[:min(len(keys), 5)] {
		quoted = append(quoted, string(Sprintf("%q", k)))
	}
	more := ""
	if len(keys) > 5 {
		more = fmt.Sprintf(" and %d more", len(keys)-5)
	}
	if check {
		return Text(fmt.Sprintf("the two differ in %s%s", strings.Join(quoted, ", "), more))
	}
	return Text(fmt.Sprintf("its %s%s differ from the copy kept and are not in the output", strings.Join(quoted, ", "), more))
}

// repeatWords are how a message on a repeated package or remote says what
// is done with it: removed, the first kept; or, with check, nothing.
func repeatWords(check bool) (repeats, kept string) {
	if check {
		return "repeats", ""
	}
	return "removed: it repeats", ", which is kept as the first"
}

// dedupePackages removes each package repeating the key of an earlier one;
// with check, it only reports them (see canonicalize).
func dedupePackages(s *Server, obj ObjectRef, field string, check bool) Diagnostics {
	raw, ok := s.Get(KeyPackages)
	if !ok || jsonx.Kind(raw) != '[' {
		return nil
	}
	// Fewer than two elements: nothing to remove, and no need to build the
	// list.
	x := s.spanIndex()
	var buf [4][]byte
	els := buf[:0]
	if err := jsonx.ForEachElementIn(raw, &x, func(el []byte) bool {
		els = append(els, el)
		return true
	}); err != nil || len(els) < 2 {
		return nil
	}
	var ds Diagnostics
	first := make(map[packageKey]int, len(els))
	keep := make([]json.RawMessage, 0, len(els))
	for i, el := range els {
		k := readPackageKey(el, &x)
		j, dup := first[k]
		if !dup {
			first[k] = i
			keep = append(keep, el)
			continue
		}
		repeats, kept := repeatWords(check)
		ds = append(ds, Warningf(ReasonDuplicatePackage, obj, fmt.Sprintf("%s.packages[%d]", field, i),
			"server %q: package %d %s the registryType %q, identifier %q and transport %q of package %d%s; ToolHive's registry server fails the whole source on a repeated package; %s",
			s.Name(), i, repeats, k.registryType, k.identifier, k.transport, j, kept, lost(els[j], el, check)))
	}
	if len(keep) != len(els) {
		s.Set(KeyPackages, appendArray(nil, keep))
	}
	return ds
}

// appendArray appends the elements as a compact JSON array.
func appendArray(dst []byte, els []json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, el := range els {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendCompact(dst, el)
	}
	return append(dst, ']')
}

// canonicalRemotes removes each remote repeating the (type, URL) of an
// earlier one; the others keep their order. With check, it only reports
// them (see canonicalize).
func canonicalRemotes(s *Server, obj ObjectRef, field string, check bool) Diagnostics {
	raw, ok := s.Get(KeyRemotes)
	if !ok || jsonx.Kind(raw) != '[' {
		return nil
	}
	// Fewer than two elements: nothing to remove or order, and no need to
	// build the list.
	n := 0
	x := s.spanIndex()
	if jsonx.ForEachElementIn(raw, &x, func([]byte) bool { n++; return n < 2 }); n < 2 {
		return nil
	}
	rs := s.Remotes()
	if len(rs) < 2 {
		return nil
	}
	var ds Diagnostics
	type key struct{ typ, url string }
	first := make(map[key]int, len(rs))
	keep := rs[:0:0]
	for i, r := range rs {
		k := key{r.Type, r.URL}
		j, dup := first[k]
		if !dup {
			first[k] = i
			keep = append(keep, r)
			continue
		}
		repeats, kept := repeatWords(check)
		ds = append(ds, Warningf(ReasonDuplicateRemote, obj, fmt.Sprintf("%s.remotes[%d]", field, i),
			"server %q: remote %d %s the type %q and URL %s of remote %d%s; ToolHive's registry server would keep one of them without a word; %s",
			s.Name(), i, repeats, r.Type, Text(QuoteURL(r.URL)), j, kept, lost(rs[j].Raw, r.Raw, check)))
	}
	if len(keep) < len(rs) {
		s.SetRemotes(keep)
	}
	return ds
}

// Canonicalize settles in a valid entry what ToolHive's registry server
// would refuse or drop without a word: packages repeating an earlier
// package's (registryType, identifier, transport type) removed with
// DuplicatePackage; remotes repeating an earlier remote's (type, URL)
// removed with DuplicateRemote. The first copy is kept: it is the one the
// publisher listed first. Everything else is left as written, in its
// order. It warns with InexactNumber about numbers of the publisher-provided
// _meta the server would change, and drops the entry (ok false) with
// MetaTooLarge when that block is over opts' limit. s is changed in place;
// fields are named under field.
//
// What the server rewrites is left alone, so that an entry passes through
// as written: it adds "$schema" when missing, lists remotes by type, then
// URL, and packages by version, newest first, spells numbers as
// encoding/json does (2.0 as 2) and adds an empty _meta.
func Canonicalize(s *Server, obj ObjectRef, field string, opts NormalizeOptions) (ok bool, ds Diagnostics) {
	return canonicalize(s, obj, field, opts, nil, false)
}

// canonicalize is Canonicalize given, when facts is not nil, what a
// validator's walk of s as it is now found (see walkFacts): the
// publisher-provided block, and that fewer than two packages or remotes
// leave nothing to remove. With check, the messages say what is wrong,
// not what is done about it (CheckServerCompat, which changes nothing).
func canonicalize(s *Server, obj ObjectRef, field string, opts NormalizeOptions, facts *walkFacts, check bool) (ok bool, ds Diagnostics) {
	if s == nil {
		return false, Diagnostics{Warningf(ReasonInvalidEntry, obj, field, "entry skipped: no server (nil)")}
	}
	f := func(name string) string {
		if field == "" {
			return name
		}
		return field + "." + name
	}
	var block []byte
	if facts != nil {
		block = facts.block
	} else {
		block = publisherBlock(s)
	}
	if size, over := metaTooLarge(block, opts.maxMetaSize()); over {
		skipped := " skipped"
		if check {
			skipped = ""
		}
		ds = append(ds, Warningf(ReasonMetaTooLarge, obj, f(KeyMeta),
			"server %q%s: its publisher-provided _meta measures %d bytes as ToolHive's registry server counts them (encoding/json, with <, > and & as 6-byte escapes), over the limit of %d bytes; the server would fail the whole source",
			s.Name(), skipped, size, opts.maxMetaSize()))
		return false, ds
	}
	if facts == nil || facts.packages >= 2 {
		ds = append(ds, dedupePackages(s, obj, field, check)...)
	}
	if facts == nil || facts.remotes >= 2 {
		ds = append(ds, canonicalRemotes(s, obj, field, check)...)
	}
	if block != nil && !s.exactNumbers(block) {
		if pairs, n := inexactNumbers(block); n > 0 {
			list := make([]string, len(pairs))
			for i, p := range pairs {
				list[i] = p[0] + " as " + p[1]
			}
			more := ""
			if n > len(pairs) {
				more = fmt.Sprintf(" and %d more", n-len(pairs))
			}
			ds = append(ds, Warningf(ReasonInexactNumber, obj, f(KeyMeta),
				"server %q: %s of the publisher-provided _meta not held exactly by a float64, which ToolHive's registry server will change: %s%s; written as read",
				s.Name(), countNoun(n, "number"), strings.Join(list, ", "), more))
		}
	}
	return true, ds
}

// countNoun writes "1 number", "2 numbers".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// EmptyRegistryDiagnostic is the EmptyRegistry warning a verb reports on
// obj when the document it writes has no server; why says what emptied it
// (for example "the filter removed all 3 servers").
func EmptyRegistryDiagnostic(obj ObjectRef, field, why string) Diagnostic {
	return Warningf(ReasonEmptyRegistry, obj, field,
		"the registry document has no server (%s); ToolHive's registry server refuses an empty registry and keeps serving the servers it had", why)
}

// CheckServerCompat reports what ToolHive's registry server would refuse or
// change silently in a document that passes the upstream rules, without
// changing r: a publisher-provided _meta over opts' limit (MetaTooLarge) or
// a repeated package (DuplicatePackage), each of which fails the whole
// sync, are Errors; no server at all (EmptyRegistry), a repeated remote
// (DuplicateRemote) and a _meta number a float64 changes (InexactNumber)
// are Warnings. It is what `mcpreg validate` adds to
// ValidateRegistry; documents the library writes pass it.
func CheckServerCompat(r *Registry, obj ObjectRef, opts NormalizeOptions) Diagnostics {
	var ds Diagnostics
	if len(r.Servers) == 0 {
		ds = append(ds, EmptyRegistryDiagnostic(obj, "data.servers", "the document lists none"))
	}
	for i, s := range r.Servers {
		field := fmt.Sprintf("data.servers[%d]", i)
		// The entry is not changed here (a clone is): the messages say
		// what is wrong, not what a merge or conversion would do about it.
		_, cds := canonicalize(s.Clone(), obj, field, opts, nil, true)
		for _, d := range cds {
			switch d.Reason {
			case ReasonMetaTooLarge, ReasonDuplicatePackage:
				d.Severity = SeverityError
			}
			ds = append(ds, d)
		}
	}
	ds.Sort()
	return ds
}
