// Command ddblocal-install makes sure Java 17+ and DynamoDB Local are ready
// and prints the emulator directory. `make deps` runs it and uses the exit
// code to decide what to install with apt-get:
//
//	0 ready, 1 other failure, 3 no Java 17+, 4 npm missing (needed once).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"opsdeck/demo/ddblocal"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if _, err := ddblocal.FindJava(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "ddblocal-install:", err)
		os.Exit(3)
	}
	// Progress (only when it installs) goes to stderr: make shows it and
	// discards stdout, the directory.
	dir, err := ddblocal.InstallProgress(ctx, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ddblocal-install:", err)
		if errors.Is(err, ddblocal.ErrNoNpm) {
			os.Exit(4)
		}
		os.Exit(1)
	}
	fmt.Println(dir)
}
