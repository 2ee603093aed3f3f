package model_test

import (
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// TestEntryProblemsBounded: an entry with a problem repeated many times
// (a tag listed 5,000 times) gets at most 1,000 of them formatted and one
// diagnostic saying the others are not listed, whatever the count.
func TestEntryProblemsBounded(t *testing.T) {
	tags := strings.TrimSuffix(strings.Repeat(`"t",`, 5000), ",")
	entry := `{"name":"io.github.example/s","description":"d","version":"1.0.0",` +
		`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":{"status":"active","tags":[` + tags + `]}}}}}`
	s, err := model.ParseServer([]byte(entry))
	if err != nil {
		t.Fatal(err)
	}
	ds := model.ValidateServer(s, model.ObjectRef{Kind: "File", Name: "f.json"}, "")
	if n := len(ds.WithReason(model.ReasonInvalidEntry).WithSeverity(model.SeverityError)); n != 1001 {
		t.Errorf("%d diagnostics, want 1,000 and the one saying others are not listed", n)
	}
	var found bool
	for _, d := range ds {
		found = found || strings.Contains(d.Message, "further problems of this entry are not listed (at most 1000 are)")
	}
	if !found {
		t.Errorf("no diagnostic says problems are not listed")
	}
}
