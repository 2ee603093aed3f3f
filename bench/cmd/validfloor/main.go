// Command validfloor is the floor of the command-level comparison: what any
// command that reads the JSON manifests under a directory pays at the least —
// each file read and checked with encoding/json's Valid, nothing decoded and
// nothing written.
//
//	validfloor -f DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("f", "", "directory of JSON manifests")
	flag.Parse()
	err := filepath.WalkDir(*dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !json.Valid(b) {
			return fmt.Errorf("%s: not JSON", path)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "validfloor:", err)
		os.Exit(1)
	}
}
