// Package model holds the registry documents, the ToolHive CRD snapshots and
// the diagnostics every other package of mcpreg speaks.
//
// Registry data comes in three shapes: the upstream document
// ToolHive's registry server reads ({"$schema", "version", "meta", "data":
// {"servers": [...]}}), ToolHive's legacy catalog ({"servers": {key: ...},
// "remote_servers": {...}}) and the list shorthand ({"servers": [...]}). Parse
// detects the shape and returns an upstream Registry; legacy and list entries
// are converted the way toolhive-core's converter does, in a deterministic
// order. Upstream entries are kept as raw JSON members (Server), so fields the
// library does not interpret come out exactly as they went in.
//
// ValidateServer, ValidateRegistry and ValidateJSON check the upstream rules
// (name, description, version, remotes, document version and timestamp, plus
// every constraint of ToolHive's schemas); Normalize and Finish make entries fit to emit or drop them with
// a diagnostic.
//
// CheckURL is the module's one URL policy, applied to remote URLs wherever
// they come from: registry data (Normalize removes a remote it refuses;
// a legacy remote entry it refuses is skipped), registry-url annotations,
// URLs built from Gateway API routes and source-registry entries. It refuses
// user information (and MaskURL hides it in every message), and reads hosts
// as the WHATWG URL standard does, so that a host browsers would send to
// 127.0.0.1 or 169.254.169.254 cannot pass as a name.
//
// Text that is not Unicode (invalid UTF-8, a lone "\ud800" surrogate
// escape) is never published: JSON text must be UTF-8, and readers such as
// ToolHive's registry server would serve U+FFFD in its place, so the entry
// would differ from its hash. Normalize skips such an entry with an
// InvalidEntry warning naming the member and the byte.
//
// Diagnostics never repeat input raw: Errorf, Warningf, Infof and Sprintf
// escape control characters and invalid UTF-8 in every value and cut it to
// MaxEchoRunes; String and MarshalJSON escape every part again, so a value
// cannot forge a line of a log or of the command line's output.
//
// Nothing in this package does I/O or keeps state between calls.
package model
