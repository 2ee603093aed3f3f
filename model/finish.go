package model

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// ShortenDescription cuts s to at most DescriptionMaxLen characters, ending in
// "…" when cut, on a word boundary when one is near.
func ShortenDescription(s string) string {
	return shorten(s, DescriptionMaxLen)
}

func shorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	cut := r[:max-1]
	if i := lastSpace(cut); i >= max*3/4 {
		cut = cut[:i]
	}
	return strings.TrimRight(string(cut), " \t\n\r.,;:") + "…"
}

func lastSpace(r []rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == ' ' {
			return i
		}
	}
	return -1
}

// maxEntryDepth is the deepest an entry may nest: a document holds it
// inside three levels of its own.
const maxEntryDepth = jsonx.MaxDepth - 3

// Normalize makes an entry fit to emit, or says why it cannot be: an
// over-long description (or title) is shortened with a DescriptionTooLong
// warning; any other rule it breaks makes ok false, with one InvalidEntry
// warning saying all that is wrong; a remote whose URL CheckURL refuses is
// removed with an InvalidURL warning; a valid entry is then put in canonical
// form (see Canonicalize) with the default options. s is changed in place.
func Normalize(s *Server, obj ObjectRef, fieldPrefix string) (ok bool, ds Diagnostics) {
	return NormalizeWith(s, obj, fieldPrefix, NormalizeOptions{})
}

// NormalizeWith is Normalize with options.
func NormalizeWith(s *Server, obj ObjectRef, fieldPrefix string, opts NormalizeOptions) (ok bool, ds Diagnostics) {
	if s == nil {
		return false, Diagnostics{Warningf(ReasonInvalidEntry, obj, fieldPrefix, "entry skipped: no server (nil)")}
	}
	f := func(name string) string {
		if fieldPrefix == "" {
			return name
		}
		return fieldPrefix + "." + name
	}
	// A document holds an entry three levels down (the document, data,
	// servers): an entry nested deeper than that leaves would make a
	// document JSON readers refuse. A converted entry can be: ToolHive's
	// fields move five levels down, under _meta. Only an entry of two bytes
	// a level can be that deep, so the common entry costs no count.
	if s.compactLen(false) >= 2*maxEntryDepth {
		if d := jsonx.Depth(s.AppendJSON(nil)); d > maxEntryDepth {
			ds = append(ds, Warningf(ReasonInvalidEntry, obj, fieldPrefix,
				"server %q skipped: it nests objects and arrays %d levels deep; a registry document can hold an entry at most %d levels deep (JSON readers stop at %d)",
				s.Name(), d, maxEntryDepth, jsonx.MaxDepth))
			return false, ds
		}
	}
	// A literal of at most max+2 bytes cannot decode to more than max
	// characters: most entries are settled without decoding.
	description, _ := s.Get(KeyDescription)
	title, _ := s.Get(KeyTitle)
	if len(description) > DescriptionMaxLen+2 {
		if d := s.Description(); utf8.RuneCountInString(d) > DescriptionMaxLen {
			short := ShortenDescription(d)
			ds = append(ds, Warningf(ReasonDescriptionTooLong, obj, f(KeyDescription),
				"server %q: description of %d characters shortened to %d", s.Name(), utf8.RuneCountInString(d), utf8.RuneCountInString(short)))
			s.SetDescription(short)
		}
	}
	if len(title) > TitleMaxLen+2 {
		if t := s.Title(); utf8.RuneCountInString(t) > TitleMaxLen {
			short := shorten(t, TitleMaxLen)
			ds = append(ds, Warningf(ReasonDescriptionTooLong, obj, f(KeyTitle),
				"server %q: title of %d characters shortened to %d", s.Name(), utf8.RuneCountInString(t), utf8.RuneCountInString(short)))
			s.Set(KeyTitle, jsonx.Quote(short))
		}
	}
	if key, why := badText(s); why != "" {
		ds = append(ds, Warningf(ReasonInvalidEntry, obj, f(key), "server %q skipped: %s", s.Name(), Text(why)))
		return false, ds
	}
	// Remotes whose URL CheckURL refuses are dropped before the entry is
	// validated. The walk of the validation finds whether every URL is
	// plain as it goes, so that the common entry is read once: only when
	// one is not (or the walk cannot tell) is the separate check made, and
	// the entry, changed or not, validated again. Validating changes
	// nothing, so the first walk is simply forgotten.
	if facts, ok := leanEntry(s); ok {
		// Nothing to report, no remote to drop: the common entry.
		ok, cds := canonicalize(s, obj, fieldPrefix, opts, &facts, false)
		return ok, append(ds, cds...)
	}
	var v validator // set field by field: a composite literal is built aside and copied
	v.server, v.obj, v.prefix, v.publish = s, obj, fieldPrefix, true
	v.entry()
	if v.retried > 0 || v.facts.urlsNotPlain {
		if !remoteURLsPlain(s) {
			ds = append(ds, dropInvalidRemoteURLs(s, obj, f(KeyRemotes))...)
		}
		v = validator{server: s, obj: obj, prefix: fieldPrefix, publish: true}
		v.entry()
	}
	if v.ds.HasErrors() {
		ds = append(ds, defaultStatus(s, &v, obj, fieldPrefix)...)
	}
	var problems []string
	for _, d := range v.ds {
		switch d.Severity {
		case SeverityError:
			problems = append(problems, strings.TrimPrefix(d.Message, string(Sprintf("server %q: ", s.Name()))))
		default:
			ds = append(ds, d)
		}
	}
	if len(problems) > 0 {
		ds = append(ds, Warningf(ReasonInvalidEntry, obj, fieldPrefix,
			"server %q skipped: %s", s.Name(), Text(strings.Join(problems, "; "))))
		return false, ds
	}
	var facts *walkFacts
	if v.retried == 0 {
		facts = &v.facts
	}
	ok, cds := canonicalize(s, obj, fieldPrefix, opts, facts, false)
	return ok, append(ds, cds...)
}

// dropInvalidRemoteURLs removes each remote whose URL CheckURL refuses (user
// information, a host browsers read otherwise, ...), with an InvalidURL
// warning whose message masks any credentials: the one URL policy holds for
// registry data as for discovered URLs. URLs are kept as written.
func dropInvalidRemoteURLs(s *Server, obj ObjectRef, field string) Diagnostics {
	if _, ok := s.Get(KeyRemotes); !ok {
		return nil
	}
	rs := s.Remotes()
	var ds Diagnostics
	keep := rs[:0:0]
	for k, rm := range rs {
		if rm.URL == "" {
			keep = append(keep, rm)
			continue
		}
		if err := checkRemoteURL(rm.URL, rm.declaredVariables()); err != nil {
			ds = append(ds, Warningf(ReasonInvalidURL, obj, fmt.Sprintf("%s[%d].url", field, k),
				"server %q: remote removed: %v", s.Name(), err))
			continue
		}
		keep = append(keep, rm)
	}
	if len(ds) > 0 {
		s.SetRemotes(keep)
	}
	return ds
}

// remoteURLsPlain reports whether every remote URL of s is one plainURL
// accepts as written, read in place without decoding: then
// dropInvalidRemoteURLs has nothing to do, and the common entry is checked
// without allocating. A URL written with escapes, or not plain, says false.
func remoteURLsPlain(s *Server) bool {
	raw, ok := s.Get(KeyRemotes)
	if !ok {
		return true
	}
	plain := true
	x := s.spanIndex()
	err := jsonx.ForEachElementIn(raw, &x, func(el []byte) bool {
		var url []byte
		_ = jsonx.ForEachMemberIn(el, &x, func(k, v []byte) bool {
			if jsonx.KeyIs(k, "url") {
				url = v // the last one counts, as in Remotes
			}
			return true
		})
		// Not an object, or no "url": Remotes gives an empty URL, which
		// is kept.
		plain = url == nil || plainURLLiteral(url)
		return plain
	})
	return plain && err == nil
}

// plainURLLiteral reports whether the JSON value url is a string literal
// without escapes that is empty (an empty URL is kept) or a URL plainURL
// accepts as written.
func plainURLLiteral(url []byte) bool {
	switch {
	case len(url) < 2 || url[0] != '"' || url[len(url)-1] != '"' || bytes.IndexByte(url, '\\') >= 0:
		return false
	case len(url) == 2:
		return true
	}
	_, plain := plainURL(url[1 : len(url)-1])
	return plain
}

// nameVersion identifies an entry of a registry: one server may be listed
// once per version.
type nameVersion struct{ name, version string }

// Finish makes r fit to emit: every server normalised (see Normalize) or
// dropped, each name and version once (the first in r's order is kept,
// later ones dropped with DuplicateServer; several versions of one name are
// several entries, as ValidateRegistry and ToolHive's registry server read
// them), the servers sorted by name, and each remote
// URL used once (a URL already used by a server earlier by name is removed
// from the later one with DuplicateRemoteURL, since the upstream registry
// rejects a URL on two entries; one server may list it under two types, and
// names with one server part, as a merge's prefixed copies, may share it).
// Diagnostics name each server by name and by where it was read from
// (Server.Origin), else by its position in r.
func Finish(r *Registry, obj ObjectRef) Diagnostics {
	return FinishWith(r, obj, NormalizeOptions{})
}

// FinishWith is Finish with options for NormalizeWith.
func FinishWith(r *Registry, obj ObjectRef, opts NormalizeOptions) Diagnostics {
	var ds Diagnostics
	if r == nil {
		return Diagnostics{Errorf(ReasonInvalidEntry, obj, "", "no registry document (nil)")}
	}
	kept := r.Servers[:0]
	first := make(map[nameVersion]string, len(r.Servers))
	for i, s := range r.Servers {
		if s == nil {
			ds = append(ds, Warningf(ReasonInvalidEntry, obj, fmt.Sprintf("data.servers[%d]", i), "entry skipped: no server (nil)"))
			continue
		}
		field := s.Origin()
		if field == "" {
			field = fmt.Sprintf("data.servers[%d]", i)
		}
		ok, d := NormalizeWith(s, obj, field, opts)
		ds = append(ds, d...)
		if !ok {
			continue
		}
		nv := nameVersion{s.Name(), s.Version()}
		if at, dup := first[nv]; dup {
			ds = append(ds, Warningf(ReasonDuplicateServer, obj, field,
				"server %q version %q skipped: the name and version are already used by the entry at %s", s.Name(), nv.version, at))
			continue
		}
		first[nv] = field
		kept = append(kept, s)
	}
	clear(r.Servers[len(kept):])
	r.Servers = kept
	r.SortServers()
	ds = append(ds, dropDuplicateRemoteURLs(r.Servers, obj)...)
	ds.Sort()
	return ds
}

// dropDuplicateRemoteURLs removes each remote whose URL an earlier server (in
// the given order) already uses, unless the two names have the same server
// part (the part after the "/"), as merges settle URLs: team-a/api and
// team-b/api, the copies of one server a merge keeps under each ConfigMap's
// name, or versions of one name, describe one deployment, and a merged
// document converts to itself. Two remotes of one server that share a URL
// are left alone: the upstream registry refuses a URL claimed by two servers,
// not one server offering two transports at one URL, and a remote repeating
// both the type and the URL of another of its server's was already removed
// by Normalize (DuplicateRemote). Merges and `validate` read it the same way.
func dropDuplicateRemoteURLs(servers []*Server, obj ObjectRef) Diagnostics {
	var ds Diagnostics
	owner := map[string]int{} // URL -> index in servers of the first server using it
	for i, s := range servers {
		if _, ok := s.Get(KeyRemotes); !ok {
			continue
		}
		rs := s.Remotes()
		keep := rs[:0]
		for k, rm := range rs {
			if rm.URL == "" {
				keep = append(keep, rm)
				continue
			}
			if j, dup := owner[rm.URL]; dup && j != i && serverPart(servers[j].Name()) != serverPart(s.Name()) {
				field := s.Origin()
				if field == "" {
					field = fmt.Sprintf("data.servers[%d]", i)
				}
				ds = append(ds, Warningf(ReasonDuplicateRemoteURL, obj, fmt.Sprintf("%s.remotes[%d].url", field, k),
					"server %q: remote %q removed: the URL is already a remote of server %q", s.Name(), MaskURL(rm.URL), servers[j].Name()))
				continue
			}
			if _, dup := owner[rm.URL]; !dup {
				owner[rm.URL] = i
			}
			keep = append(keep, rm)
		}
		if len(keep) != len(rs) {
			s.SetRemotes(keep)
		}
	}
	return ds
}

// serverPart is the part of a server name after its first "/" (the whole
// name when it has none).
func serverPart(name string) string {
	_, after, ok := strings.Cut(name, "/")
	if !ok {
		return name
	}
	return after
}

// badText finds text in an entry that is not Unicode: invalid UTF-8 bytes or
// a lone UTF-16 surrogate escape ("\ud800" with no low surrogate after it).
// JSON text must be UTF-8 (RFC 8259), and a decoder such as ToolHive's reads
// either as U+FFFD: published as written, the entry would differ from what
// clients are served and from its hash. Rather than rewrite it, the entry is
// skipped (see NormalizeWith). key is the member holding it.
func badText(s *Server) (key, why string) {
	if s.textOK {
		return "", ""
	}
	if s.keyNotText {
		if lit := firstKeyNotText(s.raw); lit != nil {
			key = string(lit)
		}
		return key, "a member name is not Unicode text (invalid UTF-8 or a lone UTF-16 surrogate escape); readers would serve U+FFFD in its place"
	}
	for i := range s.memberCount() {
		m := s.memberAt(i)
		if !utf8.ValidString(m.Key) {
			return m.Key, "a member name is not valid UTF-8"
		}
		if i := textProblemAt(m.Value); i >= 0 {
			if m.Value[i] == '\\' {
				return m.Key, fmt.Sprintf("member %q holds a lone UTF-16 surrogate escape at byte %d; JSON text must be Unicode, and readers would serve U+FFFD in its place", m.Key, i)
			}
			return m.Key, fmt.Sprintf("member %q holds invalid UTF-8 at byte %d; JSON text must be UTF-8, and readers would serve U+FFFD in its place", m.Key, i)
		}
	}
	return "", ""
}

// firstKeyNotText returns the literal (between its quotes) of the first
// member name of the JSON object raw that is not Unicode text, or nil.
func firstKeyNotText(raw []byte) []byte {
	var bad []byte
	_ = jsonx.ForEachMember(raw, func(key, _ []byte) bool {
		if textProblemAt(key) >= 0 {
			bad = key
		}
		return bad == nil
	})
	return bad
}

// textProblemAt returns the offset of the first invalid UTF-8 byte or lone
// surrogate escape in raw JSON, or -1. ASCII without escapes is the fast path.
func textProblemAt(raw []byte) int {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				r, ok := hex4(raw, i+2)
				switch {
				case !ok:
				case r >= 0xDC00 && r <= 0xDFFF:
					return i
				case r >= 0xD800 && r <= 0xDBFF:
					lo, ok := rune(0), false
					if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
						lo, ok = hex4(raw, i+8)
					}
					if !ok || lo < 0xDC00 || lo > 0xDFFF {
						return i
					}
					i += 12
					continue
				}
				i += 6
				continue
			}
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return i
			}
			i += size
		}
	}
	return -1
}

// hex4 reads four hexadecimal digits at raw[i:].
func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// defaultStatus settles an entry the checks refuse (v, with their verdict)
// whose only fault is ToolHive extensions without a status: ToolHive's
// schema requires one and declares its default, "active" (which ToolHive's
// converter writes too), so the default is written, with an Info for each,
// and v holds the verdict on the entry so completed. An entry with other
// faults is left as it was, to be skipped for all of them.
func defaultStatus(s *Server, v *validator, obj ObjectRef, fieldPrefix string) Diagnostics {
	orig, _ := s.Get(KeyMeta)
	keys := addMissingStatus(s)
	if len(keys) == 0 {
		return nil
	}
	again := validator{server: s, obj: obj, prefix: fieldPrefix}
	again.entry()
	if again.ds.HasErrors() {
		s.Set(KeyMeta, orig)
		return nil
	}
	*v = again
	return statusWarnings(s, obj, fieldPrefix, keys)
}

// statusWarnings are the notes of defaultStatus for the extension keys:
// Infos, as nothing is lost (the schema's own default is written), so that
// they never share a cap with the Warnings of entries dropped.
func statusWarnings(s *Server, obj ObjectRef, fieldPrefix string, keys []string) Diagnostics {
	var ds Diagnostics
	for _, k := range keys {
		// The key is a remote URL by ToolHive's convention: its user
		// information, if any, is not repeated.
		k = MaskURL(k)
		ds = append(ds, Infof(ReasonInvalidEntry, obj, joinField(fieldPrefix, KeyMeta+"["+PublisherProvidedKey+"]["+ToolHivePublisher+"]["+k+"].status"),
			"server %q: extension %q has no status; \"active\", the default of ToolHive's schema, written", s.Name(), k))
	}
	return ds
}

// addMissingStatus writes "status":"active" first in each object of s's
// ToolHive publisher extensions (_meta[PublisherProvidedKey][ToolHivePublisher][key])
// that has no status, and returns the keys of those objects, sorted. Members
// and their bytes are otherwise kept as written. It returns nil when there is
// nothing to add or the members are not objects (the checks say what is
// wrong with them).
func addMissingStatus(s *Server) []string {
	meta, ok := s.Get(KeyMeta)
	if !ok {
		return nil
	}
	var added []string
	fixed := rewriteMembers(meta, PublisherProvidedKey, func(_ string, pp []byte) []byte {
		return rewriteMembers(pp, ToolHivePublisher, func(_ string, th []byte) []byte {
			return rewriteMembers(th, "", func(key string, ext []byte) []byte {
				inner, err := jsonx.Members(ext)
				if err != nil || slices.ContainsFunc(inner, func(m jsonx.Member) bool { return m.Key == "status" }) {
					return ext
				}
				added = append(added, key)
				body := bytes.TrimSpace(ext) // an object: Members read it
				out := []byte(`{"status":"active"`)
				if len(inner) > 0 {
					out = append(out, ',')
				}
				return append(out, body[1:]...)
			})
		})
	})
	if len(added) == 0 {
		return nil
	}
	s.Set(KeyMeta, fixed)
	slices.Sort(added)
	return slices.Compact(added)
}

// rewriteMembers returns the object raw with the value of each member named
// key (every member when key is "") replaced by fn's answer, or raw itself
// when raw is no object or fn changes nothing. Other members keep their bytes
// and order.
func rewriteMembers(raw []byte, key string, fn func(key string, value []byte) []byte) []byte {
	ms, err := jsonx.Members(raw)
	if err != nil {
		return raw
	}
	changed := false
	for i := range ms {
		if key != "" && ms[i].Key != key {
			continue
		}
		if v := fn(ms[i].Key, ms[i].Value); !bytes.Equal(v, ms[i].Value) {
			ms[i].Value, changed = v, true
		}
	}
	if !changed {
		return raw
	}
	out := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonx.AppendQuote(out, m.Key)
		out = append(out, ':')
		out = append(out, bytes.TrimSpace(m.Value)...)
	}
	return append(out, '}')
}
