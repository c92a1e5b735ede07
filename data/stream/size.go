package stream

import (
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// recordOverhead is what a Record costs besides its images: the struct,
// the table and shard names, the sequence number.
const recordOverhead = 256

// valueOverhead is what one attribute value costs in memory besides its
// bytes (the interface, the member struct, a map entry).
const valueOverhead = 48

// itemBytes approximates what an item holds in memory: every name and value
// byte plus a fixed overhead per value, at any depth. It is a bound for
// buffers, not DynamoDB's billing size.
func itemBytes(it data.Item) int {
	n := 0
	for k, v := range it {
		n += len(k) + valueBytes(v)
	}
	return n
}

func valueBytes(v ddb.AttributeValue) int {
	n := valueOverhead
	switch x := v.(type) {
	case *ddb.AttributeValueMemberS:
		n += len(x.Value)
	case *ddb.AttributeValueMemberN:
		n += len(x.Value)
	case *ddb.AttributeValueMemberB:
		n += len(x.Value)
	case *ddb.AttributeValueMemberSS:
		for _, s := range x.Value {
			n += len(s) + 16
		}
	case *ddb.AttributeValueMemberNS:
		for _, s := range x.Value {
			n += len(s) + 16
		}
	case *ddb.AttributeValueMemberBS:
		for _, b := range x.Value {
			n += len(b) + 24
		}
	case *ddb.AttributeValueMemberL:
		for _, e := range x.Value {
			n += valueBytes(e)
		}
	case *ddb.AttributeValueMemberM:
		n += itemBytes(x.Value)
	}
	return n
}
