// Command ddblocal-install makes sure Java 17+ and DynamoDB Local are ready
// (`make deps` runs it) and prints the emulator directory.
package main

import (
	"context"
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
		os.Exit(1)
	}
	dir, err := ddblocal.Install(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ddblocal-install:", err)
		os.Exit(1)
	}
	fmt.Println(dir)
}
