package coordinator_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// readTable reads key of table at QUORUM.
func (e *env) readTable(t *testing.T, table string) {
	t.Helper()
	_, err := e.c.Read(context.Background(), coordinator.Request{Table: table, Key: key, Level: consistency.Quorum})
	require.NoError(t, err)
}

func tableNames(m coordinator.Metrics) []string {
	var names []string
	for _, tm := range m.Tables {
		names = append(names, tm.Table)
	}
	return names
}

// A dropped table leaves Metrics' tables and its options, but its counts
// stay in the totals; read again, it starts afresh with the default
// options.
func TestDropTableForgetsATableButNotItsCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.c.SetTableOptions("daily_0101", policy(t, "10ms")))
		e.readTable(t, "daily_0101")
		e.readTable(t, "daily_0101")
		e.readTable(t, tbl)

		e.c.DropTable("daily_0101")
		e.c.DropTable("never-read")
		m := e.c.Metrics()
		assert.Equal(t, []string{tbl}, tableNames(m))
		assert.Equal(t, int64(3), m.Total.Reads, "a drop must not take counts back")
		assert.Equal(t, int64(3), m.Total.ReadsByLevel[consistency.Quorum])
		assert.Equal(t, int64(3), m.Total.DataRequests)
		_, ok := e.c.TableMetrics("daily_0101")
		assert.False(t, ok)
		assert.Equal(t, coordinator.TableOptions{}, e.c.TableOptions("daily_0101"), "its options went with it")

		e.readTable(t, "daily_0101")
		m = e.c.Metrics()
		assert.Equal(t, []string{"daily_0101", tbl}, tableNames(m))
		again, ok := e.c.TableMetrics("daily_0101")
		require.True(t, ok)
		assert.Equal(t, int64(1), again.Reads, "afresh")
		assert.Equal(t, int64(4), m.Total.Reads)
	})
}

// A forgotten replica leaves Metrics' replicas; the next read that
// contacts it starts its counts afresh.
func TestForgetReplicaForgetsItsStanding(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.readTable(t, tbl)
		e.readTable(t, tbl)
		requests := func() map[string]int64 {
			out := map[string]int64{}
			for _, r := range e.c.Metrics().Replicas {
				out[r.Endpoint.ID] = r.Requests
			}
			return out
		}
		before := requests()
		assert.Equal(t, int64(2), before[A], "A has every data request")

		e.c.ForgetReplica(A)
		e.c.ForgetReplica("never-contacted")
		after := requests()
		assert.NotContains(t, after, A)
		delete(before, A)
		assert.Equal(t, before, after, "the others keep theirs")

		e.readTable(t, tbl)
		assert.Equal(t, int64(1), requests()[A], "afresh")
	})
}

// Dropping tables while they are read, and while Metrics runs, never
// makes a total go backwards: a table is counted once, among the tables
// or among the dropped ones, however a drop and Metrics interleave.
func TestDropTableWhileReadsRunKeepsTotalsMonotonic(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: instantCluster(t), LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()
	const tables, readers, reads = 64, 4, 500
	name := func(i int) string { return "t" + strconv.Itoa(i%tables) }
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			for i := range reads {
				_, err := c.Read(context.Background(), coordinator.Request{Table: name(r*reads + i), Key: key, Level: consistency.Quorum})
				assert.NoError(t, err)
			}
		})
	}
	readsDone := make(chan struct{})
	go func() { wg.Wait(); close(readsDone) }()
	stop, dropperDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(dropperDone)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				c.DropTable(name(i))
			}
		}
	}()
	var last int64
	for running := true; running; {
		select {
		case <-readsDone:
			running = false
		default:
		}
		total := c.Metrics().Total.Reads
		require.GreaterOrEqual(t, total, last, "a total went backwards")
		last = total
	}
	close(stop)
	<-dropperDone
	// A read whose table was dropped while it ran counts into the dropped
	// state, and is lost: so at most every read.
	assert.LessOrEqual(t, last, int64(readers*reads))
}
