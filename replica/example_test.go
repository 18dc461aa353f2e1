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

// The README's data model example: a row with a set element, an expired
// cell and its INSERT, a row that exists by its INSERT alone, a static
// column and a range deletion, as a client reading at now sees them
// (TestReadmeDataModelIsTheExample keeps the two the same).
func ExamplePartition_Visible_readme() {
	const now = 1700000000 // the read's time, s
	const us = 1_000_000   // timestamps are µs
	p := replica.NewPartition("user:42",
		replica.NewRow("2024-01-02",
			replica.Live("visits", "5", (now-200)*us),
			replica.Live("tags", "", (now-200)*us).WithPath("mobile"), // a set element
			replica.Expiring("token", "x", (now-200)*us, 60, now-140), // TTL 60 s: expired
		).WithLiveness(replica.Inserted((now-200)*us)), // INSERT: the row exists
		replica.NewRow("2024-01-03").WithLiveness(replica.Inserted((now-50)*us)),
	).WithStatic(
		replica.Live("plan", "free", (now-1000)*us), // one value per partition
	).WithRangeTombstones(replica.NewRangeTombstone( // DELETE ... WHERE day < '2024-01-02'
		replica.Bottom(), replica.EndBefore("2024-01-02"), replica.DeletedAt((now-150)*us, now-150)))

	fmt.Println(p.Visible(now))
	// Output:
	// view "user:42": static {plan="free"@1699999000000000}; row "2024-01-02" {tags["mobile"]=""@1699999800000000, visits="5"@1699999800000000}; row "2024-01-03" {}
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
