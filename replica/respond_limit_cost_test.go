package replica_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/readpath/readpath/replica"
)

// A limited read costs what its page holds, not what the partition holds
// after it: Cassandra's replica iterates its partition from the page's
// start and stops at the limit, so a page of 10 rows costs about the same
// at the start of a partition of 1,000 rows or of 16,000. Each case reads
// 10 rows and may allocate at most 16 KiB, where copying what lies after
// the page would allocate about 64 bytes a row or range tombstone.
func TestRespondLimitedPageCostsItsRows(t *testing.T) {
	const n, limit, bound = 16000, 10, 16 << 10
	key := func(i int) string { return fmt.Sprintf("c%06d", i) }
	rows := make([]replica.Row, n)
	for i := range rows {
		rows[i] = replica.NewRow(key(i), replica.Live("v", "x", 5))
	}
	// Each row's gap holds a range deletion, written in two touching
	// halves as a replica that has not compacted holds it: the answer
	// joins them, so every range tombstone it keeps must be rewritten.
	halves := make([]replica.RangeTombstone, 0, 2*n)
	for i := range n {
		mid := key(i) + "m"
		d := replica.DeletedAt(3, 100)
		halves = append(halves,
			replica.NewRangeTombstone(replica.StartAfter(key(i)), replica.EndBefore(mid), d),
			replica.NewRangeTombstone(replica.StartAt(mid), replica.EndAt(key(i)+"z"), d))
	}
	in := make([]replica.Slice, n/2) // IN on the even rows
	for i := range in {
		in[i] = replica.Slice{Start: replica.StartAt(key(2 * i)), End: replica.EndAt(key(2 * i))}
	}
	plain := replica.NewPartition("k", rows...)
	cases := []struct {
		name   string
		stored replica.Partition
		q      replica.Query
	}{
		{"split range tombstones, first page", plain.WithRangeTombstones(halves...), replica.Query{Limit: limit}},
		{"split range tombstones, reversed", plain.WithRangeTombstones(halves...), replica.Query{Limit: limit, Reversed: true}},
		{"split range tombstones, middle page", plain.WithRangeTombstones(halves...), replica.Query{Limit: limit}.After(key(n / 2))},
		{"IN of n/2 rows", plain, replica.Query{Slices: in, Limit: limit}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.stored.Validate(); err != nil {
				t.Fatal(err)
			}
			cmd := replica.Command{Table: "t", Key: "k", NowInSec: 1000, Query: c.q}
			resp, err := cmd.Respond(c.stored)
			if err != nil || len(resp.Partition.Rows) != limit {
				t.Fatalf("%d rows, %v; want %d", len(resp.Partition.Rows), err, limit)
			}
			if got := bytesPerCall(func() { cmd.Respond(c.stored) }); got > bound {
				t.Errorf("a page of %d rows of %d allocated %d bytes; want at most %d", limit, n, got, bound)
			}
		})
	}
}

// bytesPerCall returns the heap bytes f allocates, averaged over 4 calls.
func bytesPerCall(f func()) uint64 {
	const runs = 4
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs
}
