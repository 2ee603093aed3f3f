package discovery

import "testing"

// TestCheckEndpoint: the endpoint-safety rule on hosts as url.URL.Hostname
// returns them, with and without allowPrivateEndpoint. The cases follow
// ToolHive v0.47's rule, plus the two points where discovery is stricter
// (fd00:ec2::254 and trailing dots).
func TestCheckEndpoint(t *testing.T) {
	tests := []struct {
		host                   string
		blocked, blockedIfOpen bool // without and with allowPrivateEndpoint
		private                bool
	}{
		{"mcp.example.com", false, false, false},
		{"93.184.216.34", false, false, false},
		{"2606:2800:220:1::1", false, false, false},
		{"tools.backend.svc", false, false, false}, // no DNS: bare .svc names pass
		{"10.0.0.1", true, false, true},
		{"172.16.0.1", true, false, true},
		{"172.31.255.255", true, false, true},
		{"172.32.0.1", false, false, false},
		{"192.168.1.1", true, false, true},
		{"fc00::1", true, false, true},
		{"fdff::1", true, false, true},
		{"x.cluster.local", true, false, true},
		{"CLUSTER.LOCAL", true, false, true},
		{"x.cluster.local.", true, false, true},
		{"notcluster.local", false, false, false},
		{"127.0.0.1", true, true, false},
		{"127.8.9.10", true, true, false},
		{"0.0.0.0", true, true, false},
		{"::", true, true, false},
		{"::1", true, true, false},
		{"::ffff:127.0.0.1", true, true, false},
		{"::ffff:10.0.0.1", true, false, true},
		{"169.254.169.254", true, true, false},
		{"169.254.1.1", true, true, false},
		{"fe80::1", true, true, false},
		{"fe80::1%eth0", true, true, false},
		{"fd00:ec2::254", true, true, false},
		{"localhost", true, true, false},
		{"LOCALHOST.", true, true, false},
		{"app.localhost", true, true, false},
		{"metadata.google.internal", true, true, false},
		{"kubernetes.default", true, true, false},
		{"kubernetes.default.svc", true, true, false},
		{"kubernetes.default.svc.cluster.local", true, true, false},
		{"api.kubernetes.default.svc", true, true, false},
		{"kubernetes.default.example.com", false, false, false},
	}
	for _, tt := range tests {
		got, open := checkEndpoint(tt.host, false), checkEndpoint(tt.host, true)
		if got.blocked != tt.blocked || open.blocked != tt.blockedIfOpen || got.private != tt.private {
			t.Errorf("%s: blocked %v (allowPrivateEndpoint: %v), private %v; want %v (%v), %v",
				tt.host, got.blocked, open.blocked, got.private, tt.blocked, tt.blockedIfOpen, tt.private)
		}
		if got.blocked && got.rule == "" {
			t.Errorf("%s: blocked without naming the rule", tt.host)
		}
	}
}
