package model_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// TestConvertKeepsDocumentsReadable: conversion moves ToolHive's fields five
// levels down, under _meta, so a legacy entry that nests deep enough for its
// own document would make a converted document JSON readers refuse. The
// entry at the limit converts; one level more is skipped (InvalidEntry),
// and every document written is one encoding/json reads.
func TestConvertKeepsDocumentsReadable(t *testing.T) {
	legacy := func(levels int) []byte {
		// The document, servers, the entry and custom_metadata are four
		// levels; the arrays make up the rest.
		n := levels - 4
		return []byte(`{"version":"1.0.0","last_updated":"2025-09-01T12:00:00Z","servers":{"fetch":{"description":"Fetch","image":"ghcr.io/acme/fetch:1.0.0","transport":"stdio","custom_metadata":{"a":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}}}`)
	}
	for _, tt := range []struct {
		levels int
		kept   bool
	}{{9995, true}, {9996, false}} {
		in := legacy(tt.levels)
		if !json.Valid(in) {
			t.Fatalf("%d levels: the input is not JSON encoding/json reads", tt.levels)
		}
		reg, ds := model.Convert(in, model.ParseOptions{Source: model.ObjectRef{Kind: "File", Name: "deep.json"}}, "2025-09-01T12:00:00Z")
		if reg == nil {
			t.Fatalf("%d levels: no registry: %v", tt.levels, ds)
		}
		if got := len(reg.Servers) == 1; got != tt.kept {
			t.Fatalf("%d levels: kept %v, want %v (%v)", tt.levels, got, tt.kept, ds)
		}
		if !tt.kept {
			var found bool
			for _, d := range ds {
				found = found || d.Reason == model.ReasonInvalidEntry && strings.Contains(d.Message, "9998 levels deep")
			}
			if !found {
				t.Errorf("%d levels: no InvalidEntry naming the depth: %v", tt.levels, ds)
			}
			continue
		}
		if out := reg.AppendJSON(nil); !json.Valid(out) {
			t.Errorf("%d levels: the converted document is not JSON encoding/json reads", tt.levels)
		}
	}
}
