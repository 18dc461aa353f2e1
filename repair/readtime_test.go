package repair_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// genReadTime draws a read's nowInSec and gcBefore, and versions that hold a
// common history (any time: what is purgeable in it reached every replica,
// as gc_grace_seconds assumes) and writes of their own made at or after
// gcBefore.
//
// Two expiring writes of one cell with one timestamp expire together here.
// Were they to expire apart, the read would depend on where the first
// expired: Cassandra's reconciliation (Cells.reconcile, 5.0) prefers the
// later of two expiring cells, but a tombstone over an expiring cell, so
// once the earlier has expired and become a tombstone on one replica, it
// hides the later one, which the merge of the replicas' full data still
// shows. readpath follows Cassandra there; real writes rarely share a
// microsecond timestamp.
func genReadTime(t *rapid.T) (vs []replica.Partition, now, gcBefore int64) {
	now = rapid.Int64Range(0, 6).Draw(t, "now")
	gcBefore = rapid.Int64Range(0, now).Draw(t, "gcBefore")
	common := times{from: 1, to: 3, expiryTimestamps: true}.version(t, "common")
	recent := times{from: max(gcBefore, 1), to: max(gcBefore, 1) + 2, expiryTimestamps: true}
	vs = make([]replica.Partition, rapid.IntRange(1, 3).Draw(t, "versions"))
	for i := range vs {
		vs[i] = merge(t, common, recent.version(t, "own"))
	}
	return vs, now, gcBefore
}

func requireSameView(t *rapid.T, what string, want, got replica.View) {
	if !want.Equal(got) {
		t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
	}
}

// What a read returns — the merge of what each replica answers, purged at
// the read's time — shows what the merge of the replicas' full data shows
// at that time, purged or not. The purged partitions themselves may differ:
// an expired cell becomes a tombstone dated when it was written, which may
// beat or lose to another replica's tombstone differently
// (CASSANDRA-14592).
func TestVisibleOfMergedPurgesEqualsPurgedMerge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs, now, gc := genReadTime(t)
		purged := make([]replica.Partition, len(vs))
		for i, v := range vs {
			purged[i] = v.Purge(now, gc)
		}
		read := merge(t, purged...).Visible(now)
		whole := merge(t, vs...)
		requireSameView(t, fmt.Sprintf("now %d gcBefore %d\nversions %v\npurged %v\nthe merge of purged versions against the purged merge",
			now, gc, vs, purged), whole.Purge(now, gc).Visible(now), read)
		requireSameView(t, "the merge of purged versions against the merge", whole.Visible(now), read)
	})
}

// Purging a merge leaves it canonical: merging it again changes nothing.
func TestPurgeKeepsMergesCanonical(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		now := rapid.Int64Range(0, 6).Draw(t, "now")
		p := merge(t, vs...).Purge(now, rapid.Int64Range(0, now).Draw(t, "gcBefore"))
		requireEqual(t, "a purged merge merged again", p, merge(t, p))
	})
}

// Repairs computed from purged answers converge too: a replica that applies
// the diff of its purged answer, and is read again at the same time,
// answers the read's merge.
func TestRepairOfPurgedVersionsConverges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs, now, gc := genReadTime(t)
		purged := make([]replica.Partition, len(vs))
		for i, v := range vs {
			purged[i] = v.Purge(now, gc)
		}
		m := merge(t, purged...)
		for i, v := range vs {
			d, _ := repairDiff(m, purged[i])
			requireEqual(t, "a repaired replica read again", m, merge(t, v, d).Purge(now, gc))
		}
	})
}

// The corner case genReadTime avoids, pinned: two expiring writes of one
// cell at one timestamp, the first expired at the read's time. Merged whole,
// the later expiry wins and shows; answered by replicas that purge first,
// the expired one is a tombstone and wins, as in Cassandra 5.0
// (Cells.resolveRegular prefers a tombstone to an expiring cell of the same
// timestamp, and of two expiring cells the later expiry).
func TestExpiringCellsOfOneTimestampDependOnConversion(t *testing.T) {
	const now, gcBefore = 10, 0
	a := part("k", row("r", replica.Expiring("x", "early", 5, 5, 9))) // expired at 9
	b := part("k", row("r", replica.Expiring("x", "late", 5, 5, 11))) // expires at 11
	whole := mustMerge(t, a, b)
	requireSame(t, b, whole, "the whole merge")
	assert.False(t, whole.Visible(now).IsEmpty(), "the later write shows")
	read := mustMerge(t, a.Purge(now, gcBefore), b.Purge(now, gcBefore))
	requireSame(t, part("k", row("r", tomb("x", 5, 4))), read, "the merge of purged answers")
	assert.True(t, read.Visible(now).IsEmpty(), "the tombstone of the earlier write hides it")
}
