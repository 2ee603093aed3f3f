package model

import (
	"bytes"
	"encoding/binary"
)

// A leanLit is a literal the lean reading looks for at its cursor: a key
// with its quotes and the ":" after it (keyLit), or a string value with its
// quotes (strLit). Its first 24 bytes are kept as little-endian words and
// masks, so that telling it from another literal is one load and one
// comparison, inline, with no search for the end of the string: most keys
// of an entry are known ones, and this is how the readers tell which.
//
// Matching the literal byte for byte is matching the string: the literal
// has no backslash, so the text it matches is a literal without escapes
// (its contents the decoded string), ending at the quote the literal ends
// with. A key or value written in any other way (with an escape, say) is
// none of the literals, and is left to the slower reading.
type leanLit struct {
	s    string
	w, m leanWindow
}

// keyLit is the literal of the key k: `"k":`.
func keyLit(k string) leanLit { return newLeanLit(`"` + k + `":`) }

// strLit is the literal of the string value s: `"s"`.
func strLit(s string) leanLit { return newLeanLit(`"` + s + `"`) }

func newLeanLit(s string) leanLit {
	var pad, mask [24]byte
	copy(pad[:], s)
	for i := 0; i < len(s) && i < len(mask); i++ {
		mask[i] = 0xff
	}
	return leanLit{s: s, w: windowOf(&pad), m: windowOf(&mask)}
}

// A leanWindow holds the 24 bytes at the cursor, as the words of a
// leanLit, to compare with several literals: read once, for one member.
// Past the end of the text it holds zero bytes, which no literal has: a
// literal running past the end does not match. (Three fields, not an
// array, so that the compiler keeps them in registers.)
type leanWindow struct{ a, b, c uint64 }

// windowOf reads 24 bytes as a window.
func windowOf(p *[24]byte) leanWindow {
	return leanWindow{binary.LittleEndian.Uint64(p[:]), binary.LittleEndian.Uint64(p[8:]), binary.LittleEndian.Uint64(p[16:])}
}

// window returns the window at the cursor.
func (l *lean) window() leanWindow {
	b := l.b[min(l.i, len(l.b)):]
	if len(b) < 24 {
		var pad [24]byte
		copy(pad[:], b)
		b = pad[:]
	}
	b = b[:24]
	return leanWindow{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:])}
}

// is reports whether the text at the cursor, whose window is w, is k (of
// at most 24 bytes), and then reads past it.
func (l *lean) is(w *leanWindow, k *leanLit) bool {
	if (w.a^k.w.a)&k.m.a|(w.b^k.w.b)&k.m.b|(w.c^k.w.c)&k.m.c != 0 {
		return false
	}
	l.i += len(k.s)
	return true
}

// at reports whether the text at the cursor is k, of any length, and then
// reads past it.
func (l *lean) at(k *leanLit) bool {
	j := l.i + len(k.s)
	if j > len(l.b) || string(l.b[l.i:j]) != k.s {
		return false
	}
	l.i = j
	return true
}

// strLits is strLit of each of ss.
func strLits(ss []string) []leanLit {
	lits := make([]leanLit, len(ss))
	for i, s := range ss {
		lits[i] = strLit(s)
	}
	return lits
}

// classStr reads a string literal of bytes of class, one of the classes of
// byteClass that hold neither a quote, a backslash, a control character
// nor a byte beyond ASCII (so that the literal is valid JSON and its
// contents the decoded string), and returns its contents: the first byte
// not of the class must be the closing quote. One pass reads the literal
// and checks its bytes. (Eight bytes at a time is no faster: the strings
// are short.)
func (l *lean) classStr(class uint16) ([]byte, bool) {
	b, i := l.b, l.i
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	j := i + 1
	for j < len(b) && byteClass[b[j]]&class != 0 {
		j++
	}
	if j >= len(b) || b[j] != '"' {
		return nil, false
	}
	l.i = j + 1
	return b[i+1 : j], true
}

// uri reads a string isURI accepts. plainURILit settles the common URI in
// one pass over the literal; any other string is read as str reads it and
// checked by isURI.
func (l *lean) uri() bool {
	if end := plainURILit(l.b, l.i); end > 0 {
		if bytes.IndexByte(l.b[l.i:end], '@') >= 0 {
			return false // user information? see validator.publish
		}
		l.i = end
		return true
	}
	s, ok := l.str()
	return ok && isURI(s) && bytes.IndexByte(s, '@') < 0
}

// plainURL reads a string literal holding a URL plainURL accepts and
// returns its contents. The bytes of a plain URL hold no quote and no
// backslash, so that the literal ends where the URL does.
func (l *lean) plainURL() ([]byte, bool) {
	b, i := l.b, l.i
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	n, _ := plainURLEnd(b[i+1:])
	if n < 0 || i+1+n >= len(b) || b[i+1+n] != '"' {
		return nil, false
	}
	l.i = i + n + 2
	return b[i+1 : i+1+n], true
}
