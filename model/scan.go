package model

import (
	"bytes"
	"math"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// scanned is registry data read in one validating pass (jsonx.Reader): its
// top-level members and, when it looks like an upstream document, the
// members of "data" and every entry of "data.servers" split into members.
// Parse then needs no second scan for the shape that matters at scale: a
// document of 1,000 entries is validated and split at about the speed of
// json.Valid alone.
type scanned struct {
	// object is set when the data is an object; top are its members.
	object bool
	top    []jsonx.Member
	// data is the value of the "data" object member the capture below
	// belongs to (the last one read), dataMembers its members.
	data        []byte
	dataMembers []jsonx.Member
	// servers is the value of the "servers" array member of data the
	// entries belong to (the last one read).
	servers []byte
	// entries are the elements of servers, in order: the objects read as
	// entries, complete but for their origin, and nil for the others, whose
	// bytes are in others, in order.
	entries []*Server
	others  [][]byte
	// repeats holds, by position in entries, the members as read of the
	// entries that give a key more than once (their Servers keep the last
	// member of each key), for the DuplicateKey diagnostics.
	repeats map[int][]jsonx.Member
	// block is the block of entries being filled, like chunk below, and
	// blockStart the position in entries of its first.
	block      []Server
	blockStart int
	// chunk is the block of members being filled, packed (see
	// Server.packed): the members of many entries share one allocation,
	// and blocks (not one growing slice) leave no garbage behind. Blocks
	// are sized by the bytes left to read and trimmed at the end of the
	// list.
	chunk []jsonx.MemberSpan
	// spans is the block of container spans being filled, likewise.
	spans []jsonx.Span
	// noIndex is set for data too large for the int32 offsets of spans.
	noIndex bool
	// noLean is set when the large members of the entries are not to be
	// read lean as they are scanned (see leanScan): the reference the
	// tests hold that reading to.
	noLean bool
}

// entryBlock is the largest number of entries of a block: about 36 KB.
const entryBlock = 256

// chunkSpans is the largest number of spans of a block: about 32 KB.
const chunkSpans = 4096

// chunkMembers is the largest number of members of a chunk: 32 KB.
const chunkMembers = 2048

// chunkRoom is the room for members a chunk must have left to take the
// members of one more entry: more than a registry entry has.
const chunkRoom = 32

// scan reads data in one pass. ok is false when data is not valid JSON (as
// json.Valid decides); a valid text that is not an object has no members.
func scan(data []byte) (sc *scanned, ok bool) {
	return scanWith(data, true)
}

// scanWith is scan, reading the large members of the entries lean as they
// are scanned when lean is set.
func scanWith(data []byte, lean bool) (sc *scanned, ok bool) {
	r := jsonx.NewReader(data)
	sc = &scanned{noIndex: len(data) > math.MaxInt32, noLean: !lean}
	if r.Kind() != '{' {
		r.Skip()
		return sc, r.End() == nil
	}
	r.BeginObject()
	sc.object = true
	for r.NextMember() {
		key := r.KeyString()
		var value []byte
		if key == "data" && r.Kind() == '{' {
			start := r.Pos()
			sc.scanData(&r)
			value = data[start:r.Pos()]
			sc.data = value
		} else {
			value = r.Skip()
		}
		sc.top = append(sc.top, jsonx.Member{Key: key, Value: value})
	}
	return sc, r.End() == nil
}

func (sc *scanned) scanData(r *jsonx.Reader) {
	sc.dataMembers = nil
	r.BeginObject()
	for r.NextMember() {
		key := r.KeyString()
		var value []byte
		if key == "servers" && r.Kind() == '[' {
			start := r.Pos()
			sc.scanServers(r)
			value = r.Bytes(start)
			sc.servers = value
		} else {
			value = r.Skip()
		}
		sc.dataMembers = append(sc.dataMembers, jsonx.Member{Key: key, Value: value})
	}
}

func (sc *scanned) scanServers(r *jsonx.Reader) {
	var idx jsonx.Index
	if sc.entries == nil {
		// Sized for entries of about 800 bytes, as registry entries are, so
		// that a large list rarely grows.
		sc.entries = make([]*Server, 0, (r.Len()-r.Pos())/768+1)
	}
	sc.entries, sc.others, sc.repeats = sc.entries[:0], sc.others[:0], nil
	sc.block, sc.blockStart = nil, 0
	// The entries whose members and spans lie in the current blocks, with
	// their offsets there: trim moves them to exact-size blocks at the end.
	var inChunk, inSpans []blockUse
	// The large members of each entry are read lean as they are scanned
	// (see leanScan), with the index: without one, leanEntry reads none.
	var ls leanScan
	var vr jsonx.ValueReader
	if !sc.noIndex && !sc.noLean {
		vr = &ls
	}
	r.BeginArray()
	for r.NextElement() {
		if r.Kind() != '{' {
			sc.others = append(sc.others, r.Skip())
			sc.entries = append(sc.entries, nil)
			continue
		}
		start := r.Pos()
		// The containers of the entry are recorded as they are validated,
		// so that validating the entry against the schema later finds
		// where each nested object ends without scanning it again (the
		// lean reading of the large members, see leanScan, records those
		// it reads as the scan would).
		// Blocks are sized by the bytes left, so that a small document
		// does not allocate a block for a large one: an entry of b bytes
		// has at most b/2 containers.
		left := r.Len() - r.Pos()
		if need := min(256, left/2+1); cap(sc.spans)-len(sc.spans) < need {
			sc.spans = make([]jsonx.Span, 0, max(need, min(chunkSpans, left/2+1)))
			inSpans = inSpans[:0]
		}
		spanOff := len(sc.spans)
		room := cap(sc.spans) - len(sc.spans)
		idx.Spans, idx.Base = sc.spans[len(sc.spans):len(sc.spans)], start
		idx.BigNumbers, idx.Inexact, idx.Text = false, false, false
		// The members go to the chunk, which is given a new block when
		// it has room for fewer than chunkRoom (a member takes at least 4
		// bytes of the input); an entry with more members than the room
		// left is moved out by append, to a block that becomes the chunk.
		if cap(sc.chunk)-len(sc.chunk) < min(chunkRoom, left/4+1) {
			sc.chunk = make([]jsonx.MemberSpan, 0, min(chunkMembers, left/4+1))
			inChunk = inChunk[:0]
		}
		first := len(sc.chunk)
		var members []jsonx.Member
		var packed []jsonx.MemberSpan
		var facts jsonx.KeyFacts
		ls = leanScan{}
		if sc.noIndex {
			// Offsets of a text this large do not fit a span: each
			// entry gets a list of its own (no index, no lean reading).
			members, facts, _ = r.SplitObject(nil, nil, nil)
		} else {
			ps, f, _ := r.SplitObjectSpans(sc.chunk[first:first], start, &idx, vr)
			facts = f
			if cap(ps) != cap(sc.chunk)-first {
				sc.chunk, first = ps, 0
				inChunk = inChunk[:0]
			} else {
				sc.chunk = sc.chunk[:first+len(ps)]
			}
			end := len(sc.chunk)
			if r.Err() == nil {
				// After a syntax error the spans may lie past the bytes
				// read: the entry keeps no member (Parse refuses the
				// text anyway).
				packed = sc.chunk[first:end:end]
			}
		}
		n := len(idx.Spans)
		if n <= room {
			sc.spans = sc.spans[:len(sc.spans)+n] // else append moved them out
			if n > 0 {
				inSpans = append(inSpans, blockUse{entry: len(sc.entries), off: spanOff})
			}
		}
		raw := r.Bytes(start)
		// A member name that may not be Unicode text is looked at as
		// written: decoding reads invalid UTF-8 and lone surrogate
		// escapes as U+FFFD, which hides them from badText.
		keyNotText := facts.Text && r.Err() == nil && firstKeyNotText(raw) != nil
		if packed != nil && (!facts.Literal || facts.MayRepeat) {
			// A key with an escape is not its contents, and repeated
			// keys are resolved below on a list: such an entry keeps a
			// list of its own (the chunk's slots are left) unless its
			// keys, all literal, turn out not to repeat.
			members = unpackSpans(raw, packed)
			if !facts.Literal || hasDuplicateKeys(members) {
				packed = nil
			} else {
				members = nil
			}
		}
		dup := packed == nil && facts.MayRepeat && hasDuplicateKeys(members)
		if dup {
			// Later duplicates of a key win, as in encoding/json; the
			// entry keeps a list of its own (the chunk's slots are left,
			// and repeats keeps them for the diagnostics).
			if sc.repeats == nil {
				sc.repeats = map[int][]jsonx.Member{}
			}
			sc.repeats[len(sc.entries)] = members
			members = dedupeMembers(members)
		} else if len(packed) > 0 {
			inChunk = append(inChunk, blockUse{entry: len(sc.entries), off: first})
		}
		if len(sc.block) == cap(sc.block) {
			// An entry takes at least 3 bytes of the input.
			sc.block = make([]Server, 0, min(entryBlock, left/3+1))
			sc.blockStart = len(sc.entries)
		}
		sc.block = sc.block[:len(sc.block)+1]
		e := &sc.block[len(sc.block)-1]
		sc.entries = append(sc.entries, e)
		e.members, e.compact, e.textOK = members, r.LastSpace() < start, !sc.noIndex && !idx.Text && !facts.Text
		e.keyNotText = keyNotText
		if len(packed) > 0 {
			e.packed, e.first, e.unnumbered = packed, facts.First, facts.Unnumbered
		}
		if !sc.noIndex {
			e.raw, e.index, e.indexed, e.bigNumbers, e.inexact = raw, idx.Spans[:n:n], true, idx.BigNumbers, idx.Inexact
			if n == 0 {
				// Empty, as when the lean reading read every container:
				// a slice of the block, even of none of it, would keep
				// the block alive, and trim does not move it.
				e.index = []jsonx.Span{}
			}
			// An entry with a repeated key keeps the last member of it:
			// its facts are left to leanEntry, as those of an entry with a
			// value the lean reading declined.
			if vr != nil && !ls.declined && !dup {
				e.setFused(&ls.facts, ls.url)
			}
		}
		if e.compact && facts.Literal && !dup && !sc.noIndex {
			// AppendJSON would write back exactly the bytes read. (An
			// entry of a text too large to index keeps no raw: it is
			// written member by member, as compactly.)
			e.rawText = true
		}
		if dup {
			e.readCached()
		} else {
			e.readName(facts.Plain)
		}
	}
	sc.trim(inChunk, inSpans)
}

// unpackSpans returns the members packed lie at in raw, each key decoded.
func unpackSpans(raw []byte, packed []jsonx.MemberSpan) []jsonx.Member {
	ms := make([]jsonx.Member, len(packed))
	for i, p := range packed {
		// The literal, quotes included, the scan validated.
		ms[i] = jsonx.Member{Key: jsonx.KeyString(raw[p.Key.Start-1 : p.Key.End+1]), Value: raw[p.Value.Start:p.Value.End]}
	}
	return ms
}

// blockUse records that an entry's members or spans start at off in the
// current block.
type blockUse struct{ entry, off int }

// trim moves the entries, members and spans in the current blocks to blocks of their
// exact size when more than half of a block is unused: the parsed servers
// keep their members and spans alive, and what they keep must be
// proportional to the bytes read, not a block per document.
func (sc *scanned) trim(inChunk, inSpans []blockUse) {
	if used := len(sc.block); cap(sc.block)-used > used {
		exact := make([]Server, used)
		copy(exact, sc.block)
		j := 0
		for i := sc.blockStart; i < len(sc.entries); i++ {
			if sc.entries[i] != nil {
				sc.entries[i] = &exact[j]
				j++
			}
		}
		sc.block = exact
	}
	if used := len(sc.chunk); cap(sc.chunk)-used > used {
		exact := make([]jsonx.MemberSpan, used)
		copy(exact, sc.chunk)
		for _, u := range inChunk {
			e := sc.entries[u.entry]
			end := u.off + len(e.packed)
			e.packed = exact[u.off:end:end]
		}
		sc.chunk = exact
	}
	if used := len(sc.spans); cap(sc.spans)-used > used {
		exact := make([]jsonx.Span, used)
		copy(exact, sc.spans)
		for _, u := range inSpans {
			e := sc.entries[u.entry]
			end := u.off + len(e.index)
			e.index = exact[u.off:end:end]
		}
		sc.spans = exact
	}
}

// same reports whether a and b are the same bytes of the input, not only
// equal ones.
func same(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// upstreamCapture returns the entries split by scan for the "servers" value
// parseUpstream chose, and the positions of those that are not objects, or
// nil when scan split another one (a repeated key) or none.
func (sc *scanned) upstreamCapture(data, servers []byte) (entries []*Server, others [][]byte) {
	if !same(sc.data, data) || !same(sc.servers, servers) {
		return nil, nil
	}
	return sc.entries, sc.others
}

// hasSpace reports whether raw has whitespace outside strings.
func hasSpace(raw []byte) bool {
	if !bytes.ContainsAny(raw, " \t\n\r") {
		return false
	}
	return jsonx.HasSpace(raw)
}
