package urlbuild

import (
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// gatewayNotReady says why the Gateway's status conditions show that it
// routes nothing: Accepted or Programmed present and not True
// (GatewayConditionAccepted, GatewayConditionProgrammed). The API server
// defaults both to Unknown ("Pending") until a controller reconciles the
// Gateway, which is not ready either. A Gateway given without any
// conditions (a hand-written manifest rather than an object read from a
// cluster) is taken as ready: nothing says otherwise. "" when ready.
func gatewayNotReady(gw *gwv1.Gateway) string {
	return notTrue(gw.Status.Conditions, string(gwv1.GatewayConditionAccepted), string(gwv1.GatewayConditionProgrammed))
}

// listenerStatuses indexes status.listeners by name, the first entry of a
// name kept: each listener's entry is then found in constant time.
func listenerStatuses(gw *gwv1.Gateway) map[string]*gwv1.ListenerStatus {
	m := make(map[string]*gwv1.ListenerStatus, len(gw.Status.Listeners))
	for i := range gw.Status.Listeners {
		ls := &gw.Status.Listeners[i]
		if _, ok := m[string(ls.Name)]; !ok {
			m[string(ls.Name)] = ls
		}
	}
	return m
}

// listenerNotReady says why the listener's entry in status.listeners
// (statuses, see listenerStatuses) shows that it carries no traffic:
// Accepted, Programmed or ResolvedRefs present and not True
// (ListenerConditionAccepted, ListenerConditionProgrammed,
// ListenerConditionResolvedRefs; an HTTPS listener whose certificate is
// missing has ResolvedRefs=False), or Conflicted True (the controller found
// it indistinct from another listener, ListenerConditionConflicted). When
// status.listeners lists other listeners but not this one, the controller
// has not programmed it either. "" when ready, or when status.listeners is
// empty (nothing reported).
func listenerNotReady(statuses map[string]*gwv1.ListenerStatus, name string) string {
	if len(statuses) == 0 {
		return ""
	}
	ls := statuses[name]
	if ls == nil {
		return "status.listeners has no entry for it"
	}
	return joinReasons(notTrue(ls.Conditions, string(gwv1.ListenerConditionAccepted), string(gwv1.ListenerConditionProgrammed),
		string(gwv1.ListenerConditionResolvedRefs)), conflictedTrue(ls.Conditions))
}

// conflictReason is the notReady text of a listener that shares port,
// protocol and hostname with the listener named other, joined with status,
// the text its status gives ("" for none).
func conflictReason(other, status string) string {
	return joinReasons("it shares port, protocol and hostname with listener "+quoteCapped(other)+
		", which the Gateway API forbids (the API server refuses such a Gateway; implementations mark both Conflicted and serve neither)", status)
}

// passthroughReason is the notReady text of an HTTPS listener with TLS mode
// Passthrough: the Gateway terminates no TLS on it, so it reads no HTTP
// request to route (passthrough is for TLSRoutes).
const passthroughReason = "it is HTTPS with TLS mode Passthrough, which the Gateway API forbids (HTTPS needs mode Terminate: the API server refuses such a Gateway, and a Gateway that terminates no TLS reads no HTTP request to route)"

// noCertificateReason is the notReady text of an HTTPS listener whose TLS
// block (mode Terminate, written or defaulted) names neither certificateRefs
// nor options: it has no certificate to terminate TLS with. A listener with
// no TLS block at all is taken as ready: the Gateway API allows it, and some
// implementations attach certificates by other means.
const noCertificateReason = "it is HTTPS with TLS mode Terminate but names neither tls.certificateRefs nor tls.options, which the Gateway API forbids (the API server refuses such a Gateway, and a listener with no certificate terminates no TLS)"

// tcpPortReason is the notReady text of an HTTP or HTTPS listener whose
// port the TCP listener named tcp also uses, joined with status.
func tcpPortReason(tcp, status string) string {
	return joinReasons("it shares its port with TCP listener "+quoteCapped(tcp)+
		": under the Gateway API, an implementation that supports TCP listeners accepts no listener of that port, so whether it carries requests depends on the implementation", status)
}

// protocolPortReason is the notReady text of an HTTP or HTTPS listener that
// shares its port with a listener of the other kind, named.
func protocolPortReason(other string, protocol gwv1.ProtocolType, status string) string {
	return joinReasons("it shares its port with "+string(protocol)+" listener "+quoteCapped(other)+
		": plain and TLS traffic on one port conflict, and implementations mark such listeners Conflicted (ProtocolConflict)", status)
}

// joinReasons joins two notReady texts, either of which may be "".
func joinReasons(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// conflictedFalse reports whether the listener's entry in status.listeners
// (statuses) holds a Conflicted condition that is False: the controller
// found it distinct from the other listeners of the Gateway.
func conflictedFalse(statuses map[string]*gwv1.ListenerStatus, name string) bool {
	ls := statuses[name]
	if ls == nil {
		return false
	}
	for j := range ls.Conditions {
		if c := &ls.Conditions[j]; c.Type == string(gwv1.ListenerConditionConflicted) {
			return c.Status == metav1.ConditionFalse
		}
	}
	return false
}

// conflictedTrue describes a Conflicted condition that is True: a
// conflicted listener's port is configured on no network element
// (ListenerConditionConflicted). "" when there is none.
func conflictedTrue(conds []metav1.Condition) string {
	for i := range conds {
		c := &conds[i]
		if c.Type != string(gwv1.ListenerConditionConflicted) || c.Status != metav1.ConditionTrue {
			continue
		}
		return describeCondition(c)
	}
	return ""
}

// describeCondition renders a condition for a message: Type=Status, its
// reason and its message, quoted and capped.
func describeCondition(c *metav1.Condition) string {
	p := c.Type + "=" + string(c.Status)
	if c.Reason != "" {
		p += " reason " + quoteCapped(c.Reason)
	}
	if c.Message != "" {
		p += ": " + quoteCapped(c.Message)
	}
	return p
}

// notTrue describes the conditions of the given types that are present and
// not True, "" when there are none.
func notTrue(conds []metav1.Condition, types ...string) string {
	var parts []string
	for _, typ := range types {
		for i := range conds {
			c := &conds[i]
			if c.Type != typ || c.Status == metav1.ConditionTrue {
				continue
			}
			parts = append(parts, describeCondition(c))
			break
		}
	}
	return strings.Join(parts, "; ")
}

// quoteCapped quotes a status value for a message, cut to 200 bytes: status
// is written by controllers, but a tenant may own the Gateway.
func quoteCapped(s string) string {
	const max = 200
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}
