// Command bare is the yardstick of the start-up benchmark: the least a Go
// program must do to show the rows opsdeck shows first. It connects the way
// opsdeck does (data.Connect) and runs the same first query (the Sessions
// pane's default: sessions whose status is RUNNING, soonest expiry first;
// one page of the same size, reading the same attributes: -limit, -attrs),
// then prints the session ids, one a line, and exits. No terminal, no UI,
// no stream reader.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"opsdeck/data"
)

func main() {
	endpoint := flag.String("endpoint-url", "", "DynamoDB endpoint")
	table := flag.String("sessions-table", "", "physical name of the sessions table")
	limit := flag.Int("limit", 0, "the page's Limit (0: the data layer's default)")
	attrs := flag.String("attrs", "", "comma-separated attributes to read (the console's columns); empty: whole items")
	flag.Parse()
	if err := run(*endpoint, *table, int32(*limit), *attrs); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}

func run(endpoint, table string, limit int32, attrs string) error {
	ctx := context.Background()
	conn, err := data.Connect(ctx, data.ConnOptions{Endpoint: endpoint})
	if err != nil {
		return err
	}
	var overrides map[string]string
	if table != "" {
		overrides = map[string]string{string(data.TableSessions): table}
	}
	tables, err := data.ResolveTables("", overrides)
	if err != nil {
		return err
	}
	scope := data.SessionsByStatus(data.SessionRunning)
	if attrs != "" {
		scope = scope.Project(strings.Split(attrs, ",")...)
	}
	page, err := data.NewStore(conn, tables).Page(ctx, scope, data.PageRequest{Limit: limit})
	if err != nil {
		return fmt.Errorf("%s", data.Describe(err))
	}
	w := bufio.NewWriter(os.Stdout)
	for _, s := range page.Items {
		fmt.Fprintln(w, s.ID())
	}
	return w.Flush()
}
