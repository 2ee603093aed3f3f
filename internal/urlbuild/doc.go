// Package urlbuild is the implementation of the public package
// github.com/mcpreg/mcpreg/urlbuild, whose documentation states the rules it
// follows: HTTPRoute parentRefs and listeners, hostnames, rewrites, request
// routing and URL construction.
//
// It lives here so that package discovery, which builds the URLs of every
// exported route of a snapshot, can use variants that reuse memory from
// route to route ([Index.AttachInto], [Attachment.AppendRuleURLs]) without
// those becoming part of the public API. The public package wraps the
// exported names of this one, with the same behaviour.
package urlbuild
