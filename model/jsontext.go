package model

// JSONText returns the bytes AppendJSON appends for the entry when the
// entry holds them as one piece — it is unchanged since it was read from
// compact data — so that a caller that only reads them (a hash of the
// entry, say) need not copy them; ok is false otherwise, and the caller
// uses AppendJSON. The bytes alias the data the entry was read from: do not
// modify them.
func (s *Server) JSONText() (text []byte, ok bool) {
	if s == nil || !s.rawText {
		return nil, false
	}
	return s.raw, true
}
