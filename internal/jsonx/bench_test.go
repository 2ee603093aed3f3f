package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// benchDocument is an upstream registry document of n entries like
// sampleEntry, each with its own name, as a ConfigMap of the merge benchmark
// holds (bench/ has the realistic data and the side-by-side comparison).
func benchDocument(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"version":"1.0.0","meta":{"last_updated":"2025-09-01T12:00:00Z"},"data":{"servers":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strings.Replace(sampleEntry, "fetch-mcp-1", fmt.Sprintf("fetch-mcp-%d", i), 1))
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}

// BenchmarkScan compares, on one document, encoding/json.Valid, Valid, a
// Reader splitting every entry into members (what model.Parse does), and
// the non-validating split (Members/Elements).
func BenchmarkScan(b *testing.B) {
	data := benchDocument(1000)
	benchValidators(b, data)
	b.Run("Reader", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		members := make([]Member, 0, 16*1000)
		for b.Loop() {
			members = members[:0]
			r := NewReader(data)
			r.BeginObject()
			for r.NextMember() {
				if r.KeyString() != "data" {
					r.Skip()
					continue
				}
				r.BeginObject()
				for r.NextMember() {
					if r.KeyString() != "servers" {
						r.Skip()
						continue
					}
					r.BeginArray()
					for r.NextElement() {
						r.BeginObject()
						for r.NextMember() {
							k, _ := r.KeyInfo()
							members = append(members, Member{Key: k, Value: r.Skip()})
						}
					}
				}
			}
			if r.End() != nil {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("Members", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			top, _ := Members(data)
			d, _ := Members(top[2].Value)
			els, _ := Elements(d[0].Value)
			for _, el := range els {
				if _, err := Members(el); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkAppendIndent compares AppendIndent with json.Compact then
// json.Indent, the two passes it replaces.
func BenchmarkAppendIndent(b *testing.B) {
	data := benchDocument(1000)
	b.Run("json.Indent", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var compact, out bytes.Buffer
		for b.Loop() {
			compact.Reset()
			out.Reset()
			_ = json.Compact(&compact, data)
			_ = json.Indent(&out, compact.Bytes(), "", "  ")
		}
	})
	b.Run("AppendIndent", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var out []byte
		for b.Loop() {
			out = AppendIndent(out[:0], data, 0)
		}
	})
}

// registryDocument is the upstream document of model's BenchmarkParseUpstream:
// the 64 entries of model/testdata/validate/entries.json (drawn as the bench
// module's generator draws them) repeated 16 times, about 800 KB.
func registryDocument(b *testing.B) []byte {
	data, err := os.ReadFile("../../model/testdata/validate/entries.json")
	if err != nil {
		b.Fatal(err)
	}
	open := bytes.Index(data, []byte(`"servers":[`)) + len(`"servers":[`)
	closing := bytes.LastIndex(data, []byte(`]}}`))
	doc := slices.Clone(data[:open])
	for i := range 16 {
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, data[open:closing]...)
	}
	return append(doc, data[closing:]...)
}

// BenchmarkValidRegistry compares encoding/json.Valid and Valid on
// registryDocument, and a Reader splitting each entry into members with
// SkipIndexed, as model.Parse reads it.
func BenchmarkValidRegistry(b *testing.B) {
	data := registryDocument(b)
	benchValidators(b, data)
	b.Run("SplitObject", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		members := make([]Member, 0, 16*1024)
		var idx Index
		idx.Spans = make([]Span, 0, 64*1024)
		for b.Loop() {
			members, idx.Spans = members[:0], idx.Spans[:0]
			r := NewReader(data)
			r.BeginObject()
			for r.NextMember() {
				if r.KeyString() != "data" {
					r.Skip()
					continue
				}
				r.BeginObject()
				for r.NextMember() {
					if r.KeyString() != "servers" {
						r.Skip()
						continue
					}
					r.BeginArray()
					for r.NextElement() {
						idx.Base = r.Pos()
						members, _, _ = r.SplitObject(members, &idx, nil)
					}
				}
			}
			if r.End() != nil {
				b.Fatal("invalid")
			}
		}
	})
}

// benchValidators runs encoding/json.Valid and Valid over data as
// sub-benchmarks, the yardsticks of the scans beside them.
func benchValidators(b *testing.B, data []byte) {
	b.Run("encoding/json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !json.Valid(data) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !Valid(data) {
				b.Fatal("invalid")
			}
		}
	})
}
