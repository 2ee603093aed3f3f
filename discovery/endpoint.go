package discovery

import (
	"net/netip"
	"strings"
)

// The endpoint-safety rule ToolHive (v0.47) applies to an MCPServerEntry's
// spec.remoteUrl before the entry may be used: no DNS look-up is made, only
// the host as written is judged. An entry ToolHive refuses is not exported
// either; the diagnostic names the rule.
//
// Always refused, whatever spec.allowPrivateEndpoint says (BlockedEndpoint):
// loopback (127.0.0.0/8, ::1, localhost), the unspecified and "this network"
// addresses (0.0.0.0/8, ::), link-local (169.254.0.0/16, fe80::/10), cloud
// metadata endpoints (169.254.169.254, fd00:ec2::254, metadata.google.internal)
// and the Kubernetes API (kubernetes.default, kubernetes.default.svc,
// kubernetes.default.svc.cluster.local and their subdomains).
//
// Refused unless spec.allowPrivateEndpoint is true (PrivateEndpoint): the
// RFC 1918 ranges (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16), IPv6
// unique-local addresses (fc00::/7) and hosts under cluster.local.
//
// Two points are stricter than ToolHive v0.47, which a registry publishing
// URLs to clients outside the cluster has reason to be: fd00:ec2::254, the
// AWS instance metadata service over IPv6, is refused always (ToolHive
// counts it as unique-local, allowed with allowPrivateEndpoint), and a
// trailing dot ("localhost.") does not get a host past the name rules.

// endpointRule is the verdict on one host: blocked says whether the entry
// is refused, private whether allowPrivateEndpoint would allow it, and rule
// names the rule in words.
type endpointRule struct {
	blocked bool
	private bool
	rule    string
}

type cidrRule struct {
	prefix netip.Prefix
	rule   string
}

// alwaysBlockedIPs are checked in order: the first match names the rule.
func alwaysBlockedIPs() []cidrRule {
	return []cidrRule{
		{netip.MustParsePrefix("169.254.169.254/32"), "the cloud metadata address 169.254.169.254"},
		{netip.MustParsePrefix("fd00:ec2::254/128"), "the cloud metadata address fd00:ec2::254"},
		{netip.MustParsePrefix("0.0.0.0/8"), "in the \"this network\" range 0.0.0.0/8"},
		{netip.MustParsePrefix("127.0.0.0/8"), "in the loopback range 127.0.0.0/8"},
		{netip.MustParsePrefix("169.254.0.0/16"), "in the link-local range 169.254.0.0/16, where cloud metadata services live"},
		{netip.MustParsePrefix("::/128"), "the unspecified address ::"},
		{netip.MustParsePrefix("::1/128"), "the loopback address ::1"},
		{netip.MustParsePrefix("fe80::/10"), "in the link-local range fe80::/10"},
	}
}

func privateIPs() []cidrRule {
	return []cidrRule{
		{netip.MustParsePrefix("10.0.0.0/8"), "in the private (RFC 1918) range 10.0.0.0/8"},
		{netip.MustParsePrefix("172.16.0.0/12"), "in the private (RFC 1918) range 172.16.0.0/12"},
		{netip.MustParsePrefix("192.168.0.0/16"), "in the private (RFC 1918) range 192.168.0.0/16"},
		{netip.MustParsePrefix("fc00::/7"), "in the IPv6 unique-local range fc00::/7"},
	}
}

// alwaysBlockedNames are host names refused with their subdomains; the
// Kubernetes API names come before cluster.local so that the relaxation for
// private endpoints never lets them through.
func alwaysBlockedNames() []struct{ name, rule string } {
	return []struct{ name, rule string }{
		{"localhost", "the loopback name localhost"},
		{"kubernetes.default.svc.cluster.local", "the Kubernetes API service kubernetes.default.svc.cluster.local"},
		{"kubernetes.default.svc", "the Kubernetes API service kubernetes.default.svc"},
		{"kubernetes.default", "the Kubernetes API service kubernetes.default"},
		{"metadata.google.internal", "the cloud metadata service metadata.google.internal"},
	}
}

// checkEndpoint judges a URL host (as url.URL.Hostname returns it: no port,
// no brackets) by the endpoint-safety rule.
func checkEndpoint(host string, allowPrivate bool) endpointRule {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		ip = ip.Unmap().WithZone("")
		for _, c := range alwaysBlockedIPs() {
			if c.prefix.Contains(ip) {
				return endpointRule{blocked: true, rule: c.rule}
			}
		}
		for _, c := range privateIPs() {
			if c.prefix.Contains(ip) {
				return endpointRule{blocked: !allowPrivate, private: true, rule: c.rule}
			}
		}
		return endpointRule{}
	}
	for _, n := range alwaysBlockedNames() {
		if h == n.name || strings.HasSuffix(h, "."+n.name) {
			return endpointRule{blocked: true, rule: n.rule}
		}
	}
	if h == "cluster.local" || strings.HasSuffix(h, ".cluster.local") {
		return endpointRule{blocked: !allowPrivate, private: true, rule: "under the in-cluster domain cluster.local"}
	}
	return endpointRule{}
}
