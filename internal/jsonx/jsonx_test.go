package jsonx

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestMembers(t *testing.T) {
	tests := []struct {
		in      string
		want    []Member
		wantErr bool
	}{
		{in: `{}`, want: []Member{}},
		{in: ` { "a" : 1 , "b":[1,{"c":"}"}], "d\"e":"x\\"} `, want: []Member{
			{Key: "a", Value: json.RawMessage(`1`)},
			{Key: "b", Value: json.RawMessage(`[1,{"c":"}"}]`)},
			{Key: `d"e`, Value: json.RawMessage(`"x\\"`)},
		}},
		{in: `{"\u00e9":true,"n":null,"f":-1.5e3}`, want: []Member{
			{Key: "é", Value: json.RawMessage(`true`)},
			{Key: "n", Value: json.RawMessage(`null`)},
			{Key: "f", Value: json.RawMessage(`-1.5e3`)},
		}},
		{in: `{"a":1,"a":2}`, want: []Member{{Key: "a", Value: json.RawMessage(`1`)}, {Key: "a", Value: json.RawMessage(`2`)}}},
		{in: `[]`, wantErr: true},
		{in: `"x"`, wantErr: true},
		{in: ``, wantErr: true},
	}
	for _, tt := range tests {
		got, err := Members([]byte(tt.in))
		if (err != nil) != tt.wantErr {
			t.Errorf("Members(%s) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" && !tt.wantErr {
			t.Errorf("Members(%s) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestElementsAndString(t *testing.T) {
	els, err := Elements([]byte(` [ 1, "a,b", {"x":[]} ,[]] `))
	if err != nil {
		t.Fatal(err)
	}
	want := []json.RawMessage{json.RawMessage(`1`), json.RawMessage(`"a,b"`), json.RawMessage(`{"x":[]}`), json.RawMessage(`[]`)}
	if diff := cmp.Diff(want, els); diff != "" {
		t.Errorf("Elements (-want +got):\n%s", diff)
	}
	if s, ok := String([]byte(`"a\nb\u0041"`)); !ok || s != "a\nbA" {
		t.Errorf("String = %q, %v", s, ok)
	}
	if _, ok := String([]byte(`12`)); ok {
		t.Error("String(12) ok = true, want false")
	}
}

func TestQuoteMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `quote"`, "tab\t", "<html>&", "é", "\u2028"} {
		want, _ := json.Marshal(s)
		if got := Quote(s); string(got) != string(want) {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestMembersAgreesWithDecoder checks, on arbitrary JSON objects, that the
// split values decode to what encoding/json decodes for the same keys.
func TestMembersAgreesWithDecoder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		obj := rapid.MapOf(rapid.String(), rapid.OneOf(
			rapid.Map(rapid.String(), func(s string) any { return s }),
			rapid.Map(rapid.Int(), func(i int) any { return float64(i) }),
			rapid.Map(rapid.SliceOf(rapid.String()), func(s []string) any {
				out := make([]any, len(s))
				for i, v := range s {
					out[i] = v
				}
				return out
			}),
			rapid.Just[any](nil),
		)).Draw(t, "obj")
		pretty := rapid.Bool().Draw(t, "pretty")
		var data []byte
		if pretty {
			data, _ = json.MarshalIndent(obj, " ", "\t")
		} else {
			data, _ = json.Marshal(obj)
		}
		ms, err := Members(data)
		if err != nil {
			t.Fatalf("Members: %v", err)
		}
		got := map[string]any{}
		for _, m := range ms {
			var v any
			if err := json.Unmarshal(m.Value, &v); err != nil {
				t.Fatalf("member %q value %s: %v", m.Key, m.Value, err)
			}
			got[m.Key] = v
		}
		want := map[string]any{}
		for k, v := range obj {
			want[k] = v
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
}

func TestAppendCompact(t *testing.T) {
	in := "{\n  \"a\": [1, 2],\n  \"s\": \"keep  spaces\"\n}"
	if got := string(AppendCompact(nil, []byte(in))); got != `{"a":[1,2],"s":"keep  spaces"}` {
		t.Errorf("AppendCompact = %s", got)
	}
}

// FuzzMembers: no input makes the splitter panic, and on valid objects the
// members re-joined are valid JSON.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":"\"}"}`, `[1,2]`, `{"a":{"b":[{}]}}`, `{"a"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := Members(data)
		_, _ = Elements(data)
		_, _ = String(data)
		if err != nil || !json.Valid(data) {
			return
		}
		out := []byte{'{'}
		for i, m := range ms {
			if i > 0 {
				out = append(out, ',')
			}
			out = AppendQuote(out, m.Key)
			out = append(out, ':')
			out = AppendCompact(out, m.Value)
		}
		out = append(out, '}')
		if !json.Valid(out) {
			t.Fatalf("re-joined members of %q are not valid JSON: %q", data, out)
		}
	})
}

// isPlainBytewise is isPlain one byte at a time, the definition the word
// test must agree with.
func isPlainBytewise(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			return false
		}
	}
	return true
}

// TestIsPlainEveryByteEveryLane puts each byte value in each lane of a word
// (and in the tail), between plain neighbours and after a refused one, so a
// wrong lane constant or a borrow that hides a hit shows.
func TestIsPlainEveryByteEveryLane(t *testing.T) {
	for c := 0; c < 256; c++ {
		for n := 1; n <= 19; n++ {
			for pos := 0; pos < n; pos++ {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				if got, want := isPlain(string(b)), isPlainBytewise(string(b)); got != want {
					t.Fatalf("isPlain(%q) = %v, want %v", b, got, want)
				}
				if pos+1 < n {
					b[pos+1] = 0 // a borrow source above the byte under test
					if isPlain(string(b)) {
						t.Fatalf("isPlain(%q) = true with a NUL", b)
					}
				}
			}
		}
	}
}

func TestIsPlainProperty(t *testing.T) {
	alphabet := []byte("aZ09 ~!#%'()*+,-./:;=?@[]^_`{|}\"\\<>&\x00\x1f\x7f\x80\xc3\xa9\xff=")
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 40).Draw(t, "s"))
		if got, want := isPlain(s), isPlainBytewise(s); got != want {
			t.Fatalf("isPlain(%q) = %v, want %v", s, got, want)
		}
	})
}

func TestDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`""`, 0},
		{`{}`, 1},
		{`[[],{"a":[1]}]`, 3},
		{`{"a":"[[[{{{"}`, 1},
		{`{"a":"\"[[","b":[["\\"]]}`, 3},
		{strings.Repeat("[", 50) + strings.Repeat("]", 50), 50},
	}
	for _, tt := range tests {
		if got := Depth([]byte(tt.in)); got != tt.want {
			t.Errorf("Depth(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
