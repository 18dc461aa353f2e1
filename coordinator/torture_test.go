package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// tortureTables and tortureKeys are what the torture reads; every replica
// holds its own random version of each key, so reads mismatch, repair and
// (under a limit) protect against short reads.
var tortureTables = []string{"t0", "t1", "t2"}

func tortureKey(i int) string { return fmt.Sprint("k", i) }

const tortureKeys = 8

func tortureCluster(t *testing.T, rng *rand.Rand) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 6}},
		Replication: consistency.Simple(3),
		Seed:        rng.Uint64(),
		Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{
			Latency: replicatest.Uniform(ms(1), ms(4))})},
	})
	require.NoError(t, err)
	for _, r := range cl.Replicas() {
		for _, table := range tortureTables {
			for k := range tortureKeys {
				require.NoError(t, r.Seed(table, tortureVersion(tortureKey(k), rng)))
			}
		}
	}
	return cl
}

// tortureVersion is a random version of a partition: some of ten rows,
// each with a random timestamp, some deleted.
func tortureVersion(key string, rng *rand.Rand) replica.Partition {
	var rows []replica.Row
	for i := range 10 {
		if rng.IntN(3) > 0 {
			ts := int64(1 + rng.IntN(20))
			c := replica.Live("v", fmt.Sprint("v", ts), ts)
			if rng.IntN(3) == 0 { // a deletion: fewer live rows, so short reads
				c = replica.Tombstone("v", ts, 1_700_000_000)
			}
			rows = append(rows, replica.NewRow(fmt.Sprint("r", i), c))
		}
	}
	return replica.NewPartition(key, rows...)
}

var tortureBehaviors = []replicatest.Behavior{
	{Latency: replicatest.Uniform(ms(1), ms(4))},
	{Latency: replicatest.Uniform(ms(1), ms(4))},
	{Latency: replicatest.Uniform(ms(1), ms(30))},
	{Latency: replicatest.Constant(ms(2)), PauseChance: 0.3, PauseLength: replicatest.Uniform(ms(10), ms(40))},
	{Fault: replicatest.Down()},
	{Fault: replicatest.Panics()},
	{Fault: replicatest.ErrorAfter(ms(2), nil)},
	{Latency: replicatest.Constant(ms(60)), Fault: replicatest.IgnoresContext()},
}

// tortureOutcome is what the readers saw.
type tortureOutcome struct {
	reads, afterClose, results, errs atomic.Int64
}

// check fails when a read returned a result and an error at once,
// or returned an untyped error.
func (o *tortureOutcome) check(t *testing.T, closedBefore bool, res coordinator.Result, err error) {
	o.reads.Add(1)
	if closedBefore {
		o.afterClose.Add(1)
		assert.ErrorIs(t, err, coordinator.ErrClosed, "a read started after Close")
	}
	if err == nil {
		o.results.Add(1)
		return
	}
	o.errs.Add(1)
	assert.True(t, res.Partition.IsEmpty() && res.PagingState == nil, "a read returned a result and %v", err)
	assert.True(t, isTyped(err) || errors.Is(err, context.Canceled) || errors.Is(err, coordinator.ErrClosed),
		"unexpected error: %v", err)
}

// A coordinator read by many goroutines (Read with cancellations, paging
// and limits; ReadMany with paging), under every repair mode, strategy and
// speculative policy, while tables are altered and dropped, replicas are
// forgotten, misbehave and take writes, metrics are taken, and Close comes
// in the middle: reads after Close fail with ErrClosed, every read ends,
// no goroutine is left, and the counters add up.
func TestTortureCoordinator(t *testing.T) {
	for seed := range 6 {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { torture(t, uint64(seed)) })
		})
	}
}

func torture(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	cl := tortureCluster(t, rng)
	shared, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.2, MinPerSecond: 5})
	require.NoError(t, err)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: ms(50),
		RepairQueue: 8, RepairWorkers: 2, MaxAbandonedPerReplica: 4, Budget: shared})
	require.NoError(t, err)

	var o tortureOutcome
	var closed atomic.Bool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	levels := []consistency.Level{consistency.One, consistency.Quorum, consistency.All, consistency.Two}
	for g := range 12 {
		r := rand.New(rand.NewPCG(seed, uint64(100+g)))
		wg.Go(func() {
			for i := 0; i < 40; i++ {
				time.Sleep(ms(float64(1 + r.IntN(5))))
				table, level := tortureTables[r.IntN(len(tortureTables))], levels[r.IntN(len(levels))]
				ctx, cancel := context.WithCancel(context.Background())
				if r.IntN(4) == 0 {
					time.AfterFunc(ms(float64(r.IntN(20))), cancel)
				}
				before := closed.Load()
				if g%3 == 0 {
					tortureReadMany(t, c, &o, ctx, before, table, level, r)
				} else {
					tortureRead(t, c, &o, ctx, before, table, level, r)
				}
				cancel()
			}
		})
	}
	wg.Go(func() { tortureAdmin(t, c, cl, rand.New(rand.NewPCG(seed, 2)), stop) })
	time.Sleep(ms(40 + float64(rng.IntN(80))))
	require.NoError(t, c.Close())
	closed.Store(true) // reads that see it started after Close
	time.Sleep(ms(30))
	close(stop)
	wg.Wait()
	time.Sleep(time.Second) // replicas that ignore their context return
	synctest.Wait()
	checkTortureMetrics(t, c.Metrics(), &o)
	assert.GreaterOrEqual(t, shared.Available(time.Now()), 0.0)
}

func tortureRead(t *testing.T, c *coordinator.Coordinator, o *tortureOutcome, ctx context.Context,
	before bool, table string, level consistency.Level, r *rand.Rand) {
	req := coordinator.Request{Table: table, Key: tortureKey(r.IntN(tortureKeys)), Level: level}
	if r.IntN(2) == 0 {
		req.Query.Limit = 1 + r.IntN(4)
	}
	for range 3 { // pages
		res, err := c.Read(ctx, req)
		o.check(t, before, res, err)
		if err != nil || res.PagingState == nil {
			return
		}
		req.PagingState = res.PagingState
	}
}

func tortureReadMany(t *testing.T, c *coordinator.Coordinator, o *tortureOutcome, ctx context.Context,
	before bool, table string, level consistency.Level, r *rand.Rand) {
	req := coordinator.ManyRequest{Table: table, Level: level, Concurrency: 1 + r.IntN(4)}
	for k := range tortureKeys {
		if r.IntN(2) == 0 {
			req.Keys = append(req.Keys, tortureKey(k))
		}
	}
	if len(req.Keys) == 0 {
		req.Keys = []string{tortureKey(0)}
	}
	if r.IntN(2) == 0 {
		req.PageSize = 1 + r.IntN(6)
	}
	for range 3 {
		krs, err := c.ReadMany(ctx, req)
		if err != nil {
			o.check(t, before, coordinator.Result{}, err)
			return
		}
		assert.False(t, before, "ReadMany after Close succeeded")
		for _, kr := range krs {
			o.check(t, false, kr.Result, kr.Err)
		}
		next, ok := req.Next(krs)
		if !ok {
			return
		}
		req = next
	}
}

// tortureAdmin alters and drops tables, forgets replicas, changes how
// replicas behave and what they hold, and takes metrics, until stop.
func tortureAdmin(t *testing.T, c *coordinator.Coordinator, cl *replicatest.Cluster, r *rand.Rand, stop <-chan struct{}) {
	policies := []string{"NEVER", "ALWAYS", "2ms", "90p", "MIN(99p,5ms)"}
	reps := cl.Replicas()
	for {
		select {
		case <-stop:
			return
		case <-time.After(ms(float64(1 + r.IntN(3)))):
		}
		table := tortureTables[r.IntN(len(tortureTables))]
		rep := reps[r.IntN(len(reps))]
		switch r.IntN(8) {
		case 0:
			o := policy(t, policies[r.IntN(len(policies))])
			o.ReadRepair = repair.Mode(r.IntN(3))
			o.Strategy = coordinator.Strategy(r.IntN(2))
			assert.NoError(t, c.SetTableOptions(table, o))
		case 1:
			c.DropTable(table)
		case 2:
			c.ForgetReplica(rep.Endpoint().ID)
		case 3:
			assert.NoError(t, rep.SetBehavior(tortureBehaviors[r.IntN(len(tortureBehaviors))]))
		case 4:
			assert.NoError(t, rep.Seed(table, tortureVersion(tortureKey(r.IntN(tortureKeys)), r)))
		case 5:
			m := c.Metrics()
			checkSums(t, m.Total)
		default:
			if tm, ok := c.TableMetrics(table); ok {
				checkSums(t, tm)
			}
		}
	}
}

// checkSums checks what holds at any time: reads by level sum to reads.
func checkSums(t *testing.T, m coordinator.TableMetrics) {
	var byLevel int64
	for _, n := range m.ReadsByLevel {
		byLevel += n
	}
	assert.Equal(t, m.Reads, byLevel, "reads by level in %q", m.Table)
}

func checkTortureMetrics(t *testing.T, m coordinator.Metrics, o *tortureOutcome) {
	tot := m.Total
	checkSums(t, tot)
	assert.Equal(t, tot.RepairsSent, tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned,
		"repairs in total, dropped tables' included:\n%v", m)
	for _, tm := range m.Tables {
		checkSums(t, tm)
		assert.Equal(t, tm.RepairsSent, tm.RepairsAcked+tm.RepairsFailed+tm.RepairsDropped+tm.RepairsAbandoned,
			"repairs of %s:\n%v", tm.Table, m)
	}
	for _, rm := range m.Replicas {
		assert.Zero(t, rm.Outstanding, "outstanding at %s", rm.Endpoint.ID)
		assert.Zero(t, rm.Abandoned, "abandoned at %s", rm.Endpoint.ID)
	}
	assert.Positive(t, o.afterClose.Load())
	assert.Positive(t, o.results.Load())
	assert.Positive(t, tot.DigestMismatches)
	t.Logf("%d reads (%d after Close), %d results, %d errors\n%v", o.reads.Load(), o.afterClose.Load(),
		o.results.Load(), o.errs.Load(), m)
}
