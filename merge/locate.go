package merge

import "github.com/mcpreg/mcpreg/model"

// entryField is where entry s sits in its ConfigMap, for diagnostics: the path
// model.Parse recorded (which starts with the key, as in
// "data[registry.json].data.servers[3]" or "data[registry.json].servers[github]"),
// or prefix for an entry without one. Call it before the entry is renamed.
func entryField(prefix string, s *model.Server) string {
	if o := s.Origin(); o != "" {
		return o
	}
	return prefix
}
