package coordinator

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A correct replica's answer (replica.Command.Respond) never holds a range
// tombstone checkRows refuses, whatever its slices (touching, prefix, of
// either bound kind), order, limit, columns, and the continuations a
// paging state or short-read protection asks (Query.After).
func TestRespondedRangeTombstonesAreInsideTheQuery(t *testing.T) {
	keys := []string{"", "a", "a\x00", "ab", "b", "b\x00", "c", "d"}
	start := func(t *rapid.T, label string) replica.Bound {
		k := rapid.SampledFrom(keys).Draw(t, label)
		switch rapid.IntRange(0, 2).Draw(t, label+"kind") {
		case 0:
			return replica.StartAt(k)
		case 1:
			return replica.StartAfter(k)
		}
		return replica.Bottom()
	}
	end := func(t *rapid.T, label string) replica.Bound {
		k := rapid.SampledFrom(keys).Draw(t, label)
		switch rapid.IntRange(0, 2).Draw(t, label+"kind") {
		case 0:
			return replica.EndAt(k)
		case 1:
			return replica.EndBefore(k)
		}
		return replica.Top()
	}
	rapid.Check(t, func(t *rapid.T) {
		var parts []replica.Partition
		for i := range rapid.IntRange(0, 6).Draw(t, "rts") {
			s, e := start(t, "rs"), end(t, "re")
			if s.Compare(e) >= 0 {
				continue
			}
			ts := int64(rapid.IntRange(1, 3).Draw(t, "ts"))
			parts = append(parts, replica.Partition{Key: "k"}.WithRangeTombstones(replica.NewRangeTombstone(s, e, replica.DeletedAt(ts, 10+int64(i)))))
		}
		for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom(keys[1:]), rapid.ID).Draw(t, "rows") {
			parts = append(parts, replica.NewPartition("k", replica.NewRow(k, replica.Live("v", "x", int64(rapid.IntRange(1, 4).Draw(t, "rowts"))))))
		}
		stored, err := repair.Merge(append(parts, replica.Partition{Key: "k"})...)
		if err != nil {
			t.Fatal(err)
		}
		var q replica.Query
		if rapid.Bool().Draw(t, "sliced") {
			var in []replica.Slice
			for range rapid.IntRange(0, 4).Draw(t, "slices") {
				if rapid.Bool().Draw(t, "prefix") {
					in = append(in, replica.PrefixSlice(rapid.SampledFrom(keys[1:]).Draw(t, "p")))
					continue
				}
				s, e := start(t, "ss"), end(t, "se")
				if s.Compare(e) < 0 {
					in = append(in, replica.Slice{Start: s, End: e})
				}
			}
			if q.Slices, err = replica.NormalizeSlices(in); err != nil {
				t.Fatal(err)
			}
		}
		q.Reversed = rapid.Bool().Draw(t, "reversed")
		q.Limit = rapid.IntRange(0, 3).Draw(t, "limit")
		for step := 0; step < 4; step++ {
			cmd := replica.Command{Table: "t", Key: "k", Query: q, NowInSec: 100}
			resp, err := cmd.Respond(stored)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkRows(&cmd, &resp.Partition, false); err != nil {
				t.Fatalf("query %+v over %v: a correct answer %v refused: %v", q, stored, resp.Partition, err)
			}
			last, ok := resp.Partition.LastClustering(q)
			if !ok {
				return
			}
			q = q.After(last)
		}
	})
}
