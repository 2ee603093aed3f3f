package model

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// parseBenchDocument is an upstream document of 1,024 entries as a ConfigMap
// of the bench module's 100,000-server merge holds (about 800 KB): the 64
// entries of testdata/validate/entries.json, drawn as gen.UpstreamFiles
// draws them, repeated 16 times.
func parseBenchDocument(b *testing.B) []byte {
	data, err := os.ReadFile("testdata/validate/entries.json")
	if err != nil {
		b.Fatal(err)
	}
	open := bytes.Index(data, []byte(`"servers":[`)) + len(`"servers":[`)
	closing := bytes.LastIndex(data, []byte(`]}}`))
	entries := data[open:closing]
	var doc []byte
	doc = append(doc, data[:open]...)
	for i := range 16 {
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, entries...)
	}
	return append(doc, data[closing:]...)
}

// BenchmarkParseUpstream compares Parse of an upstream document, as a merge
// reads each ConfigMap, with json.Valid and jsonx.Valid over the same bytes;
// "indented" is the same document indented by two spaces, as documents
// written by hand are.
func BenchmarkParseUpstream(b *testing.B) {
	compact := parseBenchDocument(b)
	var indented bytes.Buffer
	if err := json.Indent(&indented, compact, "", "  "); err != nil {
		b.Fatal(err)
	}
	for _, doc := range []struct {
		name string
		data []byte
	}{{"compact", compact}, {"indented", indented.Bytes()}} {
		b.Run(doc.name, func(b *testing.B) { benchmarkParse(b, doc.data) })
	}
}

func benchmarkParse(b *testing.B, data []byte) {
	opts := ParseOptions{Format: FormatUpstream, Source: ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "team-000"}, FieldPrefix: "data[registry.json]"}
	if reg, ds := Parse(data, opts); reg == nil || len(reg.Servers) != 1024 || len(ds) != 0 {
		b.Fatalf("fixture: %v", ds)
	}
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			Parse(data, opts)
		}
	})
	b.Run("encoding/json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			json.Valid(data)
		}
	})
	b.Run("jsonx.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			jsonx.Valid(data)
		}
	})
}
