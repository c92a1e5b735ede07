package demo

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Short constructors for attribute values. The seed rows are written as
// literal DynamoDB items (not marshalled from structs) so that each row says
// exactly which type every attribute has, including the deliberately wrong
// ones.

func avS(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func avN(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// avNum is a number given in its DynamoDB text form ("0.37", "12").
func avNum(text string) types.AttributeValue { return &types.AttributeValueMemberN{Value: text} }

func avBool(b bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: b} }

func avB(b []byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: b} }

func avM(m Item) types.AttributeValue { return &types.AttributeValueMemberM{Value: m} }

func avL(l ...types.AttributeValue) types.AttributeValue {
	if l == nil {
		l = []types.AttributeValue{}
	}
	return &types.AttributeValueMemberL{Value: l}
}

func avSL(ss ...string) types.AttributeValue {
	l := make([]types.AttributeValue, len(ss))
	for i, s := range ss {
		l[i] = avS(s)
	}
	return avL(l...)
}

// strAttr reads a string attribute, "" when missing or of another type.
func strAttr(it Item, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// numAttr reads a number attribute as int64; ok is false when missing, of
// another type, or not an integer.
func numAttr(it Item, name string) (int64, bool) {
	v, ok := it[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(v.Value, 64)
		if ferr != nil {
			return 0, false
		}
		return int64(f), true
	}
	return n, true
}
