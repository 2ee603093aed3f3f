package manifest

import (
	"bytes"
	"fmt"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
)

// YAML aliases repeat the node they name wherever they stand, and a YAML
// reader expands them: a document of 1 MB that names a string of 1 MB two
// thousand times becomes 2 GB of JSON. The decoders' own guard against
// alias bombs counts nodes, not bytes, so one large aliased value gets
// through it. A document with aliases is therefore measured first, as its
// node tree (which keeps each alias as a reference), and refused when its
// expansion would exceed aliasGrowth times its size plus aliasSlack.
const (
	aliasGrowth = 8
	aliasSlack  = 1 << 20
)

// checkAliases refuses a YAML document whose aliases would expand it beyond
// the bound above. Documents without an anchor and an alias are not parsed
// here; a document the node parser cannot read is left to the decoder,
// which says what is wrong.
func checkAliases(chunk []byte) error {
	if !mayAlias(chunk, '&') || !mayAlias(chunk, '*') {
		return nil
	}
	var root yamlv3.Node
	if err := yamlv3.Unmarshal(chunk, &root); err != nil {
		return nil
	}
	limit := int64(aliasGrowth)*int64(len(chunk)) + aliasSlack
	m := aliasMeter{limit: limit, sizes: map[*yamlv3.Node]int64{}}
	if n := m.size(&root); n > limit {
		return fmt.Errorf("its YAML aliases expand it to more than %d bytes (%d times its %d bytes, plus 1 MiB); it is not read", limit, aliasGrowth, len(chunk))
	}
	return nil
}

// mayAlias reports whether chunk may hold an anchor (c '&') or an alias
// (c '*'): the indicator after a space, a line start or a flow indicator,
// and before a character that can begin a name. Text such as "R&D" or
// "a * b" is not one.
func mayAlias(chunk []byte, c byte) bool {
	for i := bytes.IndexByte(chunk, c); i >= 0; {
		if i+1 < len(chunk) && strings.IndexByte(" \t\r\n,[]{}", chunk[i+1]) < 0 &&
			(i == 0 || strings.IndexByte(" \t\n-:,[{", chunk[i-1]) >= 0) {
			return true
		}
		j := bytes.IndexByte(chunk[i+1:], c)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// aliasMeter measures the JSON a node tree expands to, roughly: the bytes
// of its scalars and a few for each member, an alias counted as the node it
// names. Each anchored node is measured once (sizes), so the walk is linear
// in the tree, and no sum grows past limit+1.
type aliasMeter struct {
	limit int64
	sizes map[*yamlv3.Node]int64
}

func (m *aliasMeter) size(n *yamlv3.Node) int64 {
	if n == nil {
		return 0
	}
	if n.Anchor != "" {
		if s, ok := m.sizes[n]; ok {
			return s
		}
		m.sizes[n] = m.limit + 1 // a node that holds an alias of itself
	}
	var s int64
	switch n.Kind {
	case yamlv3.AliasNode:
		s = m.size(n.Alias)
	case yamlv3.ScalarNode:
		s = int64(len(n.Value)) + 2
	default:
		for _, c := range n.Content {
			if s += m.size(c) + 2; s > m.limit {
				break
			}
		}
	}
	s = min(s, m.limit+1)
	if n.Anchor != "" {
		m.sizes[n] = s
	}
	return s
}
