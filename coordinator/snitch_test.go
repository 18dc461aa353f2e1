package coordinator_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
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

// firstContact returns who was sent the data request.
func firstContact(t *testing.T, res coordinator.Result) string {
	t.Helper()
	require.NotEmpty(t, res.Trace.Requests)
	return res.Trace.Requests[0].Endpoint
}

// The dynamic snitch stops sending the data request to a slow replica, and
// tries it again once its score is older than the reset interval.
func TestSnitchRoutesAroundASlowReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		e.behave(t, A, constant(ms(10)))

		res, _, _ := e.read(consistency.One)
		assert.Equal(t, A, firstContact(t, res), "no scores yet: the static order")
		res, _, _ = e.read(consistency.One)
		assert.Equal(t, B, firstContact(t, res))

		e.behave(t, A, constant(ms(1)))
		time.Sleep(ms(501))
		res, _, _ = e.read(consistency.One)
		assert.Equal(t, A, firstContact(t, res), "A's score expired: it is tried again")
	})
}

// The snitch reorders the read's own copy of the replicas: a locator may
// hand out one cached slice to every read.
func TestLocatorSliceIsNotModified(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		cached, repl, err := e.cluster.Locate(tbl, key)
		require.NoError(t, err)
		want := slices.Clone(cached)
		c, err := coordinator.New(coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "NEVER"),
			Locator: coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
				return cached, repl, nil
			})})
		require.NoError(t, err)
		defer c.Close()
		e.behave(t, A, constant(ms(10)))
		var firsts []string
		for range 2 {
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			require.NoError(t, err)
			firsts = append(firsts, firstContact(t, res))
		}
		assert.Equal(t, []string{A, B}, firsts, "the second read goes around slow A")
		assert.Equal(t, want, cached)
	})
}

// Replicas within the badness margin of each other keep the static order:
// the order does not flap on noise.
func TestSnitchDoesNotFlapOnSmallDifferences(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		e.behave(t, A, constant(ms(1.05)))
		for range 20 {
			res, _, err := e.read(consistency.All)
			require.NoError(t, err)
			assert.Equal(t, A, firstContact(t, res))
		}
	})
}

// The local datacenter comes first whatever the scores.
func TestLocalDatacenterFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwelveNodes(t, "NEVER")
		require.NoError(t, e.replica(node1).SetBehavior(constant(ms(20))))
		require.NoError(t, e.replica(node6).SetBehavior(constant(ms(20))))
		for range 5 {
			res, _, err := e.read(consistency.One)
			require.NoError(t, err)
			assert.NotEqual(t, node3, firstContact(t, res))
		}
	})
}

// Once a slow replica's score expires, a single read probes it; reads
// running meanwhile keep avoiding it.
func TestSnitchProbesAnExpiredReplicaOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		e.behave(t, A, constant(ms(40)))
		_, _, err := e.read(consistency.All) // A is scored at 40 ms, B and C at 1 ms
		require.NoError(t, err)
		settle()
		time.Sleep(ms(501))

		firsts := make(chan string, 10)
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				assert.NoError(t, err)
				firsts <- firstContact(t, res)
			})
		}
		wg.Wait()
		close(firsts)
		probes := 0
		for id := range firsts {
			if id == A {
				probes++
			}
		}
		assert.Equal(t, 1, probes)
	})
}

// Outstanding requests count: when one replica has many reads in flight,
// new reads go to another even if it answered a little slower before.
func TestSnitchSpreadsLoadByOutstandingRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		_, _, err := e.read(consistency.All) // every replica scored at 1 ms
		require.NoError(t, err)
		settle()
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(10)))
		}
		var wg sync.WaitGroup
		for range 30 {
			wg.Go(func() {
				_, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				assert.NoError(t, err)
			})
			// Its request is out before the next read plans: which read sees
			// which request outstanding does not depend on the scheduler.
			synctest.Wait()
		}
		wg.Wait()
		// The ALL read's data went to A; then the reads take turns.
		assert.Equal(t, []int64{11, 10, 10}, []int64{e.stats(A).DataReads, e.stats(B).DataReads, e.stats(C).DataReads})
	})
}

// contacted reports whether id was among the read's first contacts.
func contacted(res coordinator.Result, id string) bool {
	for _, rt := range res.Trace.Requests {
		if rt.Phase == coordinator.PhaseInitial && rt.Endpoint == id {
			return true
		}
	}
	return false
}

// A replica that stops answering (the failure detector has not noticed)
// loses its rank within a few reads, instead of being asked by every read
// and rescued each time by a hedge.
func TestSnitchDemotesAReplicaThatStopsAnswering(t *testing.T) {
	for _, f := range []struct {
		name  string
		fault replicatest.Fault
	}{{"unreachable", replicatest.Unreachable()}, {"failing at once", replicatest.ErrorAfter(0, nil)}} {
		t.Run(f.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms"), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				for range 20 {
					_, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
				}
				settle()
				require.NoError(t, e.replica(A).SetFault(f.fault))
				asked := 0
				for range 40 {
					res, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
					if contacted(res, A) {
						asked++
					}
					settle()
				}
				assert.LessOrEqual(t, asked, 2, "reads that still asked the silent replica first")
			})
		})
	}
}

// Requests outstanding do not outweigh misses. Under concurrent reads the
// replicas that answer always have requests out, and one failing at once
// never has: ranked by latency times outstanding requests alone, it would
// come first for every read and fail each one at NEVER. One that hangs
// gives no miss until its first request times out, 50 ms on; it drops
// behind once it has more requests out than the others, which takes a
// dozen reads here (ten out at a time, each asking two replicas).
func TestSnitchDemotesAFailingReplicaUnderConcurrentReads(t *testing.T) {
	for _, f := range []struct {
		name   string
		fault  replicatest.Fault
		failed int64 // at most, of 200
	}{{"failing at once", replicatest.ErrorAfter(0, nil), 3}, {"unreachable", replicatest.Unreachable(), 15}} {
		t.Run(f.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: 50 * time.Millisecond})
				for range 20 {
					_, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
				}
				settle()
				require.NoError(t, e.replica(A).SetFault(f.fault))
				var failed atomic.Int64
				var wg sync.WaitGroup
				for range 200 {
					wg.Go(func() {
						if _, _, err := e.read(consistency.Quorum); err != nil {
							failed.Add(1)
						}
					})
					time.Sleep(100 * time.Microsecond) // ten reads out at a time
				}
				wg.Wait()
				assert.LessOrEqual(t, failed.Load(), f.failed, "reads that asked the failing replica")
			})
		})
	}
}
