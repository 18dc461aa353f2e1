package coordinator_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica/replicatest"
)

// gcPausing is a cluster of three replicas answering in a log-normal ~2 ms,
// 2 % of requests stalling 50–100 ms, as readsim's gc-pauses.
func gcPausing(t *testing.T, seed uint64) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
		Seed:        seed,
		Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{
			Latency:     replicatest.LogNormal(ms(2), 0.5),
			PauseChance: 0.02, PauseLength: replicatest.Uniform(ms(50), ms(100)),
		})},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, A, B, C))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}

// longReads is how many reads a long run makes: a tenth as many under the
// race detector, which makes them ten times slower (50 s for the lot).
func longReads() int {
	if race.Enabled {
		return 1600
	}
	return 10000
}

// runLong drives n reads of tbl at QUORUM from readers goroutines, each
// pausing a random while between reads, with idle spells of a minute, and
// returns every read's trace.
func runLong(t *testing.T, c *coordinator.Coordinator, n, readers int, seed uint64) []coordinator.Trace {
	t.Helper()
	var (
		mu     sync.Mutex
		traces = make([]coordinator.Trace, 0, n)
		wg     sync.WaitGroup
	)
	per := n / readers
	for g := range readers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			for i := range per {
				if i > 0 && i%(per/4) == 0 {
					time.Sleep(time.Minute) // a quarter done: the table goes quiet, three times a run
				}
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				if err != nil {
					t.Errorf("read: %v", err)
				}
				mu.Lock()
				traces = append(traces, res.Trace)
				mu.Unlock()
				time.Sleep(time.Duration(rng.ExpFloat64() * float64(ms(20))))
			}
		})
	}
	wg.Wait()
	return traces
}

// budgetHolds checks the budget's promise over every window: the
// speculative actions that went out in the window ending with any
// second that holds one are at most percent of the reads started in it,
// plus floor. Seconds are counted from origin, when the table's budget
// was made.
func budgetHolds(t *testing.T, traces []coordinator.Trace, origin time.Time, percent float64, floor int) {
	t.Helper()
	slot := func(at time.Time) int { return int(at.Sub(origin) / time.Second) }
	deposits, withdrawals := map[int]int{}, map[int]int{}
	for _, tr := range traces {
		deposits[slot(tr.Start)]++
		for _, h := range []coordinator.HedgeTrace{tr.Hedge, tr.ReconcileHedge, tr.AdditionalWrite} {
			if h.Fired {
				withdrawals[slot(tr.Start.Add(h.At))]++
			}
		}
	}
	for e := range withdrawals {
		var d, w int
		for s := e - 9; s <= e; s++ {
			d, w = d+deposits[s], w+withdrawals[s]
		}
		assert.LessOrEqual(t, float64(w), percent*float64(d)+float64(floor), "window ending at second %d: %d reads", e, d)
	}
}

// Over long runs with idle spells, under every policy that hedges, a
// table's speculative actions stay within 10 % of its reads plus ten in
// every 10 s window, and the metrics count exactly what the traces show.
func TestLongRunsHoldTheBudgetInEveryWindow(t *testing.T) {
	for _, p := range []string{"0ms", "ALWAYS", "90p", "MIN(99p,10ms)", "MAX(50p,3ms)"} {
		t.Run(p, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := gcPausing(t, 7)
				e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, p)})
				origin := time.Now()
				traces := runLong(t, e.c, longReads(), 16, 3)
				settle()
				budgetHolds(t, traces, origin, 0.1, 10)

				var fired, suppressed, won int64
				for _, tr := range traces {
					if tr.Hedge.Fired {
						fired++
					}
					if tr.Hedge.Won {
						won++
					}
					if tr.Hedge.Suppressed == coordinator.SuppressedBudget {
						suppressed++
					}
				}
				m := tableMetrics(t, e.c, tbl)
				assert.Equal(t, fired, m.SpeculativeRetries, "hedges")
				assert.Equal(t, suppressed, m.SuppressedBudget, "suppressed")
				assert.Equal(t, won, m.HedgeWins, "wins")
			})
		})
	}
}

// With a writer leaving replicas behind, so that reads mismatch, reconcile
// and repair under the budget, every speculative action of every phase
// stays within the budget in every window, and the metrics' counts of
// speculation equal the traces'.
func TestLongRunsWithMismatchesHoldTheBudgetAndCountAsTraced(t *testing.T) {
	for _, c := range []struct {
		p        string
		strategy coordinator.Strategy
	}{
		{"0ms", coordinator.DataAndDigests}, {"ALWAYS", coordinator.DataAndDigests}, {"90p", coordinator.DataAndDigests},
		{"MIN(99p,5ms)", coordinator.DataAndDigests}, {"ALWAYS", coordinator.DigestFirst}, {"90p", coordinator.DigestFirst},
	} {
		p := c.p
		t.Run(p+c.strategy.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := gcPausing(t, 11)
				o := policy(t, p)
				o.Strategy = c.strategy
				o.AdditionalWritePolicy = o.SpeculativeRetry
				e := newEnvOn(t, cl, coordinator.Config{DefaultTable: o, MaxInFlight: 12})
				origin := time.Now()
				done := make(chan struct{})
				go func() { // a writer reaching one replica in three
					rng := rand.New(rand.NewPCG(5, 5))
					ids := []string{A, B, C}
					for ts := int64(11); ; ts++ {
						select {
						case <-done:
							return
						case <-time.After(time.Duration(rng.ExpFloat64() * float64(ms(30)))):
						}
						require.NoError(t, cl.SeedOn(tbl, row(key, "v", ts), ids[rng.IntN(3)]))
					}
				}()
				traces := runLong(t, e.c, longReads(), 16, 9)
				close(done)
				settle()
				budgetHolds(t, traces, origin, 0.1, 10)

				var want coordinator.TableMetrics
				for _, tr := range traces { // every read succeeded, at QUORUM
					expectFromTrace(&want, consistency.Quorum, tr, nil)
				}
				m := tableMetrics(t, e.c, tbl)
				assert.Equal(t, want.SpeculativeRetries, m.SpeculativeRetries, "speculative retries")
				assert.Equal(t, want.HedgeWins, m.HedgeWins, "hedge wins")
				assert.Equal(t, m.SpeculativeRetries-m.HedgeWins, m.FailedSpeculations, "failed speculations")
				assert.Equal(t, want.ReconcileSpeculations, m.ReconcileSpeculations, "reconcile speculations")
				assert.Equal(t, want.AdditionalWrites, m.AdditionalWrites, "additional writes")
				assert.Equal(t, want.SuppressedBudget, m.SuppressedBudget, "suppressed by the budget")
				assert.Equal(t, want.SuppressedOverload, m.SuppressedOverload, "suppressed by the overload switch")
				assert.Equal(t, want.NoCandidate, m.NoCandidate, "no candidate")
				assert.Equal(t, want.PostponedSpeculations, m.PostponedSpeculations, "postponed")
				assert.Equal(t, want.DigestMismatches, m.DigestMismatches, "mismatches")
			})
		})
	}
}
