package views

import (
	"encoding/binary"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// A compact, exact binary form of DynamoDB items, for itemStore. The SDK's
// form costs a heap object per attribute value and a map per item (about
// 11 KB for a demo session with its event history); this form is the bytes
// and little else, and it compresses well because pages of one table
// repeat the same names and words.
//
// Layout: a value is a tag byte then its payload; strings and byte slices
// are a uvarint length then the bytes; L, M and the sets are a uvarint
// count then their members (M: name string, then value).

const (
	tagNil byte = iota // a nil AttributeValue in a map or list (kept as is)
	tagS
	tagN
	tagB
	tagTrue
	tagFalse
	tagNullTrue
	tagNullFalse
	tagL
	tagM
	tagSS
	tagNS
	tagBS
)

var errCorrupt = errors.New("views: corrupt packed item")

// appendItem encodes it; ok is false when it holds a value type this codec
// does not know (a future SDK member), which the caller then keeps as is.
func appendItem(b []byte, it data.Item) ([]byte, bool) {
	b = binary.AppendUvarint(b, uint64(len(it)))
	for k, v := range it {
		b = appendStr(b, k)
		var ok bool
		if b, ok = appendValue(b, v); !ok {
			return b, false
		}
	}
	return b, true
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBytes(b []byte, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

func appendValue(b []byte, v types.AttributeValue) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, tagNil), true
	case *types.AttributeValueMemberS:
		return appendStr(append(b, tagS), x.Value), true
	case *types.AttributeValueMemberN:
		return appendStr(append(b, tagN), x.Value), true
	case *types.AttributeValueMemberB:
		return appendBytes(append(b, tagB), x.Value), true
	case *types.AttributeValueMemberBOOL:
		if x.Value {
			return append(b, tagTrue), true
		}
		return append(b, tagFalse), true
	case *types.AttributeValueMemberNULL:
		if x.Value {
			return append(b, tagNullTrue), true
		}
		return append(b, tagNullFalse), true
	case *types.AttributeValueMemberL:
		b = binary.AppendUvarint(append(b, tagL), uint64(len(x.Value)))
		for _, e := range x.Value {
			var ok bool
			if b, ok = appendValue(b, e); !ok {
				return b, false
			}
		}
		return b, true
	case *types.AttributeValueMemberM:
		b = append(b, tagM)
		return appendItem(b, x.Value)
	case *types.AttributeValueMemberSS:
		b = binary.AppendUvarint(append(b, tagSS), uint64(len(x.Value)))
		for _, s := range x.Value {
			b = appendStr(b, s)
		}
		return b, true
	case *types.AttributeValueMemberNS:
		b = binary.AppendUvarint(append(b, tagNS), uint64(len(x.Value)))
		for _, s := range x.Value {
			b = appendStr(b, s)
		}
		return b, true
	case *types.AttributeValueMemberBS:
		b = binary.AppendUvarint(append(b, tagBS), uint64(len(x.Value)))
		for _, p := range x.Value {
			b = appendBytes(b, p)
		}
		return b, true
	}
	return b, false
}

// itemReader decodes what appendItem wrote. Every length is checked
// against what is left, so a corrupt buffer gives errCorrupt, never a
// panic or a huge allocation.
type itemReader struct {
	b   []byte
	err error
}

func (r *itemReader) uvarint() int {
	if r.err != nil {
		return 0
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > uint64(len(r.b)) { // a count or length never exceeds the bytes left
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[k:]
	return int(n)
}

func (r *itemReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > len(r.b) {
		r.err = errCorrupt
		return nil
	}
	p := make([]byte, n)
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return p
}

func (r *itemReader) str() string {
	n := r.uvarint()
	if r.err != nil || n > len(r.b) {
		r.err = errCorrupt
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *itemReader) item() data.Item {
	n := r.uvarint()
	it := make(data.Item, n)
	for i := 0; i < n && r.err == nil; i++ {
		k := r.str()
		it[k] = r.value()
	}
	return it
}

func (r *itemReader) value() types.AttributeValue {
	if r.err != nil || len(r.b) == 0 {
		r.err = errCorrupt
		return nil
	}
	tag := r.b[0]
	r.b = r.b[1:]
	switch tag {
	case tagNil:
		return nil
	case tagS:
		return &types.AttributeValueMemberS{Value: r.str()}
	case tagN:
		return &types.AttributeValueMemberN{Value: r.str()}
	case tagB:
		return &types.AttributeValueMemberB{Value: r.bytes()}
	case tagTrue, tagFalse:
		return &types.AttributeValueMemberBOOL{Value: tag == tagTrue}
	case tagNullTrue, tagNullFalse:
		return &types.AttributeValueMemberNULL{Value: tag == tagNullTrue}
	case tagL:
		n := r.uvarint()
		l := make([]types.AttributeValue, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			l = append(l, r.value())
		}
		return &types.AttributeValueMemberL{Value: l}
	case tagM:
		return &types.AttributeValueMemberM{Value: r.item()}
	case tagSS, tagNS:
		n := r.uvarint()
		l := make([]string, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			l = append(l, r.str())
		}
		if tag == tagSS {
			return &types.AttributeValueMemberSS{Value: l}
		}
		return &types.AttributeValueMemberNS{Value: l}
	case tagBS:
		n := r.uvarint()
		l := make([][]byte, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			l = append(l, r.bytes())
		}
		return &types.AttributeValueMemberBS{Value: l}
	}
	r.err = errCorrupt
	return nil
}
