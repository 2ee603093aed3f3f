package bench

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pinnedModules must resolve, in this module, to the versions the main module
// requires: the bench measures the library as its users build it, and
// toolhive-core's dependencies must not move them (gateway-api v1.7 and later
// need Go 1.27).
var pinnedModules = []string{"k8s.io/api", "k8s.io/apimachinery", "sigs.k8s.io/gateway-api"}

func TestDependencyVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	main := requiredVersions(t, "../go.mod")
	out, err := exec.Command("go", append([]string{"list", "-m"}, pinnedModules...)...).Output()
	if err != nil {
		t.Skipf("go list -m: %v", err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) >= 2 {
			got[f[0]] = f[1]
		}
	}
	for _, m := range pinnedModules {
		if main[m] == "" {
			t.Errorf("the main module does not require %s", m)
		} else if got[m] != main[m] {
			t.Errorf("%s resolves to %s here; the main module requires %s (pin it with a require line)", m, got[m], main[m])
		}
	}
}

// requiredVersions reads the require directives of a go.mod file.
func requiredVersions(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			in = true
			continue
		case line == ")":
			in = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !in:
			continue
		}
		if f := strings.Fields(line); len(f) >= 2 {
			out[f[0]] = f[1]
		}
	}
	return out
}
