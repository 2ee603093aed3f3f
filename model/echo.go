package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on what a diagnostic repeats of its input. Tenants control server
// names, map keys, annotation values, URLs and Gateway status addresses; a
// message that repeated them whole could forge log lines, drive a terminal
// with escape sequences, or be too long for the Condition or Event an
// operator copies it into.
const (
	// MaxEchoRunes is the most runes of one value a message repeats. A longer
	// value is cut and followed by "…(N bytes)", N being its full length.
	MaxEchoRunes = 256
	// MaxFieldRunes is the most runes of a diagnostic's field path, which may
	// hold a map key from the input.
	MaxFieldRunes = 512
	// MaxMessageBytes is the most bytes of a whole message, far below the
	// 32 KiB a Kubernetes Condition message may hold.
	MaxMessageBytes = 4096
)

// Text is message text composed by the caller (for example with Sprintf),
// whose values are already escaped and cut. Passed to Errorf, Warningf or
// Infof it is escaped again (a no-op on clean text) but not cut as one value;
// the whole message is still held to MaxMessageBytes.
type Text string

// Sprintf formats like fmt.Sprintf, but every argument of type string, []byte
// or []string is a value from the input: control characters, invalid UTF-8
// and other non-printable runes become visible escapes (as Go's %q writes
// them: \n, \x1b, \u202e, \xff) and a value longer than MaxEchoRunes is cut
// with a "…(N bytes)" marker. Errors and fmt.Stringers are escaped only. The
// whole message is held to MaxMessageBytes. The result holds no control character, so it cannot forge
// a line of a log or of the CLI's text diagnostics.
func Sprintf(format string, args ...any) Text {
	var s string
	if wrapped := echoArgs(args); wrapped != nil {
		s = fmt.Sprintf(format, wrapped...)
	} else {
		s = fmt.Sprintf(format, args...)
	}
	// Values were masked one by one before they were cut; errors,
	// Stringers and Text were not.
	return Text(capBytes(escape(MaskText(s)), MaxMessageBytes))
}

// Echo returns s escaped and cut as Sprintf does with a string argument, for
// text outside diagnostics (a Condition message, an error).
func Echo(s string) string {
	return escape(cutRunes(MaskText(s), MaxEchoRunes))
}

// MaskText returns s with the user information of every URL in it
// replaced by "***" (as MaskURL does for one URL): each authority that
// follows "//" (or backslashes, which a URL reader takes for
// slashes) or the scheme of an http, https, ws, wss, ftp or file URL
// (which a URL reader reads with any number of slashes, none included), up
// to the next "/", "\\", "?", "#" or space. Whatever field of the input a URL
// was written in (a server name, a condition message, an annotation), its
// credential is not repeated. Tabs and line breaks, which a URL reader
// drops, do not end an authority.
func MaskText(s string) string {
	if strings.IndexByte(s, '@') < 0 {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for i := 0; i+1 < len(s); i++ {
		start := authorityAfter(s, i)
		if start < 0 {
			continue
		}
		end, at := start, -1
		for ; end < len(s); end++ {
			c := s[end]
			if c == '@' {
				at = end
			} else if c == '/' || c == '\\' || c == '?' || c == '#' || c <= ' ' && !urlIgnored(c) {
				break
			}
		}
		if at >= 0 && !strings.HasPrefix(s[start:], "***@") {
			b.WriteString(s[done:start])
			b.WriteString("***")
			done = at
		}
		i = max(end-1, i)
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// authorityAfter returns where an authority starts when s[i] begins two
// slashes or ends a special scheme's ":", past any further slashes and
// ignored bytes; -1 otherwise.
func authorityAfter(s string, i int) int {
	j := -1
	switch c := s[i]; {
	case slashByte(c):
		j = i + 1
		for j < len(s) && urlIgnored(s[j]) {
			j++
		}
		if j == len(s) || !slashByte(s[j]) {
			return -1
		}
	case c == ':' && specialSchemeBefore(s, i):
		j = i
	default:
		return -1
	}
	j++
	for j < len(s) && (slashByte(s[j]) || urlIgnored(s[j])) {
		j++
	}
	return j
}

// specialSchemeBefore reports whether s[:i] ends with the scheme of an
// http, https, ws, wss, ftp or file URL, in any case, not preceded by a
// letter or digit.
func specialSchemeBefore(s string, i int) bool {
	for _, scheme := range [...]string{"https", "http", "wss", "ws", "ftp", "file"} {
		k := i - len(scheme)
		if k < 0 || !strings.EqualFold(s[k:i], scheme) {
			continue
		}
		if k == 0 {
			return true
		}
		c := s[k-1]
		return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')
	}
	return false
}

// slashByte reports whether c is a slash to a URL reader.
func slashByte(c byte) bool { return c == '/' || c == '\\' }

// echoArgs wraps the arguments that carry input values; nil when none does.
func echoArgs(args []any) []any {
	var out []any
	for i, a := range args {
		var w any
		switch v := a.(type) {
		case string:
			w = echoed{s: v, max: MaxEchoRunes}
		case []byte:
			w = echoed{s: string(v), max: MaxEchoRunes}
		case []string:
			l := make([]echoed, len(v))
			for j, s := range v {
				l[j] = echoed{s: s, max: MaxEchoRunes}
			}
			w = l
		case Text:
			w = echoed{s: string(v), max: -1}
		case error:
			s, ok := textOf(v.Error)
			if !ok {
				continue
			}
			w = echoed{s: s, max: -1}
		case fmt.Stringer:
			s, ok := textOf(v.String)
			if !ok {
				continue
			}
			w = echoed{s: s, max: -1}
		default:
			continue
		}
		if out == nil {
			out = make([]any, len(args))
			copy(out, args)
		}
		out[i] = w
	}
	return out
}

// textOf calls an Error or String method; ok is false when it panics (a
// typed nil pointer), which is left to fmt to report as it does.
func textOf(f func() string) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return f(), true
}

// echoed is one input value inside a message.
type echoed struct {
	s   string
	max int // runes kept; -1: only MaxMessageBytes
}

// Format writes the value escaped (%s, %v) or quoted (%q), cut at max runes.
func (e echoed) Format(f fmt.State, verb rune) {
	// Masked before it is cut: a cut could keep a credential and drop the
	// "@" that marks it.
	whole := MaskText(e.s)
	s := whole
	if e.max >= 0 {
		s = cutRunesNoMarker(s, e.max)
	}
	switch verb {
	case 'q', 'x', 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), s)
	default:
		fmt.Fprintf(f, fmt.FormatString(f, 's'), escape(s))
	}
	if len(s) < len(whole) {
		fmt.Fprintf(f, "…(%d bytes)", len(whole))
	}
}

// cutRunes cuts s to at most n runes, marking the cut with the full length.
func cutRunes(s string, n int) string {
	c := cutRunesNoMarker(s, n)
	if len(c) == len(s) {
		return s
	}
	return c + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

func cutRunesNoMarker(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for range s {
		if n == 0 {
			return s[:i]
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n--
	}
	return s
}

// capBytes cuts s at a rune boundary so that it and the "…(N bytes)" marker
// fit in n bytes.
func capBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	marker := "…(" + strconv.Itoa(len(s)) + " bytes)"
	i := max(n-len(marker), 0)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + marker
}

// escape replaces every non-printable rune and invalid byte of s by its Go
// escape, leaving printable text (spaces included) as it is.
func escape(s string) string {
	clean := true
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !strconv.IsPrint(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case strconv.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// safe returns d with every part escaped and the field and message held to
// their limits; a diagnostic built by Errorf, Warningf or Infof is returned
// unchanged.
func (d Diagnostic) safe() Diagnostic {
	d.Object.Kind = capField(d.Object.Kind)
	d.Object.Namespace = capField(d.Object.Namespace)
	d.Object.Name = capField(d.Object.Name)
	d.Field = capField(d.Field)
	d.Message = capBytes(escape(MaskText(d.Message)), MaxMessageBytes)
	return d
}

// capField returns s with URL user information masked, escaped, and held
// to MaxFieldRunes runes: a longer one is cut and ends with "…(N bytes)", N
// being the length of s. It is idempotent, so a field path held to it when
// its diagnostic is built is left alone when the diagnostic is written.
func capField(s string) string {
	e := escape(MaskText(s))
	if len(e) <= MaxFieldRunes || utf8.RuneCountInString(e) <= MaxFieldRunes {
		return e
	}
	marker := "…(" + strconv.Itoa(len(s)) + " bytes)"
	return cutRunesNoMarker(e, MaxFieldRunes-utf8.RuneCountInString(marker)) + marker
}

// errorf is fmt.Errorf for errors that repeat input values: they are escaped
// and cut as Sprintf does, so a diagnostic quoting the error stays bounded.
func errorf(format string, args ...any) error {
	return errors.New(string(Sprintf(format, args...)))
}
