package merge

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// The generators favour collisions: few names, names crafted to equal the
// prefixed and qualified forms of others, a long ConfigMap name, entries that
// are invalid, duplicated or lack a description, and ConfigMaps that are
// broken, unlabelled, generated or in another namespace.
var (
	cmNamePool = []string{"cm-a", "cm-b", "cm-c", "team-a", "t." + strings.Repeat("x", 150)}
	namePool   = []string{
		"io.ex/alpha", "io.ex/beta", "io.other/alpha", "cm-a/alpha", "cm-b/alpha",
		"cm-a.io.ex/alpha", "cm-a.io.ex/alpha-2", "team-a/beta",
		strings.Repeat("n", 100) + "/" + strings.Repeat("s", 90),
	}
	descPool = []*string{nil, ptr(""), ptr("short"), ptr(strings.Repeat("long description ", 8))}
	tagPool  = []string{"db", "web"}
)

// genCM is a generated ConfigMap and what it holds.
type genCM struct {
	cm      *corev1.ConfigMap
	entries []testServer // the entries of a well-formed document
	usable  bool         // selected and well-formed, so its entries count
	hidden  int          // entries[:hidden] sit where no reader reads them
}

func drawConfigMaps(t *rapid.T) []genCM {
	// rapid favours the first values of a list or range, so the lists below
	// start with the values that make merges interesting.
	k := rapid.SampledFrom([]int{3, 4, 5, 2, 1, 0}).Draw(t, "k")
	names := rapid.Permutation(cmNamePool).Draw(t, "configmaps")[:k]
	var out []genCM
	for i, name := range names {
		kind := rapid.SampledFrom([]int{6, 5, 10, 11, 7, 8, 9, 0, 1, 2, 3, 4}).Draw(t, fmt.Sprintf("kind%d", i))
		g := genCM{}
		var entries []testServer
		n := rapid.SampledFrom([]int{3, 2, 4, 1, 5, 0, 2 * model.MaxPerObjectReason}).Draw(t, fmt.Sprintf("n%d", i))
		// A large ConfigMap of mostly invalid entries: more drops of one
		// reason than a list keeps, so some are only counted in a summary.
		manyBad := n > 5
		for j := range n {
			s := testServer{
				Name:        rapid.SampledFrom(namePool).Draw(t, fmt.Sprintf("name%d.%d", i, j)),
				Description: rapid.SampledFrom(descPool).Draw(t, fmt.Sprintf("desc%d.%d", i, j)),
				ID:          idf(i, j),
				Tags:        rapid.SliceOfDistinct(rapid.SampledFrom(tagPool), rapid.ID[string]).Draw(t, fmt.Sprintf("tags%d.%d", i, j)),
				Schema:      rapid.Bool().Draw(t, fmt.Sprintf("schema%d.%d", i, j)),
			}
			bad := rapid.IntRange(0, 7).Draw(t, fmt.Sprintf("bad%d.%d", i, j))
			switch {
			case manyBad && j%4 != 0 || bad == 7:
				s.Version = "latest" // invalid: dropped with InvalidEntry
			case bad == 6:
				s.Version = "2.0.0" // another version of the name (StrategyVersions)
			}
			if rapid.Bool().Draw(t, fmt.Sprintf("remote%d.%d", i, j)) {
				// Mostly distinct URLs; sometimes one shared with another entry.
				s.URL = "https://mcp.example/" + s.ID
				if rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("shared%d.%d", i, j)) == 5 {
					s.URL = "https://mcp.example/shared"
				}
			}
			entries = append(entries, s)
		}
		labels := regLabels
		data := upstreamDoc(entries...)
		ns := testNS
		switch kind {
		case 0:
			data = `{"servers": [` // InvalidJSON
		case 1:
			data = `{"unknown": true}` // UnknownFormat
		case 2:
			labels = nil // not selected
		case 3:
			ns = "elsewhere"
		case 4:
			labels = map[string]string{"reg": "true", GeneratedByLabel: GeneratedByValue}
		case 10, 11:
			// Shapes that hide servers from a reader: a repeated "data" key
			// (the earlier copy is not read) and a top-level "servers" list
			// beside "data" (not read either). Each hidden server must be
			// named by a drop diagnostic.
			cut := rapid.IntRange(0, len(entries)).Draw(t, fmt.Sprintf("cut%d", i))
			hidden := make([]string, cut)
			for j, s := range entries[:cut] {
				b, _ := json.Marshal(s.json())
				hidden[j] = string(b)
			}
			kept := upstreamDoc(entries[cut:]...)
			if kind == 10 {
				data = `{"data":{"servers":[` + strings.Join(hidden, ",") + `]},` + kept[1:]
			} else {
				data = kept[:len(kept)-1] + `,"servers":[` + strings.Join(hidden, ",") + `]}`
			}
			g.usable = true
			g.entries = entries
			g.hidden = cut
		default:
			g.usable = true
			g.entries = entries
		}
		g.cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels}}
		if kind == 5 {
			g.cm.BinaryData = map[string][]byte{"registry.json": []byte(data)}
		} else {
			g.cm.Data = map[string]string{"registry.json": data}
		}
		out = append(out, g)
	}
	return out
}

func drawFilter(t *rapid.T) *model.RegistryFilter {
	if rapid.Bool().Draw(t, "nofilter") {
		return nil
	}
	pat := rapid.SampledFrom([]string{"*", "cm-a/*", "*/alpha", "io.ex/*", "*beta*", "*-2"})
	return &model.RegistryFilter{
		Names: &model.IncludeExclude{Include: rapid.SliceOfN(pat, 0, 2).Draw(t, "include"), Exclude: rapid.SliceOfN(pat, 0, 2).Draw(t, "exclude")},
		Tags:  &model.IncludeExclude{Exclude: rapid.SliceOfN(rapid.SampledFrom(tagPool), 0, 1).Draw(t, "excludeTags")},
	}
}

func cmsOf(gs []genCM) []*corev1.ConfigMap {
	out := make([]*corev1.ConfigMap, len(gs))
	for i, g := range gs {
		out[i] = g.cm
	}
	return out
}

func shuffled(t *rapid.T, cms []*corev1.ConfigMap) []*corev1.ConfigMap {
	r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "shuffle"), 7))
	out := slices.Clone(cms)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// plainHash is Hash as its documentation defines it, computed the simple
// way: every server's compact JSON written out (AppendJSON) and hashed, the
// digests of the servers sorted by name, version and bytes hashed together.
// The merge computes the digests once, in place where it can; this checks
// it against the definition.
func plainHash(servers []*model.Server) string {
	sorted := slices.Clone(servers)
	slices.SortStableFunc(sorted, func(a, b *model.Server) int {
		return cmp.Or(strings.Compare(a.Name(), b.Name()), strings.Compare(a.Version(), b.Version()),
			strings.Compare(string(a.AppendJSON(nil)), string(b.AppendJSON(nil))))
	})
	h := sha256.New()
	for _, s := range sorted {
		sum := sha256.Sum256(s.AppendJSON(nil))
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// isDrop tells the diagnostics that drop one server entry: every such
// message says "skipped" and names the server. A summary of one of their
// reasons stands for drops too (the generated entries give no other
// diagnostic of these reasons).
func isDrop(d model.Diagnostic) bool {
	switch d.Reason {
	case model.ReasonInvalidEntry, model.ReasonDuplicateServer, model.ReasonConflictShadowed, model.ReasonDuplicateRemoteURL:
		return d.Omitted > 0 || strings.Contains(d.Message, "skipped")
	}
	return false
}

// TestMergeProperties checks the merge's guarantees on generated
// ConfigMap sets: permutation invariance of bytes, hash and diagnostics;
// accounting; unique names; validity of every output; idempotence.
func TestMergeProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gs := drawConfigMaps(t)
		strategy := rapid.SampledFrom([]Strategy{StrategyPrefix, StrategyPriority, StrategyError, StrategyVersions}).Draw(t, "strategy")
		f := drawFilter(t)
		in := testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cmsOf(gs), Strategy: strategy, Filter: f, LastUpdated: now}
		res := mergeIn(in)

		// A one-off merge indexes only the names and URLs several
		// entries hold; a merger that keeps its indexes for later merges
		// indexes all. Both settle the same.
		src := Source{Namespace: in.Namespace, Selector: in.Selector, Filter: in.Filter, Strategy: in.Strategy}
		full := newMerger(src, Options{LastUpdated: in.LastUpdated}).run(in.ConfigMaps, nil)
		sameResult(t, "full index vs sparse", full, res)

		// Permutation invariance.
		perm := in
		perm.ConfigMaps = shuffled(t, in.ConfigMaps)
		again := mergeIn(perm)
		if string(res.Document()) != string(again.Document()) || res.Hash != again.Hash {
			t.Fatalf("output depends on ConfigMap order:\n%s\nvs\n%s", res.Document(), again.Document())
		}
		if !slices.Equal(res.Diagnostics, again.Diagnostics) {
			t.Fatalf("diagnostics depend on ConfigMap order:\n%v\nvs\n%v", res.Diagnostics, again.Diagnostics)
		}
		if !slices.IsSortedFunc(res.Diagnostics, model.Diagnostic.Compare) {
			t.Fatal("diagnostics are not sorted")
		}

		if res.Registry == nil {
			if strategy != StrategyError || len(res.Diagnostics.WithReason(model.ReasonConflictError)) == 0 {
				t.Fatalf("no registry without a conflict error: %v", res.Diagnostics)
			}
			return
		}
		if len(res.Diagnostics.WithReason(model.ReasonConflictError)) > 0 {
			t.Fatal("a registry and a ConflictError")
		}
		if h := plainHash(res.Registry.Servers); res.Hash != h {
			t.Fatalf("Hash = %s, want %s as its definition computes it", res.Hash, h)
		}

		// Every output passes the upstream rules, names unique included.
		doc := res.Document()
		if ds := model.ValidateJSON(doc, model.ObjectRef{Kind: "File", Name: "out"}); ds.HasErrors() {
			t.Fatalf("invalid output:\n%v\n%s", ds.WithSeverity(model.SeverityError), doc)
		}

		// Accounting, against the same merge without filter: renaming comes
		// before filtering, so names agree.
		unf := in
		unf.Filter = nil
		all := mergeIn(unf)
		inAll := map[string]string{} // id -> final name
		for _, s := range all.Registry.Servers {
			id := serverID(s)
			if _, dup := inAll[id]; dup {
				t.Fatalf("entry %s is in the output twice", id)
			}
			inAll[id] = s.Name()
		}
		drops := map[string]int{}
		for _, d := range all.Diagnostics {
			if isDrop(d) {
				// A summary counts the drops it leaves unlisted.
				drops[d.Object.Name] += d.Count()
			}
		}
		for _, g := range gs {
			if !g.usable {
				continue
			}
			missing := 0
			for _, e := range g.entries {
				if _, ok := inAll[e.ID]; !ok {
					missing++
				}
			}
			if missing != drops[g.cm.Name] {
				t.Fatalf("ConfigMap %s: %d entries missing from the output, %d drop diagnostics:\n%v", g.cm.Name, missing, drops[g.cm.Name], all.Diagnostics)
			}
		}
		total := 0
		for _, g := range gs {
			if g.usable {
				total += len(g.entries)
			}
		}
		if len(inAll) > total {
			t.Fatalf("%d servers out of %d entries", len(inAll), total)
		}
		if f == nil {
			if string(all.Document()) != string(doc) {
				t.Fatal("two merges of the same input differ")
			}
		} else {
			// The filtered output is the unfiltered one minus Filtered: the
			// filter runs last, so it only ever removes. With
			// StrategyVersions a name may be kept in one version and
			// filtered in another (the tag filter sees each entry).
			kept := map[string]bool{}
			keptIDs := map[string]bool{}
			for _, s := range res.Registry.Servers {
				kept[s.Name()] = true
				keptIDs[serverID(s)] = true
			}
			if strategy != StrategyVersions {
				for _, name := range res.Filtered {
					if kept[name] {
						t.Fatalf("%q is both kept and filtered", name)
					}
				}
			}
			for _, s := range all.Registry.Servers {
				if !keptIDs[serverID(s)] && !slices.Contains(res.Filtered, s.Name()) {
					t.Fatalf("%q vanished with the filter but is not in Filtered %v", s.Name(), res.Filtered)
				}
			}
			for _, s := range res.Registry.Servers {
				if inAll[serverID(s)] != s.Name() {
					t.Fatalf("the filter brought in %q (entry %s), which the merge without it does not give", s.Name(), serverID(s))
				}
			}
			// Adding an exclude never adds servers.
			more := *f
			names := *f.Names
			names.Exclude = append(slices.Clone(names.Exclude), rapid.SampledFrom([]string{"*alpha*", "io.ex/*", "cm-a/*", "*beta"}).Draw(t, "moreExclude"))
			more.Names = &names
			narrower := in
			narrower.Filter = &more
			for _, s := range mergeIn(narrower).Registry.Servers {
				if !keptIDs[serverID(s)] {
					t.Fatalf("adding an exclude brought in %q (entry %s)", s.Name(), serverID(s))
				}
			}
		}

		// StrategyVersions keeps versions, never renames: every name out is
		// a name read.
		if strategy == StrategyVersions && len(all.Diagnostics.WithReason(model.ReasonNameCollision)) > 0 {
			t.Fatalf("a rename under StrategyVersions: %v", all.Diagnostics)
		}

		// Idempotence: the output merged alone is itself.
		self := mergeIn(testInput{Namespace: testNS, Selector: regSelector, LastUpdated: now, Strategy: strategy,
			ConfigMaps: []*corev1.ConfigMap{configMap("merged", regLabels, string(doc))}})
		if string(self.Document()) != string(doc) || self.Hash != res.Hash {
			t.Fatalf("merging the output alone changed it:\n%s\nvs\n%s", doc, self.Document())
		}
	})
}

// TestPrefixRuleProperty: with StrategyPrefix, unique names are kept and
// every conflicting copy gets a name derived from its ConfigMap.
func TestPrefixRuleProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gs := drawConfigMaps(t)
		res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cmsOf(gs), LastUpdated: now})
		// count is how many ConfigMaps hold a valid entry of each name: the
		// conflicts the merge sees after reading, before remote URLs are
		// deduplicated.
		count := map[string]int{}
		src := map[string]string{}
		for _, s := range res.Registry.Servers {
			src[serverID(s)] = s.Name()
		}
		for _, g := range gs {
			if !g.usable {
				continue
			}
			seen := map[string]bool{}
			for _, e := range g.entries[g.hidden:] {
				if e.Version != "latest" && !seen[e.Name] {
					count[e.Name]++
					seen[e.Name] = true
				}
			}
		}
		for _, g := range gs {
			for _, e := range g.entries {
				got, ok := src[e.ID]
				if !ok {
					continue
				}
				if count[e.Name] == 1 && got != e.Name {
					t.Fatalf("unique %q renamed to %q", e.Name, got)
				}
				// Every form (prefixed, qualified, suffixed, shortened) starts
				// with the ConfigMap name, or the first part of a long one.
				lead := g.cm.Name[:min(len(g.cm.Name), 10)]
				if count[e.Name] > 1 && !strings.HasPrefix(got, lead) {
					t.Fatalf("conflicting %q from %s named %q", e.Name, g.cm.Name, got)
				}
			}
		}
	})
}
