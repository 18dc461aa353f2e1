package replica_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// rvCassandraCellPurge is a port of Cassandra's AbstractCell.purge (4.1 and
// 5.0, src/java/org/apache/cassandra/db/rows/AbstractCell.java) with the
// read-time DeletionPurger of ReadCommand.withoutPurgeableTombstones
// (PurgeFunction: localDeletionTime < gcBefore, any timestamp). Cassandra's
// NO_DELETION_TIME is readpath's 0 on a live cell and NO_TTL its 0.
func rvCassandraCellPurge(c replica.Cell, now, gcBefore int64) (replica.Cell, bool) {
	isExpiring := c.TTL != 0
	isLive := (!c.Tombstone && !isExpiring) || (isExpiring && now < c.LocalDeletionTime)
	shouldPurge := func(ldt int64) bool { return ldt < gcBefore }
	if isLive {
		return c, true
	}
	if shouldPurge(c.LocalDeletionTime) {
		return replica.Cell{}, false
	}
	if isExpiring {
		t := replica.Tombstone(c.Column, c.Timestamp, c.LocalDeletionTime-int64(c.TTL)).WithPath(c.Path)
		return rvCassandraCellPurge(t, now, gcBefore)
	}
	return c, true
}

// rvCassandraLivenessPurge is DeletionPurger.shouldPurge(LivenessInfo, now):
// !liveness.isLive(now) && localExpirationTime < gcBefore.
func rvCassandraLivenessPurge(l replica.Liveness, now, gcBefore int64) replica.Liveness {
	isLive := l.TTL == 0 || now < l.ExpiresAt
	if !isLive && l.ExpiresAt < gcBefore {
		return replica.Liveness{}
	}
	return l
}

// rvTimes draws times around a few boundaries: the epoch, small
// numbers, and the 2038 (int32) and 2106 (uint32) limits of Cassandra's
// local deletion times.
func rvTimes(t *rapid.T, label string) int64 {
	base := rapid.SampledFrom([]int64{0, 10, math.MaxInt32 - 1, math.MaxInt32, 1 << 32, math.MaxInt64 / 2}).Draw(t, label+" base")
	return base + rapid.Int64Range(-3, 3).Draw(t, label+" offset")
}

func rvPurgeCell(t *rapid.T) replica.Cell {
	ts := rapid.Int64Range(-2, 2).Draw(t, "ts")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return replica.Live("c", "v", ts)
	case 1:
		ttl := rapid.SampledFrom([]int32{1, 2, 60, maxTTL - 1, maxTTL}).Draw(t, "ttl")
		return replica.Expiring("c", "v", ts, ttl, max(rvTimes(t, "expiry"), int64(ttl)))
	}
	return replica.Tombstone("c", ts, max(rvTimes(t, "ldt"), 0))
}

// Read-time purge of one cell is Cassandra's, at every read time and
// gcBefore, near the 2038 and 2106 limits, for huge TTLs and for a
// gc_grace_seconds of 0 (gcBefore = now).
func TestCellPurgeIsCassandras(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := rvPurgeCell(t)
		p := replica.NewPartition("k", replica.NewRow("r", c))
		if p.Validate() != nil {
			t.Skip("invalid")
		}
		now := max(rvTimes(t, "now"), 0)
		gc := now - rapid.SampledFrom([]int64{0, 1, 2, 10, 864000}).Draw(t, "gc grace")
		want, kept := rvCassandraCellPurge(c, now, gc)
		got := p.Purge(now, gc)
		if !kept {
			require.Empty(t, got.Rows, "cell %+v at now %d gcBefore %d", c, now, gc)
			return
		}
		require.Len(t, got.Rows, 1)
		require.Len(t, got.Rows[0].Cells, 1)
		require.True(t, want.Equal(got.Rows[0].Cells[0]), "cell %+v at now %d gcBefore %d: got %+v, Cassandra %+v",
			c, now, gc, got.Rows[0].Cells[0], want)
		require.NoError(t, got.Validate())
	})
}

// Expired row liveness is dropped exactly when Cassandra's purger drops it.
func TestLivenessPurgeIsCassandras(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ttl := rapid.SampledFrom([]int32{1, 60, maxTTL}).Draw(t, "ttl")
		l := replica.InsertedWithTTL(rapid.Int64Range(1, 3).Draw(t, "ts"), ttl, max(rvTimes(t, "expiry"), 1))
		if rapid.Bool().Draw(t, "not expiring") {
			l = replica.Inserted(l.Timestamp)
		}
		p := replica.NewPartition("k", replica.NewRow("r", replica.Live("c", "v", 9)).WithLiveness(l))
		require.NoError(t, p.Validate())
		now := max(rvTimes(t, "now"), 0)
		gc := now - rapid.SampledFrom([]int64{0, 1, 2, 864000}).Draw(t, "gc grace")
		got := p.Purge(now, gc)
		require.Len(t, got.Rows, 1)
		require.Equal(t, rvCassandraLivenessPurge(l, now, gc), got.Rows[0].Liveness, "liveness %+v at %d, gcBefore %d", l, now, gc)
	})
}

// Explicit boundaries, each as Cassandra's CellTest and purger decide them.
func TestPurgeBoundaries(t *testing.T) {
	const now = 1_000_000
	for _, tc := range []struct {
		name      string
		cell      replica.Cell
		now, gc   int64
		want      replica.Cell
		wantKept  bool
		wantAsMsg string
	}{
		{name: "expiring exactly at now becomes a tombstone of its write",
			cell: replica.Expiring("c", "v", 7, 100, now), now: now, gc: now - 1000,
			want: replica.Tombstone("c", 7, now-100), wantKept: true},
		{name: "expiring one second after now is live",
			cell: replica.Expiring("c", "v", 7, 100, now+1), now: now, gc: now - 1000,
			want: replica.Expiring("c", "v", 7, 100, now+1), wantKept: true},
		{name: "gc_grace 0: an expired cell goes at once",
			cell: replica.Expiring("c", "v", 7, 100, now), now: now, gc: now},
		{name: "gc_grace 0, TTL 0 impossible; TTL 1 written at now-1 expires at now and goes",
			cell: replica.Expiring("c", "v", 7, 1, now), now: now, gc: now},
		{name: "converted tombstone exactly at gcBefore is kept",
			cell: replica.Expiring("c", "v", 7, 100, now), now: now, gc: now - 100,
			want: replica.Tombstone("c", 7, now-100), wantKept: true},
		{name: "converted tombstone one second before gcBefore goes",
			cell: replica.Expiring("c", "v", 7, 100, now), now: now, gc: now - 99},
		{name: "tombstone exactly at gcBefore is kept",
			cell: replica.Tombstone("c", 7, now-10), now: now, gc: now - 10,
			want: replica.Tombstone("c", 7, now-10), wantKept: true},
		{name: "tombstone one second before gcBefore goes",
			cell: replica.Tombstone("c", 7, now-11), now: now, gc: now - 10},
		{name: "tombstone at the epoch with gcBefore 0 is kept",
			cell: replica.Tombstone("c", 7, 0), now: 0, gc: 0,
			want: replica.Tombstone("c", 7, 0), wantKept: true},
		{name: "tombstone at the epoch with gcBefore 1 goes",
			cell: replica.Tombstone("c", 7, 0), now: 1, gc: 1},
		{name: "expiry at Cassandra 4.1's NO_DELETION_TIME (2^31-1) is an expiry, not 'live forever'",
			cell: replica.Expiring("c", "v", 7, 10, math.MaxInt32), now: math.MaxInt32, gc: math.MaxInt32 - 1000,
			want: replica.Tombstone("c", 7, math.MaxInt32-10), wantKept: true},
		{name: "expiry past 2106 (2^32+5) still expires",
			cell: replica.Expiring("c", "v", 7, 10, 1<<32+5), now: 1<<32 + 5, gc: 1<<32 - 1000,
			want: replica.Tombstone("c", 7, 1<<32-5), wantKept: true},
		{name: "the largest TTL, MAX_TTL, on a cell past 2038: expires normally",
			cell: replica.Expiring("c", "v", 7, maxTTL, math.MaxInt32+maxTTL), now: math.MaxInt32 + maxTTL, gc: math.MaxInt32,
			want: replica.Tombstone("c", 7, math.MaxInt32), wantKept: true},
		{name: "a tombstone with a negative timestamp is purged by its local deletion time only",
			cell: replica.Tombstone("c", -5, now-1), now: now, gc: now},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := replica.NewPartition("k", replica.NewRow("r", tc.cell))
			require.NoError(t, p.Validate())
			ref, refKept := rvCassandraCellPurge(tc.cell, tc.now, tc.gc)
			require.Equal(t, tc.wantKept, refKept, "the test's expectation is Cassandra's")
			got := p.Purge(tc.now, tc.gc)
			if !tc.wantKept {
				assert.Empty(t, got.Rows)
				return
			}
			require.Len(t, got.Rows, 1)
			require.Len(t, got.Rows[0].Cells, 1)
			assert.True(t, tc.want.Equal(got.Rows[0].Cells[0]), "got %+v, want %+v", got.Rows[0].Cells[0], tc.want)
			assert.True(t, ref.Equal(got.Rows[0].Cells[0]))
			// A replica answers the same, data and digest.
			cmd := replica.Command{Table: "t", Key: "k", NowInSec: tc.now, GCBefore: tc.gc}
			data, err := cmd.Respond(p)
			require.NoError(t, err)
			assert.True(t, got.Equal(data.Partition))
			cmd.DigestOnly = true
			dig, err := cmd.Respond(p)
			require.NoError(t, err)
			assert.Equal(t, got.Digest(), dig.Digest)
		})
	}
}

// A replica that compacted at an earlier read time (it answered, or
// purged, at t0 and gcBefore g0 and kept the result) answers a later read,
// data, digest and tombstone count, as one that did not: "replicas that
// compacted and replicas that did not agree". Compaction is modelled two
// ways: as Respond's answer to a whole read at t0 (which also drops what
// deletions cover, as Cassandra's compaction does), and as Partition.Purge.
func TestCompactedReplicaAnswersAlike(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		if p.Validate() != nil {
			t.Skip("invalid")
		}
		cmd := commandGen(t, p)
		t0 := rapid.Int64Range(0, cmd.NowInSec).Draw(t, "t0")
		g0 := rapid.Int64Range(-1, min(t0, cmd.GCBefore)).Draw(t, "g0")
		whole := replica.Command{Table: cmd.Table, Key: p.Key, NowInSec: t0, GCBefore: g0}
		answered, err := whole.Respond(p)
		require.NoError(t, err)
		for name, compacted := range map[string]replica.Partition{
			"answered": answered.Partition,
			"purged":   p.Purge(t0, g0),
		} {
			require.NoError(t, compacted.Validate(), name)
			for _, digestOnly := range []bool{false, true} {
				cmd.DigestOnly = digestOnly
				want, wantErr := cmd.Respond(p)
				got, gotErr := cmd.Respond(compacted)
				require.Equal(t, wantErr == nil, gotErr == nil, "%s: errors %v and %v", name, wantErr, gotErr)
				if wantErr != nil {
					continue
				}
				require.Equal(t, want.Digest, got.Digest, "%s: digest", name)
				require.True(t, want.Partition.Equal(got.Partition), "%s (compacted at %d, %d):\n got  %v\n want %v\n cmd %+v",
					name, t0, g0, got.Partition, want.Partition, cmd)
				require.Equal(t, want.Tombstones, got.Tombstones, "%s: tombstones", name)
			}
		}
	})
}
