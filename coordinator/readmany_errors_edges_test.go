package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// sixNodes is a cluster of six nodes on three racks, RF 3: the keys a, b
// and c live on n1–n3, x on n4–n6, each seeded with rows 1 and 2.
func sixNodes(t *testing.T) *env {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 6}},
		Replication: consistency.Simple(3), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	for _, k := range []string{"a", "b", "c"} {
		require.NoError(t, cl.Pin(tbl, k, "dc1-r1-n1", "dc1-r2-n2", "dc1-r3-n3"))
	}
	require.NoError(t, cl.Pin(tbl, "x", "dc1-r1-n4", "dc1-r2-n5", "dc1-r3-n6"))
	e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER")})
	seedRows(t, e, 2, "a", "b", "c", "x")
	return e
}

// One key whose replicas are down fails alone, with its own
// UnavailableError (QUORUM: 2 required, 1 alive), counted once; the keys
// around it are read, in order, and nothing is sent for it.
func TestReadManyOneKeyUnavailable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := sixNodes(t)
		require.NoError(t, e.cluster.SetAlive("dc1-r1-n4", false))
		require.NoError(t, e.cluster.SetAlive("dc1-r2-n5", false))
		before := e.totalReads()
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl,
			Keys: []string{"a", "x", "b"}, Level: consistency.Quorum, NowInSec: now})
		require.NoError(t, err)
		require.Equal(t, []string{"a", "x", "b"}, keysOf(res))
		var u *consistency.UnavailableError
		require.ErrorAs(t, res[1].Err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.Quorum, Required: 2, Alive: 1}, *u)
		assert.Empty(t, res[1].Result.Trace.Requests, "nothing sent for x")
		assert.Equal(t, []string{"a/1", "a/2", "b/1", "b/2"}, manyRows(t, []coordinator.KeyResult{res[0], res[2]}))
		settle()
		assert.Equal(t, int64(4), e.totalReads()-before, "two requests for a, two for b")
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.Unavailable)
		assert.Equal(t, int64(0), m.Timeouts+m.Failures+m.Cancelled+m.OtherErrors)
	})
}

// An unavailable key inside a page holds no rows and does not end the
// page: the page of 3 takes a's two rows and b's first, and the next page
// resumes b; x is not read again.
func TestReadManyUnavailableKeyInsideAPage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := sixNodes(t)
		require.NoError(t, e.cluster.SetAlive("dc1-r1-n4", false))
		require.NoError(t, e.cluster.SetAlive("dc1-r2-n5", false))
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "x", "b", "c"}, Level: consistency.Quorum,
			PageSize: 3, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "x", "b"}, keysOf(res))
		var u *consistency.UnavailableError
		require.ErrorAs(t, res[1].Err, &u)
		assert.True(t, res[2].Cut)
		next, more := req.Next(res)
		require.True(t, more)
		assert.Equal(t, []string{"b", "c"}, next.Keys)
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"b/2", "c/1", "c/2"}, manyRows(t, res))
	})
}

// A key whose replicas hang times out with its own ReadTimeoutError
// (QUORUM: blockFor 2, none received, no data) at the read timeout, while
// the others return at once; only that read counts as a timeout.
func TestReadManyOneKeyTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := sixNodes(t)
		for _, id := range []string{"dc1-r1-n4", "dc1-r2-n5", "dc1-r3-n6"} {
			e.hangs(t, id)
		}
		start := time.Now()
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl,
			Keys: []string{"a", "x", "b"}, Level: consistency.Quorum, NowInSec: now})
		require.NoError(t, err)
		assert.Equal(t, 5*time.Second, time.Since(start), "the default read timeout")
		var to *consistency.ReadTimeoutError
		require.ErrorAs(t, res[1].Err, &to)
		assert.Equal(t, consistency.Quorum, to.Level)
		assert.Equal(t, 2, to.BlockFor)
		assert.Equal(t, 0, to.Received)
		assert.False(t, to.DataPresent)
		require.NoError(t, res[0].Err)
		require.NoError(t, res[2].Err)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.Timeouts)
		drain()
	})
}

// A context cancelled before ReadMany starts reads nothing: every key's
// error wraps context.Canceled, in key order, without repeats.
func TestReadManyContextCancelledBeforeStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 1, "a", "b", "c")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		before := e.totalReads()
		for _, size := range []int{0, 2} {
			res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "a", "c"},
				Level: consistency.One, PageSize: size, NowInSec: now})
			require.NoError(t, err)
			require.Equal(t, []string{"a", "b", "c"}, keysOf(res), "page size %d", size)
			for _, r := range res {
				assert.ErrorIs(t, r.Err, context.Canceled, r.Key)
				assert.False(t, r.Cut, r.Key)
			}
		}
		settle()
		assert.Equal(t, int64(0), e.totalReads()-before)
	})
}

// A caller's deadline that passes while keys remain: the reads running end
// with a ReadTimeoutError, the keys not started with an error wrapping
// context.DeadlineExceeded.
func TestReadManyDeadlineMidway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(100)))
		}
		keys := manyKeys(t, e, 6)
		ctx, cancel := context.WithTimeout(context.Background(), ms(150))
		defer cancel()
		res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, Concurrency: 2})
		require.NoError(t, err)
		require.Len(t, res, 6)
		for i, r := range res {
			switch {
			case i < 2:
				assert.NoError(t, r.Err, r.Key)
			case i < 4:
				var to *consistency.ReadTimeoutError
				assert.ErrorAs(t, r.Err, &to, r.Key)
			default:
				assert.ErrorIs(t, r.Err, context.DeadlineExceeded, r.Key)
				assert.ErrorContains(t, r.Err, "not started", r.Key)
			}
		}
	})
}

// Requests ReadMany cannot run are refused with a typed error, before
// anything is read.
func TestReadManyRefusesBadRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 1, "a", "b")
		before := e.totalReads()
		ok := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.One}
		bad := map[string]func(r *coordinator.ManyRequest){
			"empty keys":           func(r *coordinator.ManyRequest) { r.Keys = []string{} },
			"negative limit":       func(r *coordinator.ManyRequest) { r.Limit = -1 },
			"negative query limit": func(r *coordinator.ManyRequest) { r.Query.Limit = -1 },
			"negative page size":   func(r *coordinator.ManyRequest) { r.PageSize = -5 },
			"negative now":         func(r *coordinator.ManyRequest) { r.NowInSec = -1 },
			"empty second key":     func(r *coordinator.ManyRequest) { r.Keys = []string{"a", "b", ""} },
			"serial":               func(r *coordinator.ManyRequest) { r.Level = consistency.Serial },
			"garbage state":        func(r *coordinator.ManyRequest) { r.PagingState = []byte{1, 2, 3} },
		}
		for name, f := range bad {
			req := ok
			f(&req)
			_, err := e.c.ReadMany(context.Background(), req)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
		}
		var noCtx context.Context // a nil context is the bad input here
		_, err := e.c.ReadMany(noCtx, ok)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, "nil context")
		settle()
		assert.Equal(t, int64(0), e.totalReads()-before, "a refused request reads nothing")
		require.NoError(t, e.c.Close())
		_, err = e.c.ReadMany(context.Background(), ok)
		assert.True(t, errors.Is(err, coordinator.ErrClosed))
		// Closed is checked first, as Read checks it: a caller's request
		// is not judged by a coordinator that would not run it anyway.
		for name, f := range bad {
			req := ok
			f(&req)
			_, err := e.c.ReadMany(context.Background(), req)
			assert.ErrorIs(t, err, coordinator.ErrClosed, name)
			_, err = e.c.Read(context.Background(), coordinator.Request{Table: req.Table, Level: req.Level})
			assert.ErrorIs(t, err, coordinator.ErrClosed, name)
		}
	})
}

// A paging state is bound to its key, query and columns: one fed back
// with the query's per-partition limit, order, slices or columns changed
// is refused, as is one for a key that is not the list's first.
func TestReadManyRefusesAStateOfAnotherQuery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 4, "a", "b")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 3}, Columns: []string{"v"}, PageSize: 2, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)
		require.NotEmpty(t, next.PagingState)
		for name, f := range map[string]func(r *coordinator.ManyRequest){
			"per-partition limit": func(r *coordinator.ManyRequest) { r.Query.Limit = 4 },
			"reversed":            func(r *coordinator.ManyRequest) { r.Query.Reversed = true },
			"slices": func(r *coordinator.ManyRequest) {
				r.Query.Slices = []replica.Slice{{Start: replica.StartAt("1"), End: replica.EndBefore("9")}}
			},
			"columns":   func(r *coordinator.ManyRequest) { r.Columns = nil },
			"first key": func(r *coordinator.ManyRequest) { r.Keys = []string{"b"} },
			"table":     func(r *coordinator.ManyRequest) { r.Table = "other" },
		} {
			bad := next
			f(&bad)
			_, err := e.c.ReadMany(context.Background(), bad)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
		}
		// The same state with another page size, overall limit, level or
		// column order reads on.
		ok := next
		ok.PageSize, ok.Level, ok.Columns = 10, consistency.One, []string{"v"}
		res, err = e.c.ReadMany(context.Background(), ok)
		require.NoError(t, err)
		assert.Equal(t, []string{"a/3", "b/1", "b/2", "b/3"}, manyRows(t, res))
	})
}
