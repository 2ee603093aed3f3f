// Package filter decides which registry entries a name/tag filter keeps, with
// the semantics of ToolHive's registry server.
//
// The rule, for names and for tags alike:
//
//   - an exclude that matches removes the entry (exclude wins over include);
//   - if any include is given, the entry is kept only when one matches;
//   - no patterns at all keeps everything.
//
// An entry is kept only when it passes both the name rule and the tag rule.
//
// Name patterns are globs (github.com/gobwas/glob) compiled without
// separators, so "*" crosses "/" ("team-a/*" and "*/slack-*" match prefixed
// and namespaced names) and matching is case-sensitive. A pattern without "/"
// also matches when it matches the server part of the name (after the "/"):
// "slack-*" keeps io.github.stacklok/slack-mcp, so filters written for the
// bare names of ToolHive's legacy catalogs keep working after conversion. A pattern is valid only
// when both gobwas/glob and path/filepath accept it, because ToolHive's
// registry server checks it with both: a filter this package accepts is one the
// server accepts too. Matching is gobwas/glob's, quirks included, so that the
// operator and the server keep the same entries: "?" alone matches the empty
// string, an unclosed "{a,b" is an alternation, and a prefix and suffix may
// overlap ("a*a" matches "a"). Real server names (namespace "/" name, at least
// three characters) rarely meet them. Tags are exact, case-sensitive strings, read with
// model.Server.Tags (the legacy "tags" field and every
// _meta.publisher-provided.<publisher>.<key>.tags list).
//
// Matching takes O(len(pattern) × len(name)) time for every pattern New
// accepts. gobwas/glob's own search is polynomial in the name length with the
// number of stars as the degree ("a*a*a*a*a*a*a*a*?" on a 70-character name
// runs for minutes), so this package compiles the pattern with gobwas/glob and
// evaluates the compiled tree itself, moving a set of positions through it, with
// the same answers (checked against gobwas/glob on random and fuzzed patterns).
// The rare patterns whose gobwas/glob answer depends on its search order (an
// alternative whose length it misreports, such as "*{a*,b}"; an empty
// alternative, such as a trailing "{", on which it panics) are refused by New
// with a *PatternError saying so.
//
// A Filter is compiled once by New or FromRegistryFilter, which fail on a bad
// pattern naming it, and then applied any number of times without error paths.
// The nil *Filter keeps everything.
package filter
