package coordinator_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// What the ports of Cassandra's read-repair tests (cassandra_*repair_test.go)
// look at: the mutations each replica is sent, and the Observer's events.

// sentLog records every mutation each replica is sent.
type sentLog struct {
	mu   sync.Mutex
	sent map[string][]replica.Partition
}

// recordingReplica logs each mutation as it arrives, before applying it.
type recordingReplica struct {
	replica.Replica
	log *sentLog
}

func (r recordingReplica) Apply(ctx context.Context, m replica.Mutation) error {
	r.log.mu.Lock()
	id := r.Endpoint().ID
	r.log.sent[id] = append(r.log.sent[id], m.Partition)
	r.log.mu.Unlock()
	return r.Replica.Apply(ctx, m)
}

// only returns the one mutation id was sent, failing if it got another
// number of them.
func (l *sentLog) only(t *testing.T, id string) replica.Partition {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	require.Len(t, l.sent[id], 1, "%s is sent one mutation", id)
	return l.sent[id][0]
}

// resent checks that id was sent at least one mutation and every one is
// want: a BLOCKING write still pending when the read
// returns is cancelled and sent again from the ASYNC queue (readrepair.go),
// where Cassandra leaves its one message in flight.
func (l *sentLog) resent(t *testing.T, id string, want replica.Partition) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	require.NotEmpty(t, l.sent[id], "%s is sent its repair", id)
	for _, m := range l.sent[id] {
		assert.True(t, m.Equal(want), "%s is sent %v, want %v", id, m, want)
	}
}

// none checks that id was sent nothing.
func (l *sentLog) none(t *testing.T, id string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	assert.Empty(t, l.sent[id], "%s is sent nothing", id)
}

// newBlockingRepairEnv is newEnv under the speculative retry sp with a
// 5 ms additional-write policy, every replica's mutations logged. A, B
// and C are Cassandra's target1, target2 and target3; a QUORUM read
// contacts A (data) and B (digest).
func newBlockingRepairEnv(t *testing.T, sp string, mode repair.Mode) (*env, *sentLog) {
	t.Helper()
	e := newEnv(t, coordinator.Config{}) // its coordinator is replaced by one over logging replicas
	log := &sentLog{sent: map[string][]replica.Partition{}}
	o := policy(t, sp)
	o.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
	o.ReadRepair = mode
	c, err := coordinator.New(coordinator.Config{DefaultTable: o, Liveness: e.cluster,
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
		Locator:     wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica { return recordingReplica{r, log} })})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	e.c = c
	return e, log
}

// threeCells is key's row "r" holding the named columns among a, b, c,
// each at timestamp 10 with the value of its upper-case name.
func threeCells(cols ...string) replica.Partition {
	var cells []replica.Cell
	for _, c := range cols {
		cells = append(cells, replica.Live(c, string(c[0]-'a'+'A'), 10))
	}
	if len(cells) == 0 {
		return replica.NewPartition(key)
	}
	return replica.NewPartition(key, replica.NewRow("r", cells...))
}

// eventLog collects an Observer's events.
type eventLog struct {
	mu      sync.Mutex
	hedges  []coordinator.HedgeEvent
	repairs []coordinator.RepairEvent
}

func (l *eventLog) observer() coordinator.ObserverFuncs {
	return coordinator.ObserverFuncs{
		Hedge: func(e coordinator.HedgeEvent) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.hedges = append(l.hedges, e)
		},
		Repair: func(e coordinator.RepairEvent) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.repairs = append(l.repairs, e)
		},
	}
}
