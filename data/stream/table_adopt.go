package stream

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// adopt handles a shard that vanished without children (a restarted DynamoDB
// Local can do this): new root shards of the same stream are read from
// TRIM_HORIZON, but must not deliver again what the vanished shard already
// delivered. Sequence numbers within one stream only grow, so the vanished
// shard's last sequence number becomes their floor.
func (r *tableReader) adopt(gone *shardInfo, shards []st.Shard) {
	floor := gone.lastSeq
	if seqAfter(gone.floor, floor) {
		floor = gone.floor
	}
	if floor == "" {
		return
	}
	for _, s := range shards {
		id := aws.ToString(s.ShardId)
		if _, known := r.shards[id]; known {
			continue
		}
		if p := aws.ToString(s.ParentShardId); p == "" || r.shards[p] == nil || p == gone.id {
			r.shards[id] = &shardInfo{id: id, parent: aws.ToString(s.ParentShardId), status: shardIdle,
				start: position{typ: st.ShardIteratorTypeTrimHorizon}, floor: floor, restarts: r.newBackoff()}
		}
	}
}
