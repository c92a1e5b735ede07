package main

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"opsdeck/config"
	"opsdeck/data"
	"opsdeck/data/stream"
)

// resolved is what the reader runs with for these options and endpoint
// ("" is AWS), without the function fields, which cannot be compared.
func resolved(t *testing.T, endpoint string, o stream.Options) stream.Options {
	t.Helper()
	tables, err := data.ResolveTables("dev", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := stream.New(&data.Conn{Endpoint: endpoint}, tables, o).Options()
	got.Clock, got.Logf = nil, nil
	return got
}

// TestStreamConfigDefaultsAreTheReaders: with no stream section the reader
// runs exactly as with its own defaults (what README documents), against
// DynamoDB Local and against AWS.
func TestStreamConfigDefaultsAreTheReaders(t *testing.T) {
	for _, endpoint := range []string{"http://127.0.0.1:8000", ""} {
		got := resolved(t, endpoint, streamOptions(config.Default().Stream, nil))
		want := resolved(t, endpoint, stream.Options{})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("endpoint %q: config defaults give\n%s\nthe reader's own are\n%s", endpoint, got.Budget(), want.Budget())
		}
	}
}

// TestStreamConfigReachesTheReader: every key of the stream section changes
// what the reader does, and against AWS the etiquette keeps a shard's reads
// at 0.8 a second (next to a Lambda consumer's 4, under the 5 AWS allows)
// unless the file says the shards are ours alone.
func TestStreamConfigReachesTheReader(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte(`stream:
  poll_interval: 500ms
  idle_poll_max: 4s
  table_idle_rate: 0.5
  slow_interval: 1m
  background: off
  max_calls_per_second: 20
  throttle_backoff: 5s
  throttle_backoff_max: 2m
`))
	if err != nil {
		t.Fatal(err)
	}
	local := resolved(t, "http://127.0.0.1:8000", streamOptions(c.Stream, nil))
	if local.PollInterval != 500*time.Millisecond || local.IdlePollMax != 4*time.Second || local.TableIdleRate != 0.5 ||
		local.SlowPollInterval != time.Minute || local.Background != stream.RateOff || local.MaxCallsPerSecond != 20 ||
		local.ThrottleBackoff != 5*time.Second || local.ThrottleBackoffMax != 2*time.Minute || local.Etiquette != stream.EtiquetteLocal {
		t.Errorf("against DynamoDB Local: %s", local.Budget())
	}
	aws := resolved(t, "", streamOptions(c.Stream, nil))
	if aws.Etiquette != stream.EtiquetteShared || aws.PollInterval != 1250*time.Millisecond {
		t.Errorf("against AWS: %s; want shared shards read every 1.25s at most", aws.Budget())
	}
	c.Stream.Etiquette = "local"
	if own := resolved(t, "", streamOptions(c.Stream, nil)); own.Etiquette != stream.EtiquetteLocal || own.PollInterval != 500*time.Millisecond {
		t.Errorf("against AWS with etiquette local: %s", own.Budget())
	}
	c.Stream.Etiquette = "shared"
	if shared := resolved(t, "http://127.0.0.1:8000", streamOptions(c.Stream, nil)); shared.PollInterval != 1250*time.Millisecond {
		t.Errorf("against DynamoDB Local with etiquette shared: %s", shared.Budget())
	}
}

// TestOrdinaryBuildLeavesTheFrontOut: the rolling front is test support;
// only a build with -tags demorolling may link it.
func TestOrdinaryBuildLeavesTheFrontOut(t *testing.T) {
	for _, tc := range []struct {
		tags string
		want bool
	}{{"", false}, {"demorolling", true}} {
		out, err := exec.Command("go", "list", "-tags", tc.tags, "-deps", ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		if got := strings.Contains(string(out), "opsdeck/data/stream/streamtest\n"); got != tc.want {
			t.Errorf("tags %q: streamtest linked %v, want %v", tc.tags, got, tc.want)
		}
	}
}
