package discovery

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mcpreg/mcpreg/model"
)

func metaOf(namespace, name, uid string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: namespace, Name: name, UID: types.UID(uid)}
}

func typesUID(s string) types.UID { return types.UID(s) }

func TestNamingScheme(t *testing.T) {
	tests := []struct {
		in   string
		want NamingScheme
		name string
	}{
		{"", NamingToolHiveOperator, "dev.stacklok.toolhive/mcp-servers.internal-analytics"},
		{"toolhive-operator", NamingToolHiveOperator, "dev.stacklok.toolhive/mcp-servers.internal-analytics"},
		{"toolhive-registry-server", NamingToolHiveRegistryServer, "com.toolhive.k8s.mcp-servers/internal-analytics"},
	}
	for _, tt := range tests {
		n, err := ParseNamingScheme(tt.in)
		if err != nil || n != tt.want {
			t.Errorf("ParseNamingScheme(%q) = %v, %v; want %v", tt.in, n, err, tt.want)
			continue
		}
		if got := n.Name("mcp-servers", "internal-analytics"); got != tt.name {
			t.Errorf("%v.Name = %q; want %q", n, got, tt.name)
		}
		if s := n.String(); tt.in != "" && s != tt.in {
			t.Errorf("String() = %q; want %q", s, tt.in)
		}
	}
	if _, err := ParseNamingScheme("reverse-dns"); err == nil {
		t.Errorf("ParseNamingScheme accepted an unknown scheme")
	}
	if got := NamingScheme(7).Name("a", "b"); got != NamingToolHiveOperator.Name("a", "b") {
		t.Errorf("an unknown scheme named %q", got)
	}
}

// TestFitName: names over 200 characters are cut deterministically, stay
// valid, and long names with a common prefix stay distinct.
func TestFitName(t *testing.T) {
	short := "dev.stacklok.toolhive/ns.x"
	if got, cut := fitName(short); got != short || cut {
		t.Errorf("fitName(%q) = %q, %v", short, got, cut)
	}
	exact := "a/" + strings.Repeat("b", model.NameMaxLen-2)
	if got, cut := fitName(exact); got != exact || cut {
		t.Errorf("a name of exactly %d characters was changed", model.NameMaxLen)
	}
	long1 := "dev.stacklok.toolhive/ns." + strings.Repeat("x", 250) + "1"
	long2 := "dev.stacklok.toolhive/ns." + strings.Repeat("x", 250) + "2"
	f1, cut1 := fitName(long1)
	f2, _ := fitName(long2)
	if !cut1 || len(f1) != model.NameMaxLen || f1 == f2 {
		t.Errorf("fitName: %q (%d), %q", f1, len(f1), f2)
	}
	if invalid, _ := model.CheckName(f1); invalid != "" {
		t.Errorf("shortened name is invalid: %s", invalid)
	}
	if again, _ := fitName(long1); again != f1 {
		t.Errorf("fitName is not deterministic")
	}
}

// TestCheckGeneratedName: the fast path agrees with model.CheckName.
func TestCheckGeneratedName(t *testing.T) {
	for _, name := range []string{
		"dev.stacklok.toolhive/ns.x", "com.toolhive.k8s.ns/x_y", "com.toolhive.k8s.n_s/x", "a/b", "ab",
		"dev.stacklok.toolhive/", "/x", "a/b/c", "A/B", "a/b c", "dev.stacklok.toolhive/ns.é",
		"a/" + strings.Repeat("b", 198), "a/" + strings.Repeat("b", 199),
	} {
		want, _ := model.CheckName(name)
		if got := checkGeneratedName(name); (got == "") != (want == "") {
			t.Errorf("checkGeneratedName(%q) = %q; model.CheckName says %q", name, got, want)
		}
	}
}
