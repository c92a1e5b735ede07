package views

import (
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/themes"
)

// Every column of every list is masked: an item whose every string
// attribute (keys, ids, names, reasons, causes) carries a URL with a token
// shows no token in any cell, while the unmasked builder would.
func TestListCellsAreMaskedInEveryPane(t *testing.T) {
	th := themes.Dark()
	tables := make([]string, 0, len(allPresenters()))
	for _, pr := range allPresenters() {
		tables = append(tables, string(pr.table))
	}
	sort.Strings(tables)
	for _, name := range tables {
		table := data.TableID(name)
		shape := mustPresenter(table)
		sc, _ := data.Schema(table)
		item := data.Item{}
		for attr, typ := range sc.Attrs {
			if typ == "S" {
				item[attr] = &types.AttributeValueMemberS{Value: "https://h.example/x?token=tok_" + attr + "_Q7xV9kP2mW4rT8bN"}
			}
		}
		for _, k := range sc.KeyNames() {
			item[k] = &types.AttributeValueMemberS{Value: "wss://h.example/cdp?signingKey=tok_" + k + "_Q7xV9kP2mW4rT8bN"}
		}
		rec := data.Decode(table, item)
		raw := shape.row(rec, sortNow, th)
		leaks := 0
		for _, c := range raw.Cells {
			if strings.Contains(c.Text, "tok_") {
				leaks++
			}
		}
		if leaks == 0 {
			t.Fatalf("%s: no column shows a planted token even unmasked; the test proves nothing", table)
		}
		l := newList(orderCtx(), shape.pane, shape)
		row := l.render(rec, sortNow, th, rowID(rec.Table(), rec.Item(), 0))
		masked := 0
		for i, c := range row.Cells {
			if strings.Contains(c.Text, "tok_") {
				t.Errorf("%s: column %s shows %q", table, shape.columns()[i].Title, c.Text)
			}
			if strings.Contains(c.Text, "••••••") {
				masked++
			}
		}
		if masked < leaks {
			t.Errorf("%s: %d cells masked, %d carried a token", table, masked, leaks)
		}
	}
}
