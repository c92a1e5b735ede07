package detail

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/themes"
)

// FuzzDetail feeds arbitrary names, values and sizes through the tree.
func FuzzDetail(f *testing.F) {
	f.Add("\x1b[2J", "\u202e\xff", 80, 10)
	f.Add("日本語", "🎉\n\t", 5, 3)
	f.Fuzz(func(t *testing.T, name, value string, w, h int) {
		w, h = (w&0xff)%200+1, (h&0xff)%50+1
		item := map[string]types.AttributeValue{
			name: s(value),
			"m":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{value: n(name)}},
			"ss": &types.AttributeValueMemberSS{Value: []string{name, value}},
		}
		m := New(item, Options{Title: value, Theme: themes.Dark(), Problems: map[string]string{name: value, "zz" + value: name}})
		m.SetSize(w, h)
		checkFrame(t, m.View(), w, h)
		m.ScrollDown(3)
		checkFrame(t, m.View(), w, h)
		if _, err := JSON(item); err != nil {
			t.Fatal(err)
		}
	})
}
