// Package ddblocal finds, installs, starts and stops DynamoDB Local, the
// official DynamoDB emulator, so that tests and the demo run against a real
// database without anyone installing it by hand.
package ddblocal

import (
	"os"
	"path/filepath"
)

// CacheDir is where opsdeck keeps downloaded tools: $OPSDECK_CACHE, else
// $XDG_CACHE_HOME/opsdeck, else ~/.cache/opsdeck.
func CacheDir() string {
	if d := os.Getenv("OPSDECK_CACHE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "opsdeck")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".cache", "opsdeck")
	}
	// No home at all (some CI sandboxes): still somewhere writable.
	return filepath.Join(os.TempDir(), "opsdeck-cache")
}
