package demo

import (
	"fmt"

	"opsdeck/data"
)

// checkTarget refuses to write demo data where it does not belong: through a
// read-only connection, or (unless allowRemote) to anything but a loopback
// endpoint such as DynamoDB Local. A mistyped profile must never fill a real
// account with fake tenants.
func checkTarget(conn *data.Conn, allowRemote bool) error {
	if conn == nil || conn.DB == nil {
		return fmt.Errorf("demo: no database connection")
	}
	if err := conn.CheckWrite(); err != nil {
		return err
	}
	if allowRemote || data.IsLoopbackEndpoint(conn.Endpoint) {
		return nil
	}
	target := conn.Endpoint
	if target == "" {
		target = "AWS region " + conn.Region
	}
	return fmt.Errorf("demo: refusing to write demo data to %s (only a loopback endpoint such as DynamoDB Local is allowed)", target)
}
