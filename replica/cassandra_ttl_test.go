package replica_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// maxTTL is Cassandra's Attributes.MAX_TTL: 20 years, in seconds.
const maxTTL = 20 * 365 * 24 * 60 * 60

// TTLTest.testCapExpirationDateOverflowPolicy's complex columns
// (apache/cassandra, test/unit/org/apache/cassandra/cql3/validation/
// operations/TTLTest.java): a set written USING TTL MAX_TTL just before
// 2038 and 2106, where Cassandra's 32-bit local deletion time caps or
// rejects the expiry. readpath's 64-bit times take it as written: the
// elements live the whole TTL and, from their expiry on, answer as
// tombstones made when they were written, so that, unless gc_grace_seconds
// outlasts the TTL, they are purged the second they expire.
func TestCassandraTTLMaxTTLSetPastTheDeletionTimeLimits(t *testing.T) {
	for _, at := range []int64{math.MaxInt32 - 10, math.MaxUint32 - 10} {
		ts := at * 1_000_000
		var elems []replica.Cell
		for _, e := range []string{"v11", "v12", "v13", "v14"} {
			elems = append(elems, replica.Expiring("b", "", ts, maxTTL, at+maxTTL).WithPath(e))
		}
		stored := replica.NewPartition("1", replica.NewRow("1", append([]replica.Cell{
			replica.Expiring("a", "1", ts, maxTTL, at+maxTTL)}, elems...)...))
		require.NoError(t, stored.Validate())

		cmd := replica.Command{Table: "t", Key: "1", NowInSec: at + maxTTL - 1, GCBefore: at + maxTTL - 1 - 864000}
		resp, err := cmd.Respond(stored)
		require.NoError(t, err)
		assert.True(t, stored.Equal(resp.Partition), "live a second before expiry: %v", resp.Partition)
		assert.Len(t, resp.Partition.Visible(cmd.NowInSec).Rows[0].Cells, 5)
		assert.Zero(t, resp.Tombstones)

		cmd.NowInSec++
		cmd.GCBefore = at // gc_grace_seconds of MAX_TTL: not yet purgeable
		resp, err = cmd.Respond(stored)
		require.NoError(t, err)
		var tombs []replica.Cell
		for _, c := range stored.Rows[0].Cells {
			tombs = append(tombs, replica.Tombstone(c.Column, ts, at).WithPath(c.Path))
		}
		want := replica.NewPartition("1", replica.NewRow("1", tombs...))
		assert.True(t, want.Equal(resp.Partition), "at expiry:\n got  %v\n want %v", resp.Partition, want)
		assert.Equal(t, 5, resp.Tombstones, "each expired cell is a tombstone met")
		assert.True(t, resp.Partition.Visible(cmd.NowInSec).IsEmpty())

		cmd.GCBefore = cmd.NowInSec - 864000 // the default gc_grace_seconds
		resp, err = cmd.Respond(stored)
		require.NoError(t, err)
		assert.True(t, replica.NewPartition("1").Equal(resp.Partition), "purged at once: %v", resp.Partition)
		assert.Zero(t, resp.Tombstones)
	}
}

// TTLTest.testTTLPerRequestLimit: "A TTL must be greater or equal to 0".
// A negative TTL is no partition readpath takes; a TTL of 0 is no TTL,
// so a cell or liveness with one carries no expiry. And the negative local
// expiration an overflowed expiry left in old sstables, which
// testRecoverOverflowedExpirationWithScrub recovers by scrub, is refused,
// not read as long expired.
func TestCassandraTTLNegativeAndZero(t *testing.T) {
	const now = 1_700_000_000
	bad := []replica.Cell{
		replica.Expiring("i", "1", 1, -1, now),
		replica.Expiring("i", "1", 1, 0, now+10),                    // TTL 0 with an expiry
		replica.Expiring("i", "1", 1, maxTTL, math.MinInt32+maxTTL), // overflowed
	}
	for _, c := range bad {
		err := replica.NewPartition("1", replica.NewRow("1", c)).Validate()
		assert.ErrorIs(t, err, replica.ErrInvalidPartition, "%v", c)
	}
	for _, l := range []replica.Liveness{replica.InsertedWithTTL(1, -1, now), replica.InsertedWithTTL(1, 0, now+10)} {
		err := replica.NewPartition("1", replica.NewRow("1").WithLiveness(l)).Validate()
		assert.ErrorIs(t, err, replica.ErrInvalidPartition, "%+v", l)
	}
	zero := replica.NewPartition("1", replica.NewRow("1", replica.Expiring("i", "1", 1, 0, 0)))
	require.NoError(t, zero.Validate())
	assert.True(t, zero.Rows[0].Cells[0].IsLive(math.MaxInt64), "TTL 0 never expires")
}

// A cell expiring exactly at the read's nowInSec (AbstractCell.isLive:
// live while nowInSec < its expiry; TTLTest's expiry checks): its row is
// no live row for DataLimits' counter, so LIMIT 1 passes it for the next,
// and the replica answers it as the tombstone it became, counted as one
// (ReadCommand's MetricRecording). A second earlier it is the row returned.
func TestCassandraTTLExpiringAtNowIsNotCounted(t *testing.T) {
	const now = 1_700_000_000
	const ts = (now - 10) * 1_000_000
	stored := replica.NewPartition("k",
		replica.NewRow("a", replica.Expiring("v", "x", ts, 10, now)),
		replica.NewRow("b", replica.Live("v", "y", ts)),
		replica.NewRow("c", replica.Live("v", "z", ts)),
	)
	cmd := replica.Command{Table: "t", Key: "k", Query: replica.Query{Limit: 1}, NowInSec: now, GCBefore: now - 864000}
	resp, err := cmd.Respond(stored)
	require.NoError(t, err)
	want := replica.NewPartition("k",
		replica.NewRow("a", replica.Tombstone("v", ts, now-10)),
		replica.NewRow("b", replica.Live("v", "y", ts)))
	assert.True(t, want.Equal(resp.Partition), "got %v", resp.Partition)
	assert.Equal(t, 1, resp.Tombstones)
	assert.Equal(t, 2, stored.LiveRows(replica.Query{}, now))

	cmd.NowInSec, cmd.GCBefore = now-1, now-1-864000
	resp, err = cmd.Respond(stored)
	require.NoError(t, err)
	assert.True(t, replica.NewPartition("k", stored.Rows[0]).Equal(resp.Partition), "got %v", resp.Partition)
	assert.Zero(t, resp.Tombstones)
}

// An expired cell is purged with the tombstone it becomes, by that
// tombstone's local deletion time, when it was written (AbstractCell.purge
// converts, then purges the tombstone): kept while expiry − TTL is not
// before gcBefore, dropped from the second it is, however recent its
// expiry. An expired liveness is no tombstone: it goes by its expiry
// (DeletionPurger.shouldPurge on LivenessInfo.localExpirationTime).
func TestCassandraTTLExpiredPurgeBoundary(t *testing.T) {
	const now = 1_700_000_000
	const written = now - 100
	cell := replica.Expiring("v", "x", written*1_000_000, 50, written+50)
	live := replica.InsertedWithTTL(written*1_000_000, 50, written+50)
	tests := []struct {
		name     string
		row      replica.Row
		gcBefore int64
		kept     bool
	}{
		{"cell, gcBefore at its write", replica.NewRow("r", cell), written, true},
		{"cell, gcBefore a second later", replica.NewRow("r", cell), written + 1, false},
		{"liveness, gcBefore at its expiry", replica.NewRow("r").WithLiveness(live), written + 50, true},
		{"liveness, gcBefore a second later", replica.NewRow("r").WithLiveness(live), written + 51, false},
	}
	for _, tt := range tests {
		p := replica.NewPartition("k", tt.row)
		got := p.Purge(now, tt.gcBefore)
		assert.Equal(t, tt.kept, len(got.Rows) == 1, "%s: %v", tt.name, got)
	}
}
