// Package bench compares mcpreg with ToolHive, side by side, in a module of
// its own so that the library's go.mod stays free of ToolHive's dependencies.
//
// It holds no library code: its tests convert the same ToolHive legacy
// catalogs with ToolHive's converter (toolhive-core v0.0.43,
// registry/converters) and with mcpreg's model.Parse and require the same
// entries (compat_test.go), and they use ToolHive's schema validator
// (registry/types.ValidateUpstreamRegistryBytes) as an oracle for every
// document mcpreg emits (oracle_test.go). The data comes from package gen.
package bench
