package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	thtypes "github.com/stacklok/toolhive-core/registry/types"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/model"
)

// The command-level comparison: what a user runs. The same ConfigMap
// manifests, written to a directory as JSON (and as YAML, the way
// "kubectl get -o yaml" writes them), are merged by two commands run as
// processes:
//
//   - mcpreg merge -f DIR --namespace NS --selector k=v --exclude G...
//   - toolhiveway (./cmd/toolhiveway): ToolHive's way as a command, every
//     manifest and every registry document decoded with encoding/json into
//     corev1 and toolhive-core types, the servers concatenated and filtered,
//     the document encoded indented.
//
// Each process's CPU time (user + system, from its rusage) and peak resident
// set (ru_maxrss) are measured in interleaved rounds:
//
//	go test -run TestCommandReport -command.report -count=1 .

var (
	commandReport = flag.Bool("command.report", false, "run the command-level comparison (TestCommandReport)")
	commandRounds = flag.Int("command.rounds", 5, "interleaved rounds of TestCommandReport")
	commandScale  = flag.String("command.set", "100k", "data set of TestCommandReport: 100k or 10k")
)

// commandSets are the data sets of the report, by name.
var commandSets = map[string]gen.ScaleOptions{
	"100k": gen.DefaultScale,
	"10k":  {Seed: 2, Files: 10, Servers: 10_000, Shared: 20},
}

// commandDir is a directory of manifests, one ConfigMap per file.
type commandDir struct {
	JSON string // the directory of the JSON manifests
	YAML string // the directory of the YAML manifests
	// Size is the registry data over all ConfigMaps, in bytes, and
	// Manifests the bytes of the JSON manifests.
	Size, Manifests int64
	Servers         int
}

// writeManifests writes the ConfigMaps of o as JSON and as YAML manifests
// under dir.
func writeManifests(t testing.TB, dir string, o gen.ScaleOptions) *commandDir {
	t.Helper()
	d := &commandDir{JSON: filepath.Join(dir, "json"), YAML: filepath.Join(dir, "yaml")}
	for _, sub := range []string{d.JSON, d.YAML} {
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range gen.UpstreamFiles(o) {
		cm := &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: f.Name, Namespace: scaleNamespace, Labels: scaleLabels},
			Data:       map[string]string{model.DefaultRegistryKey: string(f.Data)},
		}
		j, err := json.Marshal(cm)
		if err != nil {
			t.Fatal(err)
		}
		y, err := yaml.Marshal(cm)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.JSON, f.Name+".json"), j, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.YAML, f.Name+".yaml"), y, 0o644); err != nil {
			t.Fatal(err)
		}
		d.Size += int64(len(f.Data))
		d.Manifests += int64(len(j))
		d.Servers += f.Servers
	}
	return d
}

// manifestsEnv names the directory TestCommandWriteManifests writes to, and
// setEnv its data set.
const (
	manifestsEnv = "MCPREG_BENCH_MANIFESTS"
	setEnv       = "MCPREG_BENCH_SET"
)

// writeManifestsApart writes the manifests of the data set in a child
// process (this test binary running TestCommandWriteManifests).
func writeManifestsApart(t *testing.T, dir, set string) *commandDir {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCommandWriteManifests$", "-test.count=1")
	cmd.Env = append(os.Environ(), manifestsEnv+"="+dir, setEnv+"="+set)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing manifests: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d commandDir
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return &d
}

// TestCommandWriteManifests is the child of writeManifestsApart; it does
// nothing in an ordinary run.
func TestCommandWriteManifests(t *testing.T) {
	dir := os.Getenv(manifestsEnv)
	if dir == "" {
		t.Skip("the child process of TestCommandReport")
	}
	o, ok := commandSets[os.Getenv(setEnv)]
	if !ok {
		t.Fatalf("no data set %q", os.Getenv(setEnv))
	}
	d := writeManifests(t, dir, o)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildCommands builds mcpreg and toolhiveway into dir.
func buildCommands(t testing.TB, dir string) (mcpreg, toolhive string) {
	t.Helper()
	mcpreg, toolhive = filepath.Join(dir, "mcpreg"), filepath.Join(dir, "toolhiveway")
	for _, b := range [][2]string{{mcpreg, "github.com/mcpreg/mcpreg/cmd/mcpreg"}, {toolhive, "./cmd/toolhiveway"}} {
		out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	return mcpreg, toolhive
}

// mcpregArgs and toolhiveArgs are the two commands over dir, with the
// benchmark's selector and name filter.
func mcpregArgs(dir string) []string {
	args := []string{"merge", "-f", dir, "--namespace", scaleNamespace, "--selector", selector(), "--now", scaleNow.Format(time.RFC3339)}
	for _, p := range gen.ScaleExclude {
		args = append(args, "--exclude", p)
	}
	return args
}

func toolhiveArgs(dir string) []string {
	args := []string{"-f", dir, "-namespace", scaleNamespace, "-selector", selector(), "-now", scaleNow.Format(time.RFC3339)}
	for _, p := range gen.ScaleExclude {
		args = append(args, "-exclude", p)
	}
	return args
}

func selector() string {
	var kv []string
	for k, v := range scaleLabels {
		kv = append(kv, k+"="+v)
	}
	slices.Sort(kv)
	return strings.Join(kv, ",")
}

// usage is what one run of a command cost.
type usage struct {
	cpu, wall time.Duration
	maxRSS    int64 // bytes
}

// runCommand runs bin with args, stdout to out (nil: discarded), and
// returns its usage; stderr is kept for the error.
func runCommand(t testing.TB, out *os.File, bin string, args ...string) usage {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if out != nil {
		cmd.Stdout = out
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%.2000s", filepath.Base(bin), strings.Join(args, " "), err, stderr.String())
	}
	return usage{
		cpu:    cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		wall:   time.Since(start),
		maxRSS: maxRSS(cmd.ProcessState),
	}
}

// runToFile runs a command with stdout to a file and returns the bytes.
func runToFile(t testing.TB, path, bin string, args ...string) []byte {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	runCommand(t, f, bin, args...)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// compareCommandOutputs checks that both commands keep the same servers with
// the same content (sameServers), and that the YAML manifests give mcpreg's
// JSON document.
func compareCommandOutputs(t *testing.T, o gen.ScaleOptions, ours, oursYAML, theirs []byte) {
	t.Helper()
	if !bytes.Equal(ours, oursYAML) {
		t.Errorf("mcpreg writes another document from the YAML manifests")
	}
	sameServers(t, ours, theirs, o)
}

// TestCommandSideBySide: on a small data set, both commands keep the same
// servers, mcpreg's document is the same from JSON and YAML manifests, and
// ToolHive's validator accepts it.
func TestCommandSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both commands")
	}
	dir := t.TempDir()
	d := writeManifests(t, dir, smallScale)
	mcpreg, toolhive := buildCommands(t, dir)
	ours := runToFile(t, filepath.Join(dir, "ours.json"), mcpreg, mcpregArgs(d.JSON)...)
	oursYAML := runToFile(t, filepath.Join(dir, "ours-yaml.json"), mcpreg, mcpregArgs(d.YAML)...)
	theirs := runToFile(t, filepath.Join(dir, "theirs.json"), toolhive, toolhiveArgs(d.JSON)...)
	compareCommandOutputs(t, smallScale, ours, oursYAML, theirs)
	if err := thtypes.ValidateUpstreamRegistryBytes(ours); err != nil {
		t.Errorf("ToolHive rejects mcpreg's document: %v", err)
	}
}

// TestCommandReport runs mcpreg over the JSON manifests, toolhiveway over the
// same, and mcpreg over the YAML manifests, interleaved, command.rounds
// times, after checking that they agree, and prints the medians and ratios.
func TestCommandReport(t *testing.T) {
	if !*commandReport {
		t.Skip("run with -command.report")
	}
	o, ok := commandSets[*commandScale]
	if !ok {
		t.Fatalf("no data set %q", *commandScale)
	}
	dir := t.TempDir()
	// The manifests are written by another process: a child started from
	// this one inherits its peak resident set (Linux keeps the larger of the
	// two across exec), so this process must stay small until the rounds
	// are over.
	d := writeManifestsApart(t, dir, *commandScale)
	mcpreg, toolhive := buildCommands(t, dir)

	runs := []struct {
		name string
		bin  string
		args []string
	}{
		{"mcpreg merge (JSON manifests)", mcpreg, mcpregArgs(d.JSON)},
		{"toolhiveway (JSON manifests)", toolhive, toolhiveArgs(d.JSON)},
		{"mcpreg merge (YAML manifests)", mcpreg, mcpregArgs(d.YAML)},
	}
	got := make([][]usage, len(runs))
	for range *commandRounds {
		for i, r := range runs {
			got[i] = append(got[i], runCommand(t, nil, r.bin, r.args...))
		}
	}
	med := func(i int, f func(usage) float64) float64 {
		xs := make([]float64, len(got[i]))
		for j, u := range got[i] {
			xs[j] = f(u)
		}
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	self := selfMaxRSS()

	// Only now, the outputs: that both commands keep the same servers.
	ours := runToFile(t, filepath.Join(dir, "ours.json"), mcpreg, mcpregArgs(d.JSON)...)
	oursYAML := runToFile(t, filepath.Join(dir, "ours-yaml.json"), mcpreg, mcpregArgs(d.YAML)...)
	theirs := runToFile(t, filepath.Join(dir, "theirs.json"), toolhive, toolhiveArgs(d.JSON)...)
	compareCommandOutputs(t, o, ours, oursYAML, theirs)
	docSize := len(ours)

	cpu := func(u usage) float64 { return float64(u.cpu) }
	wall := func(u usage) float64 { return float64(u.wall) }
	rss := func(u usage) float64 { return float64(u.maxRSS) }
	var sb strings.Builder
	fmt.Fprintf(&sb, "data set %s: %d ConfigMap manifests, %d servers, %.1f MB of registry data (%.1f MB of JSON manifests), document %.1f MB; median of %d interleaved rounds, %s, %d CPUs\n\n",
		*commandScale, o.Files, d.Servers, float64(d.Size)/1e6, float64(d.Manifests)/1e6, float64(docSize)/1e6, *commandRounds, runtime.Version(), runtime.NumCPU())
	sb.WriteString("| command | CPU (user+sys) | wall | peak RSS | peak RSS / registry bytes |\n|---|---:|---:|---:|---:|\n")
	for i, r := range runs {
		fmt.Fprintf(&sb, "| %s | %s | %s | %.0f MB | %.2f |\n", r.name,
			time.Duration(med(i, cpu)).Round(time.Millisecond), time.Duration(med(i, wall)).Round(time.Millisecond),
			med(i, rss)/1e6, med(i, rss)/float64(d.Size))
	}
	fmt.Fprintf(&sb, "\n(peak RSS of the process that started them, a floor of the figures: %.0f MB)\n", float64(self)/1e6)
	fmt.Fprintf(&sb, "CPU: toolhiveway / mcpreg = %.2f× (JSON manifests)\n", med(1, cpu)/med(0, cpu))
	fmt.Fprintf(&sb, "peak RSS: toolhiveway / mcpreg = %.2f×\n", med(1, rss)/med(0, rss))
	fmt.Fprintf(&sb, "mcpreg YAML / JSON manifests: CPU %.2f×, wall %.2f×\n", med(2, cpu)/med(0, cpu), med(2, wall)/med(0, wall))
	t.Log("\n" + sb.String())
}
