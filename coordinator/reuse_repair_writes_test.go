package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// copyingApply applies a copy of each write it is given, as a transport
// that serializes it does, keeping nothing of the write itself; with a
// gate, it copies only once the gate opens, as a write queued behind a
// slow connection is serialized late, and passes on what it copied.
type copyingApply struct {
	replica.Replica
	gate   <-chan struct{}
	copied chan<- replica.Partition
}

func (c copyingApply) Apply(ctx context.Context, m replica.Mutation) error {
	if c.gate != nil {
		<-c.gate
	}
	m.Partition = m.Partition.Clone()
	if c.copied != nil {
		c.copied <- m.Partition
	}
	return c.Replica.Apply(ctx, m)
}

// With ReuseRepairWrites, a QUORUM read whose two contacts each lack a
// cell of the other's builds both writes in reused memory: the 17 objects
// of TestARepairedMismatchAllocates17Objects less each write's rows, cells
// and values.
func TestReusedRepairWritesAllocateNoDiffs(t *testing.T) {
	race.SkipPooledAllocs(t)
	c := mutuallyStale(t, coordinator.Config{ReuseRepairWrites: true})

	allocs, res := readAllocs(t, c, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	require.Len(t, res.Trace.Repaired, 2)
	assert.Equal(t, 11.0, allocs)
}

// Reads of many partitions, each replica stale in some of them, repair
// every replica to the merge when their writes are built in reused memory:
// a read at ALL afterwards finds them agreeing on what the repairing read
// returned. replicatest's replicas store a copy of each write, as the
// option asks.
func TestReusedRepairWritesRepairAsNewOnes(t *testing.T) {
	cl := instantCluster(t)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1", ReuseRepairWrites: true})
	require.NoError(t, err)
	defer c.Close()
	reps, _, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	for i := range 60 {
		k := fmt.Sprintf("p%d", i)
		for j, r := range reps {
			var rows []replica.Row
			for n := range i%7 + 1 { // a row only this replica holds, and rows all hold, newest here or there
				rows = append(rows, replica.NewRow(fmt.Sprintf("r%d", n), replica.Live("v", fmt.Sprintf("%d-%d", j, n), int64(10+(n+j)%3))))
			}
			rows = append(rows, replica.NewRow(fmt.Sprintf("only%d", j), replica.Live("v", k, 5)))
			require.NoError(t, cl.Replica(r.Endpoint().ID).Seed(tbl, replica.NewPartition(k, rows...)))
		}
		level := []consistency.Level{consistency.All, consistency.Quorum}[i%2]
		first, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: level})
		require.NoError(t, err, k)
		require.True(t, first.Trace.DigestMismatch, k)
		if level == consistency.Quorum {
			continue // the third replica stays stale
		}
		again, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.All})
		require.NoError(t, err, k)
		require.False(t, again.Trace.DigestMismatch, k)
		require.Equal(t, first.Partition, again.Partition, k)
	}
}

// A BLOCKING write still running when its read times out keeps its memory:
// repairs of other partitions meanwhile do not build in it, and the write,
// copied only once its replica gets to it, is what the replica lacked.
func TestReusedRepairWritesKeepARunningWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		copied := make(chan replica.Partition, 8)
		e := newEnv(t, coordinator.Config{})
		keys := []string{"q1", "q2", "q3", "q4"}
		for _, k := range keys {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, row(k, "old", 10)))
			require.NoError(t, e.cluster.SeedOn(tbl, row(k, "new-"+k, 20), A, B))
		}
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		cfg := coordinator.Config{ReuseRepairWrites: true, ReadTimeout: ms(100), RepairWorkers: 1}
		cfg.Locator = wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return copyingApply{r, gate, copied} })
		cfg.Liveness = e.cluster
		c, err := coordinator.New(cfg)
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "B's write is running at the deadline")
		for _, k := range keys { // C is stale: its writes are built in rooms
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.All})
			require.NoError(t, err, k)
			require.Equal(t, []string{C}, res.Trace.Repaired, k)
		}
		close(gate)
		first := <-copied
		assert.Equal(t, key, first.Key)
		assert.Equal(t, row(key, "v2", 20).Rows, first.Rows)
		settle()
		for {
			select {
			case p := <-copied: // the ASYNC queue's retry, if it made one
				assert.Equal(t, key, p.Key)
				continue
			default:
			}
			break
		}
	})
}
