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

// Two replicas took different range deletions of a user's days; a third
// missed both. The merge keeps, over each stretch of days, the strongest
// deletion, and each replica is sent only the pieces it lacks.
func ExampleMerge_rangeTombstones() {
	day := func(d string) replica.Row { return replica.NewRow(d, replica.Live("visits", "1", 10)) }
	// DELETE ... WHERE day >= '02' AND day <= '05', at timestamp 20.
	a := replica.NewPartition("user:42").WithRangeTombstones(
		replica.NewRangeTombstone(replica.StartAt("02"), replica.EndAt("05"), replica.DeletedAt(20, 1700000000)))
	// DELETE ... WHERE day > '03', at timestamp 30.
	b := replica.NewPartition("user:42").WithRangeTombstones(
		replica.NewRangeTombstone(replica.StartAfter("03"), replica.Top(), replica.DeletedAt(30, 1700000100)))
	c := replica.NewPartition("user:42", day("01"), day("03"), day("04"))

	merged, _ := repair.Merge(a, b, c)
	fmt.Println(merged)
	for i, v := range []replica.Partition{a, b, c} {
		d, _ := repair.Diff(merged, v)
		fmt.Printf("replica %d lacks: %v\n", i, d)
	}
	fmt.Println(merged.Visible(1700000200))
	// Output:
	// partition "user:42": range ["02", "03"] deleted@20/1700000000; range ("03", max) deleted@30/1700000100; row "01" {visits="1"@10}
	// replica 0 lacks: partition "user:42": range ("03", max) deleted@30/1700000100; row "01" {visits="1"@10}
	// replica 1 lacks: partition "user:42": range ["02", "03"] deleted@20/1700000000; row "01" {visits="1"@10}
	// replica 2 lacks: partition "user:42": range ["02", "03"] deleted@20/1700000000; range ("03", max) deleted@30/1700000100
	// view "user:42": row "01" {visits="1"@10}
}

// A Resolver merges and diffs in one pass: here two replicas each missed
// one write.
func ExampleResolver() {
	const t0 = 1700000000000000 // microseconds
	a := replica.NewPartition("user:42", replica.NewRow("profile", replica.Live("email", "ada@example.com", t0+1)))
	b := replica.NewPartition("user:42", replica.NewRow("profile", replica.Live("phone", "555-0100", t0)))

	var r repair.Resolver // reuse it for the next read; not from two goroutines at once
	merged, diffs, err := r.Resolve(a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("merged:", merged)
	for i, d := range diffs {
		if !d.IsEmpty() {
			fmt.Printf("repair replica %d with %v\n", i, d)
		}
	}
	// Output:
	// merged: partition "user:42": row "profile" {email="ada@example.com"@1700000000000001, phone="555-0100"@1700000000000000}
	// repair replica 0 with partition "user:42": row "profile" {phone="555-0100"@1700000000000000}
	// repair replica 1 with partition "user:42": row "profile" {email="ada@example.com"@1700000000000001}
}
