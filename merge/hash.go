package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/model"
)

// Hash is the content hash of a merged registry: the SHA-256, in hex, of the
// servers as a compact JSON array sorted by name (then version, then their
// bytes), each
// server's members in their order. It leaves out the document's version and
// meta.last_updated and does not depend on the order of servers, so it changes
// only when what clients can see changes — what status.syncStatus.lastSyncHash
// compares.
func Hash(servers []*model.Server) string {
	sorted := servers
	if !slices.IsSortedFunc(servers, compareServers) {
		sorted = slices.Clone(servers)
		slices.SortFunc(sorted, compareServers)
	}
	h := sha256.New()
	buf := make([]byte, 0, 4096)
	h.Write([]byte{'['})
	for i, s := range sorted {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = s.AppendJSON(buf)
		h.Write(buf)
	}
	h.Write([]byte{']'})
	return hex.EncodeToString(h.Sum(nil))
}

// hashList is Hash of the servers of a compact document written by
// model.Registry.WriteTo with no data members besides "servers": the SHA-256 of
// the list between `"data":{"servers":` and the closing "}}". The schema,
// version and timestamp before it are JSON strings, in which that key
// sequence cannot occur unescaped, so its first occurrence is the list's
// start.
func hashList(doc string) string {
	const key = `,"data":{"servers":`
	start := strings.Index(doc, key) + len(key)
	end := strings.LastIndex(doc, "]}}") + 1
	h := sha256.New()
	var buf [32 << 10]byte
	for list := doc[start:end]; len(list) > 0; {
		n := copy(buf[:], list)
		h.Write(buf[:n])
		list = list[n:]
	}
	return hex.EncodeToString(h.Sum(nil))
}

func compareServers(a, b *model.Server) int {
	if c := strings.Compare(a.Name(), b.Name()); c != 0 {
		return c
	}
	if c := strings.Compare(a.Version(), b.Version()); c != 0 {
		return c
	}
	return strings.Compare(string(a.AppendJSON(nil)), string(b.AppendJSON(nil)))
}
