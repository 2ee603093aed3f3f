package model

import (
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// MaxMessageLength bounds the message of an Event (EventFor) and of a
// condition (merge.Conditions), in bytes. The API server takes up to 32,768
// characters in a condition message, but Events and conditions are read by
// people in kubectl's output, and a diagnostic may quote tenant data: 1,024
// bytes keep every message readable and far from any limit.
const MaxMessageLength = 1024

// Event is a diagnostic as a Kubernetes Event: what to hand to an
// EventRecorder. InvolvedObject is a runtime.Object (client-go's
// record.EventRecorder accepts a *corev1.ObjectReference), so
//
//	recorder.Event(&ev.InvolvedObject, ev.Type, ev.Reason, ev.Message)
//
// records it on the object the diagnostic is about: the MCPRegistry, or the
// ConfigMap that was skipped.
type Event struct {
	// InvolvedObject has the object's apiVersion, kind, namespace, name and
	// UID (when known).
	InvolvedObject corev1.ObjectReference
	// Type is corev1.EventTypeWarning for Error and Warning diagnostics,
	// corev1.EventTypeNormal for Info.
	Type string
	// Reason is the diagnostic's reason, CamelCase as Events expect.
	Reason string
	// Message is the field path and the message, at most MaxMessageLength
	// bytes (cut on a rune boundary, ending in "…" when cut).
	Message string
}

// EventFor converts a diagnostic into an Event. ok is false when the
// diagnostic is not about a Kubernetes object the library can name fully —
// a file on the command line, or a stand-in owner of a merge without one
// (no APIVersion, Kind or Name) — since an Event needs an object to attach
// to. An operator usually records only Warning Events (Type), and the
// PartialSyncFailure summary rather than every skipped entry.
func EventFor(d Diagnostic) (Event, bool) {
	o := d.Object
	if o.APIVersion == "" || o.Kind == "" || o.Name == "" {
		return Event{}, false
	}
	ev := Event{
		InvolvedObject: corev1.ObjectReference{
			APIVersion: o.APIVersion,
			Kind:       o.Kind,
			Namespace:  o.Namespace,
			Name:       o.Name,
			UID:        types.UID(o.UID),
		},
		Type:   corev1.EventTypeNormal,
		Reason: string(d.Reason),
	}
	if d.Severity != SeverityInfo {
		ev.Type = corev1.EventTypeWarning
	}
	msg := d.Message
	if d.Field != "" {
		msg = d.Field + ": " + msg
	}
	ev.Message = CapMessage(msg, MaxMessageLength)
	return ev, true
}

// CapMessage returns s cut to at most n bytes on a rune boundary, ending in
// "…" when cut (the ellipsis counted in n; for n under 3 the result is the
// ellipsis alone).
func CapMessage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
