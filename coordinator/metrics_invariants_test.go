package coordinator_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

const eventsTable = "events"

// repairRecorder is an Observer that keeps every event.
type repairRecorder struct {
	mu      sync.Mutex
	hedges  []coordinator.HedgeEvent
	repairs []coordinator.RepairEvent
}

func (o *repairRecorder) OnHedge(e coordinator.HedgeEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hedges = append(o.hedges, e)
}

func (o *repairRecorder) OnRepair(e coordinator.RepairEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.repairs = append(o.repairs, e)
}

func (o *repairRecorder) snapshot() ([]coordinator.HedgeEvent, []coordinator.RepairEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]coordinator.HedgeEvent(nil), o.hedges...), append([]coordinator.RepairEvent(nil), o.repairs...)
}

// readOutcome is one read of a workload.
type readOutcome struct {
	table string
	level consistency.Level
	res   coordinator.Result
	err   error
}

// runMixedWorkload runs, one after the other and settling between them,
// reads of tbl (BLOCKING, 5ms) and of events (ASYNC, 5ms) that succeed
// plainly, hedge (won and lost), mismatch and repair, fail, time out and
// are cancelled; and returns them.
func runMixedWorkload(t *testing.T, e *env) []readOutcome {
	t.Helper()
	var outs []readOutcome
	read := func(ctx context.Context, table string, level consistency.Level) {
		res, err := e.c.Read(ctx, coordinator.Request{Table: table, Key: key, Level: level})
		outs = append(outs, readOutcome{table, level, res, err})
		settle()
	}
	healthy := func() {
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(1)))
		}
	}
	for _, table := range []string{tbl, eventsTable} {
		read(context.Background(), table, consistency.Quorum)
		read(context.Background(), table, consistency.One)
		read(context.Background(), table, consistency.All)
		e.behave(t, B, constant(ms(20))) // hedged to C, which wins
		read(context.Background(), table, consistency.Quorum)
		e.behave(t, C, constant(ms(40))) // hedged to C, B wins
		read(context.Background(), table, consistency.Quorum)
		read(context.Background(), table, consistency.All) // ALL: no candidate
		healthy()
		require.NoError(t, e.cluster.SeedOn(table, row(key, "new-"+table, 30), A, C)) // B is stale
		read(context.Background(), table, consistency.Quorum)
		read(context.Background(), table, consistency.All)
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.Down()})
		e.behave(t, B, replicatest.Behavior{Fault: replicatest.Down()})
		read(context.Background(), table, consistency.Quorum) // fails
		read(context.Background(), table, consistency.All)
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.Unreachable()})
		e.behave(t, B, replicatest.Behavior{Fault: replicatest.Unreachable()})
		e.behave(t, C, replicatest.Behavior{Fault: replicatest.Unreachable()})
		read(context.Background(), table, consistency.Quorum) // times out
		healthy()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		read(ctx, table, consistency.Quorum) // cancelled
		read(context.Background(), table, consistency.Two)
	}
	return outs
}

func newCountingEnv(t *testing.T, obs coordinator.Observer) *env {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	for _, table := range []string{tbl, eventsTable} {
		require.NoError(t, cl.Pin(table, key, A, B, C))
		require.NoError(t, cl.Seed(table, row(key, "v1", 10)))
	}
	blocking, async := policy(t, "5ms"), policy(t, "5ms")
	async.ReadRepair = repair.Async
	return newEnvOn(t, cl, coordinator.Config{
		ReadTimeout: ms(100), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, Observer: obs,
		Tables: map[string]coordinator.TableOptions{tbl: blocking, eventsTable: async},
	})
}

// Every counter adds up against the traces, the observer's events and what
// the fake replicas saw, per table and in total.
func TestCountersAddUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &repairRecorder{}
		e := newCountingEnv(t, obs)
		outs := runMixedWorkload(t, e)
		settle()
		m := e.c.Metrics()
		require.Len(t, m.Tables, 2)

		// Total is the sum of the tables (none dropped, every read placed).
		var sum coordinator.TableMetrics
		byName := map[string]coordinator.TableMetrics{}
		for _, tm := range m.Tables {
			byName[tm.Table] = tm
			for l, n := range tm.ReadsByLevel {
				if sum.ReadsByLevel == nil {
					sum.ReadsByLevel = map[consistency.Level]int64{}
				}
				sum.ReadsByLevel[l] += n
			}
		}
		totals := map[string]int64{}
		for name, n := range m.Total.Counters() {
			totals[name] = n
		}
		perTable := map[string]int64{}
		for _, tm := range m.Tables {
			for name, n := range tm.Counters() {
				perTable[name] += n
			}
		}
		assert.Equal(t, perTable, totals)
		assert.Equal(t, sum.ReadsByLevel, m.Total.ReadsByLevel)

		hedges, repairs := obs.snapshot()
		for _, table := range []string{tbl, eventsTable} {
			tm := byName[table]
			var want coordinator.TableMetrics
			for _, o := range outs {
				if o.table != table {
					continue
				}
				expectFromTrace(&want, o.level, o.res.Trace, o.err)
			}
			assert.Equal(t, want.Reads, tm.Reads, table)
			assert.Equal(t, want.ReadsByLevel, tm.ReadsByLevel, table)
			assert.Equal(t, want.Timeouts, tm.Timeouts, table)
			assert.Equal(t, want.Failures, tm.Failures, table)
			assert.Equal(t, want.Cancelled, tm.Cancelled, table)
			assert.Equal(t, want.OtherErrors, tm.OtherErrors, table)
			assert.Equal(t, want.DataRequests, tm.DataRequests, table)
			assert.Equal(t, want.DigestRequests, tm.DigestRequests, table)
			assert.Equal(t, want.SpeculativeRetries, tm.SpeculativeRetries, table)
			assert.Equal(t, want.HedgeWins, tm.HedgeWins, table)
			assert.Equal(t, want.FailedSpeculations, tm.FailedSpeculations, table)
			assert.Equal(t, want.ReconcileSpeculations, tm.ReconcileSpeculations, table)
			assert.Equal(t, want.NoCandidate, tm.NoCandidate, table)
			assert.Equal(t, want.SuppressedBudget, tm.SuppressedBudget, table)
			assert.Equal(t, want.SuppressedOverload, tm.SuppressedOverload, table)
			assert.Equal(t, want.DigestMismatches, tm.DigestMismatches, table)
			assert.Equal(t, want.RepairsSent, tm.RepairsSent, table)
			assert.Equal(t, tm.RepairsSent, tm.RepairsAcked+tm.RepairsFailed+tm.RepairsDropped+tm.RepairsAbandoned, table)
			assert.Equal(t, tm.SpeculativeRetries, tm.HedgeWins+tm.FailedSpeculations, table)
			// the workload exercised what it meant to
			assert.Positive(t, tm.HedgeWins, table)
			assert.Positive(t, tm.FailedSpeculations, table)
			assert.Positive(t, tm.RepairsAcked, table)
			assert.Positive(t, tm.Timeouts*tm.Failures*tm.Cancelled, table)

			// one hedge event per speculative action, one repair event per ended repair
			var hedgeEvents, repairEvents int64
			for _, h := range hedges {
				if h.Table == table {
					hedgeEvents++
				}
			}
			for _, r := range repairs {
				if r.Table == table {
					repairEvents++
				}
			}
			assert.Equal(t, tm.SpeculativeRetries+tm.ReconcileSpeculations, hedgeEvents, table)
			assert.Equal(t, tm.RepairsAcked+tm.RepairsFailed+tm.RepairsDropped, repairEvents, table)
		}

		// What the replicas saw is what the traces say was sent.
		sent := map[string]replicatest.Stats{}
		for _, o := range outs {
			for _, rq := range o.res.Trace.Requests {
				var be *coordinator.BacklogError
				if errors.As(rq.Err, &be) {
					continue
				}
				s := sent[rq.Endpoint]
				switch rq.Kind {
				case coordinator.KindData:
					s.DataReads++
				case coordinator.KindDigest:
					s.DigestReads++
				case coordinator.KindRepair:
					s.Mutations++
				}
				sent[rq.Endpoint] = s
			}
		}
		for _, r := range repairs {
			if r.Mode == repair.Async && !r.Dropped {
				s := sent[r.To.ID]
				s.Mutations++
				sent[r.To.ID] = s
			}
		}
		for _, rm := range m.Replicas {
			id := rm.Endpoint.ID
			got := e.stats(id)
			assert.Equal(t, sent[id].DataReads, got.DataReads, id)
			assert.Equal(t, sent[id].DigestReads, got.DigestReads, id)
			assert.Equal(t, sent[id].Mutations, got.Mutations, id)
			assert.Equal(t, got.Reads, rm.Requests, id)
			assert.Zero(t, rm.Outstanding, id)
			assert.Zero(t, rm.Abandoned, id)
		}
		var replicaRepairs int64
		for _, rm := range m.Replicas {
			replicaRepairs += rm.Repairs
		}
		assert.Equal(t, m.Total.RepairsSent, replicaRepairs)
	})
}
