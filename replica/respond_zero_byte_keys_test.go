package replica_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

var wideKey = rapid.SampledFrom([]string{"", "\x00", "\x00\x00", "a", "a\x00", "a\x00\x00", "a\x01", "ab", "b", "b\x00"})

func wideBound(t *rapid.T, start bool) replica.Bound {
	k := wideKey.Draw(t, "k")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		if start {
			return replica.Bottom()
		}
		return replica.Top()
	case 1:
		if start {
			return replica.StartAt(k)
		}
		return replica.EndAt(k)
	}
	if start {
		return replica.StartAfter(k)
	}
	return replica.EndBefore(k)
}

func widePartition(t *rapid.T) replica.Partition {
	p := partitionGen().Draw(t, "base")
	keys := rapid.SliceOfNDistinct(wideKey, 0, 5, rapid.ID).Draw(t, "rowkeys")
	slices.Sort(keys)
	p.Rows = nil
	for _, k := range keys {
		p.Rows = append(p.Rows, rowGen(k).Draw(t, "row"))
	}
	var rts []replica.Slice
	for range rapid.IntRange(0, 4).Draw(t, "nrt") {
		rts = append(rts, replica.Slice{Start: wideBound(t, true), End: wideBound(t, false)})
	}
	norm, _ := replica.NormalizeSlices(rts)
	p.RangeTombstones = nil
	for _, s := range norm {
		p.RangeTombstones = append(p.RangeTombstones, replica.NewRangeTombstone(s.Start, s.End,
			replica.DeletedAt(smallInt.Draw(t, "ts"), positive.Draw(t, "ldt"))))
	}
	return p
}

func wideQuery(t *rapid.T) replica.Query {
	q := replica.Query{Reversed: rapid.Bool().Draw(t, "rev"), Limit: rapid.IntRange(0, 3).Draw(t, "limit")}
	if rapid.Bool().Draw(t, "all") {
		return q
	}
	var ss []replica.Slice
	for range rapid.IntRange(0, 3).Draw(t, "ns") {
		ss = append(ss, replica.Slice{Start: wideBound(t, true), End: wideBound(t, false)})
	}
	q.Slices, _ = replica.NormalizeSlices(ss)
	return q
}

// Respond against the reference, and paging through marshalled states,
// over row keys, range tombstone bounds and slices at keys holding zero
// bytes and prefixes of one another, which queryPartitionGen does not draw.
func TestRespondAndPagingOverZeroByteKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := widePartition(t)
		require.NoError(t, p.Validate())
		now, gc := readTimeGen(t)
		cmd := replica.Command{Table: "t", Key: p.Key, Query: wideQuery(t), NowInSec: now, GCBefore: max(gc, 0)}
		if rapid.IntRange(0, 3).Draw(t, "thr") == 0 {
			cmd.TombstoneFailureThreshold = rapid.IntRange(1, 6).Draw(t, "threshold")
		}
		want := answerByReference(p, cmd)
		resp, err := cmd.Respond(p)
		if want.overwhelmed {
			var toe *replica.TombstoneOverwhelmingError
			require.True(t, errors.As(err, &toe))
			return
		}
		require.NoError(t, err)
		require.Equal(t, want.tombstones, resp.Tombstones, "p=%v q=%+v", p, cmd.Query)
		if !want.p.Equal(resp.Partition) {
			t.Fatalf("q=%+v\n got  %v\n want %v", cmd.Query, resp.Partition, want.p)
		}
		require.NoError(t, resp.Partition.Validate())

		// Paging through marshalled states yields the unlimited answer's rows once each.
		if cmd.Query.Limit == 0 {
			return
		}
		cmd.TombstoneFailureThreshold = 0
		q := cmd.Query
		whole := cmd
		whole.Query.Limit = 0
		wr, err := whole.Respond(p)
		require.NoError(t, err)
		var got []string
		next := q
		for range len(p.Rows) + 2 {
			cmd.Query = next
			page, err := cmd.Respond(p)
			require.NoError(t, err)
			for _, r := range inOrder(page.Partition.Rows, q.Reversed) {
				got = append(got, r.Clustering)
			}
			last, ok := page.Partition.LastClustering(q)
			if _, full := page.Partition.Limit(next, now); !ok || !full {
				break
			}
			st := replica.NewPagingState("t", p.Key, q, nil, last)
			b, err := st.MarshalBinary()
			require.NoError(t, err)
			var st2 replica.PagingState
			require.NoError(t, st2.UnmarshalBinary(b))
			next, err = st2.Resume("t", p.Key, q, nil)
			require.NoError(t, err)
		}
		var want2 []string
		for _, r := range inOrder(wr.Partition.Rows, q.Reversed) {
			want2 = append(want2, r.Clustering)
		}
		require.Equal(t, want2, got)
	})
}
