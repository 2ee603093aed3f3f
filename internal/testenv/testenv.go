package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// AssetsEnv is the variable naming the directory with the kube-apiserver and
// etcd binaries, as controller-runtime's envtest reads it.
const AssetsEnv = "KUBEBUILDER_ASSETS"

// Env is one running API server (with its etcd) and its CRDs installed.
type Env struct {
	// ToolHive is the release whose CRDs are installed (ToolHiveV010 or
	// ToolHiveV047).
	ToolHive string
	// Config reaches the API server as a member of system:masters.
	Config *rest.Config
	// Client is a controller-runtime client without a cache; it reads and
	// writes core types and any kind as unstructured.Unstructured.
	Client client.Client
	// Startup is how long starting the control plane and installing the
	// CRDs took.
	Startup time.Duration

	env *envtest.Environment
}

// Scheme returns a scheme with the built-in Kubernetes types and the CRD
// types; every other kind is read and written as unstructured.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	// Both only register static types; an error here is a programming error.
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := apiextensionsv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

// Assets returns the directory named by KUBEBUILDER_ASSETS after checking that
// it holds both binaries. An unset variable is reported as errAssetsUnset.
func Assets() (string, error) {
	dir := os.Getenv(AssetsEnv)
	if dir == "" {
		return "", errAssetsUnset
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		fi, err := os.Stat(filepath.Join(dir, bin))
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w (build it with scripts/envtest-assets)", AssetsEnv, dir, err)
		}
		if fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s=%s: %s is not executable", AssetsEnv, dir, bin)
		}
	}
	return dir, nil
}

var errAssetsUnset = errors.New(AssetsEnv + " is not set")

// Require returns the assets directory, or stops tb: outside CI an unset
// KUBEBUILDER_ASSETS skips the test (with how to set it); in CI (CI=true), or
// when the variable is set but the binaries are missing, it fails.
func Require(tb testing.TB) string {
	tb.Helper()
	dir, err := Assets()
	switch {
	case err == nil:
		return dir
	case errors.Is(err, errAssetsUnset) && os.Getenv("CI") != "true":
		tb.Skipf("%s is not set, so there is no API server to test against; "+
			"run `export %s=$(scripts/envtest-assets)` from the repository root (a first build takes ~10 min)", AssetsEnv, AssetsEnv)
	case errors.Is(err, errAssetsUnset):
		tb.Fatalf("%s is not set in CI (CI=true): .ci/run exports it from scripts/envtest-assets", AssetsEnv)
	default:
		tb.Fatal(err)
	}
	return ""
}

// Start starts an API server with the CRDs of ToolHive release and the
// Gateway API installed and established. Stop it with [Env.Stop].
func Start(release string) (*Env, error) {
	dir, err := Assets()
	if err != nil {
		return nil, err
	}
	crds, err := CRDs(release)
	if err != nil {
		return nil, err
	}
	begin := time.Now()
	te := &envtest.Environment{
		BinaryAssetsDirectory:    dir,
		CRDs:                     crds,
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	cfg, err := te.Start()
	if err != nil {
		// Start may have left etcd or the API server running.
		_ = te.Stop()
		return nil, fmt.Errorf("starting the API server for ToolHive %s: %w", release, err)
	}
	c, err := client.New(cfg, client.Options{Scheme: Scheme()})
	if err != nil {
		_ = te.Stop()
		return nil, err
	}
	return &Env{ToolHive: release, Config: cfg, Client: c, Startup: time.Since(begin), env: te}, nil
}

// Stop stops the API server and etcd and removes their data.
func (e *Env) Stop() error {
	if e == nil || e.env == nil {
		return nil
	}
	return e.env.Stop()
}

// One server per release is shared by the tests of a package: starting one
// takes seconds, and the tests keep to their own namespaces.
var shared struct {
	sync.Mutex
	inMain bool
	envs   map[string]*Env
	errs   map[string]error
}

// Main runs the package's tests and then stops the servers [Shared] started.
// Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }
func Main(m *testing.M) int {
	shared.Lock()
	shared.inMain = true
	shared.Unlock()
	// envtest logs through controller-runtime's deferred logger, which
	// complains with a stack trace when nothing was set. A test that wants
	// the logs sets its own logger after this.
	ctrllog.SetLogger(logr.Discard())
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	releases := make([]string, 0, len(shared.envs))
	for r := range shared.envs {
		releases = append(releases, r)
	}
	sort.Strings(releases)
	for _, r := range releases {
		if err := shared.envs[r].Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "testenv: stopping the ToolHive %s API server: %v\n", r, err)
			if code == 0 {
				code = 1
			}
		}
	}
	shared.envs = nil
	return code
}

// Shared returns the package's API server for ToolHive release, starting it
// on first use. It skips or fails tb as [Require] does when there are no
// binaries, and fails it when the package's TestMain does not call [Main]
// (which stops the server at the end).
func Shared(tb testing.TB, release string) *Env {
	tb.Helper()
	Require(tb)
	shared.Lock()
	defer shared.Unlock()
	if !shared.inMain {
		tb.Fatal("testenv.Shared needs TestMain to call testenv.Main, which stops the servers")
	}
	if err := shared.errs[release]; err != nil {
		tb.Fatal(err)
	}
	if e := shared.envs[release]; e != nil {
		return e
	}
	e, err := Start(release)
	if err != nil {
		if shared.errs == nil {
			shared.errs = map[string]error{}
		}
		shared.errs[release] = err
		tb.Fatal(err)
	}
	if shared.envs == nil {
		shared.envs = map[string]*Env{}
	}
	shared.envs[release] = e
	tb.Logf("API server for ToolHive %s started in %v", release, e.Startup.Round(time.Millisecond))
	return e
}
