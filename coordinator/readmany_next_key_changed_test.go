package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A key of a Next-made request changed in place, where a page that filled
// exactly leaves off, is read in the keys' new list.
//
// To a key no page read: the page names its cut key from the caller's
// list, not from Next's copy. It named the key the caller replaced, which
// the next page then read (d/1, d/2) and e, the key the list holds, never.
//
// To a key a page before read: it is read again, as the README says, since
// a request's keys are checked for repeats among themselves only (a page
// costs the keys it reads, not those the pages before read). A caller that
// wants other keys starts a new request.
func TestReadManyReadsAKeyChangedWhereAPageLeftOff(t *testing.T) {
	for _, tc := range []struct {
		to   string
		want []string
	}{
		{"e", []string{"a/1", "a/2", "b/1", "b/2", "c/1", "c/2", "e/1", "e/2"}},
		{"a", []string{"a/1", "a/2", "b/1", "b/2", "c/1", "c/2", "a/1", "a/2"}},
	} {
		t.Run("to "+tc.to, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				seedRows(t, e, 2, "a", "b", "c", "d", "e")
				req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "d"}, Level: consistency.Quorum,
					PageSize: 3, Concurrency: 1, NowInSec: now}
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				rows := manyRows(t, res)
				next, more := req.Next(res)
				require.True(t, more)
				require.Equal(t, []string{"b", "c", "d"}, next.Keys)
				next.Keys[2] = tc.to
				for more {
					res, err = e.c.ReadMany(context.Background(), next)
					require.NoError(t, err)
					rows = append(rows, manyRows(t, res)...)
					next, more = next.Next(res)
				}
				assert.Equal(t, tc.want, rows)
			})
		})
	}
}
