package views

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// rowID is a row's stable identity: its table's primary key values, typed,
// so a stream record for the same item finds the same row. A malformed item
// missing a key attribute gets a synthetic id (seq) so it is still listed,
// never merged with another row.
func rowID(table data.TableID, item data.Item, seq int) string {
	s, ok := data.Schema(table)
	if !ok {
		return "\x00row" + strconv.Itoa(seq)
	}
	var b strings.Builder
	for i, name := range s.KeyNames() {
		if i > 0 {
			b.WriteByte(0)
		}
		switch v := item[name].(type) {
		case *types.AttributeValueMemberS:
			b.WriteString("S:")
			b.WriteString(v.Value)
		case *types.AttributeValueMemberN:
			b.WriteString("N:")
			b.WriteString(v.Value)
		case *types.AttributeValueMemberB:
			b.WriteString("B:")
			b.Write(v.Value)
		default:
			return "\x00row" + strconv.Itoa(seq)
		}
	}
	return b.String()
}

// keyNames lists the table's key attributes, shown first in the detail view.
func keyNames(table data.TableID) []string {
	s, ok := data.Schema(table)
	if !ok {
		return nil
	}
	return s.KeyNames()
}

// detailTitle is the detail view's title: table and short id (raw; the
// detail view sanitises it).
func detailTitle(r data.Record) string {
	id := r.ID()
	if id == "" {
		id = "(no id)"
	}
	return TableName(r.Table()) + " · " + id
}

// problemNotes turns decode problems into the detail view's notes, one per
// attribute.
func problemNotes(ps []data.Problem) map[string]string {
	if len(ps) == 0 {
		return nil
	}
	out := make(map[string]string, len(ps))
	for _, p := range ps {
		if prev, ok := out[p.Attr]; ok {
			out[p.Attr] = prev + "; " + p.String()
			continue
		}
		out[p.Attr] = p.String()
	}
	return out
}
