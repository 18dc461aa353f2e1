package coordinator_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// vettedRepair is a coordinator whose ASYNC worker, vetting B's repair,
// waits in the Liveness view until gate closes; in tells that it does.
// applied holds the context error of every Apply the replicas are sent.
type vettedRepair struct {
	c        *coordinator.Coordinator
	in, gate chan struct{}
	mu       sync.Mutex
	applied  []error
	events   []coordinator.RepairEvent
}

// recordingApply records the context state of every Apply it is sent, and
// arms the liveness gate when B is asked for its data (the reconcile read
// after the mismatch, whose repair B's is).
type recordingApply struct {
	replica.Replica
	v     *vettedRepair
	armed *atomic.Bool
}

func (r recordingApply) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if r.Endpoint().ID == B && !cmd.DigestOnly {
		r.armed.Store(true)
	}
	return r.Replica.Read(ctx, cmd)
}

func (r recordingApply) Apply(ctx context.Context, m replica.Mutation) error {
	r.v.mu.Lock()
	r.v.applied = append(r.v.applied, ctx.Err())
	r.v.mu.Unlock()
	return r.Replica.Apply(ctx, m)
}

// gatedLiveness holds the first check of B after armed is set.
type gatedLiveness struct {
	coordinator.Liveness
	v     *vettedRepair
	armed *atomic.Bool
}

func (l gatedLiveness) IsAlive(ep replica.Endpoint) bool {
	if ep.ID == B && l.armed.CompareAndSwap(true, false) {
		close(l.v.in)
		<-l.v.gate
	}
	return l.Liveness.IsAlive(ep)
}

// newVettedRepair reads newStaleEnv's key at QUORUM, B being stale, and
// returns once the worker vets B's repair.
func newVettedRepair(t *testing.T) *vettedRepair {
	e, _ := newStaleEnv(t, repair.Async)
	v := &vettedRepair{in: make(chan struct{}), gate: make(chan struct{})}
	var armed atomic.Bool
	c, err := coordinator.New(coordinator.Config{
		Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica {
			return recordingApply{Replica: r, v: v, armed: &armed}
		}),
		Liveness:     gatedLiveness{Liveness: e.cluster, v: v, armed: &armed},
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async, SpeculativeRetry: policy(t, "NEVER").SpeculativeRetry},
		Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
			v.mu.Lock()
			v.events = append(v.events, ev)
			v.mu.Unlock()
		}},
	})
	require.NoError(t, err)
	v.c = c
	_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	require.NoError(t, err)
	<-v.in
	return v
}

// A repair a worker took just before Close began, and was vetting (asking
// the Liveness view) when Close cancelled the queue, is dropped, as queued
// ones are: it was applied with the cancelled context and booked failed
// (found by review).
func TestCloseDropsTheRepairAWorkerIsVetting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newVettedRepair(t)
		closed := make(chan struct{})
		go func() { v.c.Close(); close(closed) }()
		synctest.Wait() // Close has cancelled the queue and waits for the worker
		close(v.gate)
		<-closed
		synctest.Wait() // Close does not wait for the worker telling the Observer

		m := v.c.Metrics().Total
		v.mu.Lock()
		defer v.mu.Unlock()
		assert.Empty(t, v.applied, "nothing is written once Close has begun")
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsDropped, "%+v", m)
		assert.NoError(t, v.c.DrainRepairs(t.Context()), "nothing pending")
		if assert.Len(t, v.events, 1) {
			assert.True(t, v.events[0].Dropped)
		}
	})
}

// When the Liveness view answers only after Close gave up waiting (the
// read timeout), Close has counted the repair in hand abandoned, and
// nothing is written or booked after it returned: its metrics are final
// (found by review).
func TestCloseReturnsWithTheVettedRepairBooked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := newVettedRepair(t)
		require.NoError(t, v.c.Close())
		m := v.c.Metrics().Total
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%+v", m)
		assert.Equal(t, int64(1), m.RepairsAbandoned, "%+v", m)
		assert.NoError(t, v.c.DrainRepairs(t.Context()), "nothing pending")
		close(v.gate)
		synctest.Wait()
		v.mu.Lock()
		defer v.mu.Unlock()
		assert.Empty(t, v.applied, "nothing is written once Close has begun")
		assert.Equal(t, counterValues(m), counterValues(v.c.Metrics().Total), "metrics changed after Close returned")
	})
}
