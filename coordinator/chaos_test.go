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
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// chaosBehaviors covers every fault of replicatest, pauses and slowness.
var chaosBehaviors = []replicatest.Behavior{
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5), PauseChance: 0.2, PauseLength: replicatest.Uniform(ms(20), ms(60))},
	{Latency: replicatest.LogNormal(ms(2), 0.5), PauseChance: 0.2, PauseLength: replicatest.Uniform(ms(20), ms(60))},
	{Latency: replicatest.Constant(ms(1)), Fault: replicatest.Down()},
	{Fault: replicatest.Unreachable()},
	{Fault: replicatest.Panics()},
	{Fault: replicatest.ErrorAfter(ms(3), nil)},
	{Latency: replicatest.Constant(ms(70)), Fault: replicatest.IgnoresContext()},
	{Latency: replicatest.Uniform(ms(5), ms(40))},
}

var chaosTables = []string{tbl, "other"}

// writes remembers every cell the chaos wrote, to check that reads return
// only data some replica held.
type writes struct {
	mu    sync.Mutex
	cells map[string]bool
}

func cellID(c replica.Cell) string {
	return fmt.Sprintf("%s=%q@%d/%v", c.Column, c.Value, c.Timestamp, c.Tombstone)
}

func (w *writes) add(c replica.Cell) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cells[cellID(c)] = true
}

func (w *writes) held(c replica.Cell) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cells[cellID(c)]
}

// write merges one new cell into some replicas' copy of a table's key, as a
// write that reached only some of them.
func (w *writes) write(t *testing.T, cl *replicatest.Cluster, rng *rand.Rand, ts int64) {
	c := replica.Live(string(rune('a'+rng.IntN(2))), fmt.Sprint("v", ts), ts)
	if rng.IntN(5) == 0 {
		c = replica.Tombstone(c.Column, ts, 1_700_000_000)
	}
	w.add(c)
	table := chaosTables[rng.IntN(len(chaosTables))]
	for _, id := range twoDCs {
		if rng.IntN(2) == 0 {
			continue
		}
		r := cl.Replica(id)
		old, _ := r.Partition(table, key)
		merged, err := repair.Merge(old, replica.NewPartition(key, replica.NewRow("r", c)))
		require.NoError(t, err)
		require.NoError(t, r.Seed(table, merged))
	}
}

// chaos changes a random replica's behaviour, liveness or data every few
// milliseconds until stop is closed.
func chaos(t *testing.T, cl *replicatest.Cluster, w *writes, rng *rand.Rand, stop <-chan struct{}) {
	for ts := int64(100); ; ts++ {
		select {
		case <-stop:
			return
		case <-time.After(ms(3)):
		}
		id := twoDCs[rng.IntN(len(twoDCs))]
		switch rng.IntN(6) {
		case 0:
			require.NoError(t, cl.SetAlive(id, rng.IntN(6) > 0))
		case 1, 2:
			w.write(t, cl, rng, ts)
		default:
			require.NoError(t, cl.Replica(id).SetBehavior(chaosBehaviors[rng.IntN(len(chaosBehaviors))]))
		}
	}
}

// chaosTally is what the readers saw, per table.
type chaosTally struct {
	mu          sync.Mutex
	ok, typed   map[string]int64
	speculation map[string]int64 // speculative actions, from the traces
}

func (c *chaosTally) add(table string, res coordinator.Result, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		c.ok[table]++
	} else {
		c.typed[table]++
	}
	tr := res.Trace
	for _, h := range []coordinator.HedgeTrace{tr.Hedge, tr.ReconcileHedge, tr.AdditionalWrite} {
		if h.Fired {
			c.speculation[table]++
		}
	}
}

// Thousands of concurrent reads over two datacenters, at every level, under
// both strategies, every read-repair mode and every speculative-retry
// policy, while replicas fail in every way replicatest knows, go down and
// up, overload, and take writes: every read ends by its deadline with a
// result or a typed error; it returns only data some replica held; the
// metrics add up; no table exceeds its hedge budget; nothing leaks once
// the coordinator is closed (synctest and goleak).
// chaosCluster is two datacenters of three nodes, each with 16 workers
// and a queue of 64, answering as chaosBehaviors[0] until chaos changes
// them.
func chaosCluster(t *testing.T, seed uint64) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
		Seed:        seed,
		Options: []replicatest.Option{replicatest.WithWorkers(16, 64),
			replicatest.WithBehavior(chaosBehaviors[0])},
	})
	require.NoError(t, err)
	return cl
}

func TestConcurrentReadsUnderChaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 50 * time.Millisecond
		cl := chaosCluster(t, 1)
		w := &writes{cells: map[string]bool{}}
		for _, table := range chaosTables {
			require.NoError(t, cl.Pin(table, key, twoDCs...))
			require.NoError(t, cl.Seed(table, row(key, "v1", 10)))
		}
		w.add(replica.Live("v", "v1", 10))
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: timeout,
			MaxInFlight: 80, LocalDatacenter: "dc1"})
		require.NoError(t, err)
		start := time.Now()

		stop, done := make(chan struct{}), make(chan struct{})
		go func() { defer close(done); chaos(t, cl, w, rand.New(rand.NewPCG(3, 4)), stop) }()
		tally := &chaosTally{ok: map[string]int64{}, typed: map[string]int64{}, speculation: map[string]int64{}}
		levels := []consistency.Level{consistency.One, consistency.Two, consistency.Three, consistency.Quorum,
			consistency.All, consistency.LocalQuorum, consistency.EachQuorum, consistency.LocalOne}
		var wg sync.WaitGroup
		var reads atomic.Int64
		for g := range 100 {
			level, table := levels[g%len(levels)], chaosTables[g%len(chaosTables)]
			pace := ms(float64(5 + g%20))
			wg.Go(func() {
				for range 30 {
					time.Sleep(pace)
					begin := time.Now()
					res, err := c.Read(context.Background(), coordinator.Request{Table: table, Key: key, Level: level})
					reads.Add(1)
					assert.LessOrEqual(t, time.Since(begin), timeout, "a read at %v outlived its deadline", level)
					if err != nil {
						assert.True(t, isTyped(err), "untyped error: %v", err)
					} else {
						checkProvenance(t, w, res.Partition)
					}
					tally.add(table, res, err)
				}
			})
		}
		alterTables(t, c, rand.New(rand.NewPCG(5, 6)))
		wg.Wait()
		close(stop)
		<-done
		elapsed := time.Since(start)
		require.NoError(t, c.DrainRepairs(context.Background()))
		tot := c.Metrics().Total
		require.Equal(t, tot.RepairsSent, tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned,
			"DrainRepairs returned with repairs unbooked")
		require.NoError(t, c.Close())
		time.Sleep(time.Second) // late answers of replicas that ignore their context
		synctest.Wait()

		checkChaosMetrics(t, c.Metrics(), tally, reads.Load(), elapsed)
	})
}

// alterTables changes both tables' options while reads run, as ALTER TABLE.
func alterTables(t *testing.T, c *coordinator.Coordinator, rng *rand.Rand) {
	policies := []string{"NEVER", "ALWAYS", "5ms", "90p", "MIN(99p,10ms)"}
	for i := range 60 {
		o := policy(t, policies[rng.IntN(len(policies))])
		o.ReadRepair = repair.Mode(rng.IntN(3))
		o.Strategy = coordinator.Strategy(rng.IntN(2))
		o.AdditionalWritePolicy = policy(t, policies[rng.IntN(len(policies))]).SpeculativeRetry
		require.NoError(t, c.SetTableOptions(chaosTables[i%len(chaosTables)], o))
		time.Sleep(ms(float64(5 + i%7)))
	}
}

// checkProvenance fails unless every cell of p is one the chaos wrote.
func checkProvenance(t *testing.T, w *writes, p replica.Partition) {
	for _, r := range p.Rows {
		for _, c := range r.Cells {
			assert.True(t, w.held(c), "read returned a cell no replica held: %s", cellID(c))
		}
	}
}

func checkChaosMetrics(t *testing.T, m coordinator.Metrics, tally *chaosTally, reads int64, elapsed time.Duration) {
	tot := m.Total
	assert.Equal(t, int64(3000), reads)
	assert.Equal(t, reads, tot.Reads)
	var ok, typed int64
	for _, table := range chaosTables {
		ok, typed = ok+tally.ok[table], typed+tally.typed[table]
	}
	assert.Equal(t, ok+typed, tot.Reads)
	assert.Equal(t, typed, tot.Unavailable+tot.Timeouts+tot.Failures)
	assert.Zero(t, tot.OtherErrors+tot.Cancelled)
	assert.Equal(t, tot.SpeculativeRetries, tot.HedgeWins+tot.FailedSpeculations)
	assert.Equal(t, tot.RepairsSent, tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned)
	// Reconcile speculations are not among them: a run makes 0 to 5, and
	// about one run in a hundred none; reconcile_test.go pins them.
	for _, kind := range []int64{ok, tot.Timeouts, tot.Failures, tot.Unavailable, tot.SpeculativeRetries,
		tot.DigestMismatches, tot.RepairsSent, tot.SuppressedBudget} {
		assert.Positive(t, kind, "the chaos exercised too little:\n%v", m)
	}
	for _, tm := range m.Tables {
		// The default budget: 10 % of the table's reads, plus one per
		// second for the run and the window the last withdrawals count in.
		allowed := 0.1*float64(tm.Reads) + (elapsed + 10*time.Second).Seconds()
		assert.LessOrEqual(t, float64(tally.speculation[tm.Table]), allowed, "table %s exceeded its budget", tm.Table)
	}
	t.Logf("%d ok, %d errors in %v\n%v", ok, typed, elapsed, m)
}

func isTyped(err error) bool {
	var (
		u  *consistency.UnavailableError
		rt *consistency.ReadTimeoutError
		rf *consistency.ReadFailureError
	)
	return errors.As(err, &u) || errors.As(err, &rt) || errors.As(err, &rf)
}
