package coordinator_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// checkingApply acknowledges a repair write without applying it, once it
// has read it twice, yielding between, and found it both times what its
// replica lacks of the partition (want, by key): a write built in memory
// that another read's repair reused while this one ran reads otherwise.
type checkingApply struct {
	replica.Replica
	want map[string]replica.Partition
	errs chan<- error
}

func (c checkingApply) Apply(ctx context.Context, m replica.Mutation) error {
	for range 2 {
		runtime.Gosched()
		if w := c.want[m.Partition.Key]; !w.Equal(m.Partition) {
			select {
			case c.errs <- fmt.Errorf("%s's write to %s is not what it lacks: %d rows, want %d, the first %v, want %v",
				m.Partition.Key, c.Endpoint().ID, len(m.Partition.Rows), len(w.Rows), first(m.Partition), first(w)):
			default:
			}
		}
	}
	return ctx.Err()
}

// first returns p's first row, or the zero Row.
func first(p replica.Partition) replica.Row {
	if len(p.Rows) == 0 {
		return replica.Row{}
	}
	return p.Rows[0]
}

// Goroutines reading partitions of many sizes at once, each replica stale
// in each, their repair writes built in reused memory (ReuseRepairWrites)
// and their results released: every write is, for as long as its replica
// reads it, what that replica lacks, and every result the merge.
func TestReusedRepairWritesHoldUnderConcurrentReads(t *testing.T) {
	sizes := []int{1, 3, 20, 100, 400}
	versions := make([][3]replica.Partition, len(sizes)) // per key, per replica
	for k, n := range sizes {
		name := fmt.Sprint("w", k)
		for i := range 3 {
			rows := make([]replica.Row, n)
			for j := range rows {
				cells := make([]replica.Cell, 3)
				for c := range cells {
					ts := int64(10)
					if c == i {
						ts++
					}
					cells[c] = replica.Live(fmt.Sprint("c", c), fmt.Sprintf("%s-%d-%d-%d", name, j, c, ts), ts)
				}
				rows[j] = replica.NewRow(fmt.Sprintf("r%04d", j), cells...)
			}
			versions[k][i] = replica.NewPartition(name, rows...)
		}
	}
	merged := make([]replica.Partition, len(sizes))
	for k := range sizes {
		m, err := repair.Merge(versions[k][:]...)
		require.NoError(t, err)
		merged[k] = m
	}
	errs := make(chan error, 1)
	cl := instantCluster(t)
	reps, repl, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	checking := make([]replica.Replica, len(reps))
	for i, r := range reps {
		want := map[string]replica.Partition{}
		for k := range sizes {
			require.NoError(t, cl.Replica(r.Endpoint().ID).Seed(tbl, versions[k][i]))
			want[versions[k][i].Key], _ = repair.Diff(merged[k], versions[k][i])
		}
		checking[i] = checkingApply{r, want, errs}
	}
	c, err := coordinator.New(coordinator.Config{
		Locator:  coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return checking, repl, nil }),
		Liveness: cl, LocalDatacenter: "dc1", ReuseRepairWrites: true,
		// On the real clock a loaded host may hold a read up past the
		// default 5 s; what is checked is what the repairs write.
		ReadTimeout: time.Minute,
	})
	require.NoError(t, err)
	defer c.Close()
	iters := 100
	if testing.Short() {
		iters = 20
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			for i := range iters {
				k := (g + i) % len(sizes)
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: merged[k].Key, Level: consistency.All})
				if err == nil && (!res.Trace.DigestMismatch || !merged[k].Equal(res.Partition)) {
					err = fmt.Errorf("read %d of %s: mismatch %v, %d rows, want %d", i, merged[k].Key, res.Trace.DigestMismatch, len(res.Partition.Rows), len(merged[k].Rows))
				}
				res.Release()
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		require.NoError(t, <-done)
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}
