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
// Nothing in this package does I/O or keeps state between calls.
package model
