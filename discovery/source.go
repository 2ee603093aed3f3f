package discovery

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/model"
)

// sourceIndex finds the source-registry entry a resource enriches: exact
// normalised image reference first, then the same repository. When several entries match equally well, the first by name
// (then by content) is taken, so the choice does not depend on input order.
type sourceIndex struct {
	exact  map[string][]*model.Server // normalised image reference (ImageRef.identity)
	repo   map[string][]*model.Server // image repository
	remote map[string][]*model.Server // normalised remote URL
	// fit holds, for each entry a resource matched, the copy a registry
	// reader would keep (model.Normalize: a remote URL the URL policy
	// refuses removed), or nil when it would skip the entry: an entry that
	// can never be published is no match. Filled as entries are matched,
	// so only those pay for the check.
	fit map[*model.Server]*model.Server
	// firsts holds, for each list of exact, repo and remote a resource
	// looked up, its first entry a reader keeps and the entries before it
	// it would skip: worked out once per list, so that S resources of one
	// repository cost O(S) beside one pass over its R entries, not R × S.
	firsts map[listKey]listFit
}

// listKey names a list of sourceIndex: the map (0 exact, 1 repo, 2 remote)
// and its key.
type listKey struct {
	which uint8
	key   string
}

// listFit is the first entry of a list a reader keeps (fitted; nil when
// none is) and the entries before it that it would skip.
type listFit struct {
	src *model.Server
	unfitEntries
}

// unfitEntries says which source entries a match passed over, for a diagnostic:
// the first, and how many in all (0 for none).
type unfitEntries struct {
	first *model.Server
	n     int
}

func newSourceIndex(reg *model.Registry) *sourceIndex {
	ix := &sourceIndex{exact: map[string][]*model.Server{}, repo: map[string][]*model.Server{}, remote: map[string][]*model.Server{},
		fit: map[*model.Server]*model.Server{}, firsts: map[listKey]listFit{}}
	if reg == nil {
		return ix
	}
	servers := slices.Clone(reg.Servers)
	servers = slices.DeleteFunc(servers, func(s *model.Server) bool { return s == nil })
	slices.SortStableFunc(servers, func(a, b *model.Server) int {
		return cmp.Or(strings.Compare(a.Name(), b.Name()), bytes.Compare(a.AppendJSON(nil), b.AppendJSON(nil)))
	})
	for _, s := range servers {
		for _, id := range s.PackageIdentifiers("oci") {
			if ref, ok := ParseImage(id); ok {
				ix.exact[ref.identity()] = appendOnce(ix.exact[ref.identity()], s)
				ix.repo[ref.Repository] = appendOnce(ix.repo[ref.Repository], s)
			}
		}
		for _, r := range s.Remotes() {
			if r.URL != "" {
				k := matchURL(r.URL)
				ix.remote[k] = appendOnce(ix.remote[k], s)
			}
		}
	}
	return ix
}

func appendOnce(list []*model.Server, s *model.Server) []*model.Server {
	if len(list) > 0 && list[len(list)-1] == s {
		return list
	}
	return append(list, s)
}

// enriches reports whether match can find an entry: whether the source
// registry has any image or remote URL to match.
func (ix *sourceIndex) enriches() bool {
	return len(ix.repo) > 0 || len(ix.remote) > 0
}

// match returns the source entry r enriches, as a registry reader would
// keep it (see fit), and how it matched ("image", "repository", "remote
// URL"), or nil. unfit says which entries r matched that a reader would
// skip, passed over: those of the exact image before its first kept entry,
// else those of the repository (or remote URL) before it, or all of them
// when none is kept.
func (ix *sourceIndex) match(r *resource) (src *model.Server, how string, unfit unfitEntries) {
	if !ix.enriches() {
		return nil, "", unfit // no source registry: nothing to parse an image for
	}
	switch r.ref.Kind {
	case model.KindMCPServer:
		ref, ok := ParseImage(r.image)
		if !ok {
			return nil, "", unfit
		}
		id := ref.identity()
		if f := ix.firstFit(listKey{0, id}, ix.exact[id]); f.src != nil {
			return f.src, "image", f.unfitEntries
		}
		f := ix.firstFit(listKey{1, ref.Repository}, ix.repo[ref.Repository])
		if f.src != nil {
			return f.src, "repository", f.unfitEntries
		}
		return nil, "", f.unfitEntries
	case model.KindMCPRemoteProxy, model.KindMCPServerEntry:
		if r.remoteURL == "" {
			return nil, "", unfit
		}
		u := matchURL(r.remoteURL)
		f := ix.firstFit(listKey{2, u}, ix.remote[u])
		if f.src == nil {
			return nil, "", f.unfitEntries
		}
		return f.src, "remote URL", f.unfitEntries
	}
	return nil, "", unfit
}

// firstFit returns the listFit of list l, named k, worked out once.
func (ix *sourceIndex) firstFit(k listKey, l []*model.Server) listFit {
	if f, ok := ix.firsts[k]; ok {
		return f
	}
	var f listFit
	for _, s := range l {
		if f.src = ix.fitted(s); f.src != nil {
			break
		}
		if f.n == 0 {
			f.first = s
		}
		f.n++
	}
	ix.firsts[k] = f
	return f
}

// fitted returns the copy of source entry s a registry reader keeps, nil
// when it skips s, worked out once per entry.
func (ix *sourceIndex) fitted(s *model.Server) *model.Server {
	f, seen := ix.fit[s]
	if !seen {
		f = s.Clone()
		if ok, _ := model.Normalize(f, model.ObjectRef{}, ""); !ok {
			f = nil
		}
		ix.fit[s] = f
	}
	return f
}

// matchURL is the form URLs are compared in: CheckURL's normalisation when
// the URL is valid, the URL as written otherwise.
func matchURL(u string) string {
	if n, _, err := CheckURL(u); err == nil {
		return n
	}
	return u
}

// ImageRef is a container image reference normalised the way Docker reads it:
// registry docker.io (index.docker.io is the same) with "library/" for
// one-part names, and tag latest when neither tag nor digest is given.
type ImageRef struct {
	// Repository is registry/path, e.g. "docker.io/library/nginx".
	Repository string
	// Tag is the tag without ":", "" when only a digest is given.
	Tag string
	// Digest is "algorithm:hex" without "@", or "".
	Digest string
}

// String is the full normalised reference: repository[:tag][@digest].
func (r ImageRef) String() string {
	s := r.Repository
	if r.Tag != "" {
		s += ":" + r.Tag
	}
	if r.Digest != "" {
		s += "@" + r.Digest
	}
	return s
}

// identity is what two references naming the same image share: the
// repository and the digest when there is one (a runtime pulling by digest
// ignores a tag beside it, so "x:v2@sha256:…" is the image "x@sha256:…"
// is), else the repository and the tag.
func (r ImageRef) identity() string {
	if r.Digest != "" {
		return r.Repository + "@" + r.Digest
	}
	return r.Repository + ":" + r.Tag
}

// ParseImage normalises an image reference. The reference must follow the
// grammar container tools read references by (distribution/reference, as
// Docker's ParseNormalizedNamed applies it): a name of lower-case path
// components ([a-z0-9] separated by ".", "_", "__" or "-"s) under an
// optional registry host (with a port), at most 255 characters; an
// optional tag ([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}); an optional digest,
// sha256, sha384 or sha512 with its lower-case hex of the exact length. ok
// is false for anything else: a reference no runtime pulls names no image
// to match. Unlike distribution/reference, the registry host is compared
// without regard to case, as DNS names are.
func ParseImage(s string) (ImageRef, bool) {
	var r ImageRef
	if s == "" || isHex64(s) {
		return r, false
	}
	name := s
	if n, digest, ok := strings.Cut(s, "@"); ok {
		if !validDigest(digest) {
			return r, false
		}
		name, r.Digest = n, digest
	}
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		if !validTag(name[i+1:]) {
			return r, false
		}
		name, r.Tag = name[:i], name[i+1:]
	}
	if name == "" || len(name) > 255 {
		return r, false
	}
	// The first component is the registry when it has a "." or a ":", is
	// "localhost", or has an upper-case letter (which no path component
	// may have); else the name is on Docker Hub.
	domain, path := "docker.io", name
	if first, rest, ok := strings.Cut(name, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost" || strings.ToLower(first) != first) {
		if !validDomain(first) {
			return r, false
		}
		domain, path = strings.ToLower(first), rest
	}
	if !validPath(path) {
		return r, false
	}
	if domain == "index.docker.io" {
		domain = "docker.io"
	}
	if domain == "docker.io" && !strings.Contains(path, "/") {
		path = "library/" + path
	}
	r.Repository = domain + "/" + path
	if r.Tag == "" && r.Digest == "" {
		r.Tag = "latest"
	}
	return r, true
}

// validPath reports whether p is path components joined by "/": each
// [a-z0-9]+ runs separated by ".", "_", "__" or one or more "-".
func validPath(p string) bool {
	for comp := range strings.SplitSeq(p, "/") {
		if comp == "" || !lowerAlnum(comp[0]) || !lowerAlnum(comp[len(comp)-1]) {
			return false
		}
		for i := 1; i < len(comp); i++ {
			c := comp[i]
			switch {
			case lowerAlnum(c):
			case c == '.' || c == '_':
				// One ".", one "_" or "__", between alphanumerics.
				j := i + 1
				if c == '_' && comp[j] == '_' {
					j++
				}
				if !lowerAlnum(comp[j]) {
					return false
				}
				i = j - 1
			case c == '-':
				j := i
				for comp[j] == '-' {
					j++
				}
				if !lowerAlnum(comp[j]) {
					return false
				}
				i = j - 1
			default:
				return false
			}
		}
	}
	return true
}

// validDomain reports whether d is a registry host: DNS labels of letters,
// digits and "-" (not at either end) joined by ".", or an IPv6 address in
// brackets, then an optional ":" and port number.
func validDomain(d string) bool {
	if strings.HasPrefix(d, "[") {
		end := strings.IndexByte(d, ']')
		if end < 2 || strings.Trim(d[1:end], "0123456789abcdefABCDEF:") != "" {
			return false
		}
		rest := d[end+1:]
		return rest == "" || len(rest) > 1 && rest[0] == ':' && allDigits(rest[1:])
	}
	host := d
	if i := strings.IndexByte(d, ':'); i >= 0 {
		host = d[:i]
		if port := d[i+1:]; port == "" || !allDigits(port) {
			return false
		}
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !(lowerAlnum(c) || 'A' <= c && c <= 'Z' || c == '-') {
				return false
			}
		}
	}
	return true
}

// validTag reports whether t is a tag: [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}.
func validTag(t string) bool {
	if t == "" || len(t) > 128 || t[0] == '.' || t[0] == '-' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; !(lowerAlnum(c) || 'A' <= c && c <= 'Z' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// validDigest reports whether d is a digest a runtime verifies: sha256,
// sha384 or sha512, a ":" and the lower-case hex of that many bits.
func validDigest(d string) bool {
	alg, hex, ok := strings.Cut(d, ":")
	if !ok {
		return false
	}
	var n int
	switch alg {
	case "sha256":
		n = 64
	case "sha384":
		n = 96
	case "sha512":
		n = 128
	default:
		return false
	}
	return len(hex) == n && strings.Trim(hex, "0123456789abcdef") == ""
}

// isHex64 reports whether s is 64 hex digits: an image ID, which
// references may not be.
func isHex64(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}
