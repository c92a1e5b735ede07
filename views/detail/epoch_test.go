package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/themes"
)

func rel(t, now time.Time) string {
	if t.Before(now) {
		return now.Sub(t).Round(time.Minute).String() + " ago"
	}
	return "in " + t.Sub(now).Round(time.Minute).String()
}

func TestEpochTimesShownReadable(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 9, 33, 0, time.UTC)
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	item := map[string]types.AttributeValue{
		"expiresAt":   n("1795424793"),    // 2026-11-23 09:06:33 UTC
		"millis":      n("1795424793000"), // documented milliseconds
		"wrongSize":   n("1795424793000"), // documented seconds, looks like ms
		"wrongMillis": n("1795424793"),    // documented ms, looks like seconds
		"unset":       n("0"),
		"count":       n("1795424793"), // not documented as a time
		"nested":      &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"expiresAt": n("1795424793")}},
		"apiToken":    n("1795424793"), // a credential: masked, never annotated
	}
	d := New(item, Options{
		Theme: themes.Dark(), Mask: secret.Default,
		Epochs: map[string]data.EpochUnit{
			"expiresAt": data.EpochSeconds, "millis": data.EpochMillis, "wrongSize": data.EpochSeconds,
			"wrongMillis": data.EpochMillis, "unset": data.EpochSeconds, "apiToken": data.EpochSeconds,
		},
		Loc: time.UTC, Now: func() time.Time { return now }, Relative: rel,
	})
	d.SetSize(200, 40)
	view := strings.Join(plainLines(d), "\n")
	line := func(attr string) string {
		for _, l := range strings.Split(view, "\n") {
			if strings.Contains(l, attr+" ") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		t.Fatalf("no line for %s in\n%s", attr, view)
		return ""
	}
	for attr, want := range map[string]string{
		"expiresAt":   "1795424793 · 2026-11-23 09:06 UTC · 3m0s ago",
		"millis":      "1795424793000 · 2026-11-23 09:06 UTC · 3m0s ago",
		"wrongSize":   "1795424793000 · documented as unix seconds, but this looks like milliseconds: not converted",
		"wrongMillis": "1795424793 · documented as unix milliseconds, but this looks like seconds: not converted",
		"unset":       "0 · not set",
	} {
		if got := line(attr); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to hold %q", attr, got, want)
		}
	}
	if got := line("count"); strings.Contains(got, "2026") {
		t.Errorf("a number not documented as a time was read as one: %q", got)
	}
	if strings.Count(view, "2026-11-23") != 2 {
		t.Errorf("nested or masked attributes annotated:\n%s", view)
	}
	if got := line("apiToken"); strings.Contains(got, "1795424793") {
		t.Errorf("credential shown: %q", got)
	}
}
