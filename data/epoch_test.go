package data

import "testing"

func TestEpochAttrs(t *testing.T) {
	cases := []struct {
		table TableID
		attr  string
		want  EpochUnit // 0: not a documented epoch time
	}{
		{TableSessions, "expiresAt", EpochSeconds}, // the TTL attribute
		{TableEvents, "ttl", EpochSeconds},
		{TableDelegations, "expiration", EpochSeconds},
		{TableSandboxes, "allocated_at", EpochSeconds},
		{TableSandboxes, "last_synced", EpochSeconds},
		{TableSessions, "proxyBytes", 0},
		{TableSessions, "createdAt", 0}, // an ISO string
		{TableSandboxes, "lab_duration_hours", 0},
	}
	for _, c := range cases {
		if got := EpochAttrs(c.table)[c.attr]; got != c.want {
			t.Errorf("%s.%s: %v, want %v", c.table, c.attr, got, c.want)
		}
	}
}
