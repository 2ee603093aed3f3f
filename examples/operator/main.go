// Command operator runs the example MCPRegistry controller against the
// cluster of the current kubeconfig: for every MCPRegistry
// (toolhive.stacklok.dev/v1alpha1) it merges the ConfigMaps each entry names
// or selects and writes the result to an output ConfigMap. See README.md.
package main

import (
	"flag"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/mcpreg/mcpreg/examples/operator/controller"
	"github.com/mcpreg/mcpreg/merge"
)

func main() {
	strategy := flag.String("conflict", string(merge.StrategyPrefix), "conflict strategy for entries: prefix, priority, error or versions")
	opts := zap.Options{}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	logger := ctrl.Log.WithName("setup")

	s, err := merge.ParseStrategy(*strategy)
	if err != nil {
		logger.Error(err, "bad -conflict")
		os.Exit(2)
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		logger.Error(err, "scheme")
		os.Exit(1)
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		logger.Error(err, "creating the manager")
		os.Exit(1)
	}
	r := &controller.Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder(controller.FieldOwner),
		Options:   merge.Options{Strategy: s},
	}
	if err := r.SetupWithManager(mgr); err != nil {
		logger.Error(err, "setting up the controller")
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		logger.Error(err, "running the manager")
		os.Exit(1)
	}
}
