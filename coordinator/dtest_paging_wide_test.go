package coordinator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Ports of cassandra-dtest paging_test.py's TestPagingSize
// test_paging_a_single_wide_row and test_paging_across_multi_wide_rows: a
// partition of 10,000 rows, and an IN query over two of 5,000, read at ALL
// with a fetch size of 3,000, come back in pages of 3,000, 3,000, 3,000
// and 1,000, every row once. The dtest's clustering values are random
// UUIDs; here random hex, from a fixed seed.

// wideRows seeds key with n rows of random clustering values and returns
// them as key/clustering, sorted.
func wideRows(t *testing.T, e *env, r *rand.Rand, k string, n int) []string {
	t.Helper()
	rows, want := make([]replica.Row, 0, n), make([]string, 0, n)
	for len(rows) < n {
		ck := fmt.Sprintf("%016x", r.Uint64())
		rows = append(rows, ins(ck, 1))
		want = append(want, k+"/"+ck)
	}
	require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, rows...)))
	slices.Sort(want)
	return want
}

func TestDtestPagingASingleWideRow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		want := wideRows(t, e, rand.New(rand.NewPCG(1, 2)), "1", 10000)
		req := coordinator.Request{Table: tbl, Key: "1", Level: consistency.All, PageSize: 3000, NowInSec: now}
		var sizes []int
		var got []string
		for {
			require.Less(t, len(sizes), 10, "paging does not end")
			res, err := e.c.Read(context.Background(), req)
			require.NoError(t, err)
			rows := manyRows(t, []coordinator.KeyResult{{Key: "1", Result: res}})
			sizes, got = append(sizes, len(rows)), append(got, rows...)
			if res.PagingState == nil {
				break
			}
			req.PagingState = res.PagingState
		}
		assert.Equal(t, []int{3000, 3000, 3000, 1000}, sizes)
		assert.Equal(t, want, got)
	})
}

func TestDtestPagingAcrossMultiWideRows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		r := rand.New(rand.NewPCG(3, 4))
		want := append(wideRows(t, e, r, "1", 5000), wideRows(t, e, r, "2", 5000)...)
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"1", "2"}, Level: consistency.All, PageSize: 3000, NowInSec: now}
		var sizes []int
		var got []string
		for _, page := range pagesOf(t, e.c, req) {
			sizes, got = append(sizes, len(page)), append(got, page...)
		}
		assert.Equal(t, []int{3000, 3000, 3000, 1000}, sizes)
		assert.Equal(t, want, got)
	})
}
