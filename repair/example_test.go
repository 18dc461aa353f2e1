package repair_test

import (
	"fmt"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Three replicas answered a read of user:42 differently: one missed the new
// email, one missed the deletion of the phone number, one missed the row.
func ExampleMerge() {
	const t0 = 1700000000000000 // microseconds
	a := replica.NewPartition("user:42", replica.NewRow("profile",
		replica.Live("email", "ada@old.example", t0),
		replica.Tombstone("phone", t0+2, 1700000000),
	))
	b := replica.NewPartition("user:42", replica.NewRow("profile",
		replica.Live("email", "ada@example.com", t0+1),
		replica.Live("phone", "555-0100", t0),
	))
	c := replica.NewPartition("user:42")

	merged, err := repair.Merge(a, b, c)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cell := range merged.Rows[0].Cells {
		fmt.Printf("%s: %q tombstone=%v\n", cell.Column, cell.Value, cell.Tombstone)
	}
	for i, v := range []replica.Partition{a, b, c} {
		if d, stale := repair.Diff(merged, v); stale {
			fmt.Printf("repair replica %d with %d cell(s)\n", i, len(d.Rows[0].Cells))
		}
	}
	// Output:
	// email: "ada@example.com" tombstone=false
	// phone: "" tombstone=true
	// repair replica 0 with 1 cell(s)
	// repair replica 1 with 1 cell(s)
	// repair replica 2 with 2 cell(s)
}

func ExampleReconcile() {
	live := replica.Live("status", "active", 10)
	deleted := replica.Tombstone("status", 10, 1700000000)
	fmt.Println(repair.Reconcile(live, deleted).Tombstone) // a tie goes to the deletion
	// Output: true
}

func ExampleParseMode() {
	m, err := repair.ParseMode("async")
	fmt.Println(m, err)
	_, err = repair.ParseMode("sometimes")
	fmt.Println(err)
	// Output:
	// ASYNC <nil>
	// repair: unknown read repair mode "sometimes"
}
