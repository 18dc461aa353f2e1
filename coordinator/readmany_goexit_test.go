package coordinator_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A key's read whose Locator calls runtime.Goexit (as t.FailNow does in a
// test's Locator) ends ReadMany's caller's goroutine, once the other keys'
// reads have returned, as it would end Read's. ReadMany returned the key,
// and the keys its goroutine would have taken next, as successes that read
// nothing (found by a review of concurrent use).
func TestReadManyKeyWhoseLocatorGoexitsEndsTheCaller(t *testing.T) {
	cl := instantCluster(t)
	for _, k := range []string{"a", "b", "c"} {
		require.NoError(t, cl.Seed(tbl, row(k, "v-"+k, 10)))
	}
	loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
		if k == "b" {
			runtime.Goexit()
		}
		return cl.Locate(table, k)
	})
	c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl})
	require.NoError(t, err)
	defer c.Close()
	for _, req := range []coordinator.ManyRequest{
		{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum, Concurrency: 1},
		{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum, Concurrency: 3, PageSize: 2},
	} {
		returned := make(chan []coordinator.KeyResult, 1)
		ended := make(chan struct{})
		go func() {
			defer close(ended)
			res, _ := c.ReadMany(context.Background(), req)
			returned <- res
		}()
		<-ended
		select {
		case res := <-returned:
			t.Errorf("ReadMany of concurrency %d, page size %d returned %d results after a key's read called Goexit",
				req.Concurrency, req.PageSize, len(res))
		default:
		}
	}
}
