package model_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// drawDocument draws an upstream document of up to maxServers generated
// servers, at times with a member of data besides servers.
func drawDocument(t *rapid.T, maxServers int) map[string]any {
	n := rapid.IntRange(0, maxServers).Draw(t, "n")
	servers := make([]any, n)
	for i := range servers {
		servers[i] = genServer(t, i)
	}
	data := map[string]any{"servers": servers}
	if rapid.Bool().Draw(t, "extra") {
		data["x-extra"] = genJSONValue(2).Draw(t, "extra value")
	}
	return map[string]any{"version": "1.0.0", "meta": map[string]any{"last_updated": "2025-01-01T00:00:00Z"}, "data": data}
}

// parseDrawnDocument parses a drawn document written compact or indented
// (whose whitespace the compact form does not hold).
func parseDrawnDocument(t *rapid.T) *model.Registry {
	reg, _ := parseDrawnDocumentIndented(t)
	return reg
}

// parseDrawnDocumentIndented is parseDrawnDocument, also telling whether the
// document was written indented.
func parseDrawnDocumentIndented(t *rapid.T) (reg *model.Registry, indent bool) {
	doc := drawDocument(t, 5)
	indent = rapid.Bool().Draw(t, "indent")
	var in []byte
	if indent {
		in, _ = json.MarshalIndent(doc, "", "\t")
	} else {
		in, _ = json.Marshal(doc)
	}
	reg, ds := model.Parse(in, model.ParseOptions{})
	if reg == nil {
		t.Fatalf("no registry: %v", ds)
	}
	return reg, indent
}

// TestEncodeIsIndentedAppendJSON: Encode writes in one pass exactly what
// json.Indent with two spaces makes of AppendJSON's compact bytes, plus a
// newline — for documents read from compact and from indented input, with
// data members besides servers, and after entries were changed.
func TestEncodeIsIndentedAppendJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		reg := parseDrawnDocument(t)
		if len(reg.Servers) > 0 && rapid.Bool().Draw(t, "change") {
			s := reg.Servers[0]
			s.SetDescription("changed <&> \u2028")
			s.Set("x-new", json.RawMessage("[ 1, {\"a\" : [ ] } ]"))
			s.SetRemotes(append(s.Remotes(), model.Remote{Type: "sse", URL: "https://x.example.com/sse"}))
		}
		assertEncode(t, reg)
	})
}

func assertEncode(t *rapid.T, reg *model.Registry) {
	var want bytes.Buffer
	if err := json.Indent(&want, reg.AppendJSON(nil), "", "  "); err != nil {
		t.Fatalf("AppendJSON wrote invalid JSON: %v", err)
	}
	want.WriteByte('\n')
	if got := reg.Encode(); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("Encode =\n%s\nwant\n%s", got, want.Bytes())
	}
}

// TestServerAppendJSONCompact: AppendJSON writes compact JSON whether the
// entry was read compact or indented, before and after a member is set.
func TestServerAppendJSONCompact(t *testing.T) {
	for _, in := range []string{
		`{"name":"com.example/srv","x":[1,{"a":"b c"}]}`,
		"{\n  \"name\": \"com.example/srv\",\n  \"x\": [1, {\"a\": \"b c\"}]\n}",
	} {
		s, err := model.ParseServer([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(s.AppendJSON(nil)), `{"name":"com.example/srv","x":[1,{"a":"b c"}]}`; got != want {
			t.Errorf("AppendJSON of %q = %s, want %s", in, got, want)
		}
		s.Set("y", json.RawMessage(`{ "k" : true }`))
		if got, want := string(s.AppendJSON(nil)), `{"name":"com.example/srv","x":[1,{"a":"b c"}],"y":{"k":true}}`; got != want {
			t.Errorf("after Set, AppendJSON of %q = %s, want %s", in, got, want)
		}
	}
}

// TestWriteTo: WriteTo writes AppendJSON's bytes and reports their number.
// The size it grows a growable writer by is the exact length plus one for
// entries read compact, and an upper bound otherwise.
func TestWriteTo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		reg, indent := parseDrawnDocumentIndented(t)
		if len(reg.Servers) > 0 && rapid.Bool().Draw(t, "change") {
			reg.Servers[0].SetDescription("changed")
		}
		var out growBuffer
		written, err := reg.WriteTo(&out)
		want := reg.AppendJSON(nil)
		if err != nil || written != int64(len(want)) || !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("WriteTo = %d, %v:\n%s\nAppendJSON =\n%s", written, err, out.Bytes(), want)
		}
		switch n := out.grown - 1; {
		case !indent && n != len(want):
			t.Fatalf("WriteTo grew by %d+1, AppendJSON wrote %d bytes", n, len(want))
		case n < len(want):
			t.Fatalf("WriteTo grew by %d+1 < %d", n, len(want))
		}
	})
}

// TestCompactLen: CompactLen is the exact length of AppendJSON's bytes, for
// documents read from compact and from indented input (whose whitespace
// AppendJSON does not write), with data members besides servers, and after
// entries were changed. A size limit measured with it must not depend on
// how the data it was read from was laid out.
func TestCompactLen(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		reg := parseDrawnDocument(t)
		if len(reg.Servers) > 0 && rapid.Bool().Draw(t, "change") {
			reg.Servers[0].SetDescription("changed")
			reg.Servers[0].Set("x-new", json.RawMessage("[ 1, {\"a\" : [ ] } ]"))
		}
		if got, want := reg.CompactLen(), len(reg.AppendJSON(nil)); got != want {
			t.Fatalf("CompactLen = %d, AppendJSON wrote %d bytes", got, want)
		}
	})
}

// growBuffer is a bytes.Buffer that records what it was grown by.
type growBuffer struct {
	bytes.Buffer
	grown int
}

func (b *growBuffer) Grow(n int) { b.grown += n; b.Buffer.Grow(n) }

// TestWriteIndentTo: WriteIndentTo writes Encode's bytes and reports their
// number, in several writes when the document is large, and stops at the
// first error of the writer.
func TestWriteIndentTo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := drawDocument(t, 6)
		in, _ := json.Marshal(doc)
		reg, ds := model.Parse(in, model.ParseOptions{})
		if reg == nil {
			t.Fatalf("no registry: %v", ds)
		}
		big := 0
		for i, s := range reg.Servers {
			if rapid.Bool().Draw(t, fmt.Sprintf("big %d", i)) {
				s.SetDescription(strings.Repeat("long <&> ", 4000)) // 36 kB: a write every other server
				big++
			}
		}
		var out chunkWriter
		written, err := reg.WriteIndentTo(&out)
		want := reg.Encode()
		if err != nil || written != int64(len(want)) || !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("WriteIndentTo = %d, %v:\n%s\nEncode =\n%s", written, err, out.Bytes(), want)
		}
		if big >= 4 && out.writes < 2 {
			t.Fatalf("a document of %d bytes written in %d write", len(want), out.writes)
		}
		failing := failAfter{n: out.writes - 1} // the last write fails
		if written, err := reg.WriteIndentTo(&failing); err == nil || written > int64(len(want)) {
			t.Fatalf("WriteIndentTo to a failing writer = %d, %v", written, err)
		}
	})
	var nilReg *model.Registry
	var out bytes.Buffer
	if _, err := nilReg.WriteIndentTo(&out); err != nil || !bytes.Equal(out.Bytes(), nilReg.Encode()) {
		t.Errorf("nil registry: %v, %q", err, out.Bytes())
	}
}

// chunkWriter is a bytes.Buffer that counts the writes.
type chunkWriter struct {
	bytes.Buffer
	writes int
}

func (w *chunkWriter) Write(p []byte) (int, error) { w.writes++; return w.Buffer.Write(p) }

// failAfter fails every write after its first n.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, errors.New("disk full")
	}
	w.n--
	return len(p), nil
}
