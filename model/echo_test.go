package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSprintfEscapesAndCuts(t *testing.T) {
	mib := strings.Repeat("a", 1<<20)
	tests := []struct {
		name   string
		format string
		arg    any
		want   string
	}{
		{"plain", "name %s", "io.github/x", "name io.github/x"},
		{"newline forges no line", "key %s", "x\nerror InvalidJSON File/f: forged", `key x\nerror InvalidJSON File/f: forged`},
		{"escape sequence", "key %s", "\x1b[31mred\x1b[0m", `key \x1b[31mred\x1b[0m`},
		{"quoted", "key %q", "a\nb\x1b", `key "a\nb\x1b"`},
		{"invalid UTF-8", "key %s", "a\xffb", `key a\xffb`},
		{"C1 and bidi controls", "key %s", "a\u009bb\u202ec", `key a\u009bb\u202ec`},
		{"printable unicode kept", "key %s", "café ☕", "key café ☕"},
		{"bytes", "key %s", []byte("a\rb"), `key a\rb`},
		{"list", "keys %s", []string{"a\n", "b"}, `keys [a\n b]`},
		{"composed text not cut", "%s", Text(strings.Repeat("t", 300)), strings.Repeat("t", 300)},
		{"1 MiB value cut", "v %s", mib, "v " + strings.Repeat("a", MaxEchoRunes) + "…(1048576 bytes)"},
		{"1 MiB value quoted and cut", "v %q", mib, `v "` + strings.Repeat("a", MaxEchoRunes) + `"…(1048576 bytes)`},
		{"cut counts runes", "v %s", strings.Repeat("é", MaxEchoRunes+1), "v " + strings.Repeat("é", MaxEchoRunes) + "…(514 bytes)"},
		{"error escaped", "skipped: %v", errorf("bad\n%s", "x"), `skipped: bad\nx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Sprintf(tt.format, tt.arg)); got != tt.want {
				t.Errorf("Sprintf(%q, …) =\n%q\nwant\n%q", tt.format, got, tt.want)
			}
		})
	}
}

func TestMessageCap(t *testing.T) {
	long := Text(strings.Repeat("x", 2*MaxMessageBytes))
	got := string(Sprintf("%s", long))
	if len(got) > MaxMessageBytes || !strings.HasSuffix(got, "…(8192 bytes)") {
		t.Errorf("message of %d bytes not held to %d: ends %q", len(got), MaxMessageBytes, got[len(got)-20:])
	}
}

// A diagnostic whose parts came from hostile input renders on one line, in
// text and in JSON, whether built by Warningf or as a literal.
func TestDiagnosticCannotForgeLines(t *testing.T) {
	evil := "k\nerror InvalidJSON ConfigMap/ns/x: forged\x1b]0;title\x07" + strings.Repeat("z", 1<<20)
	built := Warningf(ReasonInvalidEntry, ObjectRef{Kind: "File", Name: "f\n"}, "servers["+evil+"]", "skipped: entry %q is null", evil)
	literal := Diagnostic{Severity: SeverityWarning, Reason: ReasonInvalidEntry, Object: ObjectRef{Kind: "File", Name: "f\n"}, Field: evil, Message: evil}
	// Every part of the object too: a manifest's namespace is tenant text.
	object := Warningf(ReasonInvalidEntry, ObjectRef{Kind: evil, Namespace: evil, Name: evil}, "servers["+evil+"]", "skipped: entry %q is null", evil)
	for name, d := range map[string]Diagnostic{"Warningf": built, "literal": literal, "object": object} {
		t.Run(name, func(t *testing.T) {
			s := d.String()
			if strings.ContainsAny(s, "\n\r\x1b\x07") || !utf8.ValidString(s) {
				t.Errorf("String() holds a control character: %q", s[:min(len(s), 200)])
			}
			if len(s) > MaxMessageBytes+4*MaxFieldRunes+200 {
				t.Errorf("String() is %d bytes", len(s))
			}
			b, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), `\n`) && !strings.Contains(string(b), `\\n`) || strings.Contains(string(b), "\n") {
				t.Errorf("JSON holds a newline: %s", b[:200])
			}
			if len(b) > MaxMessageBytes+4*MaxFieldRunes+300 {
				t.Errorf("JSON is %d bytes", len(b))
			}
		})
	}
	if strings.Contains(built.Field, "\n") || strings.Contains(built.Message, "\n") {
		t.Errorf("Warningf kept a raw newline: field %q", built.Field[:50])
	}
}

func TestEcho(t *testing.T) {
	if got := Echo("a\nb"); got != `a\nb` {
		t.Errorf("Echo = %q", got)
	}
	if got := Echo(strings.Repeat("é", 300)); utf8.RuneCountInString(got) != MaxEchoRunes+utf8.RuneCountInString("…(600 bytes)") {
		t.Errorf("Echo kept %d runes: %q", utf8.RuneCountInString(got), got)
	}
}

// FuzzSprintf: whatever the value, the message is valid UTF-8 with no control
// character and no more than the stated bytes.
func FuzzSprintf(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x1b[2J", "\xff\xfe", "\u2028\u2029", "\\n", "é\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, format := range []string{"%s", "%q", "%v", "%x", "[%10s]"} {
			got := string(Sprintf(format, s))
			if !utf8.ValidString(got) {
				t.Fatalf("%s: invalid UTF-8 %q", format, got)
			}
			for _, r := range got {
				if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u2028' || r == '\u2029' {
					t.Fatalf("%s: control rune %U in %q", format, r, got)
				}
			}
			if len(got) > 4*10*MaxEchoRunes+32 {
				t.Fatalf("%s: %d bytes", format, len(got))
			}
			d := Diagnostic{Object: ObjectRef{Name: s}, Field: s, Message: s}
			if strings.ContainsAny(d.String(), "\n\r") {
				t.Fatalf("String() has a line break: %q", d.String())
			}
		}
	})
}

func TestTextProblemAt(t *testing.T) {
	tests := []struct {
		raw  string
		want int
	}{
		{`"plain"`, -1},
		{`"café ☕"`, -1},
		{`"pair \ud83d\ude00"`, -1},
		{`"escaped backslash \\ud800"`, -1},
		{`"lone high \ud800"`, 11},
		{`"lone high then text \ud800x"`, 21},
		{`"high then high \ud800\ud800"`, 16},
		{`"lone low \udc00"`, 10},
		{"\"bad \xff byte\"", 5},
		{"\"truncated \xe2\x98\"", 11},
		{`"short \ud8"`, -1},
	}
	for _, tt := range tests {
		if got := textProblemAt([]byte(tt.raw)); got != tt.want {
			t.Errorf("textProblemAt(%q) = %d, want %d", tt.raw, got, tt.want)
		}
	}
}

func TestMaskText(t *testing.T) {
	rows := []struct{ in, want string }{
		{"no url", "no url"},
		{"a@b", "a@b"},
		{"https://u:pw@h.example.com/x", "https://***@h.example.com/x"},
		{"fetch https://u:pw@h.example.com/x failed", "fetch https://***@h.example.com/x failed"},
		{"two: http://a@x and //b:c@y/z", "two: http://***@x and //***@y/z"},
		{"https:/u:pw@h", "https:/***@h"},
		{"see HTTPS:u:pw@h", "see HTTPS:***@h"},
		{"https:\\\\u:pw@h", "https:\\\\***@h"},
		{"//u\t:pw@h", "//***@h"},
		{"a//u:p@h@i/x", "a//***@i/x"},
		{"xhttp:u@h", "xhttp:u@h"},
		{"mailto:team@example.com", "mailto:team@example.com"},
		{"https://h.example.com/@scope/x?q=a@b", "https://h.example.com/@scope/x?q=a@b"},
		{"https://***@h", "https://***@h"},
		{"reason user:pw@h", "reason user:pw@h"},
	}
	for _, r := range rows {
		if got := MaskText(r.in); got != r.want {
			t.Errorf("MaskText(%q) = %q; want %q", r.in, got, r.want)
		}
	}
}

// TestEchoMasksUserinfo: a URL's credential is masked wherever a message
// repeats it (a value, an error, a value cut at MaxEchoRunes after its "@"
// is found), and in a diagnostic's object and field as printed.
func TestEchoMasksUserinfo(t *testing.T) {
	const secret = "s3cr3t"
	u := "https://deploy:" + secret + "@git.example.com/x"
	long := "https://deploy:" + secret + strings.Repeat("x", 300) + "@git.example.com/x"
	d := Warningf(ReasonInvalidAnnotationValue, ObjectRef{Kind: "MCPServer", Namespace: "ns", Name: u}, "metadata.annotations["+u+"]",
		"name %q, version %s, long %q, error %v, echo %s", u, u, long, errors.New("fetch "+u), Echo(u))
	js, err := d.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{d.Message, d.String(), string(js)} {
		if strings.Contains(out, secret) {
			t.Errorf("credential repeated: %s", out)
		}
		if !strings.Contains(out, "https://***@git.example.com/x") {
			t.Errorf("URL not shown masked: %s", out)
		}
	}
}

// TestLongFieldMarkedOnce: a field path past MaxFieldRunes is cut once,
// when the diagnostic is built, and keeps its marker of the path's full
// length when written out as text or JSON.
func TestLongFieldMarkedOnce(t *testing.T) {
	for _, n := range []int{505, 700, 5000} {
		field := "servers[" + strings.Repeat("k", n) + "]"
		d := Warningf(ReasonInvalidEntry, ObjectRef{Kind: "File", Name: "f"}, field, "m")
		want := fmt.Sprintf("…(%d bytes)", len(field))
		js, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var wire struct{ Field string }
		if err := json.Unmarshal(js, &wire); err != nil {
			t.Fatal(err)
		}
		for _, got := range []string{d.Field, wire.Field} {
			if !strings.HasSuffix(got, want) || utf8.RuneCountInString(got) > MaxFieldRunes {
				t.Errorf("field of %d bytes written as %d runes ending %q; want at most %d ending %q", len(field), utf8.RuneCountInString(got), got[max(0, len(got)-20):], MaxFieldRunes, want)
			}
		}
		if !strings.Contains(d.String(), want+":") {
			t.Errorf("String() = %q; want the field marked %q", d.String(), want)
		}
	}
}
