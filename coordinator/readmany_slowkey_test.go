package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// lateReplica answers every read late by delay, as a replica behind a
// slow link does for the keys it holds.
type lateReplica struct {
	replica.Replica
	delay time.Duration
}

func (r lateReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	select {
	case <-time.After(r.delay):
	case <-ctx.Done():
		return replica.Response{}, ctx.Err()
	}
	return r.Replica.Read(ctx, cmd)
}

// lateKeysCoordinator is a coordinator over e's cluster, table policy
// NEVER, whose replicas answer the keys slow picks 20 ms late.
func lateKeysCoordinator(t *testing.T, e *env, slow func(key string) bool) *coordinator.Coordinator {
	t.Helper()
	locate := func(table, key string) ([]replica.Replica, consistency.Replication, error) {
		reps, rf, err := e.cluster.Locate(table, key)
		if !slow(key) {
			return reps, rf, err
		}
		late := make([]replica.Replica, len(reps))
		for i, r := range reps {
			late[i] = lateReplica{Replica: r, delay: ms(20)}
		}
		return late, rf, err
	}
	c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(locate), Liveness: e.cluster,
		DefaultTable: policy(t, "NEVER")})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// A page stops starting keys once the keys read hold its rows, in any
// order: 50 keys of one row in pages of 10, 5 at a time, where the first
// key of each page is 20 ms late and the others take 1 ms. While the late
// key kept the keys read in order short of the page, the other four
// workers read on towards the last key: 116 replica reads at ONE, most
// keys once per page before theirs. Stopping once the keys read hold 10 rows reads
// each key once, and each page at most 4 keys past it: 53 reads, where
// the bound is 66.
func TestReadManyPageBehindALateKeyReadsEachKeyOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		var keys []string
		for i := range 50 {
			keys = append(keys, fmt.Sprintf("k%02d", i))
		}
		seedRows(t, e, 1, keys...)
		// k00, k10, …: the first key of each page
		c := lateKeysCoordinator(t, e, func(key string) bool { return key[len(key)-1] == '0' })
		before := e.totalReads()
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, PageSize: 10, Concurrency: 5, NowInSec: now}
		pages := pagesOf(t, c, req)
		require.Len(t, pages, 5)
		var got []string
		for _, p := range pages {
			assert.Len(t, p, 10)
			got = append(got, p...)
		}
		for i, k := range keys {
			assert.Equal(t, k+"/1", got[i])
		}
		settle()
		assert.LessOrEqual(t, e.totalReads()-before, int64(66))
	})
}
