// Package dedupe decides which copy of an object to keep when a snapshot
// lists two objects of one kind, namespace and name — which a cluster cannot
// hold, but concatenated manifests can. urlbuild and discovery share it so
// that every kind is settled by the same rule.
package dedupe

import (
	"bytes"
	"cmp"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CompareAge orders two copies' metadata by age: positive when am is the
// newer (the higher metadata.generation, then the higher resourceVersion, a
// longer one being higher), zero when they agree on both.
func CompareAge(am, bm *metav1.ObjectMeta) int {
	return cmp.Or(
		cmp.Compare(am.Generation, bm.Generation),
		cmp.Compare(len(am.ResourceVersion), len(bm.ResourceVersion)),
		cmp.Compare(am.ResourceVersion, bm.ResourceVersion),
	)
}

// Newer reports whether object a (metadata am) should replace b (metadata bm):
// the higher metadata.generation, then resourceVersion, then UID, and failing
// those the one whose JSON sorts last. It is a total order, so any input order
// keeps the same copy.
func Newer(a any, am *metav1.ObjectMeta, b any, bm *metav1.ObjectMeta) bool {
	if c := cmp.Or(CompareAge(am, bm), cmp.Compare(am.UID, bm.UID)); c != 0 {
		return c > 0
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Compare(ja, jb) > 0
}
