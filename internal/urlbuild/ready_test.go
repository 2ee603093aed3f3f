package urlbuild

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestListenerNotReady: which status.listeners conditions take a listener
// out, and how the reason reads.
func TestListenerNotReady(t *testing.T) {
	cond := func(typ string, st metav1.ConditionStatus, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: st, Reason: reason}
	}
	for _, tc := range []struct {
		name  string
		conds []metav1.Condition
		want  string
	}{
		{"all true", []metav1.Condition{cond("Accepted", "True", "Accepted"), cond("Programmed", "True", "Programmed"), cond("ResolvedRefs", "True", "ResolvedRefs")}, ""},
		{"no conditions", nil, ""},
		{"not accepted", []metav1.Condition{cond("Accepted", "False", "PortUnavailable"), cond("Programmed", "True", "Programmed")},
			`Accepted=False reason "PortUnavailable"`},
		{"accepted pending", []metav1.Condition{cond("Accepted", "Unknown", "Pending")}, `Accepted=Unknown reason "Pending"`},
		{"conflicted", []metav1.Condition{cond("Programmed", "True", "Programmed"), cond("Conflicted", "True", "HostnameConflict")},
			`Conflicted=True reason "HostnameConflict"`},
		{"not conflicted", []metav1.Condition{cond("Conflicted", "False", "NoConflicts")}, ""},
		{"both", []metav1.Condition{cond("Conflicted", "True", "ProtocolConflict"), cond("Programmed", "False", "Invalid")},
			`Programmed=False reason "Invalid"; Conflicted=True reason "ProtocolConflict"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gw := &gwv1.Gateway{Status: gwv1.GatewayStatus{Listeners: []gwv1.ListenerStatus{{Name: "l", Conditions: tc.conds}}}}
			if got := listenerNotReady(listenerStatuses(gw), "l"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
