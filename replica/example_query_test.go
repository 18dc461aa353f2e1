package replica_test

import (
	"fmt"

	"github.com/readpath/readpath/replica"
)

// A replica answers a query: the rows of a slice, newest first, two live
// rows at a time. The deleted row does not count (it counts as a
// tombstone); the answer ends at the second live row and holds its rows in
// ascending order. The next page continues strictly before that row,
// through a paging state that carries only where the page ended; a page
// with fewer live rows than the limit is the last.
func ExampleCommand_Respond_query() {
	const now = 1700000000
	day := func(d, visits string) replica.Row {
		return replica.NewRow("2024-01-"+d, replica.Live("visits", visits, now*1_000_000))
	}
	stored := replica.NewPartition("user:42",
		day("01", "3"), day("02", "5"), day("03", "1"),
		replica.NewRow("2024-01-04").WithDeletion(replica.DeletedAt(now*1_000_000, now)),
		day("05", "8"), day("06", "2"),
	)
	// SELECT * ... WHERE day >= '2024-01-02' AND day < '2024-01-06' ORDER BY day DESC LIMIT 2
	q := replica.Query{
		Slices:   []replica.Slice{{Start: replica.StartAt("2024-01-02"), End: replica.EndBefore("2024-01-06")}},
		Reversed: true,
		Limit:    2,
	}
	cmd := replica.Command{Table: "visits", Key: "user:42", Query: q, NowInSec: now, GCBefore: now - 864000}
	for page := 1; ; page++ {
		resp, err := cmd.Respond(stored)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("page %d: %v (%d tombstones)\n", page, clusterings(resp.Partition), resp.Tombstones)
		last, ok := resp.Partition.LastClustering(q)
		if _, full := resp.Partition.Limit(cmd.Query, now); !ok || !full {
			return
		}
		state, _ := replica.NewPagingState("visits", "user:42", q, nil, last).MarshalBinary()

		// ... the client hands state back with its next request ...
		var resumed replica.PagingState
		if err := resumed.UnmarshalBinary(state); err != nil {
			fmt.Println(err)
			return
		}
		cmd.Query, err = resumed.Resume("visits", "user:42", q, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// page 1: [2024-01-03 2024-01-04 2024-01-05] (1 tombstones)
	// page 2: [2024-01-02] (0 tombstones)
}
