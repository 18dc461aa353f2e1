package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// page reads one page of q from the paging state and returns the rows a
// client sees, and the next state.
func page(t *testing.T, c *coordinator.Coordinator, k string, q replica.Query, state []byte, level consistency.Level) ([]string, []byte) {
	t.Helper()
	res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: level, Query: q,
		PagingState: state, NowInSec: now})
	require.NoError(t, err)
	var cks []string
	for _, r := range res.Visible().Rows {
		if !r.Static {
			cks = append(cks, r.Clustering)
		}
	}
	return cks, res.PagingState
}

// Pages of two rows, forward and reversed, over replicas that disagree:
// each page continues right after the last row of the one before, and the
// last page hands out no state.
func TestPagingResumesAfterTheLastRow(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			all := []string{"1", "2", "3", "4", "5", "6", "7"}
			e := srpEnv(t, coordinator.TableOptions{},
				seeded(t, all, del("2", 20)), seeded(t, all, del("5", 20)), seeded(t, all))
			q := replica.Query{Limit: 2, Reversed: reversed}
			var got [][]string
			var state []byte
			for {
				rows, next := page(t, e.c, key, q, state, consistency.All)
				got = append(got, rows)
				if next == nil {
					break
				}
				state = next
			}
			want := [][]string{{"1", "3"}, {"4", "6"}, {"7"}}
			if reversed {
				want = [][]string{{"6", "7"}, {"3", "4"}, {"1"}}
			}
			assert.Equal(t, want, got, "reversed %v", reversed)
		})
	}
}

// A paging state is opaque but checked: malformed bytes, or a state used
// with another key, query or column selection, are refused.
func TestPagingStateIsChecked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"1", "2", "3"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		q := replica.Query{Limit: 1}
		_, state := page(t, e.c, key, q, nil, consistency.Quorum)
		require.NotNil(t, state)
		for name, req := range map[string]coordinator.Request{
			"truncated":     {Key: key, Query: q, PagingState: state[:len(state)-1]},
			"garbage":       {Key: key, Query: q, PagingState: []byte("not a paging state")},
			"another key":   {Key: "other", Query: q, PagingState: state},
			"another query": {Key: key, Query: replica.Query{Limit: 1, Reversed: true}, PagingState: state},
			"other columns": {Key: key, Query: q, Columns: []string{"v"}, PagingState: state},
		} {
			req.Table, req.Level = tbl, consistency.Quorum
			_, err := e.c.Read(context.Background(), req)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
			assert.ErrorIs(t, err, replica.ErrInvalidPagingState, name)
		}
	})
}

// For random replica contents — live, deleted, expiring and expired rows
// and cells, range deletions, replicas that disagree — and random slices,
// orders and page sizes, paging through a partition at ALL returns exactly
// the rows a client sees of the merged partition, in order, each once.
func TestPagingYieldsEveryVisibleRowOnce(t *testing.T) {
	cl := instantCluster(t)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, DefaultTable: policy(t, "NEVER")})
	require.NoError(t, err)
	defer c.Close()
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		k := fmt.Sprint("paged", n)
		var versions []replica.Partition
		for _, r := range cl.Replicas() {
			p := genPartition(rt, k)
			require.NoError(rt, r.Seed(tbl, p))
			versions = append(versions, p)
		}
		q := replica.Query{Slices: genSlices(rt), Reversed: rapid.Bool().Draw(rt, "reversed"), Limit: rapid.IntRange(1, 6).Draw(rt, "page")}
		// What replicas answer is purged first, then merged, so the
		// reference merges purged versions too: an expired cell meets its
		// rivals as the tombstone it became (CASSANDRA-14592).
		for i := range versions {
			versions[i] = versions[i].Purge(now, now-864000)
		}
		merged, err := repair.Merge(versions...)
		require.NoError(rt, err)
		want := visibleRows(merged.Restrict(replica.Query{Slices: q.Slices}), q.Reversed)

		var got []string
		var state []byte
		for pages := 0; ; pages++ {
			require.Less(rt, pages, 40, "paging does not end")
			rows, next := page(t, c, k, q, state, consistency.All)
			if q.Reversed {
				rows = reverse(rows)
			}
			got = append(got, rows...)
			if next == nil {
				break
			}
			state = next
		}
		assert.Equal(rt, want, got)
	})
}

// visibleRows returns the clustering keys of p's visible rows, in the
// query's order.
func visibleRows(p replica.Partition, reversed bool) []string {
	var cks []string
	for _, r := range p.Visible(now).Rows {
		if !r.Static {
			cks = append(cks, r.Clustering)
		}
	}
	if reversed {
		cks = reverse(cks)
	}
	return cks
}

var clusterings = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// genPartition draws one replica's version: rows live, deleted, with
// expiring or expired cells, and maybe a range deletion.
func genPartition(t *rapid.T, k string) replica.Partition {
	var rows []replica.Row
	for _, ck := range clusterings {
		ts := int64(rapid.IntRange(1, 5).Draw(t, "ts"))
		switch rapid.IntRange(0, 5).Draw(t, "row "+ck) {
		case 1:
			rows = append(rows, ins(ck, ts))
		case 2:
			rows = append(rows, del(ck, ts))
		case 3:
			expiry := now + int64(rapid.IntRange(-20, 20).Draw(t, "expiry"))
			rows = append(rows, replica.NewRow(ck, replica.Expiring("v", "e", ts, 60, expiry)))
		case 4:
			rows = append(rows, replica.NewRow(ck, replica.Live("v", ck, ts), replica.Tombstone("w", ts, now-50)))
		}
	}
	p := replica.NewPartition(k, rows...)
	if rapid.IntRange(0, 3).Draw(t, "range?") == 0 {
		lo := rapid.IntRange(0, 8).Draw(t, "lo")
		hi := rapid.IntRange(lo, 9).Draw(t, "hi")
		p = p.WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt(clusterings[lo]), replica.EndAt(clusterings[hi]),
			replica.DeletedAt(int64(rapid.IntRange(1, 5).Draw(t, "rt ts")), now-60)))
	}
	return p
}

// genSlices draws nil (every row) or up to three ordered slices.
func genSlices(t *rapid.T) []replica.Slice {
	if rapid.Bool().Draw(t, "all rows") {
		return nil
	}
	var in []replica.Slice
	for range rapid.IntRange(1, 3).Draw(t, "slices") {
		lo := rapid.IntRange(0, 9).Draw(t, "from")
		hi := rapid.IntRange(lo, 9).Draw(t, "to")
		in = append(in, replica.Slice{Start: replica.StartAt(clusterings[lo]), End: replica.EndAt(clusterings[hi])})
	}
	out, err := replica.NormalizeSlices(in)
	if err != nil {
		t.Fatalf("NormalizeSlices: %v", err)
	}
	return out
}
