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
}

func newSourceIndex(reg *model.Registry) *sourceIndex {
	ix := &sourceIndex{exact: map[string][]*model.Server{}, repo: map[string][]*model.Server{}, remote: map[string][]*model.Server{}}
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

// match returns the source entry r enriches and how it matched ("image",
// "repository", "remote URL"), or nil.
func (ix *sourceIndex) match(r *resource) (*model.Server, string) {
	if !ix.enriches() {
		return nil, "" // no source registry: nothing to parse an image for
	}
	switch r.ref.Kind {
	case model.KindMCPServer:
		ref, ok := ParseImage(r.image)
		if !ok {
			return nil, ""
		}
		if l := ix.exact[ref.identity()]; len(l) > 0 {
			return l[0], "image"
		}
		if l := ix.repo[ref.Repository]; len(l) > 0 {
			return l[0], "repository"
		}
	case model.KindMCPRemoteProxy, model.KindMCPServerEntry:
		if r.remoteURL == "" {
			return nil, ""
		}
		if l := ix.remote[matchURL(r.remoteURL)]; len(l) > 0 {
			return l[0], "remote URL"
		}
	}
	return nil, ""
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

// ParseImage normalises an image reference. It is lenient (it does not check
// the grammar of each part), because it only decides whether two references
// name the same image; ok is false for an empty reference or an empty part.
func ParseImage(s string) (ImageRef, bool) {
	var r ImageRef
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return r, false
	}
	if name, digest, ok := strings.Cut(s, "@"); ok {
		if digest == "" {
			return r, false
		}
		s, r.Digest = name, digest
	}
	if i := strings.LastIndexByte(s, ':'); i > strings.LastIndexByte(s, '/') {
		if i == len(s)-1 {
			return r, false
		}
		s, r.Tag = s[:i], s[i+1:]
	}
	if s == "" {
		return r, false
	}
	domain, path := "docker.io", s
	if first, rest, ok := strings.Cut(s, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		domain, path = strings.ToLower(first), rest
	}
	if domain == "index.docker.io" {
		domain = "docker.io"
	}
	if path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || strings.Contains(path, "//") {
		return r, false
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
