package coordinator_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/coordinator"
)

// A request Next made, after one to three pages, one of whose keys after
// the first the caller changes in place reads, from then on, the pages a
// request built afresh with its fields (its state too) reads: the changed
// list, each key once, but for a key changed to one a page before read
// (read again, as the README says).
func TestReadManyKeyChangedInPlaceReadsAsAFreshList(t *testing.T) {
	cl, c := propertyCoordinator(t, policy(t, "NEVER"))
	e := &env{c: c, cluster: cl}
	seedRows(t, e, 3, "a", "b", "c", "d", "e", "f")
	rapid.Check(t, func(rt *rapid.T) {
		all := []string{"a", "b", "c", "d", "e", "f", "g"}
		req, more := pagedManyRequest(rt, e, all, 2, 12, 1, 1)
		if !more {
			return
		}
		if len(req.Keys) < 2 {
			return
		}
		j := rapid.IntRange(1, len(req.Keys)-1).Draw(rt, "j")
		to := rapid.SampledFrom(all).Draw(rt, "to")
		if slices.Contains(req.Keys[:j], to) {
			return // read again, as documented
		}
		req.Keys[j] = to
		fresh := coordinator.ManyRequest{Table: req.Table, Keys: append([]string(nil), req.Keys...), Level: req.Level, Limit: req.Limit,
			PageSize: req.PageSize, Query: req.Query, Concurrency: req.Concurrency, NowInSec: now, PagingState: req.PagingState}
		require.Equal(rt, pagesOf(t, e.c, fresh), pagesOf(t, e.c, req))
	})
}
