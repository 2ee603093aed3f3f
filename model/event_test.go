package model_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

func TestEventFor(t *testing.T) {
	cm := model.FullRef("v1", "ConfigMap", &metav1.ObjectMeta{Namespace: "ns", Name: "team-a", UID: "u-1"})
	d := model.Warningf(model.ReasonInvalidJSON, cm, "data[registry.json]", "ConfigMap skipped: not JSON")
	ev, ok := model.EventFor(d)
	want := model.Event{
		InvolvedObject: corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "team-a", UID: "u-1"},
		Type:           corev1.EventTypeWarning,
		Reason:         "InvalidJSON",
		Message:        "data[registry.json]: ConfigMap skipped: not JSON",
	}
	if !ok || ev != want {
		t.Errorf("EventFor = %+v, %v\nwant %+v", ev, ok, want)
	}
	d.Severity = model.SeverityError
	if ev, _ := model.EventFor(d); ev.Type != corev1.EventTypeWarning {
		t.Errorf("an Error is a %s Event", ev.Type)
	}
	d.Severity, d.Field = model.SeverityInfo, ""
	if ev, _ := model.EventFor(d); ev.Type != corev1.EventTypeNormal || ev.Message != "ConfigMap skipped: not JSON" {
		t.Errorf("Info: %+v", ev)
	}
	// A long message is cut on a rune boundary, within the bound.
	d.Message = strings.Repeat("é", 2000)
	ev, _ = model.EventFor(d)
	if len(ev.Message) > model.MaxMessageLength || !utf8.ValidString(ev.Message) || !strings.HasSuffix(ev.Message, "…") {
		t.Errorf("long message: %d bytes, valid %v", len(ev.Message), utf8.ValidString(ev.Message))
	}
	// Not a Kubernetes object: no Event.
	for _, o := range []model.ObjectRef{{Kind: "File", Name: "x.json"}, {Kind: "ConfigMapSelector", Namespace: "ns", Name: "a=b"}, {APIVersion: "v1", Kind: "ConfigMap"}} {
		if ev, ok := model.EventFor(model.Diagnostic{Object: o, Reason: model.ReasonInvalidJSON}); ok {
			t.Errorf("%v gave an Event %+v", o, ev)
		}
	}
}

func TestCapMessage(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghijk", 10, "abcdefg…"},
		{"ééééé", 6, "é…"},
		{"abc", 1, "…"},
	} {
		if got := model.CapMessage(tt.in, tt.n); got != tt.want {
			t.Errorf("CapMessage(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestObjectRefJSON: APIVersion and UID stay out of the JSON form, which the
// command line prints as {kind, namespace, name}.
func TestObjectRefJSON(t *testing.T) {
	ref := model.FullRef("v1", "ConfigMap", &metav1.ObjectMeta{Namespace: "ns", Name: "cm", UID: "u-1"})
	if ref.APIVersion != "v1" || ref.UID != "u-1" || ref.String() != "ConfigMap/ns/cm" {
		t.Errorf("FullRef = %+v (%s)", ref, ref)
	}
	b, err := json.Marshal(model.Warningf(model.ReasonMissingKey, ref, "", "m"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"severity":"warning","reason":"MissingKey","object":{"kind":"ConfigMap","namespace":"ns","name":"cm"},"message":"m"}`; string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
}
