// Package bench compares mcpreg with ToolHive, side by side, in a module of
// its own so that the library's go.mod stays free of ToolHive's dependencies.
//
// It holds no library code: its tests convert the same ToolHive legacy
// catalogs with ToolHive's converter (toolhive-core v0.0.43,
// registry/converters) and with mcpreg's model.Parse and require the same
// entries (compat_test.go), and they use ToolHive's schema validator
// (registry/types.ValidateUpstreamRegistryBytes) as an oracle for every
// document mcpreg emits (oracle_test.go). Its benchmarks merge 100,000
// servers from 100 ConfigMaps with mcpreg, the way ToolHive's registry server
// handles a file source, and json.Valid as the floor, on the same bytes
// (scale_test.go, scale_bench_test.go; figures in RESULTS.md). The data
// comes from package gen.
package bench
