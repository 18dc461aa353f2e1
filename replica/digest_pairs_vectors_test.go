package replica_test

import (
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	r "github.com/readpath/readpath/replica"
)

// Pairs of stored versions, one element apart, and whether a read digests
// them alike. Alike: what one holds and the other does not is purged,
// covered, past the limit or outside the columns at the read. Unlike: the
// two would show differently once a later write arrives, so the mismatch
// has something to repair (Cassandra digests each of these pairs apart
// too).
func TestDigestPairVectors(t *testing.T) {
	del := r.DeletedAt
	p := func(rows ...r.Row) r.Partition { return r.NewPartition("k", rows...) }
	rt := func(s, e r.Bound, ts, ldt int64) r.RangeTombstone { return r.NewRangeTombstone(s, e, del(ts, ldt)) }
	live := func(c string) r.Cell { return r.Live(c, "1", 9) }
	at := r.Command{Table: "t", Key: "k", NowInSec: 100, GCBefore: 20}
	limit1 := at
	limit1.Query.Limit = 1
	reversed1 := limit1
	reversed1.Query.Reversed = true
	onlyV := at
	onlyV.Columns = []string{"v"}
	for _, tt := range []struct {
		name  string
		a, b  r.Partition
		cmd   r.Command
		alike bool
	}{
		{"an expired cell and the tombstone it becomes", p(r.NewRow("a", r.Expiring("v", "x", 1, 10, 60))),
			p(r.NewRow("a", r.Tombstone("v", 1, 50))), at, true},
		{"an expired cell written before gcBefore and nothing", p(r.NewRow("a", r.Expiring("v", "x", 1, 10, 25))),
			p(), at, true},
		{"a purgeable cell tombstone on one side", p(r.NewRow("a", r.Tombstone("v", 1, 10), live("w"))),
			p(r.NewRow("a", live("w"))), at, true},
		{"a purgeable range tombstone on one side", p().WithRangeTombstones(rt(r.StartAt("a"), r.EndAt("c"), 5, 10)),
			p(), at, true},
		{"a purgeable complex deletion on one side", p(r.NewRow("a", live("m").WithPath("x")).WithComplexDeletion("m", del(5, 10))),
			p(r.NewRow("a", live("m").WithPath("x"))), at, true},
		{"an expired liveness past gcBefore on one side", p(r.NewRow("a", live("v")).WithLiveness(r.InsertedWithTTL(5, 10, 15))),
			p(r.NewRow("a", live("v"))), at, true},
		{"a nil and an empty value", p(r.NewRow("a", r.Cell{Column: "v", Timestamp: 1})),
			p(r.NewRow("a", r.Cell{Column: "v", Value: []byte{}, Timestamp: 1})), at, true},
		{"a dead row past the limit on one side", p(r.NewRow("a", live("v")), r.NewRow("b", r.Tombstone("v", 2, 50))),
			p(r.NewRow("a", live("v"))), limit1, true},
		{"a range tombstone open at the limit, ending apart", p(r.NewRow("b", live("v"))).WithRangeTombstones(rt(r.StartAt("a"), r.EndAt("z"), 5, 50)),
			p(r.NewRow("b", live("v")), r.NewRow("c", live("v"))).WithRangeTombstones(rt(r.StartAt("a"), r.EndAt("y"), 5, 50)), limit1, true},
		{"a range tombstone open at a reversed limit, starting apart", p(r.NewRow("b", live("v"))).WithRangeTombstones(rt(r.Bottom(), r.EndAt("z"), 5, 50)),
			p(r.NewRow("a", live("v")), r.NewRow("b", live("v"))).WithRangeTombstones(rt(r.StartAt("a"), r.EndAt("z"), 5, 50)), reversed1, true},
		{"cells, a complex deletion and the static row outside the columns", p(r.NewRow("a", live("v"), live("w")).WithComplexDeletion("m", del(5, 50))).WithStatic(live("s")),
			p(r.NewRow("a", live("v"))), onlyV, true},
		{"a range tombstone of one row and that row's deletion", p().WithRangeTombstones(rt(r.StartAt("b"), r.EndAt("b"), 5, 50)),
			p(r.NewRow("b").WithDeletion(del(5, 50))), at, false},
		{"a collection's deletion and tombstones of the cells it held", p(r.NewRow("a", live("v")).WithComplexDeletion("m", del(5, 50))),
			p(r.NewRow("a", live("v"), r.Tombstone("m", 5, 50).WithPath("x"))), at, false},
		{"row liveness and none, a cell keeping the row", p(r.NewRow("a", live("v")).WithLiveness(r.Inserted(9))),
			p(r.NewRow("a", live("v"))), at, false},
		{"one range tombstone and its halves, one deleted later", p().WithRangeTombstones(rt(r.StartAt("a"), r.EndAt("c"), 5, 50)),
			p().WithRangeTombstones(rt(r.StartAt("a"), r.EndAt("b"), 5, 50), rt(r.StartAfter("b"), r.EndAt("c"), 5, 51)), at, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ra, rb := respondOK(t, tt.cmd, tt.a), respondOK(t, tt.cmd, tt.b)
			m, err := repair.Merge(ra, rb)
			if err != nil {
				t.Fatal(err)
			}
			_, aLacks := repair.Diff(m, ra)
			_, bLacks := repair.Diff(m, rb)
			if lacks := aLacks || bLacks; lacks == tt.alike {
				t.Errorf("a lacks %v, b lacks %v:\n answer a %v\n answer b %v", aLacks, bLacks, ra, rb)
			}
			for _, v := range []byte{digest.V1, digest.V2} {
				da, _ := ra.DigestAt(v)
				db, _ := rb.DigestAt(v)
				if (da == db) != tt.alike {
					t.Errorf("version %d: digests alike %v, want %v:\n answer a %v\n answer b %v", v, da == db, tt.alike, ra, rb)
				}
			}
		})
	}
}

func respondOK(t *testing.T, cmd r.Command, stored r.Partition) r.Partition {
	t.Helper()
	if err := stored.Validate(); err != nil {
		t.Fatal(err)
	}
	resp, err := cmd.Respond(stored)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Partition
}
