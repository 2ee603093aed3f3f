package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	thtypes "github.com/stacklok/toolhive-core/registry/types"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/model"
)

// The oracle tests: every document mcpreg emits must be accepted by ToolHive's
// registry server, whose check is toolhive-core's
// types.ValidateUpstreamRegistryBytes (upstream registry schema, server schema,
// publisher-provided extensions schema), and must pass mcpreg's own
// model.ValidateRegistry. Conversely, an entry model.ValidateServer accepts
// must be one ToolHive accepts: model's check may be stricter, never weaker.
// The gaps found so far are listed in known_test.go.

// oracleNow is the caller-supplied last_updated of emitted documents.
const oracleNow = "2025-09-01T12:00:00Z"

// convertLikeCLI is what `mcpreg convert FILE --now oracleNow` does: parse
// any shape, put the servers in a new document with the caller's
// last_updated, keep a valid document version and empty "data" members other
// than "servers", then normalise, drop what cannot be emitted and sort.
func convertLikeCLI(data []byte) (*model.Registry, model.Diagnostics) {
	src := model.ObjectRef{Kind: "File", Name: "input.json"}
	return model.Convert(data, model.ParseOptions{Source: src}, oracleNow)
}

// tb is what the checks need of a test: *testing.T and *rapid.T both have it.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// checkEmitted fails unless doc passes both validators.
func checkEmitted(t tb, reg *model.Registry, doc []byte) {
	t.Helper()
	if ds := model.ValidateRegistry(reg, model.ObjectRef{}); ds.HasErrors() {
		t.Errorf("model.ValidateRegistry rejects an emitted document:\n%v", ds.WithSeverity(model.SeverityError))
	}
	if vds := model.ValidateJSON(doc, model.ObjectRef{}); vds.HasErrors() {
		t.Errorf("model.ValidateJSON rejects the encoded document:\n%v", vds.WithSeverity(model.SeverityError))
	}
	if err := thtypes.ValidateUpstreamRegistryBytes(doc); err != nil {
		t.Errorf("ToolHive rejects an emitted document: %v", err)
	}
}

// TestOracleCatalog: (a) the converted catalogs, finished and encoded.
func TestOracleCatalog(t *testing.T) {
	for _, opts := range compatCatalogs {
		t.Run(fmt.Sprintf("seed=%d", opts.Seed), func(t *testing.T) {
			reg, ds := model.Parse(gen.ToolHiveCatalog(opts), model.ParseOptions{Format: model.FormatToolHive})
			if reg == nil {
				t.Fatalf("no registry: %v", ds)
			}
			n := len(reg.Servers)
			ds = append(ds, model.Finish(reg, model.ObjectRef{})...)
			// A valid catalog loses nothing: the only changes are shortened
			// descriptions, each with a DescriptionTooLong warning.
			if len(reg.Servers) != n {
				t.Errorf("Finish dropped %d of %d servers: %v", n-len(reg.Servers), n, ds.WithReason(model.ReasonInvalidEntry))
			}
			for _, d := range ds {
				if d.Reason != model.ReasonDescriptionTooLong || d.Severity != model.SeverityWarning {
					t.Errorf("unexpected diagnostic: %v", d)
				}
			}
			if len(ds) == 0 {
				t.Errorf("the catalog has no description over 100 characters; it should exercise shortening")
			}
			checkEmitted(t, reg, reg.Encode())
		})
	}
}

// TestOracleConvertCLI: (b) the convert verb's path, over every input shape:
// the legacy catalog, the same servers as the list shorthand, ToolHive's own
// upstream conversion of the catalog, and mcpreg's output read back (which
// must come out byte-identical: converting is idempotent).
func TestOracleConvertCLI(t *testing.T) {
	catalog := gen.ToolHiveCatalog(gen.DefaultCatalog)
	up, err := toolhiveConvert(catalog)
	if err != nil {
		t.Fatal(err)
	}
	toolhiveUpstream, err := json.Marshal(up)
	if err != nil {
		t.Fatal(err)
	}
	legacyOut, _ := convertLikeCLI(catalog)
	if legacyOut == nil {
		t.Fatal("legacy catalog: no document")
	}
	n := len(legacyOut.Servers)
	inputs := []struct {
		name string
		data []byte
		// servers is the number of servers the output must have; dropped
		// the number of InvalidEntry diagnostics.
		servers, dropped int
		// want is the document the input must convert to, when known.
		want []byte
	}{
		{name: "legacy", data: catalog, servers: n},
		{name: "list", data: gen.ToolHiveList(gen.DefaultCatalog), servers: n, want: legacyOut.Encode()},
		// ToolHive ignores the groups and leaves names without "/" bare,
		// which the upstream pattern rejects: those entries are dropped.
		{name: "toolhive-upstream", data: toolhiveUpstream,
			servers: n - gen.DefaultCatalog.GroupOnly - gen.DefaultCatalog.BareNames, dropped: gen.DefaultCatalog.BareNames},
		{name: "mcpreg-upstream", data: legacyOut.Encode(), servers: n, want: legacyOut.Encode()},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			reg, ds := convertLikeCLI(in.data)
			if reg == nil || ds.HasErrors() {
				t.Fatalf("convert failed: %v", ds)
			}
			doc := reg.Encode()
			checkEmitted(t, reg, doc)
			if len(reg.Servers) != in.servers {
				t.Errorf("%d servers, want %d", len(reg.Servers), in.servers)
			}
			if d := ds.WithReason(model.ReasonInvalidEntry); len(d) != in.dropped {
				t.Errorf("%d entries dropped, want %d: %v", len(d), in.dropped, d)
			}
			if in.want != nil && !bytes.Equal(doc, in.want) {
				t.Errorf("output differs from the legacy catalog's conversion:\n%s", lineDiff(in.want, doc))
			}
		})
	}
}

// lineDiff shows the first differing line of two documents.
func lineDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, wl[i], gl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(gl), len(wl))
}

// TestOracleDocuments: (c) random upstream documents through the convert path
// always give a document both validators accept.
func TestOracleDocuments(t *testing.T) {
	st := newOracleStats()
	rapid.Check(t, func(rt *rapid.T) {
		in := []byte(gen.UpstreamDocument().Draw(rt, "document"))
		reg, ds := convertLikeCLI(in)
		if reg == nil {
			rt.Fatalf("no document: %v", ds)
		}
		if rds := model.ValidateRegistry(reg, model.ObjectRef{}).WithSeverity(model.SeverityError); len(rds) > 0 {
			rt.Fatalf("model.ValidateRegistry rejects the converted document:\n%v", rds)
		}
		doc := reg.Encode()
		st.servers += len(reg.Servers)
		if err := thtypes.ValidateUpstreamRegistryBytes(doc); err != nil {
			if ids, ok := explainByGaps(err); ok && !*strict {
				st.gap(ids)
				return
			}
			rt.Fatalf("ToolHive rejects the converted document: %v\n%s", err, doc)
		}
		st.accepted++
	})
	st.log(t, "documents")
}

// TestOracleEntries: (c) for single entries, model's upstream-rules check is
// not weaker than ToolHive's: whatever model.ValidateServer accepts without an
// Error, ToolHive accepts in a document of its own.
func TestOracleEntries(t *testing.T) {
	st := newOracleStats()
	rapid.Check(t, func(rt *rapid.T) {
		entry := []byte(gen.UpstreamServer().Draw(rt, "entry"))
		s, err := model.ParseServer(entry)
		if err != nil {
			rt.Fatalf("generated entry does not parse: %v", err)
		}
		ds := model.ValidateServer(s, model.ObjectRef{}, "data.servers[0]")
		thErr := thtypes.ValidateUpstreamRegistryBytes(singleEntryDocument(entry))
		switch {
		case ds.HasErrors() && thErr != nil:
			st.bothReject++
		case ds.HasErrors():
			// Stricter than ToolHive is allowed where known_test.go lists it.
			for _, d := range ds.WithSeverity(model.SeverityError) {
				c := knownStricterField(d.Field)
				if c == nil || (c.bug && *strict) {
					rt.Fatalf("model rejects an entry ToolHive accepts, at %s (not a known case): %s\nentry: %s", d.Field, d.Message, entry)
				}
				st.stricterIDs[c.id]++
			}
		case thErr == nil:
			st.accepted++
		default:
			if ids, ok := explainByGaps(thErr); ok && !*strict {
				st.gap(ids)
				return
			}
			rt.Fatalf("model accepts an entry ToolHive rejects: %v\nentry: %s", thErr, entry)
		}
	})
	st.log(t, "entries")
}

func singleEntryDocument(entry []byte) []byte {
	return []byte(`{"$schema":"` + model.RegistrySchemaURL + `","version":"1.0.0","meta":{"last_updated":"` + oracleNow + `"},"data":{"servers":[` + string(entry) + `]}}`)
}

// TestOracleConvertDuplicates: an upstream document repeating a name, or a
// remote URL under two names, converts to a document both validators accept.
func TestOracleConvertDuplicates(t *testing.T) {
	entry := func(name, url string) string {
		return `{"name":"` + name + `","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"` + url + `"}]}`
	}
	for name, servers := range map[string]string{
		"name":       entry("io.github.acme/x", "https://a.example/sse") + "," + entry("io.github.acme/x", "https://b.example/sse"),
		"remote-url": entry("io.github.acme/x", "https://a.example/sse") + "," + entry("io.github.acme/y", "https://a.example/sse"),
	} {
		t.Run(name, func(t *testing.T) {
			in := []byte(`{"version":"1.0.0","meta":{"last_updated":"` + oracleNow + `"},"data":{"servers":[` + servers + `]}}`)
			reg, ds := convertLikeCLI(in)
			if reg == nil {
				t.Fatalf("no document: %v", ds)
			}
			doc := reg.Encode()
			if err := thtypes.ValidateUpstreamRegistryBytes(doc); err != nil {
				t.Errorf("ToolHive rejects the converted document: %v", err)
			}
			if rds := model.ValidateRegistry(reg, model.ObjectRef{}).WithSeverity(model.SeverityError); len(rds) > 0 {
				t.Errorf("model.ValidateRegistry rejects the converted document of %s:\n%v\nconvert diagnostics: %v", in, rds, ds)
			}
		})
	}
}

// oracleStats counts the outcomes of a property run, for the log.
type oracleStats struct {
	accepted, bothReject, servers int
	gaps, bugs, stricterIDs       map[string]int
}

func newOracleStats() *oracleStats {
	return &oracleStats{gaps: map[string]int{}, bugs: map[string]int{}, stricterIDs: map[string]int{}}
}

func (s *oracleStats) gap(ids []string) {
	for _, id := range ids {
		s.gaps[id]++
	}
}

func (s *oracleStats) log(t *testing.T, what string) {
	if s.servers > 0 {
		t.Logf("%s: %d accepted by both, %d servers emitted", what, s.accepted, s.servers)
	} else {
		t.Logf("%s: %d accepted by both, %d rejected by both", what, s.accepted, s.bothReject)
	}
	for _, id := range sortedKeys(s.gaps) {
		t.Logf("  known gap %s: %d", id, s.gaps[id])
	}
	for _, id := range sortedKeys(s.bugs) {
		t.Logf("  known bug %s: %d", id, s.bugs[id])
	}
	for _, id := range sortedKeys(s.stricterIDs) {
		t.Logf("  model stricter, %s: %d", id, s.stricterIDs[id])
	}
}

// TestOracleKnownGaps checks each known gap on its minimal entry: ToolHive
// rejects it, for that gap only. While model still accepts it the gap is open
// (a failure with -strict); once model rejects it, it should leave the list.
func TestOracleKnownGaps(t *testing.T) {
	for _, g := range knownGaps {
		t.Run(g.id, func(t *testing.T) {
			err := thtypes.ValidateUpstreamRegistryBytes(singleEntryDocument([]byte(g.entry)))
			if err == nil {
				t.Fatalf("ToolHive accepts %s", g.entry)
			}
			if ids, ok := explainByGaps(err); !ok || !slices.Equal(ids, []string{g.id}) {
				t.Fatalf("ToolHive's error is not (only) gap %s but %v: %v", g.id, ids, err)
			}
			s, perr := model.ParseServer([]byte(g.entry))
			if perr != nil {
				t.Fatal(perr)
			}
			if model.ValidateServer(s, model.ObjectRef{}, "").HasErrors() {
				t.Logf("closed: model now rejects %s; remove gap %s from knownGaps", g.entry, g.id)
				return
			}
			if *strict {
				t.Errorf("open gap: model accepts %s; ToolHive: %v", g.entry, err)
			}
		})
	}
}

// TestOracleModelStricter checks the entries model rejects and ToolHive
// accepts: the intended ones stay rejected; the reported bugs are skipped
// (failures with -strict) until model accepts them.
func TestOracleModelStricter(t *testing.T) {
	for _, c := range knownStricter {
		t.Run(c.id, func(t *testing.T) {
			if err := thtypes.ValidateUpstreamRegistryBytes(singleEntryDocument([]byte(c.entry))); err != nil {
				t.Fatalf("ToolHive rejects %s: %v", c.entry, err)
			}
			s, err := model.ParseServer([]byte(c.entry))
			if err != nil {
				t.Fatal(err)
			}
			var fields []string
			for _, d := range model.ValidateServer(s, model.ObjectRef{}, "").WithSeverity(model.SeverityError) {
				fields = append(fields, stricterField(d.Field))
			}
			rejected := slices.Equal(fields, []string{c.field})
			switch {
			case !c.bug && !rejected:
				t.Errorf("model should reject %s at %s only (%s); its errors are at %v", c.entry, c.field, c.reason, fields)
			case c.bug && len(fields) > 0:
				skipKnownBug(t, c.id, fmt.Sprintf("model rejects %s at %v (%s)", c.entry, fields, c.reason))
			}
		})
	}
}
