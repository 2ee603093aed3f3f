package model

import (
	"bytes"
	"regexp"
)

// The official MCP registry refuses a server or package version that reads
// as a range (its validators' looksLikeVersionRange, after the schema's
// "Version ranges are rejected (e.g., '^1.2.3', '~1.2.3', '>=1.2.3', '1.x',
// '1.*')"). ToolHive's checks and the upstream schema accept such versions,
// so the checks here warn, as for the official registry's stricter names.
// The patterns are the registry's own.
var (
	comparatorRangeRE = regexp.MustCompile(`^\s*(?:\^|~|>=|<=|>|<|=)\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*$`)
	hyphenRangeRE     = regexp.MustCompile(`^\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s-\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*$`)
	orRangeRE         = regexp.MustCompile(`^\s*(?:v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*)(?:\|\|\s*v?\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.-]+)?\s*)+$`)
	dottedWildcardRE  = regexp.MustCompile(`^\s*(?:v?\d+|x|X|\*)(?:\.(?:\d+|x|X|\*)){1,2}(?:-[0-9A-Za-z.-]+)?\s*$`)
)

// versionRange reports whether the version v reads as a range to the
// official MCP registry. Each of its patterns needs a byte no specific
// version of the usual form holds (an operator, a space, "||", or a
// wildcard x, X or *), so one pass over v settles nearly every version
// without a pattern; the patterns are linear in v, at most 255 characters.
func versionRange(v []byte) bool {
	// The registry trims the version (strings.TrimSpace) before matching.
	v = bytes.TrimSpace(v)
	hint := false
	for _, c := range v {
		switch c {
		case '^', '~', '>', '<', '=', '|', 'x', 'X', '*', ' ', '\t', '\n', '\f', '\r':
			hint = true
		}
	}
	if !hint {
		return false
	}
	if comparatorRangeRE.Match(v) || hyphenRangeRE.Match(v) || orRangeRE.Match(v) {
		return true
	}
	return dottedWildcardRE.Match(v) && bytes.ContainsAny(v, "xX*")
}
