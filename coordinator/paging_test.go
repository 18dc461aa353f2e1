package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
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
// with another table, key, query or column selection, are refused.
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
			"another table": {Table: "other", Key: key, Query: q, PagingState: state},
		} {
			if req.Table == "" {
				req.Table = tbl
			}
			req.Level = consistency.Quorum
			_, err := e.c.Read(context.Background(), req)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
			assert.ErrorIs(t, err, replica.ErrInvalidPagingState, name)
		}
	})
}

// An empty paging state is no state, as a driver's zero-length state is
// and as JSON's "" decodes: it reads the first page, from Read and from
// ReadMany, and is not refused as a corrupt one.
func TestAnEmptyPagingStateReadsTheFirstPage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a", "b")
		q := replica.Query{Limit: 2}
		first, state := page(t, e.c, "a", q, nil, consistency.Quorum)
		empty, emptyState := page(t, e.c, "a", q, []byte{}, consistency.Quorum)
		assert.Equal(t, first, empty)
		assert.Equal(t, state, emptyState)

		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Quorum, Limit: 2, NowInSec: now}
		want := pagesOf(t, e.c, req)
		req.PagingState = []byte{}
		assert.Equal(t, want, pagesOf(t, e.c, req))
	})
}
