package stream

import (
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
)

// The Streams SDK has its own AttributeValue types, identical in shape to
// DynamoDB's. The rest of opsdeck decodes dynamodb/types values, so every
// image is converted once here.

func convertItem(in map[string]st.AttributeValue) data.Item {
	if in == nil {
		return nil
	}
	out := make(data.Item, len(in))
	for k, v := range in {
		if c := convertValue(v); c != nil {
			out[k] = c
		}
	}
	return out
}

func convertValue(v st.AttributeValue) ddb.AttributeValue {
	switch x := v.(type) {
	case *st.AttributeValueMemberS:
		return &ddb.AttributeValueMemberS{Value: x.Value}
	case *st.AttributeValueMemberN:
		return &ddb.AttributeValueMemberN{Value: x.Value}
	case *st.AttributeValueMemberB:
		return &ddb.AttributeValueMemberB{Value: x.Value}
	case *st.AttributeValueMemberBOOL:
		return &ddb.AttributeValueMemberBOOL{Value: x.Value}
	case *st.AttributeValueMemberNULL:
		return &ddb.AttributeValueMemberNULL{Value: x.Value}
	case *st.AttributeValueMemberSS:
		return &ddb.AttributeValueMemberSS{Value: append([]string(nil), x.Value...)}
	case *st.AttributeValueMemberNS:
		return &ddb.AttributeValueMemberNS{Value: append([]string(nil), x.Value...)}
	case *st.AttributeValueMemberBS:
		return &ddb.AttributeValueMemberBS{Value: append([][]byte(nil), x.Value...)}
	case *st.AttributeValueMemberL:
		l := make([]ddb.AttributeValue, 0, len(x.Value))
		for _, e := range x.Value {
			if c := convertValue(e); c != nil {
				l = append(l, c)
			}
		}
		return &ddb.AttributeValueMemberL{Value: l}
	case *st.AttributeValueMemberM:
		return &ddb.AttributeValueMemberM{Value: convertItem(x.Value)}
	case nil:
		return nil
	default:
		// A member type newer than this code (the SDK's UnknownUnionMember):
		// keep the attribute visible rather than dropping it silently.
		return &ddb.AttributeValueMemberS{Value: "<unsupported stream attribute type>"}
	}
}
