package detail

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func sampleItem() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"sessionId": s("sess-1"),
		"status":    s("RUNNING"),
		"count":     n("42"),
		"ok":        &types.AttributeValueMemberBOOL{Value: true},
		"gone":      &types.AttributeValueMemberNULL{Value: true},
		"blob":      &types.AttributeValueMemberB{Value: []byte{1, 2, 255}},
		"meta": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"region": s("us-east-1"),
			"tries":  &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("two")}},
		}},
		"tags":   &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"scores": &types.AttributeValueMemberNS{Value: []string{"1.5", "-2"}},
		"bins":   &types.AttributeValueMemberBS{Value: [][]byte{{0}, {1, 2}}},
	}
}
