// Package naming makes the names the library generates: the renamed copies of
// servers that conflict when ConfigMaps are merged, names cut to the
// upstream length limit, and Kubernetes object names for generated objects.
//
// Everything here is a pure function of its arguments; the merge package turns
// the outcomes into diagnostics.
//
// # The prefix rule
//
// Assign names a set of server copies, each a name and the ConfigMap it came
// from. The stages run in order; a name accepted at one stage is final and
// blocks every later stage:
//
//  1. Kept: a name held by exactly one copy stays as it is ("unique names are
//     never touched"). A unique name over MaxLen characters is shortened (see
//     Shorten) if that does not collide.
//  2. Prefixed: every copy of a name held by several copies proposes
//     Prefix(source, name) = "{source}/{server}", where server is the part of
//     the name after the namespace ("io.github.stacklok/github-mcp" from
//     ConfigMap "team-a" proposes "team-a/github-mcp"). The upstream name
//     pattern allows a single "/", so the namespace cannot be kept beside it.
//  3. Qualified: the copies whose Prefixed proposal collides — with a name
//     already accepted or with another proposal of the same stage; all of
//     them, not all but one — propose Qualify(source, name) =
//     "{source}.{namespace}/{server}" ("team-a.io.github.stacklok/github-mcp").
//     The namespace is the server name's reverse-DNS namespace: all the
//     ConfigMaps of a merge live in one Kubernetes namespace, which would not
//     tell the copies apart.
//  4. Suffixed: what still collides takes the first free "{base}-{n}", n = 2,
//     3, ..., where base is the Qualified name (or, for a unique name whose
//     shortened form collided, the name itself). The copies of this stage are
//     served in the order of (base, source, name), then their order in the
//     input, so that only copies equal in all three depend on input order.
//
// Every proposal longer than MaxLen characters is shortened before it is
// checked. The result is injective whatever the inputs hold — including
// names crafted to equal the prefixed form of others — because each stage only
// accepts names that no earlier stage took and that no other copy of the same
// stage proposes, and stage 4 checks every candidate against all names taken.
//
// Prefix and Qualify keep their parts valid for the upstream pattern
// ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$: a character the left or right side does not
// allow becomes "-". ConfigMap names are DNS subdomains ([a-z0-9.-]) and merged
// names are already valid, so this only matters for hand-made inputs.
package naming
