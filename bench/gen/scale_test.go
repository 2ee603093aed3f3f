package gen

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestUpstreamFilesDeterministic(t *testing.T) {
	o := ScaleOptions{Seed: 5, Files: 3, Servers: 300, Shared: 4}
	a, b := UpstreamFiles(o), UpstreamFiles(o)
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("file %d differs between two runs", i)
		}
	}
	o.Seed++
	if bytes.Equal(a[0].Data, UpstreamFiles(o)[0].Data) {
		t.Fatal("another seed gave the same data")
	}
}

// scaleServer is what the test reads back from an entry.
type scaleServer struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Packages    []struct {
		RegistryType string `json:"registryType"`
	} `json:"packages"`
	Remotes []struct {
		URL string `json:"url"`
	} `json:"remotes"`
	Meta json.RawMessage `json:"_meta"`
}

// TestUpstreamFilesShape checks files of the default size, 1,000 entries: each
// fits in a ConfigMap's 1 MiB with its key, compact or not as asked; names
// repeat only in pairs of neighbouring files, Shared per pair; remote URLs
// never repeat; descriptions keep the upstream limit; and the mix has
// packages, remotes and _meta.
func TestUpstreamFilesShape(t *testing.T) {
	o := ScaleOptions{Seed: 1, Files: 3, Servers: 3000, Shared: 5}
	files := UpstreamFiles(o)
	names := map[string][]string{}
	urls := map[string]bool{}
	var pkgs, remotes, metas, total int
	for _, f := range files {
		if len(f.Data) > 1<<20-len("registry.json") {
			t.Errorf("%s: %d bytes, over a ConfigMap's limit", f.Name, len(f.Data))
		}
		if bytes.Contains(f.Data, []byte("\n ")) {
			t.Errorf("%s: indented, want compact", f.Name)
		}
		var doc struct {
			Data struct {
				Servers []scaleServer `json:"servers"`
			} `json:"data"`
		}
		if err := json.Unmarshal(f.Data, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Data.Servers) != f.Servers || f.Servers != 1000 {
			t.Errorf("%s: %d servers, says %d", f.Name, len(doc.Data.Servers), f.Servers)
		}
		for _, s := range doc.Data.Servers {
			total++
			names[s.Name] = append(names[s.Name], f.Name)
			if n := utf8.RuneCountInString(s.Description); n == 0 || n > 100 {
				t.Errorf("%s: description of %d characters", s.Name, n)
			}
			for _, r := range s.Remotes {
				if urls[r.URL] {
					t.Errorf("remote URL %s repeats", r.URL)
				}
				urls[r.URL] = true
			}
			if len(s.Packages) > 0 {
				pkgs++
			}
			if len(s.Remotes) > 0 {
				remotes++
			}
			if len(s.Meta) > 0 {
				metas++
			}
		}
	}
	shared := 0
	for name, in := range names {
		switch {
		case len(in) == 1:
		case len(in) == 2 && in[0] == "team-000" && in[1] == "team-001":
			shared++
		default:
			t.Errorf("%s is in %v", name, in)
		}
	}
	if shared != o.Shared { // team-002 has no neighbour
		t.Errorf("%d shared names, want %d", shared, o.Shared)
	}
	if pkgs < total/2 || remotes < total/4 || metas < total/2 {
		t.Errorf("of %d entries %d have packages, %d remotes, %d _meta", total, pkgs, remotes, metas)
	}

	o.Indent = true
	if f := UpstreamFiles(o)[0]; !bytes.Contains(f.Data, []byte("\n  ")) || !json.Valid(f.Data) {
		t.Error("Indent did not indent")
	}
}
