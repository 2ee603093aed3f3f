package manifest

import "testing"

func TestDefaultNamespace(t *testing.T) {
	o, err := Decode([]byte(`
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPServer
metadata: {name: s, namespace: kept}
---
apiVersion: v1
kind: Namespace
metadata: {name: cluster-scoped}
`), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o.DefaultNamespace("default")
	if got := o.ConfigMaps[0].Namespace; got != "default" {
		t.Errorf("ConfigMap namespace %q, want default", got)
	}
	if got := o.MCPServers[0].Namespace; got != "kept" {
		t.Errorf("MCPServer namespace %q, want kept", got)
	}
	if got := o.Namespaces[0].Namespace; got != "" {
		t.Errorf("a Namespace got namespace %q", got)
	}
}
