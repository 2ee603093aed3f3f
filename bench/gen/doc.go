// Package gen generates the data the bench module's comparisons run on:
// realistic ToolHive legacy catalogs (ToolHiveCatalog) from a seeded PRNG,
// and random-but-plausible upstream server entries and documents as rapid
// generators (UpstreamServer, UpstreamDocument), good and bad; and upstream
// registry files at the official registry's scale for the merge benchmark
// (UpstreamFiles).
//
// Everything here is deterministic: the same options and seed give the same
// bytes, so a failing comparison can be replayed. The generators depend on
// neither mcpreg nor ToolHive, so that neither implementation shapes the data
// it is judged on.
package gen
