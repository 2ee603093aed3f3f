package model_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// TestDiagnosticsDocumented: docs/diagnostics.md has a section for every
// reason in model.Reasons(), each with a severity, a meaning, an example and
// a remedy, and no section for a reason that does not exist. A new reason
// cannot land undocumented, nor a removed one stay documented.
func TestDiagnosticsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("(?m)^### `([A-Za-z]+)`\n")
	locs := heading.FindAllSubmatchIndex(data, -1)
	sections := map[string]string{}
	for i, loc := range locs {
		end := len(data)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		name := string(data[loc[2]:loc[3]])
		if _, dup := sections[name]; dup {
			t.Errorf("docs/diagnostics.md: %s has two sections", name)
		}
		sections[name] = string(data[loc[1]:end])
	}
	reasons := model.Reasons()
	for _, r := range reasons {
		body, ok := sections[string(r)]
		if !ok {
			t.Errorf("docs/diagnostics.md: no section \"### `%s`\" for reason %s", r, r)
			continue
		}
		for _, part := range []string{"**Severity**", "**Meaning**", "**Example**", "**What to do**"} {
			if !strings.Contains(body, part) {
				t.Errorf("docs/diagnostics.md: section %s has no %s", r, part)
			}
		}
	}
	for name := range sections {
		if !slices.Contains(reasons, model.Reason(name)) {
			t.Errorf("docs/diagnostics.md documents %s, which is not in model.Reasons()", name)
		}
	}
}
