package repair_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A part of a partition built in one Blocks, given back to a merge in the
// same Blocks, is merged right: a part made of rows of new memory (Restrict
// to several slices copies the rows, not their cells) whose first row
// holds no cell still holds the merge's cells, which the merge must not
// build over as it reads them (found by review: row "d" came out holding
// row "b"'s cell, which the merge had written where "d"'s cell was).
func TestAPartOfAMergeThroughOneBlocksIsMerge(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks
	p, err := r.MergeIn(&b, replica.NewPartition("k",
		replica.NewRow("a").WithLiveness(replica.Inserted(1)), // an INSERT of the key alone: no cell
		replica.NewRow("d", replica.Live("x", "d-value", 1)),
		replica.NewRow("e", replica.Live("x", "e", 1)),
		replica.NewRow("f", replica.Live("x", "f", 1)),
		replica.NewRow("g", replica.Live("x", "g", 1))))
	require.NoError(t, err)
	part := p.Restrict(replica.Query{Slices: []replica.Slice{
		{Start: replica.StartAt("a"), End: replica.EndAt("a")},
		{Start: replica.StartAt("d"), End: replica.EndAt("d")},
	}})
	w := replica.NewPartition("k", replica.NewRow("b", replica.Live("y", "b-value", 2)))
	want := mustMerge(t, part, w)
	got, err := r.MergeIn(&b, part, w)
	require.NoError(t, err)
	requireSame(t, want, got, "the merge of a part of the last merge")
}

// The same over random versions and parts, through ResolveIn and MergeIn.
func TestPartsOfMergesThroughOneBlocksAreMerge(t *testing.T) {
	var r repair.Resolver
	rapid.Check(t, func(t *rapid.T) {
		var b repair.Blocks // holding the merge of p alone, so that a failure replays
		p, err := r.MergeIn(&b, genVersions(t)...)
		if err != nil {
			t.Fatal(err)
		}
		var slices []replica.Slice
		for _, rt := range anyTime.ranges(t) {
			slices = append(slices, replica.Slice{Start: rt.Start, End: rt.End})
		}
		q := replica.Query{Slices: slices}
		if err := q.Validate(); err != nil {
			t.Fatalf("query %v: %v", q, err)
		}
		part := p.Restrict(q)
		w := genVersion(t, "w")
		want := merge(t, part, w)
		var got replica.Partition
		if rapid.Bool().Draw(t, "resolve") {
			got, _, err = r.ResolveIn(&b, part, w)
		} else {
			got, err = r.MergeIn(&b, w, part)
		}
		if err != nil {
			t.Fatal(err)
		}
		requireEqual(t, "the merge of a part of the last merge", want, got)
	})
}

// A replica's answer to a read of some columns, from a partition built in
// one Blocks, given back to a merge in the same Blocks, is merged right: the
// answer's rows are new memory, each holding the cells of its row where
// they were when its selected columns are one run ("b"'s x) and a copy
// otherwise ("a"'s and "c"'s x and z), so that neither its first row nor its
// last holds a cell in the Blocks (found by review: row "b" came out holding
// row "a"'s z, which the merge had written where "b"'s x was).
func TestAnAnswerFromAMergeThroughOneBlocksIsMerge(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks
	p, err := r.MergeIn(&b, replica.NewPartition("k",
		replica.NewRow("a", replica.Live("x", "a-x", 1), replica.Live("y", "a-y", 1), replica.Live("z", "a-z", 1)),
		replica.NewRow("b", replica.Live("x", "b-x", 1)),
		replica.NewRow("c", replica.Live("x", "c-x", 1), replica.Live("y", "c-y", 1), replica.Live("z", "c-z", 1))))
	require.NoError(t, err)
	a, err := replica.Command{Key: "k", Columns: []string{"x", "z"}, NowInSec: 10}.Respond(p)
	require.NoError(t, err)
	w := replica.NewPartition("k", replica.NewRow("a", replica.Live("w1", "w1", 2), replica.Live("w2", "w2", 2)))
	want := mustMerge(t, a.Partition, w)
	got, err := r.MergeIn(&b, a.Partition, w)
	require.NoError(t, err)
	requireSame(t, want, got, "the merge of an answer from the last merge")
}

// A part of a partition built in one Blocks that kept none of its rows but
// its static row, given back to a merge in the same Blocks, is merged right:
// the static row's cells lie at the start of the Blocks' cells, where the
// merge builds the static row first, so the merge must see them there
// (Blocks.holdsAny looks at the static row's cells too) and not write a
// cell the part lacks over one it has not read yet.
func TestAStaticRowOfAMergeThroughOneBlocksIsMerge(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks
	p, err := r.MergeIn(&b, replica.NewPartition("k",
		replica.NewRow("r1", replica.Live("x", "1", 1), replica.Live("y", "1", 1)),
		replica.NewRow("r2", replica.Live("x", "2", 1), replica.Live("y", "2", 1)),
		replica.NewRow("r3", replica.Live("x", "3", 1), replica.Live("y", "3", 1)),
		replica.NewRow("r4", replica.Live("x", "4", 1), replica.Live("y", "4", 1)),
	).WithStatic(replica.Live("s2", "s2-value", 1), replica.Live("s3", "s3-value", 1)))
	require.NoError(t, err)
	part := p.Restrict(replica.Query{Slices: []replica.Slice{ // no row: the static row alone
		{Start: replica.StartAt("z"), End: replica.EndAt("z")},
	}})
	require.Empty(t, part.Rows)
	w := replica.NewPartition("k").WithStatic(replica.Live("s1", "s1-value", 2))
	want := mustMerge(t, part, w)
	got, err := r.MergeIn(&b, part, w)
	require.NoError(t, err)
	requireSame(t, want, got, "the merge of the static row of the last merge")
}
