package coordinator_test

import (
	"context"
	"log/slog"
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
)

// panickingHooks is an Observer and an outcome reporter that panic.
type panickingHooks struct{}

func (panickingHooks) OnHedge(coordinator.HedgeEvent)   { panic("hedge hook") }
func (panickingHooks) OnRepair(coordinator.RepairEvent) { panic("repair hook") }
func (panickingHooks) ReportOutcome(replica.Outcome)    { panic("outcome hook") }

// hookEnv is newStaleEnv's cluster (B stale) with panicking hooks and a
// Logger.
func hookEnv(t *testing.T, opts coordinator.TableOptions) (*env, *records) {
	t.Helper()
	h := &records{}
	e := newEnv(t, coordinator.Config{DefaultTable: opts, Observer: panickingHooks{}, Outcomes: panickingHooks{},
		Logger: slog.New(h)})
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
	return e, h
}

// An Observer or outcome reporter that panics is logged, as a replica that
// panics is, and changes nothing else: an ASYNC repair worker goes on (the
// panic took the process down), the read that hedged and repaired returns
// its result with its counts whole, and Close drops what is queued.
func TestAHookThatPanicsIsLogged(t *testing.T) {
	t.Run("async repair", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			e, h := hookEnv(t, coordinator.TableOptions{ReadRepair: repair.Async})
			res, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			require.Equal(t, []string{B}, res.Trace.Repaired)
			time.Sleep(ms(10)) // B applies it
			settle()
			m := e.c.Metrics().Total
			assert.Equal(t, int64(1), m.RepairsAcked)
			assert.Equal(t, int64(1), e.stats(B).Mutations)
			require.NoError(t, e.c.Close())
			h.mu.Lock()
			defer h.mu.Unlock()
			assert.NotEmpty(t, h.got)
			for _, r := range h.got {
				assert.Equal(t, slog.LevelWarn, r.Level)
			}
		})
	})
	t.Run("hedged blocking read", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			e, h := hookEnv(t, policy(t, "5ms"))
			e.behave(t, B, constant(ms(50)))
			res, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			assert.True(t, res.Trace.Hedge.Fired)
			m := e.c.Metrics().Total
			assert.Equal(t, int64(1), m.SpeculativeRetries)
			assert.Equal(t, int64(1), m.HedgeWins+m.FailedSpeculations, "the hedge is booked")
			time.Sleep(ms(100)) // B's request ends, and its outcome is told
			synctest.Wait()
			h.mu.Lock()
			defer h.mu.Unlock()
			assert.NotEmpty(t, h.got)
		})
	})
	t.Run("close drops queued repairs", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			e, _ := hookEnv(t, coordinator.TableOptions{ReadRepair: repair.Async})
			c, err := coordinator.New(coordinator.Config{
				Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return applyUntilCancelled{r} }),
				Liveness: e.cluster, RepairWorkers: 1, DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
				Observer: panickingHooks{}, Outcomes: panickingHooks{},
			})
			require.NoError(t, err)
			for range 3 { // each queues a repair of B; the one worker is in B's Apply
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				require.NoError(t, err)
			}
			synctest.Wait()
			require.NoError(t, c.Close())
			synctest.Wait()
			m := c.Metrics().Total
			assert.Equal(t, int64(3), m.RepairsSent)
			assert.Equal(t, int64(2), m.RepairsDropped)
			assert.Equal(t, int64(1), m.RepairsFailed)
		})
	})
}

// panicsWhenTold is a liveness view that panics once told to, as one that
// panics on an endpoint it no longer knows.
type panicsWhenTold struct {
	coordinator.Liveness
	panics atomic.Bool
}

func (l *panicsWhenTold) IsAlive(ep replica.Endpoint) bool {
	if l.panics.Load() {
		panic("liveness: unknown endpoint " + ep.ID)
	}
	return l.Liveness.IsAlive(ep)
}

// An ASYNC repair worker asks the liveness view whether a queued repair's
// replica is still up. A view that panics there, where no caller could
// recover the panic (it took the process down), is logged and vouches for
// nothing: the repair is dropped, and the worker goes on.
func TestALivenessThatPanicsOnARepairWorkerDropsTheRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &records{}
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		live := &panicsWhenTold{Liveness: e.cluster}
		release := make(chan struct{})
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return gatedApply{r, release} }),
			Liveness: live, RepairWorkers: 1, Logger: slog.New(h),
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		defer c.Close()
		for range 2 { // the first repair holds the worker in B's Apply; the second is queued
			_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			require.NoError(t, err)
		}
		synctest.Wait()
		live.panics.Store(true)
		close(release)
		time.Sleep(ms(10)) // B applies the first repair
		synctest.Wait()
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsAcked)
		assert.Equal(t, int64(1), m.RepairsDropped)
		h.mu.Lock()
		defer h.mu.Unlock()
		require.Len(t, h.got, 1)
		assert.Equal(t, slog.LevelWarn, h.got[0].Level)
	})
}

// panicsOnApply makes the liveness view panic once a repair write reaches
// its replica, and then writes until its context ends.
type panicsOnApply struct {
	replica.Replica
	live *panicsWhenTold
}

func (a panicsOnApply) Apply(ctx context.Context, _ replica.Mutation) error {
	a.live.panics.Store(true)
	<-ctx.Done()
	return ctx.Err()
}

// A liveness view that panics while a BLOCKING repair waits for its write
// (asked which replicas may take the additional writes) reaches the
// caller of Read, and the write still running goes on in the ASYNC queue,
// as when the read times out. It was left behind, neither booked nor
// queued: RepairsSent stayed 1 with nothing acknowledged, failed, dropped
// or abandoned, for good, and the stale replica was never repaired.
func TestALivenessPanicDuringABlockingRepairStillCountsItsWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		live := &panicsWhenTold{Liveness: e.cluster}
		opts := policy(t, "NEVER")
		opts.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return panicsOnApply{r, live} }),
			Liveness: live, Snitch: coordinator.SnitchConfig{Disabled: true},
			DefaultTable: opts, HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
		})
		require.NoError(t, err)
		defer c.Close()
		var recovered any
		func() {
			defer func() { recovered = recover() }()
			_, _ = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		}()
		require.NotNil(t, recovered, "the liveness view's panic reaches the caller")
		live.panics.Store(false)
		time.Sleep(time.Minute) // whatever was left runs out
		synctest.Wait()
		m := c.Metrics().Total
		require.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned,
			"a repair write sent never ended: %+v", m)
		assert.Equal(t, int64(1), m.OtherErrors, "the read that never returned counts as a success")
	})
}
