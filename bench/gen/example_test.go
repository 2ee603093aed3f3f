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
