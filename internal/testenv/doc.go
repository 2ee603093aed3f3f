// Package testenv starts a real Kubernetes API server for mcpreg's tests, with
// the custom resource definitions the project's inputs name already installed:
// the Gateway API standard channel and ToolHive's CRDs of one release.
//
// It wraps controller-runtime's envtest. The kube-apiserver and etcd binaries
// come from scripts/envtest-assets, which builds them from the Go module proxy
// and prints the directory to export as KUBEBUILDER_ASSETS.
//
// ToolHive v0.10.0 and v0.47.0 define the same CRD names with different
// schemas (v0.10 serves toolhive.stacklok.dev/v1alpha1 only; v0.47 stores
// v1beta1 and still serves v1alpha1, deprecated, without a conversion webhook),
// so one API server runs per ToolHive release. On the v0.10 server the
// MCPRegistry CRD carries one extension, an entry's configMapSelector (see
// [MCPRegistrySelectorCRD]); everything else is installed exactly as ToolHive
// and the Gateway API project ship it.
//
// This is a nested module so that controller-runtime and the API server's
// client libraries stay out of the library's own go.mod.
package testenv
