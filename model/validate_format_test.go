package model

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The hand-written matchers must agree with what ToolHive's validator
// (gojsonschema with Go's regexp) does: each is checked against the schema's
// pattern, or against gojsonschema's format checker as written in
// gojsonschema v1.2.0's format_checkers.go, on strings drawn from the
// characters that matter to it.

// gojsonschema's checkers, copied: the references the matchers must equal.
var (
	refHostnameRE = regexp.MustCompile(patternHostname)
	refUUIDRE     = regexp.MustCompile(patternUUID)
)

func TestIsRFC3339(t *testing.T) {
	for s, want := range map[string]bool{
		"2025-01-02T03:04:05Z":        true,
		"2025-01-02T03:04:05.5Z":      true,
		"2025-01-02T03:04:05.123456Z": true,
		"2025-01-02T03:04:05+23:59":   true,
		"2025-01-02T03:04:05-00:00":   true,
		"2024-02-29T00:00:00Z":        true,
		"2025-01-02T03:04:05,5Z":      false,
		"2025-01-02T03:04:05.Z":       false,
		"2025-01-02T03:04:05+24:00":   false,
		"2025-01-02T03:04:05+23:60":   false,
		"2025-01-02T03:04:05+0100":    false,
		"2025-01-02t03:04:05z":        false,
		"2025-01-02T03:04:05":         false,
		"2025-02-29T00:00:00Z":        false,
		"2025-01-02T24:00:00Z":        false,
		"2025-12-31T23:59:60Z":        false,
		"2025-01-02 03:04:05Z":        false,
		"2025-1-02T03:04:05Z":         false,
		"":                            false,
	} {
		if got := IsRFC3339(s); got != want {
			t.Errorf("IsRFC3339(%q) = %v; want %v", s, got, want)
		}
	}
}

func refHostname(s string) bool { return refHostnameRE.MatchString(s) && len(s) < 256 }

func refURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	return !strings.Contains(s, `\`)
}

func refDateTime(s string) bool {
	for _, f := range []string{"15:04:05", "15:04:05Z07:00", "2006-01-02", time.RFC3339, time.RFC3339Nano} {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}

// text draws strings over an alphabet, with the given pieces mixed in.
func textGen(alphabet string, pieces ...string) *rapid.Generator[string] {
	parts := append(strings.Split(alphabet, ""), pieces...)
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, 12).Draw(t, "len")
		var b strings.Builder
		for range n {
			b.WriteString(rapid.SampledFrom(parts).Draw(t, "part"))
		}
		return b.String()
	})
}

func TestMatchersAgreeWithSchema(t *testing.T) {
	tests := []struct {
		name  string
		match func(string) bool
		ref   func(string) bool
		gen   *rapid.Generator[string]
	}{
		{"name", matchName[string], NamePattern().MatchString, textGen("aZ09.-_/ é", "io.github.acme", "//")},
		{"official part", matchOfficialPart[string], regexp.MustCompile(patternOfficial).MatchString, textGen("aZ09._-/ é")},
		{"tool", matchTool[string], regexp.MustCompile(patternTool).MatchString, textGen("aZ09_- .é")},
		{"tag", matchTag[string], regexp.MustCompile(patternTag).MatchString, textGen("az09_-A .é")},
		{"env var", matchEnvVar[string], regexp.MustCompile(patternEnvVar).MatchString, textGen("aZ09_- ")},
		{"k8s name", matchK8sName[string], regexp.MustCompile(patternK8sName).MatchString, textGen("az09-A_.")},
		{"mount path", matchMountPath[string], regexp.MustCompile(patternMountPath).MatchString, textGen("/a.:\x00 é", "//")},
		{"domain", matchDomain[string], regexp.MustCompile(patternDomain).MatchString, textGen(".aZ0-_ ")},
		{"icon size", matchIconSize[string], regexp.MustCompile(patternIconSize).MatchString, textGen("0x9X ", "any", "٣")},
		{"sha256", matchSHA256[string], regexp.MustCompile(patternSHA256).MatchString, rapid.StringOfN(rapid.RuneFrom([]rune("0123456789abcdefA")), 62, 66, -1)},
		{"remote url", matchRemoteURL[string], RemoteURLPattern().MatchString, textGen("a/: \t\n\f\r\v", "http://", "https://", "\u00a0", "\u2028")},
		{"uuid", isUUID[string], refUUIDRE.MatchString, rapid.StringOfN(rapid.RuneFrom([]rune("0af9A-")), 34, 38, -1)},
		{"hostname", isHostname[string], refHostname, textGen("aZ0-._ é", strings.Repeat("a", 62), strings.Repeat("b", 63), strings.Repeat("c.", 40))},
		{"uri", isURI[string], refURI, textGen("aZ0:/?#@[]%{}\\ .-+~_!$&'()*,;=\x7f\x01é", "https://", "http://[::1]", ":80", "%zz", "%41", "mailto:", "//")},
		{"date-time", isDateTime[string], refDateTime, textGen("0123456789-:TZtz+. ", "2025-08-01", "T12:00:00", "Z", "+02:00", "10:00:00", ".123")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := tt.gen.Draw(t, "s")
				if got, want := tt.match(s), tt.ref(s); got != want {
					t.Fatalf("%q: matcher says %v, the schema's rule %v", s, got, want)
				}
				if got, want := tt.match(s), tt.match(string([]byte(s))); got != want {
					t.Fatalf("%q: differs between string and []byte", s)
				}
			})
		})
	}
}

// TestMatcherEdges pins the cases the property may rarely draw.
func TestMatcherEdges(t *testing.T) {
	for _, tt := range []struct {
		match func(string) bool
		in    string
		want  bool
	}{
		{isHostname[string], strings.Repeat("a", 63) + ".com", true},
		{isHostname[string], strings.Repeat("a", 64) + ".com", false},
		{isHostname[string], strings.Repeat("a.", 127) + "b", true}, // 255 characters
		{isHostname[string], strings.Repeat("a.", 127) + "bc", false},
		{isHostname[string], "a-.com", false},
		{isHostname[string], "a.com.", false},
		{isHostname[string], "1.2.3.4", true},
		{matchMountPath[string], "/a/", true},
		{matchMountPath[string], "/a//", false},
		{matchMountPath[string], "/", false},
		{matchMountPath[string], "/a\x00", false},
		{isURI[string], "https://x.com:8080:90/", false},
		{isURI[string], "https://{t}.example.com/", false},
		{isURI[string], "https://example.com/{t}/mcp", true},
		{isURI[string], "h:", true},
		{isURI[string], "x:%zz", true},
		{isURI[string], "https://x/%zz", false},
		{isURI[string], "https://x/a\x7f", false},
		{isDateTime[string], "2025-02-30", false},
		{isDateTime[string], "2025-01-01t00:00:00z", false}, // Go's time.Parse, as gojsonschema's
		{isDateTime[string], "10:00:00+02:00", true},
		{isUUID[string], "0b5e8c3a-1f2d-4c4b-9a7e-3d2c1b0a9f8e", true},
		{isUUID[string], "0b5e8c3a-1f2d-4c4b-9a7e-3d2c1b0a9f8E", false},
		{matchSHA256[string], strings.Repeat("fe", 32), true},
		{matchRemoteURL[string], "https://x\v", true},
		{matchRemoteURL[string], "https://", false},
	} {
		if got := tt.match(tt.in); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestPlainURIImpliesURI: the allocation-free fast path never accepts what
// net/url would not.
func TestPlainURIImpliesURI(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := textGen("aZ09:/?#@%.-+~_!$&'()*,;=", "https://", "http://", ":8080", "//", "a:", "www.example.com").Draw(t, "s")
		if plainURI(s) && !refURI(s) {
			t.Fatalf("plainURI accepts %q, which net/url rejects", s)
		}
	})
}

func FuzzPlainURI(f *testing.F) {
	for _, s := range []string{"https://example.com/a", "http://localhost:8080/mcp", "mailto:a@b", "a:", "https://x:y/", "https://[::1]/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plainURI(s) && !refURI(s) {
			t.Fatalf("plainURI accepts %q, which net/url rejects", s)
		}
		if isURI(s) != refURI(s) {
			t.Fatalf("isURI(%q) = %v", s, isURI(s))
		}
	})
}

// jsonValue draws JSON values with nesting, escapes, repeated keys and
// numbers of every shape.
func jsonValue() *rapid.Generator[string] {
	var value func(t *rapid.T, depth int) string
	str := rapid.SampledFrom([]string{`""`, `"a"`, `"a\"b"`, `"\\"`, `"\\\\"`, `"x\\\"y"`, `"é"`, `"\u0041"`, `"` + strings.Repeat("long ", 10) + `\\"`, `"{[\"]}"`})
	key := rapid.SampledFrom([]string{`"a"`, `"b"`, `"a"`, `"\u0061"`, `"k\"ey"`, `""`})
	num := rapid.SampledFrom([]string{"0", "-1", "1.5", "1e400", "-1e-400", "65535.0000000000000001", strings.Repeat("9", 308), strings.Repeat("9", 309), "-" + strings.Repeat("9", 309), "1" + strings.Repeat("0", 308), "1E+2", "0e99999"})
	value = func(t *rapid.T, depth int) string {
		kind := rapid.IntRange(0, 5).Draw(t, "kind")
		if depth > 4 {
			kind %= 3
		}
		switch kind {
		case 0:
			return str.Draw(t, "str")
		case 1:
			return num.Draw(t, "num")
		case 2:
			return rapid.SampledFrom([]string{"true", "false", "null"}).Draw(t, "lit")
		case 3, 4:
			n := rapid.IntRange(0, 5).Draw(t, "n")
			parts := make([]string, n)
			for i := range parts {
				parts[i] = key.Draw(t, "key") + rapid.SampledFrom([]string{":", " : "}).Draw(t, "colon") + value(t, depth+1)
			}
			return "{" + strings.Join(parts, ",") + "}"
		default:
			n := rapid.IntRange(0, 5).Draw(t, "n")
			parts := make([]string, n)
			for i := range parts {
				parts[i] = value(t, depth+1)
			}
			return "[ " + strings.Join(parts, ", ") + "]"
		}
	}
	return rapid.Custom(func(t *rapid.T) string { return value(t, 0) })
}

// TestWalkerAgreesWithJSONX: membersOf and elementsOf, with and without the
// container index, split values as jsonx does (keeping the last of repeated
// keys, as encoding/json does), and the index's pass finds exactly the
// numbers encoding/json cannot decode.
func TestWalkerAgreesWithJSONX(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := []byte(jsonValue().Draw(t, "doc"))
		if !json.Valid(doc) {
			t.Fatalf("generator made invalid JSON: %s", doc)
		}
		var idx containerIndex
		huge := idx.build(doc)
		var anyValue any
		if wantHuge := json.Unmarshal(doc, &anyValue) != nil; huge != wantHuge || hasHugeNumber(doc) != wantHuge {
			t.Fatalf("%s: index finds a huge number: %v, hasHugeNumber: %v, encoding/json fails: %v", doc, huge, hasHugeNumber(doc), wantHuge)
		}
		var check func(raw []byte)
		check = func(raw []byte) {
			switch jsonx.Kind(raw) {
			case '{':
				want, err := jsonx.Members(raw)
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range []*containerIndex{nil, &idx} {
					got, ok := membersOf(raw, nil, x)
					if !ok {
						t.Fatalf("membersOf(%s) fails", raw)
					}
					var last []jsonx.Member
					for i, m := range want {
						shadowed := false
						for _, n := range want[i+1:] {
							shadowed = shadowed || n.Key == m.Key
						}
						if !shadowed {
							last = append(last, m)
						}
					}
					if len(got) != len(last) {
						t.Fatalf("membersOf(%s): %d members, want %d", raw, len(got), len(last))
					}
					for i := range got {
						if string(got[i].key) != last[i].Key || !bytes.Equal(got[i].value, last[i].Value) {
							t.Fatalf("membersOf(%s)[%d] = %q:%s, want %q:%s", raw, i, got[i].key, got[i].value, last[i].Key, last[i].Value)
						}
					}
				}
				for _, m := range want {
					check(m.Value)
				}
			case '[':
				want, err := jsonx.Elements(raw)
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range []*containerIndex{nil, &idx} {
					got, ok := elementsOf(raw, nil, x)
					if !ok || len(got) != len(want) {
						t.Fatalf("elementsOf(%s) = %d elements, %v; want %d", raw, len(got), ok, len(want))
					}
					for i := range got {
						if !bytes.Equal(got[i], want[i]) {
							t.Fatalf("elementsOf(%s)[%d] = %s, want %s", raw, i, got[i], want[i])
						}
					}
				}
				for _, el := range want {
					check(el)
				}
			}
		}
		check(doc)
	})
}

// TestIndexIgnoresForeignSlices: a slice from another buffer with the same
// capacity arithmetic is scanned, not looked up.
func TestIndexIgnoresForeignSlices(t *testing.T) {
	var idx containerIndex
	base := []byte(`{"a":[1,2],"b":{}}`)
	idx.build(base)
	other := []byte(`{"a":[1,2,3,4,5,6]}`)
	if got := idx.skip(other[5:], 0); got != len(`[1,2,3,4,5,6]`) {
		t.Errorf("skip on a foreign slice = %d", got)
	}
	if got := idx.skip(base[5:], 0); got != len(`[1,2]`) {
		t.Errorf("skip on an indexed slice = %d", got)
	}
}

func TestSkipStr(t *testing.T) {
	for _, s := range []string{`""`, `"a"`, `"\\"`, `"\""`, `"\\\""`, `"` + strings.Repeat(`\\`, 40) + `"`, `"` + strings.Repeat("x", 40) + `\"` + `"`} {
		if got := skipStr([]byte(s+`,"next"`), 0); got != len(s) {
			t.Errorf("skipStr(%s) = %d, want %d", s, got, len(s))
		}
	}
	for _, s := range []string{`"`, `"\"`, `"abc\`} {
		if got := skipStr([]byte(s), 0); got != -1 {
			t.Errorf("skipStr(%s) = %d, want -1", s, got)
		}
	}
}
