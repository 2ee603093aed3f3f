package urlbuild

import (
	"errors"
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// BasePath is the external path a match stands for: a PathPrefix value with
// its trailing "/" dropped ("When specified, a trailing `/` is ignored",
// PathMatchPathPrefix) — the root stays "/" — or an Exact value as is. A nil
// match is the default PathPrefix "/" (HTTPRouteMatch.Path). RegularExpression
// and unknown types have no base path; nor has a value the CRD would refuse
// (HTTPPathMatch validation: absolute, no "//", "/./", "/../", "#", "%2f",
// only URL path characters).
func BasePath(match *gwv1.HTTPPathMatch) (string, error) {
	typ, value, err := pathMatchOf(match)
	if err != nil {
		return "", err
	}
	if typ == gwv1.PathMatchExact {
		return value, nil
	}
	return prefixBase(strings.TrimRight(value, "/")), nil
}

// Rewrite returns the path the backend receives when a request for path takes
// a rule with this path match and URL rewrite (HTTPURLRewriteFilter.Path; nil
// filter or path: unchanged). It fails when the match does not match path or
// the combination is not valid. The semantics are those of HTTPPathModifier:
//
//   - ReplaceFullPath replaces the whole path.
//   - ReplacePrefixMatch (PathPrefix matches only) replaces the matched
//     prefix, element by element, trailing "/" ignored on both the prefix and
//     the replacement: /foo/bar with prefix /foo and replacement /xyz gives
//     /xyz/bar; /foo gives /xyz; /foo/ gives /xyz/; an empty replacement or
//     "/" gives /bar, "/" and "/" (the table of
//     HTTPPathModifier.ReplacePrefixMatch).
func Rewrite(path string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (string, error) {
	head, tail, err := rewriteParts(path, match, filter)
	if err != nil {
		return "", err
	}
	return head + tail, nil
}

// backendPath is the path the backend receives for a request path that a
// match takes, through filter: Rewrite, and also for a RegularExpression
// match, which gives no URL of its own (Rewrite refuses it) but may still
// take a request for another match's URL. Without a path modifier it
// forwards the path as it came, and ReplaceFullPath replaces it whatever
// the match; ReplacePrefixMatch needs a PathPrefix match, so such a rule
// forwards nothing the check can know.
func backendPath(path string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (string, error) {
	if typ, _ := DefaultPathMatch(gwv1.HTTPRouteMatch{Path: match}); typ != gwv1.PathMatchRegularExpression {
		return Rewrite(path, match, filter)
	}
	mod, err := pathModifierOf(filter)
	if err != nil {
		return "", err
	}
	if err := compatible(gwv1.PathMatchRegularExpression, mod); err != nil {
		return "", err
	}
	if !strings.HasPrefix(path, "/") {
		return "", fmt.Errorf("request path %s is not absolute", quoteCapped(path))
	}
	if mod != nil {
		return *mod.ReplaceFullPath, nil
	}
	return path, nil
}

// rewriteParts is Rewrite with the result in two pieces to be concatenated,
// so that ExternalPath can check its answer without allocating.
func rewriteParts(path string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (head, tail string, err error) {
	typ, value, err := pathMatchOf(match)
	if err != nil {
		return "", "", err
	}
	mod, err := pathModifierOf(filter)
	if err != nil {
		return "", "", err
	}
	if !strings.HasPrefix(path, "/") {
		return "", "", fmt.Errorf("request path %s is not absolute", quoteCapped(path))
	}
	if err := compatible(typ, mod); err != nil {
		return "", "", err
	}
	return rewriteCheckedParts(path, typ, value, mod)
}

// rewriteCheckedParts is rewriteParts for a match and a path modifier
// already read and checked (pathMatchOf, pathModifierOf, compatible), so
// that ExternalPath need not read them twice.
func rewriteCheckedParts(path string, typ gwv1.PathMatchType, value string, mod *gwv1.HTTPPathModifier) (head, tail string, err error) {
	if !strings.HasPrefix(path, "/") {
		return "", "", fmt.Errorf("request path %s is not absolute", quoteCapped(path))
	}
	prefix := strings.TrimRight(value, "/")
	switch typ {
	case gwv1.PathMatchExact:
		if path != value {
			return "", "", fmt.Errorf("request path %s does not match Exact %s", quoteCapped(path), quoteCapped(value))
		}
	default:
		if !prefixMatches(prefix, path) {
			return "", "", fmt.Errorf("request path %s does not match PathPrefix %s", quoteCapped(path), quoteCapped(value))
		}
	}
	switch {
	case mod == nil:
		return path, "", nil
	case mod.Type == gwv1.FullPathHTTPPathModifier:
		return *mod.ReplaceFullPath, "", nil
	}
	rest := path[len(prefix):]
	repl := strings.TrimRight(*mod.ReplacePrefixMatch, "/")
	if rest == "" {
		return prefixBase(repl), "", nil
	}
	return repl, rest, nil
}

// ExternalPath is the inverse of [Rewrite]: the request path a client sends so
// that the backend receives endpoint (for example ToolHive's /mcp), through a
// rule with this path match and URL rewrite. Where several request paths reach
// endpoint (any path under the prefix, with ReplaceFullPath) it returns the
// base path of the match. It fails, saying what the backend receives instead,
// when no request path can reach endpoint. For every result p,
// Rewrite(p, match, filter) == endpoint.
func ExternalPath(endpoint string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (string, error) {
	if err := checkPath(endpoint); err != nil {
		return "", fmt.Errorf("endpoint path: %w", err)
	}
	typ, value, err := pathMatchOf(match)
	if err != nil {
		return "", err
	}
	mod, err := pathModifierOf(filter)
	if err != nil {
		return "", err
	}
	if err := compatible(typ, mod); err != nil {
		return "", err
	}
	prefix := strings.TrimRight(value, "/")
	var ext string
	switch {
	case mod == nil && typ == gwv1.PathMatchExact:
		if endpoint != value {
			return "", fmt.Errorf("without a path rewrite the backend receives the request path, and Exact %s only matches %s, not the endpoint path %s", quoteCapped(value), quoteCapped(value), quoteCapped(endpoint))
		}
		ext = value
	case mod == nil:
		if !prefixMatches(prefix, endpoint) {
			return "", fmt.Errorf("without a path rewrite the backend receives the request path, which is under PathPrefix %s, and the endpoint path %s is not; add a URLRewrite with ReplacePrefixMatch", quoteCapped(value), quoteCapped(endpoint))
		}
		ext = endpoint
	case mod.Type == gwv1.FullPathHTTPPathModifier:
		if *mod.ReplaceFullPath != endpoint {
			return "", fmt.Errorf("the URLRewrite ReplaceFullPath sends every request to %s, not to the endpoint path %s", quoteCapped(*mod.ReplaceFullPath), quoteCapped(endpoint))
		}
		ext = value
		if typ != gwv1.PathMatchExact {
			ext = prefixBase(prefix)
		}
	default:
		repl := strings.TrimRight(*mod.ReplacePrefixMatch, "/")
		switch {
		case endpoint == prefixBase(repl):
			ext = prefixBase(prefix)
		case repl == "":
			ext = prefix + endpoint
		case strings.HasPrefix(endpoint, repl+"/"):
			ext = prefix + endpoint[len(repl):]
		default:
			return "", fmt.Errorf("the URLRewrite ReplacePrefixMatch sends requests under %s to paths under %s, and the endpoint path %s is not under it", quoteCapped(prefixBase(prefix)), quoteCapped(prefixBase(repl)), quoteCapped(endpoint))
		}
	}
	// The cases above are exact inverses except at the root, where an empty
	// remainder and "/" meet; checking forward keeps the promise.
	if head, tail, err := rewriteCheckedParts(ext, typ, value, mod); err != nil || len(head)+len(tail) != len(endpoint) ||
		!strings.HasPrefix(endpoint, head) || !strings.HasSuffix(endpoint, tail) {
		return "", fmt.Errorf("no request path reaches the endpoint path %s: the path %s reaches %s instead", quoteCapped(endpoint), quoteCapped(ext), quoteCapped(head+tail))
	}
	return ext, nil
}

// externalPathSplit is [ExternalPath] with the result in two pieces, head
// and endpoint[tailAt:], so that a caller building a URL from it allocates
// once (tailAt is len(endpoint) when the result is head alone). The pieces
// make up what ExternalPath returns, and the errors are its errors
// (TestExternalPathSplit).
func externalPathSplit(endpoint string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (head string, tailAt int, err error) {
	if err := checkPath(endpoint); err != nil {
		return "", 0, fmt.Errorf("endpoint path: %w", err)
	}
	typ, value, err := pathMatchOf(match)
	if err != nil {
		return "", 0, err
	}
	mod, err := pathModifierOf(filter)
	if err != nil {
		return "", 0, err
	}
	if err := compatible(typ, mod); err != nil {
		return "", 0, err
	}
	if mod != nil && mod.Type == gwv1.PrefixMatchHTTPPathModifier {
		prefix := strings.TrimRight(value, "/")
		repl := strings.TrimRight(*mod.ReplacePrefixMatch, "/")
		switch {
		case endpoint == prefixBase(repl):
		case repl == "":
			// ExternalPath's prefix + endpoint. Its check forward holds
			// here by construction: the endpoint path starts with "/", so
			// the request path is under the prefix, and the rewrite puts
			// "" (the replacement) before the endpoint path.
			return prefix, 0, nil
		case strings.HasPrefix(endpoint, repl+"/"):
			// ExternalPath's prefix + endpoint[len(repl):], which starts
			// with "/": the rewrite gives repl and that remainder, the
			// endpoint path again.
			return prefix, len(repl), nil
		}
	}
	ext, err := ExternalPath(endpoint, match, filter)
	return ext, len(endpoint), err
}

// pathMatchOf returns the defaulted type and value of a path match
// (HTTPPathMatch.Type defaults to PathPrefix, .Value to "/"), refusing
// RegularExpression, unknown types and values the CRD would refuse.
func pathMatchOf(m *gwv1.HTTPPathMatch) (gwv1.PathMatchType, string, error) {
	typ, value := DefaultPathMatch(gwv1.HTTPRouteMatch{Path: m})
	switch typ {
	case gwv1.PathMatchExact, gwv1.PathMatchPathPrefix:
	case gwv1.PathMatchRegularExpression:
		return "", "", fmt.Errorf("RegularExpression path %s has no single URL path", quoteCapped(value))
	default:
		return "", "", fmt.Errorf("path match type %s is not one of Exact, PathPrefix", quoteCapped(string(typ)))
	}
	if err := checkPath(value); err != nil {
		return "", "", fmt.Errorf("%s value: %w", typ, err)
	}
	return typ, value, nil
}

// pathModifierOf returns the path modifier of a URLRewrite filter, nil when
// it has none, refusing what the CRD refuses: an unknown type, or a type
// without its value (HTTPPathModifier validation). A ReplaceFullPath must be
// an absolute path; a ReplacePrefixMatch may be empty (the table of
// HTTPPathModifier.ReplacePrefixMatch), else absolute.
func pathModifierOf(f *gwv1.HTTPURLRewriteFilter) (*gwv1.HTTPPathModifier, error) {
	if f == nil || f.Path == nil {
		return nil, nil
	}
	m := f.Path
	switch m.Type {
	case gwv1.FullPathHTTPPathModifier:
		if m.ReplaceFullPath == nil {
			return nil, errors.New("URLRewrite path type ReplaceFullPath without replaceFullPath")
		}
		if !strings.HasPrefix(*m.ReplaceFullPath, "/") {
			return nil, fmt.Errorf("URLRewrite replaceFullPath %s is not an absolute path", quoteCapped(*m.ReplaceFullPath))
		}
	case gwv1.PrefixMatchHTTPPathModifier:
		if m.ReplacePrefixMatch == nil {
			return nil, errors.New("URLRewrite path type ReplacePrefixMatch without replacePrefixMatch")
		}
		if r := *m.ReplacePrefixMatch; r != "" && !strings.HasPrefix(r, "/") {
			return nil, fmt.Errorf("URLRewrite replacePrefixMatch %s is not an absolute path", quoteCapped(r))
		}
	default:
		return nil, fmt.Errorf("URLRewrite path type %s is not one of ReplaceFullPath, ReplacePrefixMatch", quoteCapped(string(m.Type)))
	}
	return m, nil
}

// compatible refuses ReplacePrefixMatch next to an Exact match
// (HTTPPathModifier.ReplacePrefixMatch: "only compatible with a `PathPrefix`
// HTTPRouteMatch").
func compatible(typ gwv1.PathMatchType, mod *gwv1.HTTPPathModifier) error {
	if mod != nil && mod.Type == gwv1.PrefixMatchHTTPPathModifier && typ != gwv1.PathMatchPathPrefix {
		return fmt.Errorf("URLRewrite ReplacePrefixMatch is only compatible with a PathPrefix match, not %s", typ)
	}
	return nil
}

// prefixMatches reports whether path is under prefix (trailing "/" already
// trimmed) element by element: "/abc" matches "/abc" and "/abc/def", not
// "/abcd" (PathMatchPathPrefix). The empty prefix is the root.
func prefixMatches(prefix, path string) bool {
	if prefix == "" {
		return strings.HasPrefix(path, "/")
	}
	return path == prefix || strings.HasPrefix(path, prefix) && path[len(prefix)] == '/'
}

// prefixBase turns a trimmed prefix back into a path: "" is the root.
func prefixBase(trimmed string) string {
	if trimmed == "" {
		return "/"
	}
	return trimmed
}

// checkPath applies the CRD's rules for Exact and PathPrefix values
// (HTTPPathMatch validation) so that whatever passes can be put in a URL
// as is. It runs for every path of every rule, several times per URL: a
// path of plain characters (no "%") is judged in one pass, anything else by
// checkPathFull, which also words the errors. Both agree
// (TestCheckPathOnePass).
func checkPath(p string) error {
	if p == "" || p[0] != '/' || len(p) > 1024 {
		return checkPathFull(p)
	}
	// seg is where the segment being read starts (after its "/").
	seg := 1
	for i := 1; i < len(p); i++ {
		c := p[i]
		if c == '/' {
			if s := p[seg:i]; s == "" || s == "." || s == ".." {
				return checkPathFull(p)
			}
			seg = i + 1
			continue
		}
		if !plainPathBytes[c] {
			return checkPathFull(p)
		}
	}
	if s := p[seg:]; s == "." || s == ".." {
		return checkPathFull(p)
	}
	return nil
}

// plainPathBytes marks the bytes a path may carry as is, "/" apart: letters,
// digits and "-._~!$&'()*+,;=:@". It is computed once and only read.
var plainPathBytes = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		t[c] = b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@", b) >= 0
	}
	return t
}()

// checkPathFull is checkPath, character by character, with the error that
// says what is wrong.
func checkPathFull(p string) error {
	switch {
	case !strings.HasPrefix(p, "/"):
		return fmt.Errorf("%s is not an absolute path", quoteCapped(p))
	case len(p) > 1024:
		return fmt.Errorf("path of %d characters is longer than 1024", len(p))
	case strings.Contains(p, "//"):
		return fmt.Errorf("%s contains \"//\"", quoteCapped(p))
	case strings.Contains(p, "/./") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/.."):
		return fmt.Errorf("%s contains a \".\" or \"..\" segment", quoteCapped(p))
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("-/._~!$&'()*+,;=:@", c) >= 0:
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			if p[i+1] == '2' && (p[i+2] == 'f' || p[i+2] == 'F') {
				return fmt.Errorf("%s contains an encoded \"/\"", quoteCapped(p))
			}
			i += 2
		default:
			return fmt.Errorf("%s contains %q, which a URL path cannot carry as is", quoteCapped(p), c)
		}
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
