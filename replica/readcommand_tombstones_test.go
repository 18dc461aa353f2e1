package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's ReadCommandTest.testCountPurgeableRangeTombstones_
// nonOverlappingRanges and _overlappingRanges (apache/cassandra,
// test/unit/org/apache/cassandra/db/ReadCommandTest.java): key2's rows
// aa, cc and dd and three range deletions, one made now and the others at
// local deletion times 42 and 52, purgeable at the read. The tombstones
// counted are the bounds of the one not purgeable: 2 either way. Its rows
// and deletions at timestamp 0 are at 1 here (Inserted(0) is none).
func TestReadCommandCountPurgeableRangeTombstones(t *testing.T) {
	const now = 1_700_000_000
	rows := []replica.Row{
		replica.NewRow("aa", replica.Live("a", "blah", 1)).WithLiveness(replica.Inserted(1)),
		replica.NewRow("cc", replica.Live("c", "blah", 1)).WithLiveness(replica.Inserted(1)),
		replica.NewRow("dd", replica.Live("d", "blah", 1)).WithLiveness(replica.Inserted(1)),
	}
	rt := func(start, end string, ldt int64) replica.Partition {
		return replica.NewPartition("key2").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt(start), replica.EndAt(end), replica.DeletedAt(1, ldt)))
	}
	tests := []struct {
		name   string
		ranges []replica.Partition
	}{
		{"nonOverlappingRanges", []replica.Partition{rt("aa", "bb", now), rt("dd", "ee", 42), rt("ff", "ff", 42)}},
		{"overlappingRanges", []replica.Partition{rt("aa", "bb", now), rt("bb", "ee", 42), rt("ee", "ff", 52)}},
	}
	for _, tt := range tests {
		stored := store(t, append([]replica.Partition{replica.NewPartition("key2", rows...)}, tt.ranges...)...)
		cmd := replica.Command{Table: "t", Key: "key2", NowInSec: now, GCBefore: now - 864000}
		resp, err := cmd.Respond(stored)
		require.NoError(t, err, tt.name)
		assert.Equal(t, 2, resp.Tombstones, "%s: %v", tt.name, resp.Partition)
		cmd.DigestOnly = true
		resp, err = cmd.Respond(stored)
		require.NoError(t, err, tt.name)
		assert.Equal(t, 2, resp.Tombstones, "%s: digest", tt.name)
	}
}
