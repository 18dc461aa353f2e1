package replicatest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Small alphabets, so that writes meet: same rows, same columns, ties.
var (
	writeClustering = rapid.SampledFrom([]string{"a", "b", "c", "d", "e"})
	writeColumn     = rapid.SampledFrom([]string{"x", "y"})
	writeTime       = rapid.Int64Range(0, 3)
	writeLocalTime  = rapid.Int64Range(1, 3)
)

// writeCell draws a live, expiring or deleted cell of writeColumn.
func writeCell(t *rapid.T) replica.Cell {
	col, ts := writeColumn.Draw(t, "column"), writeTime.Draw(t, "ts")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return replica.Live(col, fmt.Sprint(rapid.IntRange(0, 2).Draw(t, "value")), ts)
	case 1:
		return replica.Expiring(col, "e", ts, 2, writeLocalTime.Draw(t, "expiresAt")+2)
	}
	return replica.Tombstone(col, ts, writeLocalTime.Draw(t, "ldt"))
}

// Writes are held unmerged up to minFold, or as many as the rows they are
// to be merged into, so that a burst of writes is merged once: this is
// what keeps writing a wide partition a row at a time linear (see
// BenchmarkWriteWidePartition).
func TestWritesAreMergedOnceAReadNeedsThem(t *testing.T) {
	ctx := context.Background()
	r := NewReplica(replica.Endpoint{ID: "a"})
	write := func(i int) {
		p := replica.NewPartition("k", replica.NewRow(fmt.Sprintf("row%04d", i), replica.Live("v", "x", 1)))
		if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: p}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range minFold {
		write(i)
	}
	if e := r.data.get("t", "k"); e.n != minFold || e.folded.Load() {
		t.Fatalf("after %d writes: %d held, folded %v; want all held, none merged", minFold, e.n, e.folded.Load())
	}
	write(minFold) // one more than minFold and the rows: merged now
	if e := r.data.get("t", "k"); !e.folded.Load() || len(e.v.p.Rows) != minFold+1 {
		t.Fatalf("after %d writes: folded %v; want %d rows merged", minFold+1, e.folded.Load(), minFold+1)
	}
	for i := range minFold + 1 { // now as many as the rows
		write(minFold + 1 + i)
	}
	e := r.data.get("t", "k")
	if e.n != minFold+1 || e.folded.Load() {
		t.Fatalf("%d writes held, folded %v; want %d held", e.n, e.folded.Load(), minFold+1)
	}
	if _, err := r.Read(ctx, replica.Command{Table: "t", Key: "k"}); err != nil {
		t.Fatal(err)
	}
	if !e.folded.Load() || len(e.v.p.Rows) != 2*(minFold+1) {
		t.Fatalf("after a read: folded %v, %d rows", e.folded.Load(), len(e.v.p.Rows))
	}
}

// runs joins one-row writes to different rows, in any order, into one
// partition, and gives as many runs as a row is written times; writes
// holding anything but rows stay apart. Whatever it joins merges to what
// the writes merge to.
func TestRunsJoinWritesOfDifferentRows(t *testing.T) {
	one := func(c string, ts int64) replica.Partition {
		return replica.NewPartition("k", replica.NewRow(c, replica.Live("v", "x", ts)))
	}
	ps := []replica.Partition{one("c", 1), one("a", 1), one("d", 1), one("b", 1)}
	if got := runs(ps); len(got) != 1 || len(got[0].Rows) != 4 || got[0].Validate() != nil {
		t.Fatalf("four rows: %d runs %+v; want one of four rows", len(got), got)
	}
	ps = []replica.Partition{one("a", 1), one("b", 1), one("a", 2), one("a", 3), one("c", 1)}
	if got := runs(ps); len(got) != 3 {
		t.Fatalf("a written three times: %d runs %+v; want 3", len(got), got)
	}
	deleted := one("b", 1).WithDeletion(replica.DeletedAt(1, 1))
	if got := runs([]replica.Partition{one("a", 1), deleted, one("c", 1)}); len(got) != 2 {
		t.Fatalf("with a partition deletion: %d runs %+v; want it apart and one run", len(got), got)
	}
	rapid.Check(t, func(t *rapid.T) {
		ps := rapid.SliceOfN(wideWriteGen(), 1, 20).Draw(t, "writes")
		want, err := repair.Merge(ps...)
		if err != nil {
			t.Fatal(err)
		}
		rs := runs(append([]replica.Partition(nil), ps...))
		for _, r := range rs {
			if err := r.Validate(); err != nil {
				t.Fatalf("run %+v: %v", r, err)
			}
		}
		got, err := mergePairs(rs)
		if err == nil { // fold merges it into its base: a lone run is not merged before
			got, err = repair.Merge(got)
		}
		if err != nil || !got.Equal(want) {
			t.Fatalf("runs merge to %+v, %v; want %+v", got, err, want)
		}
	})
}

// Readers folding an entry while writes replace it see every write before
// their read and race with nothing (run with -race).
func TestWritesFoldWhileRead(t *testing.T) {
	ctx := context.Background()
	r := NewReplica(replica.Endpoint{ID: "a"})
	const writes = 300
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			seen := 0
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				resp, err := r.Read(ctx, replica.Command{Table: "t", Key: "k", DigestOnly: i%2 == 0})
				if err != nil {
					t.Error(err)
					return
				}
				if n := len(resp.Partition.Rows); i%2 == 1 && n < seen {
					t.Errorf("read %d rows after %d", n, seen)
					return
				} else if i%2 == 1 {
					seen = n
				}
			}
		})
	}
	for i := range writes {
		p := replica.NewPartition("k", replica.NewRow(fmt.Sprintf("row%04d", i), replica.Live("v", "x", 1)))
		if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: p}); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	if got, _ := r.Partition("t", "k"); len(got.Rows) != writes {
		t.Fatalf("%d rows; want %d", len(got.Rows), writes)
	}
}
