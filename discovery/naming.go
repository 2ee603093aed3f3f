package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/internal/dnsname"
	"github.com/mcpreg/mcpreg/model"
)

// fitName shortens a name longer than model.NameMaxLen deterministically:
// cut, then "-" and eight hex digits of the SHA-256 of the whole name, so
// that two long names sharing a prefix stay distinct.
func fitName(name string) (string, bool) {
	if utf8.RuneCountInString(name) <= model.NameMaxLen {
		return name, false
	}
	sum := sha256.Sum256([]byte(name))
	h := hex.EncodeToString(sum[:4])
	r := []rune(name)
	return string(r[:model.NameMaxLen-1-len(h)]) + "-" + h, true
}

// nameDrafts makes every entry name valid and unique. A generated name over
// 200 characters is shortened (NameTooLong); one that still breaks the
// upstream rules (a resource name no API server would accept) drops the
// draft (InvalidEntry). Drafts that share a name are taken in resource
// order: the first keeps it, each other one is renamed with DuplicateName to
// the name followed by its kind in lower case ("-mcpremoteproxy") when that
// differs from the keeper's kind, else the first free "-2", "-3", ...
func nameDrafts(drafts []*draft) ([]*draft, model.Diagnostics) {
	var ds model.Diagnostics
	kept := drafts[:0]
	for _, d := range drafts {
		p := d.primary()
		if d.generated {
			if short, cut := fitName(d.name); cut {
				ds = append(ds, model.Warningf(model.ReasonNameTooLong, p.ref, d.nameField(),
					"generated name %q is %d characters; shortened to %q", d.name, utf8.RuneCountInString(d.name), short))
				d.name = short
			}
			if invalid := checkGeneratedName(d.name); invalid != "" {
				ds = append(ds, model.Warningf(model.ReasonInvalidEntry, p.ref, d.nameField(),
					"cannot name the entry after the resource: %s; not exported (set %s)", invalid, AnnotationName))
				continue
			}
		}
		kept = append(kept, d)
	}
	// Most often every name is unique: finding that out reads the names in
	// order, where the renaming below looks each up at random.
	kh := dedupe.NewHasher()
	if dedupe.Groups(len(kept), func(i int) uint64 { return kh.Hash(kept[i].name) }, func(i, j int) bool { return kept[i].name == kept[j].name }) == nil {
		return kept, ds
	}
	sortDrafts(kept)
	used := make(map[string]bool, len(kept))
	keeper := make(map[string]*draft, len(kept))
	for _, d := range kept {
		if keeper[d.name] == nil {
			keeper[d.name] = d
			used[d.name] = true
		}
	}
	// suffix holds, for each name renamed with a number, the number to try
	// next: every smaller one was taken when it was last searched, and taken
	// names stay taken, so the search resumes there. n copies of one name
	// then cost O(n) lookups instead of O(n²).
	suffix := map[string]int{}
	for _, d := range kept {
		k := keeper[d.name]
		if k == d {
			continue
		}
		p := d.primary()
		old := d.name
		var next string
		if p.ref.Kind != k.primary().ref.Kind {
			next, _ = fitName(old + "-" + strings.ToLower(p.ref.Kind))
		}
		if next == "" || used[next] {
			i := max(suffix[old], 2)
			for next, _ = fitName(old + "-" + strconv.Itoa(i)); used[next]; {
				i++
				next, _ = fitName(old + "-" + strconv.Itoa(i))
			}
			suffix[old] = i + 1
		}
		used[next] = true
		ds = append(ds, model.Warningf(model.ReasonDuplicateName, p.ref, d.nameField(),
			"name %q is already taken by the entry of %s; renamed %q", old, k.primary().ref, next))
		if d.enrich != nil {
			d.enrich.settled = append(d.enrich.settled, ds[len(ds)-1])
		}
		d.name = next
	}
	return kept, ds
}

// checkGeneratedName is model.CheckName's verdict on validity (the stricter
// rule of the official registry aside), with a fast path for the common case:
// names built from Kubernetes names, which are lower-case DNS names.
func checkGeneratedName(name string) string {
	if n := len(name); n >= model.NameMinLen && n <= model.NameMaxLen {
		slash := strings.IndexByte(name, '/')
		ok := slash > 0 && slash < len(name)-1
		for i := 0; ok && i < len(name); i++ {
			if c := name[i]; !dnsNameBytes[c] {
				ok = c == '/' && i == slash || c == '_' && i > slash
			}
		}
		if ok {
			return ""
		}
	}
	invalid, _ := model.CheckName(name)
	return invalid
}

// dnsNameBytes marks the bytes of a lower-case DNS name: letters, digits,
// "." and "-". It is computed once and only read.
var dnsNameBytes = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		t[c] = 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '.' || b == '-'
	}
	return t
}()

// strictNameProblem is model.CheckName's report on the official registry's
// stricter rule (each side of "/" at least 2 characters, alphanumeric at both
// ends), with a fast path for names that obviously pass.
func strictNameProblem(name string) string {
	ns, server, _ := strings.Cut(name, "/")
	if len(ns) >= 2 && len(server) >= 2 && dnsname.Alnum(ns[0]) && dnsname.Alnum(ns[len(ns)-1]) && dnsname.Alnum(server[0]) && dnsname.Alnum(server[len(server)-1]) {
		return ""
	}
	_, strict := model.CheckName(name)
	return strict
}
