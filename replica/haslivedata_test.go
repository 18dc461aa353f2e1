package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Port of Cassandra's BTreeRowHasLiveDataTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/rows/BTreeRowHasLiveDataTest.java):
// whether a row has live data (Row.hasLiveData, not strict) decides
// whether it exists, so whether it counts toward a limit (LiveRows) and
// shows (Visible). Its nowInSec and timestamps; v is a regular column, m a
// map. The enforceStrictLiveness cases belong to materialized views, which
// readpath does not model.
func TestRowHasLiveData(t *testing.T) {
	const now = 1_000_000
	const ts = now * 1_000_000
	tests := []struct {
		name string
		row  replica.Row
		now  int64
		want bool
	}{
		{"one live regular cell, no liveness", replica.NewRow("1", replica.Live("v", "10", ts)), now, true},
		{"unexpired TTL cell", replica.NewRow("1", replica.Expiring("v", "10", ts, 3600, now+3600)), now, true},
		{"expired TTL cell", replica.NewRow("1", replica.Expiring("v", "10", ts, 3600, now+3600)), now + 7200, false},
		{"tombstone cell", replica.NewRow("1", replica.Tombstone("v", ts, now)), now, false},
		{"live primary-key liveness", replica.NewRow("1").WithLiveness(replica.Inserted(ts)), now, true},
		{"row deletion only", replica.NewRow("1").WithDeletion(replica.DeletedAt(ts, now)), now, false},
		{"live complex cell", replica.NewRow("1", replica.Live("m", "10", ts).WithPath("1")), now, true},
		{"tombstone beside a live cell", replica.NewRow("1",
			replica.Tombstone("m", ts, now).WithPath("1"), replica.Live("v", "10", ts)), now, true},
		{"tombstone beside a live complex cell", replica.NewRow("1",
			replica.Live("m", "10", ts).WithPath("1"), replica.Tombstone("m", ts, now).WithPath("2")), now, true},
	}
	for _, tt := range tests {
		p := replica.NewPartition("1", tt.row)
		if !assert.NoError(t, p.Validate(), tt.name) {
			continue
		}
		want := 0
		if tt.want {
			want = 1
		}
		assert.Equal(t, want, p.LiveRows(replica.Query{}, tt.now), "%s: counts", tt.name)
		assert.Len(t, p.Visible(tt.now).Rows, want, "%s: shows", tt.name)
		cmd := replica.Command{Table: "tbl", Key: "1", Query: replica.Query{Limit: 1}, NowInSec: tt.now}
		resp, err := cmd.Respond(p)
		if assert.NoError(t, err, tt.name) {
			assert.Equal(t, want, resp.Partition.LiveRows(replica.Query{}, tt.now), "%s: answered", tt.name)
		}
	}
}
