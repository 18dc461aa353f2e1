package replica_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// widePartitionGen draws partitions of up to 24 rows and 18 range
// tombstones, several drawn partitions side by side, each under a prefix of
// its own: wide enough that a limit of a few rows stops well before the
// last row, where a replica may answer from the first rows alone.
func widePartitionGen() *rapid.Generator[wide] {
	return rapid.Custom(func(t *rapid.T) wide {
		var w wide
		blocks := rapid.IntRange(2, 6).Draw(t, "blocks")
		for b := range blocks {
			pre, next := string(rune('d'+b)), string(rune('d'+b+1))
			p := queryPartitionGen().Draw(t, "block")
			if b == 0 {
				w.p = replica.Partition{Key: p.Key, Deletion: p.Deletion, Static: p.Static}
			}
			for _, r := range p.Rows {
				r.Clustering = pre + r.Clustering
				w.p.Rows = append(w.p.Rows, r)
			}
			for _, rt := range p.RangeTombstones {
				rt.Start, rt.End = prefixed(rt.Start, pre, next), prefixed(rt.End, pre, next)
				w.p.RangeTombstones = append(w.p.RangeTombstones, rt)
			}
			q := queryGen().Draw(t, "block query")
			if q.Slices == nil {
				q.Slices = []replica.Slice{{Start: replica.StartAt(pre), End: replica.EndBefore(next)}}
			}
			for _, s := range q.Slices {
				w.slices = append(w.slices, replica.Slice{Start: prefixed(s.Start, pre, next), End: prefixed(s.End, pre, next)})
			}
		}
		if rapid.Bool().Draw(t, "crossing") { // a deletion across blocks, merged with theirs
			from := rapid.IntRange(0, blocks-1).Draw(t, "from block")
			to := rapid.IntRange(from, blocks-1).Draw(t, "to block")
			start := replica.StartAt(string(rune('d'+from)) + rapid.StringMatching(`[ab]`).Draw(t, "start"))
			end := replica.EndAt(string(rune('d'+to)) + rapid.StringMatching(`[bc]`).Draw(t, "end"))
			d := replica.DeletedAt(int64(rapid.IntRange(1, 12).Draw(t, "ts")), 50)
			crossing := replica.Partition{Key: w.p.Key, RangeTombstones: []replica.RangeTombstone{replica.NewRangeTombstone(start, end, d)}}
			merged, err := repair.Merge(w.p, crossing)
			if err != nil {
				t.Fatalf("merging a crossing range tombstone: %v", err)
			}
			w.p = merged
		}
		return w
	})
}

type wide struct {
	p      replica.Partition
	slices []replica.Slice
}

// prefixed returns b moved under prefix pre, whose keys lie before next.
func prefixed(b replica.Bound, pre, next string) replica.Bound {
	switch b.Kind {
	case replica.BoundBottom:
		return replica.StartAt(pre)
	case replica.BoundTop:
		return replica.EndBefore(next)
	}
	b.Clustering = pre + b.Clustering
	return b
}

// A limited read of a wide partition answers, counts tombstones and
// digests as the reference does, however far before its last row the
// limit stops it: a replica that answers from its first rows alone
// (answerWindow) must answer exactly as one that reads them all.
func TestRespondWideLimitedMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := widePartitionGen().Draw(t, "wide")
		require.NoError(t, w.p.Validate())
		cmd := commandGen(t, w.p)
		// Mostly small limits, which stop well before the last row; now and
		// then one up to the number of rows, where windows grow and give up.
		cmd.Query.Limit = rapid.IntRange(1, 4).Draw(t, "limit")
		if rapid.IntRange(0, 3).Draw(t, "wide limit") == 0 {
			cmd.Query.Limit = rapid.IntRange(1, max(1, len(w.p.Rows))).Draw(t, "limit up to the rows")
		}
		if rapid.Bool().Draw(t, "sliced") {
			cmd.Query.Slices = w.slices
		}
		want := answerByReference(w.p, cmd)
		resp, err := cmd.Respond(w.p)
		if want.overwhelmed {
			var toe *replica.TombstoneOverwhelmingError
			require.True(t, errors.As(err, &toe), "got %v, want a tombstone overwhelming error", err)
			return
		}
		require.NoError(t, err)
		require.Equal(t, want.tombstones, resp.Tombstones, "tombstones")
		if !want.p.Equal(resp.Partition) {
			t.Fatalf("answer to %+v\n got  %v\n want %v", cmd.Query, resp.Partition, want.p)
		}
		cmd.DigestOnly = true
		d, err := cmd.Respond(w.p)
		require.NoError(t, err)
		require.Equal(t, want.p.Digest(), d.Digest, "digest")
	})
}

// A read that reaches its limit before the tombstone failure threshold is
// answered, though the range tombstone it stopped in closes past the
// threshold: the closing marker lies after the limit, where the read never
// meets it. Answering from the first rows alone, a replica met that marker
// once its rows ran out, and refused the read.
func TestRespondLimitReachedBeforeTheThreshold(t *testing.T) {
	deleted := replica.DeletedAt(1, 50) // under the range tombstone: no tombstone
	stored := replica.Partition{Key: "k",
		RangeTombstones: []replica.RangeTombstone{replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(2, 60))},
		Rows: []replica.Row{
			replica.NewRow("a").WithDeletion(deleted), replica.NewRow("b").WithDeletion(deleted),
			replica.NewRow("c").WithLiveness(replica.Inserted(5)), replica.NewRow("d").WithLiveness(replica.Inserted(5)),
		}}
	require.NoError(t, stored.Validate())
	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 100, Query: replica.Query{Limit: 1}, TombstoneFailureThreshold: 1}
	resp, err := cmd.Respond(stored)
	require.NoError(t, err)
	require.Equal(t, 1, resp.Tombstones, "the range tombstone's opening marker")
	last, _ := resp.Partition.LastClustering(cmd.Query)
	require.Equal(t, "c", last)
}
