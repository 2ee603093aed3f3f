package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/mcpreg/mcpreg/model"
)

// Hash is the content hash of a merged registry: the SHA-256, in hex, of the
// SHA-256 digests of the servers' compact JSON (each server's members in
// their order), concatenated in the order of the servers sorted by name,
// then version, then their bytes. It leaves out the document's version and
// meta.last_updated and does not depend on the order of servers, so it
// changes only when what clients can see changes — what
// status.syncStatus.lastSyncHash compares.
//
// It is a hash of per-server digests, not of the document's bytes, so that
// a merge computes each server's digest once, when it reads the server, and
// an Incremental merge after one ConfigMap changed hashes that ConfigMap's
// servers and 32 bytes per server instead of the whole document.
func Hash(servers []*model.Server) string {
	sorted := servers
	if !slices.IsSortedFunc(servers, compareServers) {
		sorted = slices.Clone(servers)
		slices.SortFunc(sorted, compareServers)
	}
	h := sha256.New()
	var buf []byte
	for _, s := range sorted {
		sum := sumJSON(s, &buf)
		h.Write(sum[:])
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
