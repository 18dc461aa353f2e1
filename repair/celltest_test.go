package repair_test

import (
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Vectors ported from Cassandra's CellTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/CellTest.java), on Reconcile.

// testExpiringCellReconile: two expiring cells of TTL 1, given as (value,
// timestamp, expiry); winner 1 or 2 wins in both argument orders, 0 means
// they are equal.
func TestCellTestExpiringCellReconcile(t *testing.T) {
	type side struct {
		value  string
		ts     int64
		expiry int64
	}
	tests := []struct {
		name   string
		c1, c2 side
		winner int
	}{
		{"equal", side{"a", 1, 1}, side{"a", 1, 1}, 0},
		{"newer timestamp", side{"a", 2, 1}, side{"a", 1, 1}, 1},
		{"newer timestamp, smaller value", side{"a", 2, 1}, side{"val", 1, 2}, 1},
		{"later expiry", side{"a", 1, 2}, side{"a", 1, 1}, 1},
		{"later expiry, smaller value", side{"a", 1, 2}, side{"val", 1, 1}, 1},
		{"later expiry of the second", side{"a", 1, 1}, side{"val", 1, 2}, 2},
		{"same expiry: the larger value", side{"a", 1, 1}, side{"val", 1, 1}, 2},
		{"newer value", side{"b", 2, 1}, side{"a", 2, 1}, 1},
	}
	for _, tt := range tests {
		c1 := replica.Expiring("val", tt.c1.value, tt.c1.ts, 1, tt.c1.expiry)
		c2 := replica.Expiring("val", tt.c2.value, tt.c2.ts, 1, tt.c2.expiry)
		want := map[int]replica.Cell{0: c1, 1: c1, 2: c2}[tt.winner]
		if tt.winner == 0 && !c1.Equal(c2) {
			t.Fatalf("%s: the vector's cells differ", tt.name)
		}
		for _, got := range []replica.Cell{repair.Reconcile(c1, c2), repair.Reconcile(c2, c1)} {
			if !got.Equal(want) {
				t.Errorf("%s: got %+v, want %+v", tt.name, got, want)
			}
		}
	}
}

// ccCell is checkCommutes' cell: a tombstone made at now for ttl 0, a live
// cell for a negative ttl, else one expiring ttl seconds after now; all of
// value "a".
func ccCell(ts int64, ttl int32, now int64) replica.Cell {
	switch {
	case ttl == 0:
		return replica.Tombstone("c", ts, now)
	case ttl < 0:
		return replica.Live("c", "a", ts)
	}
	return replica.Expiring("c", "a", ts, ttl, now+int64(ttl))
}

func checkCommutes(t *testing.T, ts, tsDiff int64, ttl, ttlDiff int32, now int64, nowDiff int32) {
	t.Helper()
	a := ccCell(ts, ttl, now)
	b := ccCell(ts+tsDiff, ttl+ttlDiff, now+int64(nowDiff))
	if ab, ba := repair.Reconcile(a, b), repair.Reconcile(b, a); !ab.Equal(ba) {
		t.Fatalf("Reconcile(%+v, %+v) = %+v, but %+v the other way", a, b, ab, ba)
	}
}

// checkSameValueDifferentLivenessCommutes: same value, every mix of live,
// tombstone and expiring, timestamps and times apart by up to a minute and
// a year.
func TestCellTestSameValueDifferentLivenessCommutes(t *testing.T) {
	const now = 1700000000
	ts := int64(now) * 1000000
	tsDiffs := []int64{0, 1, 1000, 1000000, 60000000}
	ttls := []int32{-1, 0, 1, 3600, 24 * 3600, 7 * 24 * 3600, 60 * 24 * 3600, 366 * 24 * 3600}
	ttlDiffs := []int32{0, 1, 60, 3600, 24 * 3600, 7 * 24 * 3600, 60 * 24 * 3600, 366 * 24 * 3600}
	for _, tsDiff := range tsDiffs {
		for _, ttl := range ttls {
			for _, ttlDiff := range ttlDiffs {
				for _, nowDiff := range ttlDiffs {
					checkCommutes(t, ts, tsDiff, ttl, ttlDiff, now, nowDiff)
				}
			}
		}
	}
}

// rewriteCellWithSmallerTTL: a cell rewritten later with the TTL it had
// left (SELECT v, TTL(v), WRITETIMESTAMP(v), then INSERT ... USING TTL and
// TIMESTAMP) has the same timestamp and expiry and a smaller TTL; at a TTL
// of 0 or less it is a tombstone or a live cell.
func TestCellTestRewriteCellWithSmallerTTL(t *testing.T) {
	const now, ttl = 1700000000, 3600
	for _, nowDiff := range []int32{0, 1, 60, 3600, 24 * 3600, 7 * 24 * 3600, 60 * 24 * 3600, 366 * 24 * 3600} {
		checkCommutes(t, int64(now)*1000000, 0, ttl, -nowDiff, now, nowDiff)
	}
}
