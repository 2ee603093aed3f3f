// Command mcpreg reads Kubernetes manifests and registry files and prints what
// the mcpreg library computes from them: merged registries, discovered servers,
// MCPGroup status, converted and validated registry documents.
//
// Usage:
//
//	mcpreg merge    -f PATH... --mcpregistry NAME [--namespace NS] [--entry ENTRY] [--conflict STRATEGY]
//	                [--max-meta-size BYTES]
//	mcpreg merge    -f PATH... --namespace NS --selector k=v[,k=v...] [--key K]
//	                [--include G]... [--exclude G]... [--include-tag T]... [--exclude-tag T]...
//	                [--conflict prefix|priority|error|versions] [--max-meta-size BYTES]
//	mcpreg discover -f PATH... [--namespace NS]... [--selector EXPR] [--source-registry FILE]
//	                [--naming toolhive-operator|toolhive-registry-server]
//	                [--toolhive-endpoints] [--endpoint-path TYPE=PATH]... [--require-https]
//	                [--url-alone-exports] [--require-description]
//	mcpreg groups   -f PATH...
//	mcpreg convert  FILE [--default-namespace NS] [--format auto|upstream|toolhive|list] [--max-meta-size BYTES]
//	mcpreg validate FILE
//
// -f takes a file, a directory (read recursively) or - for stdin, and is
// repeatable; FILE may be - too. Common flags: --now RFC3339
// (meta.last_updated, and in groups the conditions' lastTransitionTime;
// default the current time), --diagnostics text|json. Without -f, an embedded
// example cluster is read. 'mcpreg COMMAND -h' lists a command's flags.
//
// stdout carries only the document (two-space indented JSON); diagnostics go to
// stderr. Exit status: 0 when a document was produced (warnings allowed), 1
// whenever a diagnostic of severity Error was produced (no document is then
// written, even one the library still returns, such as an --mcpregistry merge
// over the 1 MiB a ConfigMap holds), 2 for bad usage or unreadable input.
package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Exit statuses: part of the CLI's stable contract (see the README).
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// env is what a verb may touch of the outside world; tests substitute it.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	now    func() time.Time
}

type verb struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

func verbs() []verb {
	return []verb{
		{"merge", "merge the registry data of label-selected ConfigMaps", runMerge},
		{"discover", "build registry entries for MCP servers exported from the cluster", runDiscover},
		{"groups", "compute MCPGroup membership and status", runGroups},
		{"convert", "convert registry data of any shape to an upstream document", runConvert},
		{"validate", "check an upstream registry document against the upstream rules", runValidate},
	}
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, now: time.Now}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(e.stdout)
		return exitOK
	}
	for _, v := range verbs() {
		if v.name == args[0] {
			return v.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "mcpreg: unknown command %q\n\n", args[0])
	usage(e.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcpreg <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-9s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'mcpreg <command> -h' for the flags of a command.")
}
