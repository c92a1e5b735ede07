//go:build !unix

package ddblocal

import "context"

// lockFile is a no-op where flock is unavailable; Install still cannot
// produce a half-installed directory because the final step is a rename.
func lockFile(context.Context, string) (func(), error) { return func() {}, nil }
