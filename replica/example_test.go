package replica_test

import (
	"fmt"

	"github.com/readpath/readpath/replica"
)

// A table (user, day, visits, tags set, plan static) with a range deletion,
// an expiring cell and a row that exists by its INSERT alone: what a client
// reading at t sees.
func ExamplePartition_Visible() {
	const t = 1700000000 // the read's time, in seconds
	const us = 1_000_000 // timestamps are in microseconds
	p := replica.NewPartition("user:42",
		replica.NewRow("2024-01-01", replica.Live("visits", "3", (t-300)*us)),
		replica.NewRow("2024-01-02", replica.Live("visits", "5", (t-200)*us)),
		replica.NewRow("2024-01-03",
			replica.Expiring("visits", "1", (t-100)*us, 60, t-40), // expired 40 s ago
			replica.Live("tags", "", (t-100)*us).WithPath("mobile"),
		),
		replica.NewRow("2024-01-04").WithLiveness(replica.Inserted((t-50)*us)),
	).WithStatic(replica.Live("plan", "free", (t-1000)*us)).
		WithRangeTombstones(replica.NewRangeTombstone( // DELETE ... WHERE day < '2024-01-02'
			replica.Bottom(), replica.EndBefore("2024-01-02"), replica.DeletedAt((t-150)*us, t-150)))
	v := p.Visible(t)
	fmt.Println("static:", v.Static)
	for _, r := range v.Rows {
		fmt.Println(r.Clustering, r.Cells)
	}
	// Output:
	// static: [plan="free"@1699999000000000]
	// 2024-01-02 [visits="5"@1699999800000000]
	// 2024-01-03 [tags["mobile"]=""@1699999900000000]
	// 2024-01-04 []
}

// A replica answers from what it stores at the read's time: the expired cell
// is now a tombstone dated when it was written, and a tombstone older than
// gcBefore is gone.
func ExampleCommand_Respond() {
	stored := replica.NewPartition("k", replica.NewRow("r",
		replica.Live("a", "kept", 10),
		replica.Expiring("b", "expired", 20, 60, 1000), // written at 940, expired at 1000
		replica.Tombstone("c", 30, 100),                // deleted at 100
	))
	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 1500, GCBefore: 1500 - 900} // gc_grace_seconds 900
	resp, err := cmd.Respond(stored)
	fmt.Println(resp.Partition, err)

	cmd.DigestOnly = true
	d, _ := cmd.Respond(stored)
	fmt.Println(d.Digest == resp.Partition.Digest())
	// Output:
	// partition "k": row "r" {a="kept"@10, b deleted@20/940} <nil>
	// true
}
