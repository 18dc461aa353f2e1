package replica_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// queryPartitionGen draws partitions of every element, where rows inserted
// after every deletion are common, so that limits often stop inside range
// tombstones.
func queryPartitionGen() *rapid.Generator[replica.Partition] {
	return rapid.Custom(func(t *rapid.T) replica.Partition {
		p := partitionGen().Draw(t, "p")
		for i := range p.Rows {
			if rapid.Bool().Draw(t, "inserted last") {
				p.Rows[i].Liveness = replica.Inserted(5)
			}
		}
		return p
	})
}

// commandGen draws a command reading p by a random query, column
// selection, read time and tombstone threshold.
func commandGen(t *rapid.T, p replica.Partition) replica.Command {
	now, gc := readTimeGen(t)
	cmd := replica.Command{Table: "t", Key: p.Key, Query: queryGen().Draw(t, "query"), NowInSec: now, GCBefore: max(gc, 0)}
	if rapid.Bool().Draw(t, "columns") {
		cmd.Columns = sortedDistinct(t, "selected")
	}
	if rapid.IntRange(0, 3).Draw(t, "threshold") == 0 {
		cmd.TombstoneFailureThreshold = rapid.IntRange(1, 6).Draw(t, "failure threshold")
	}
	return cmd
}

// Respond's answer, data and digest, and its tombstone count are the
// reference's: filter, project, purge, then count in order and cut.
func TestRespondMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		cmd := commandGen(t, p)
		want := answerByReference(p, cmd)
		before := p.Clone()
		for _, digestOnly := range []bool{false, true} {
			cmd.DigestOnly = digestOnly
			resp, err := cmd.Respond(p)
			require.True(t, p.Equal(before), "Respond modified its input")
			if want.overwhelmed {
				var toe *replica.TombstoneOverwhelmingError
				require.True(t, errors.As(err, &toe), "got %v, want a tombstone overwhelming error", err)
				assert.Equal(t, replica.TombstoneOverwhelmingError{Table: "t", Key: p.Key,
					Tombstones: cmd.TombstoneFailureThreshold + 1, Threshold: cmd.TombstoneFailureThreshold}, *toe)
				continue
			}
			require.NoError(t, err)
			assert.Equal(t, want.tombstones, resp.Tombstones, "tombstones of %v", want.p)
			if digestOnly {
				assert.Equal(t, want.p.Digest(), resp.Digest, "digest")
				continue
			}
			if !want.p.Equal(resp.Partition) {
				t.Fatalf("answer to %+v\n got  %v\n want %v", cmd.Query, resp.Partition, want.p)
			}
			require.NoError(t, resp.Partition.Validate())
		}
	})
}

// LiveRows, Limit and LastClustering, applied to the unlimited answer,
// agree with the limited answer Respond gives.
func TestLimitAgreesWithRespond(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		cmd := commandGen(t, p)
		cmd.TombstoneFailureThreshold = 0
		q := cmd.Query
		limited, err := cmd.Respond(p)
		require.NoError(t, err)
		cmd.Query.Limit = 0
		unlimited, err := cmd.Respond(p)
		require.NoError(t, err)
		want := answerByReference(p, cmd)
		assert.Equal(t, want.live, unlimited.Partition.LiveRows(q, cmd.NowInSec), "live rows")

		got, reached := unlimited.Partition.Limit(q, cmd.NowInSec)
		if !got.Equal(limited.Partition) {
			t.Fatalf("Limit(%+v)\n got  %v\n want %v", q, got, limited.Partition)
		}
		regular := len(visibleRows(unlimited.Partition, cmd.NowInSec))
		assert.Equal(t, q.Limit > 0 && regular >= q.Limit, reached, "reached")
		if reached {
			last, ok := got.LastClustering(q)
			require.True(t, ok)
			assert.Equal(t, nthVisible(unlimited.Partition, q, cmd.NowInSec, q.Limit), last)
			assert.Equal(t, q.Limit, got.LiveRows(q, cmd.NowInSec))
		}
		again, reachedAgain := got.Limit(q, cmd.NowInSec)
		assert.True(t, again.Equal(got), "Limit is idempotent")
		assert.Equal(t, reached, reachedAgain)
	})
}

// nthVisible returns the clustering of the n-th visible row in q's order.
func nthVisible(p replica.Partition, q replica.Query, now int64, n int) string {
	shown := visibleRows(p, now)
	for _, i := range queryOrder(p, q.Reversed) {
		if shown[p.Rows[i].Clustering] {
			if n--; n == 0 {
				return p.Rows[i].Clustering
			}
		}
	}
	return ""
}

// Paging through a partition, each page asking q.After the last row of the
// one before, yields exactly the unlimited answer's rows, each once, in
// order; and the pages together hold what it holds.
func TestPagingYieldsEveryRowOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		cmd := commandGen(t, p)
		cmd.TombstoneFailureThreshold = 0
		q := cmd.Query
		q.Limit = rapid.IntRange(1, 3).Draw(t, "page size")
		cmd.Query.Limit = 0
		whole, err := cmd.Respond(p)
		require.NoError(t, err)

		var rows []replica.Row
		pages := []replica.Partition{}
		next := q
		for range len(p.Rows) + 2 {
			cmd.Query = next
			page, err := cmd.Respond(p)
			require.NoError(t, err)
			pages = append(pages, page.Partition)
			rows = append(rows, inOrder(page.Partition.Rows, q.Reversed)...)
			last, ok := page.Partition.LastClustering(q)
			if _, full := page.Partition.Limit(next, cmd.NowInSec); !ok || !full {
				break
			}
			next = q.After(last)
		}
		want := inOrder(whole.Partition.Rows, q.Reversed)
		require.Equal(t, len(want), len(rows), "rows: got %v", rows)
		for i := range want {
			assert.True(t, want[i].Equal(rows[i]), "row %d: got %v, want %v", i, rows[i], want[i])
		}
		merged, err := repair.Merge(pages...)
		require.NoError(t, err)
		canonical, err := repair.Merge(whole.Partition)
		require.NoError(t, err)
		assert.True(t, canonical.Equal(merged), "pages merged\n got  %v\n want %v", merged, canonical)
	})
}

func inOrder(rows []replica.Row, reversed bool) []replica.Row {
	out := append([]replica.Row(nil), rows...)
	if reversed {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// Restrict is the reference's filter; it keeps a partition valid and
// canonical, is idempotent, and commutes with Project, Purge and Merge, so
// that repair restricted to what a query read writes what a merge of
// restricted answers holds.
func TestRestrictLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := queryPartitionGen().Draw(t, "a"), queryPartitionGen().Draw(t, "b")
		b.Key = a.Key
		q := queryGen().Draw(t, "q")
		now, gc := readTimeGen(t)
		cols := sortedDistinct(t, "columns")
		ra := a.Restrict(q)
		samePartition(t, referenceRestrict(a, q.Slices), ra, "restricted")
		require.NoError(t, ra.Validate())
		samePartition(t, ra, ra.Restrict(q), "idempotent")
		samePartition(t, a.Purge(now, gc).Restrict(q), ra.Purge(now, gc), "purge")
		samePartition(t, a.Project(cols).Restrict(q), ra.Project(cols), "project")

		merged, err := repair.Merge(a, b)
		require.NoError(t, err)
		ofRestricted, err := repair.Merge(ra, b.Restrict(q))
		require.NoError(t, err)
		samePartition(t, ofRestricted, merged.Restrict(q), "merge")
	})
}

type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func samePartition(t fataler, want, got replica.Partition, what string) {
	t.Helper()
	if !want.Equal(got) {
		t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
	}
}
