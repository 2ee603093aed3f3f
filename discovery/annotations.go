package discovery

import (
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/model"
)

// AnnotationPrefix is the prefix of every annotation discovery reads.
const AnnotationPrefix = "toolhive.stacklok.dev/"

// The annotations discovery reads on MCP resources and HTTPRoutes. Only these are read, and only their values
// (validated) reach the output.
const (
	// AnnotationExport is "true" to export the resource (or HTTPRoute).
	AnnotationExport = AnnotationPrefix + "registry-export"
	// AnnotationURL is the external URL of the resource.
	AnnotationURL = AnnotationPrefix + "registry-url"
	// AnnotationDescription is the entry's description.
	AnnotationDescription = AnnotationPrefix + "registry-description"
	// AnnotationTier is Official or Community.
	AnnotationTier = AnnotationPrefix + "registry-tier"
	// AnnotationTitle is the entry's title.
	AnnotationTitle = AnnotationPrefix + "registry-title"
	// AnnotationVersion is the entry's version, a semantic version.
	AnnotationVersion = AnnotationPrefix + "registry-version"
	// AnnotationName is a full upstream name replacing the generated one.
	AnnotationName = AnnotationPrefix + "registry-name"
)

// Tiers allowed in AnnotationTier (ToolHive's publisher extension schema).
const (
	TierOfficial  = "Official"
	TierCommunity = "Community"
)

// DefaultVersion is the version of a new entry without registry-version.
const DefaultVersion = "1.0.0"

// annotationField is the field path of an annotation in diagnostics.
func annotationField(key string) string {
	return "metadata.annotations[" + key + "]"
}

// annotationExports is Method 1: every selected MCP resource whose
// annotations ask for export, with its registry-url checked.
func annotationExports(ix *resourceIndex, cfg *config) ([]export, model.Diagnostics) {
	// Sized once for the resources that may export (exports are 88 bytes,
	// and growing the list by doubling allocates it twice over).
	n := 0
	for _, r := range ix.all {
		if r.selected && r.annHas&(hasExport|hasURL) != 0 {
			n++
		}
	}
	out := make([]export, 0, n)
	var ds model.Diagnostics
	for _, r := range ix.all {
		if !r.selected {
			continue
		}
		exportVal, hasExport := r.annotation(AnnotationExport)
		rawURL, hasURL := r.annotation(AnnotationURL)
		exported := false
		switch {
		case hasExport && exportVal == "true":
			exported = true
		case hasExport && exportVal == "false":
			// An explicit opt-out, even under the URL-alone rule.
		case hasExport:
			ds = append(ds, model.Warningf(model.ReasonInvalidAnnotationValue, r.ref, annotationField(AnnotationExport),
				"%s is %q; it must be exactly \"true\" to export (or \"false\"); not exported by annotation",
				AnnotationExport, exportVal))
		case hasURL && cfg.opts.URLAloneExports:
			exported = true
		case hasURL:
			ds = append(ds, model.Infof(model.ReasonInvalidAnnotationValue, r.ref, annotationField(AnnotationExport),
				"%s is set but %s is not; not exported by annotation (add %s: \"true\", or allow the URL-alone rule)",
				AnnotationURL, AnnotationExport, AnnotationExport))
		}
		if !exported {
			continue
		}
		e := export{res: r, annotated: true, urlAnnotated: hasURL}
		if entry, ok := r.obj.(*model.MCPServerEntry); ok {
			// An MCPServerEntry is a remote: its URL is spec.remoteUrl,
			// unless registry-url names the one clients should use. An
			// entry ToolHive refuses is not exported at all. RequireHTTPS
			// is about published URLs: a spec.remoteUrl that registry-url
			// replaces is not published, so plain http there is no reason
			// to refuse the entry (nor, without RequireHTTPS, to warn).
			if entry.Group() == "" {
				// The CRD requires spec.groupRef, and ToolHive's controller
				// marks an entry without one Failed: no object in a
				// cluster lacks it, only a manifest that was never applied.
				ds = append(ds, model.Warningf(model.ReasonInvalidEntry, r.ref, "spec.groupRef",
					"an MCPServerEntry must name its MCPGroup in spec.groupRef (the CRD requires it); not exported"))
				continue
			}
			c, d, ok := checkEntryRemote(r, entry, !hasURL, cfg.opts.RequireHTTPS)
			if !ok {
				ds = append(ds, d...)
				continue
			}
			if !hasURL {
				ds = append(ds, d...)
				e.add(c)
				e.urlAnnotated = true
				out = append(out, e)
				continue
			}
		}
		if hasURL {
			if c, d, ok := checkAnnotationURL(r, rawURL, cfg.opts.RequireHTTPS); ok {
				e.add(c)
				ds = append(ds, d...)
			} else {
				ds = append(ds, d...)
			}
		}
		out = append(out, e)
	}
	return out, ds
}

// checkAnnotationURL checks a registry-url value; ok is false when it is not
// usable (InvalidURL, or InsecureURL when https is required).
func checkAnnotationURL(r *resource, raw string, requireHTTPS bool) (candidateURL, model.Diagnostics, bool) {
	field := annotationField(AnnotationURL)
	u, insecure, err := CheckURL(raw)
	switch {
	case err != nil:
		return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonInvalidURL, r.ref, field, "%v; URL not exported", err)}, false
	case insecure && requireHTTPS:
		return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonInsecureURL, r.ref, field,
			"URL %q uses http but https is required; URL not exported", u)}, false
	}
	c := candidateURL{url: u, source: sourceAnnotation, via: &r.ref, field: field}
	if insecure {
		return c, model.Diagnostics{model.Warningf(model.ReasonInsecureURL, r.ref, field,
			"URL %q uses plain http: clients will talk to the server unencrypted", u)}, true
	}
	return c, nil, true
}

// checkEntryRemote checks an MCPServerEntry's spec.remoteUrl. A URL that
// is published (no registry-url replaces it) must be one clients can use
// (CheckURL; https when requireHTTPS). Published or not, it must be one
// ToolHive accepts (an http or https URL with a host, which its
// endpoint-safety rule allows: see checkEndpoint), or ToolHive refuses the
// entry itself. ok is false when the entry must not be exported.
func checkEntryRemote(r *resource, e *model.MCPServerEntry, published, requireHTTPS bool) (candidateURL, model.Diagnostics, bool) {
	const field = "spec.remoteUrl"
	u, insecure := e.Spec.RemoteURL, false
	if published {
		var err error
		if u, insecure, err = CheckURL(u); err != nil {
			return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonInvalidURL, r.ref, field, "%v; not exported", err)}, false
		}
	} else if why := toolhiveRefusesURL(u); why != "" {
		// registry-url replaces this URL in the registry, but ToolHive
		// refuses the entry, which then serves nothing.
		return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonInvalidURL, r.ref, field,
			"%s, which ToolHive refuses (the entry is not Valid); not exported", why)}, false
	}
	if host := urlHost(u); host != "" {
		if v := checkEndpoint(host, e.Spec.AllowPrivateEndpoint); v.blocked {
			if v.private {
				return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonPrivateEndpoint, r.ref, field,
					"host %q is %s: refused unless spec.allowPrivateEndpoint is true; not exported", host, v.rule)}, false
			}
			return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonBlockedEndpoint, r.ref, field,
				"host %q is %s: refused whatever spec.allowPrivateEndpoint says; not exported", host, v.rule)}, false
		}
	}
	if !published {
		return candidateURL{}, nil, true
	}
	c := candidateURL{url: u, source: sourceAnnotation, via: &r.ref, field: field}
	switch {
	case insecure && requireHTTPS:
		return candidateURL{}, model.Diagnostics{model.Warningf(model.ReasonInsecureURL, r.ref, field,
			"URL %q uses http but https is required; not exported", u)}, false
	case insecure:
		return c, model.Diagnostics{model.Warningf(model.ReasonInsecureURL, r.ref, field,
			"URL %q uses plain http: clients will talk to the server unencrypted", u)}, true
	}
	return c, nil, true
}

// toolhiveRefusesURL says why ToolHive's operator refuses raw as an
// MCPServerEntry's remote URL before its endpoint-safety rule (its
// ValidateRemoteURL: empty, not parsed by net/url, a scheme other than
// http or https, no host), or "". It never repeats raw, which may hold a
// password.
func toolhiveRefusesURL(raw string) model.Text {
	if raw == "" {
		return "the URL is empty"
	}
	p, err := url.Parse(raw)
	switch {
	case err != nil:
		return "the URL cannot be parsed"
	case p.Scheme != "http" && p.Scheme != "https":
		return model.Sprintf("the URL's scheme is %q, not http or https", p.Scheme)
	case p.Host == "":
		return "the URL has no host"
	}
	return ""
}

// urlHost is the host of a URL CheckURL accepted, without port or brackets.
func urlHost(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}

// semverPattern is Semantic Versioning 2.0.0 (semver.org), without a "v".
var semverPattern = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// entryMeta is what a resource's annotations say about its entry; empty
// fields were not set (or not usable, and diagnosed).
type entryMeta struct {
	name, description, title, version, tier string
}

// readMetadata reads the descriptive annotations of a resource, each checked:
// a bad value is ignored with InvalidAnnotationValue; an over-long
// description or title is shortened with DescriptionTooLong.
func readMetadata(r *resource) (entryMeta, model.Diagnostics) {
	var m entryMeta
	var ds model.Diagnostics
	ann := r.annotation
	bad := func(key, format string, args ...any) {
		ds = append(ds, model.Warningf(model.ReasonInvalidAnnotationValue, r.ref, annotationField(key), format, args...))
	}
	if v, ok := ann(AnnotationName); ok {
		if invalid, _ := model.CheckName(v); invalid != "" {
			bad(AnnotationName, "%s; ignored, the generated name is used", invalid)
		} else {
			m.name = v
		}
	}
	text := func(key string, max int, what string) string {
		v, ok := ann(key)
		if !ok {
			return ""
		}
		if strings.TrimSpace(v) == "" {
			bad(key, "%s is empty; ignored", what)
			return ""
		}
		if !utf8.ValidString(v) {
			bad(key, "%s is not valid UTF-8; ignored", what)
			return ""
		}
		if n := utf8.RuneCountInString(v); n > max {
			short := shortenText(v, max)
			ds = append(ds, model.Warningf(model.ReasonDescriptionTooLong, r.ref, annotationField(key),
				"%s of %d characters shortened to %d", what, n, utf8.RuneCountInString(short)))
			return short
		}
		return v
	}
	m.description = text(AnnotationDescription, model.DescriptionMaxLen, "description")
	m.title = text(AnnotationTitle, model.TitleMaxLen, "title")
	if v, ok := ann(AnnotationVersion); ok {
		switch {
		case utf8.RuneCountInString(v) > model.VersionMaxLen:
			bad(AnnotationVersion, "version %q is %d characters; the upstream schema allows at most %d; ignored", v, utf8.RuneCountInString(v), model.VersionMaxLen)
		case !semverPattern.MatchString(v):
			bad(AnnotationVersion, "version %q is not a semantic version (MAJOR.MINOR.PATCH[-PRE][+BUILD]); ignored", v)
		default:
			m.version = v
		}
	}
	if v, ok := ann(AnnotationTier); ok {
		if v != TierOfficial && v != TierCommunity {
			bad(AnnotationTier, "tier %q must be %q or %q; ignored", v, TierOfficial, TierCommunity)
		} else {
			m.tier = v
		}
	}
	return m, ds
}

// shortenText cuts s to max characters as model.ShortenDescription does.
func shortenText(s string, max int) string {
	if max == model.DescriptionMaxLen {
		return model.ShortenDescription(s)
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return strings.TrimRight(string(r[:max-1]), " \t\n\r.,;:") + "…"
}
