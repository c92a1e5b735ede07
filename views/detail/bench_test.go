package detail

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/themes"
)

// bigItem is close to DynamoDB's 400 KB limit: one long value plus many
// small attributes in a list.
func bigItem() map[string]types.AttributeValue {
	list := make([]types.AttributeValue, 10000)
	for i := range list {
		list[i] = n(strconv.Itoa(i))
	}
	return map[string]types.AttributeValue{
		"blob": s(strings.Repeat("0123456789abcdef", 300*1024/16)),
		"list": &types.AttributeValueMemberL{Value: list},
	}
}

var sink string

// BenchmarkOpen is opening the detail view of a ~390 KB item (layout of the
// whole tree).
func BenchmarkOpen(b *testing.B) {
	item := bigItem()
	b.ReportAllocs()
	for b.Loop() {
		m := New(item, Options{Theme: themes.Dark()})
		m.SetSize(120, 40)
		sink = m.View()
	}
}

// BenchmarkScrollFrame is one scroll step plus a frame of the same item.
func BenchmarkScrollFrame(b *testing.B) {
	m := New(bigItem(), Options{Theme: themes.Dark()})
	m.SetSize(120, 40)
	m.ScrollDown(5000)
	b.ReportAllocs()
	for b.Loop() {
		m.ScrollDown(1)
		m.ScrollUp(1)
		sink = m.View()
	}
}
