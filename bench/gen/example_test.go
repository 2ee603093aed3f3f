package gen_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcpreg/mcpreg/bench/gen"
)

// A catalog the size of ToolHive's own, with a group holding servers of its
// own and a couple of names without a namespace.
func ExampleToolHiveCatalog() {
	var c struct {
		Servers       map[string]json.RawMessage `json:"servers"`
		RemoteServers map[string]json.RawMessage `json:"remote_servers"`
		Groups        []json.RawMessage          `json:"groups"`
	}
	if err := json.Unmarshal(gen.ToolHiveCatalog(gen.DefaultCatalog), &c); err != nil {
		panic(err)
	}
	fmt.Println(len(c.Servers), "container servers,", len(c.RemoteServers), "remote servers,", len(c.Groups), "group")
	// Output: 40 container servers, 20 remote servers, 1 group
}

// The data of the merge benchmark (README, Performance), at a tenth of its
// size: files of 1,000 compact entries, each under the 1 MiB a ConfigMap holds.
func ExampleUpstreamFiles() {
	o := gen.DefaultScale
	o.Files, o.Servers = 10, 10_000
	files := gen.UpstreamFiles(o)
	fits := true
	for _, f := range files {
		fits = fits && len(f.Data) < 1<<20
	}
	fmt.Println(len(files), "files,", files[0].Name, "to", files[len(files)-1].Name+",", files[0].Servers, "servers each, all under 1 MiB:", fits)
	// Output: 10 files, team-000 to team-009, 1000 servers each, all under 1 MiB: true
}
