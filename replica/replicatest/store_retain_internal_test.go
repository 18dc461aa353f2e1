package replicatest

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/readpath/readpath/replica"
)

// A fold that ends after a write replaced the entry it folds (a reader
// that took the entry just before the write) is garbage once that reader
// is done: later writes chain on to the writes, not on to the entry and
// its merged partition. With entries as the chain's links, 400 such reads
// of a 500-row partition kept 400 merged partitions alive, 200,000 rows.
func TestSupersededFoldsAreNotRetained(t *testing.T) {
	ctx := context.Background()
	r := NewReplica(replica.Endpoint{ID: "a"})
	const rows, rounds = 500, 400
	write := func(i int, ts int64) {
		p := replica.NewPartition("k", replica.NewRow(fmt.Sprintf("row%04d", i%rows), replica.Live("v", "x", ts)))
		if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: p}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rows {
		write(i, 1)
	}
	if _, err := r.Read(ctx, replica.Command{Table: "t", Key: "k"}); err != nil {
		t.Fatal(err)
	}
	var folds []weak.Pointer[view]
	for i := range rounds {
		e := r.data.get("t", "k")                  // a reader takes the newest entry,
		write(i, 2)                                // a write replaces it,
		folds = append(folds, weak.Make(e.view())) // and the reader folds it
	}
	runtime.GC()
	alive := 0
	for _, f := range folds {
		if f.Value() != nil {
			alive++
		}
	}
	if alive > 1 { // the newest chain's base may be one of them
		t.Fatalf("%d of %d superseded folds of %d rows are still reachable", alive, rounds, rows)
	}
	if got, _ := r.Partition("t", "k"); len(got.Rows) != rows {
		t.Fatalf("%d rows; want %d", len(got.Rows), rows)
	}
}
