package coordinator

import (
	"slices"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A continuation that carries a newer partition deletion (its replica took
// a write between the rounds) deletes rows before the mark, so the count
// kept there no longer holds: the mark is dropped and the merge counted
// again from its first row. Here the first round merges to a (live),
// b (deleted), c (live) at limit 2; A, which ended at b, is asked for more
// and answers the partition deleted after every row was written: no live
// row is left, so B, which ended at c, must be asked for more too
// (Cassandra's ShortReadRowsProtection counts the merged result as it
// stands). Kept, the mark would count a live through b, and c would fill
// the page.
func TestAContinuationDeletingThePartitionDropsTheShortReadMark(t *testing.T) {
	live := func(clustering string) replica.Row { return replica.NewRow(clustering, replica.Live("v", "x", 1)) }
	q := replica.Query{Limit: 2}
	vs := []version{
		{part: replica.NewPartition("k", live("a"), live("b"))},
		{part: replica.NewPartition("k", live("a"), replica.Row{Clustering: "b", Deletion: replica.DeletedAt(2, 50)}, live("c"))},
	}
	r := &read{readState: readState{q: q, nowInSec: 100}}
	s, err := r.newShortReads(vs)
	if err != nil {
		t.Fatal(err)
	}
	if asks := r.shortReplicas(vs, s); !slices.Equal(asks, []int{0}) {
		t.Fatalf("first round asked %v, want [0]: the merge holds one live row through b, two through c", asks)
	}
	last := s.ends[0]
	c := replica.Partition{Key: "k", Deletion: replica.DeletedAt(5, 90)}
	if err := s.add(vs, 0, c); err != nil {
		t.Fatal(err)
	}
	s.noteAnswer(0, c, q.After(last))
	if m := s.mark; m.counted && s.countThrough(tally{}, m.key).n != m.n {
		t.Fatalf("the mark counts %d live rows through %q, the merge holds %d", m.n, m.key, s.countThrough(tally{}, m.key).n)
	}
	if asks := r.shortReplicas(vs, s); !slices.Equal(asks, []int{1}) {
		t.Fatalf("second round asked %v, want [1]: after the partition deletion the merge holds no live row", asks)
	}
}

// Under ASYNC read repair, as under BLOCKING, a version grows with its
// replica's continuations: its repair's diff is what the replica lacks of
// the merge (DESIGN.md 2.3, step 5), so the rows of its first answer must
// stay in it, not be replaced by the continuation as they are when
// nothing is repaired (NONE).
func TestShortReadVersionsGrowUnderAsyncRepair(t *testing.T) {
	live := func(clustering string) replica.Row { return replica.NewRow(clustering, replica.Live("v", "x", 1)) }
	q := replica.Query{Limit: 1}
	vs := []version{
		{part: replica.NewPartition("k", live("a"))},
		{part: replica.NewPartition("k", replica.Row{Clustering: "a", Deletion: replica.DeletedAt(2, 50)})},
	}
	r := &read{readState: readState{q: q, nowInSec: 100}}
	r.opts.ReadRepair = repair.Async
	s, err := r.newShortReads(vs)
	if err != nil {
		t.Fatal(err)
	}
	if asks := r.shortReplicas(vs, s); !slices.Equal(asks, []int{0}) {
		t.Fatalf("asked %v, want [0]: the merge holds no live row through a", asks)
	}
	if err := s.add(vs, 0, replica.NewPartition("k", live("b"))); err != nil {
		t.Fatal(err)
	}
	if want := replica.NewPartition("k", live("a"), live("b")); !vs[0].part.Equal(want) {
		t.Fatalf("version 0 is %v after its continuation, want %v", vs[0].part, want)
	}
}
