package coordinator_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

func counterValues(tm coordinator.TableMetrics) map[string]int64 {
	m := map[string]int64{}
	for name, n := range tm.Counters() {
		m[name] = n
	}
	return m
}

// DropTable forgets the table's options, thresholds, budget and metrics,
// keeps what it counted in Total, and a later read makes it afresh with
// the default options; SetTableOptions after the drop makes it with its
// own.
func TestDropTableForgetsStateKeepsTotals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opts := policy(t, "5ms")
		opts.ReadRepair = repair.Async
		e := newEnv(t, coordinator.Config{Tables: map[string]coordinator.TableOptions{tbl: opts}})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		e.behave(t, B, constant(ms(20)))
		for range 3 {
			_, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			settle()
		}
		time.Sleep(time.Second) // the ASYNC repairs end
		settle()
		before := e.c.Metrics()
		require.Len(t, before.Tables, 1)
		tm := before.Tables[0]
		assert.Positive(t, tm.SpeculativeRetries)
		assert.Equal(t, int64(3), tm.Reads)
		assert.Equal(t, counterValues(tm), counterValues(before.Total))

		e.c.DropTable(tbl)
		e.c.DropTable(tbl)         // twice: nothing more
		e.c.DropTable("no-such-t") // unknown: nothing
		after := e.c.Metrics()
		assert.Nil(t, after.Tables)
		_, ok := e.c.TableMetrics(tbl)
		assert.False(t, ok)
		assert.Equal(t, counterValues(before.Total), counterValues(after.Total), "totals never go backwards")
		assert.Equal(t, before.Total.ReadsByLevel, after.Total.ReadsByLevel)
		assert.Equal(t, coordinator.Config{}.DefaultTable, e.c.TableOptions(tbl), "its options are gone")

		// A later read makes it afresh: default options (BLOCKING, 99p with
		// no sample: half the read timeout), counters from zero.
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, 2500*time.Millisecond, res.Trace.Threshold)
		assert.False(t, res.Trace.Hedge.Fired)
		fresh, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.Equal(t, int64(1), fresh.Reads)
		assert.Zero(t, fresh.SpeculativeRetries+fresh.RepairsSent+fresh.DigestMismatches)
		assert.Equal(t, 2500*time.Millisecond, fresh.Threshold)
		total := e.c.Metrics().Total
		assert.Equal(t, before.Total.Reads+1, total.Reads)
		assert.Equal(t, before.Total.SpeculativeRetries, total.SpeculativeRetries)

		e.c.DropTable(tbl)
		require.NoError(t, e.c.SetTableOptions(tbl, opts))
		assert.Equal(t, opts, e.c.TableOptions(tbl))
		fresh, ok = e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.Zero(t, fresh.Reads)
		assert.Equal(t, before.Total.Reads+1, e.c.Metrics().Total.Reads)
	})
}

// A table dropped while its BLOCKING read runs: the read finishes with the
// state it started with, its repair still counts in Total (sent and acked),
// and the table is not listed again.
func TestDropTableDuringABlockingRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, events := newStaleEnv(t, repair.Blocking)
		_, _, err := e.read(consistency.One) // the table has state
		require.NoError(t, err)
		e.behave(t, B, constant(ms(10))) // B's digest and repair take 10 ms each
		done := make(chan error, 1)
		go func() {
			_, _, err := e.read(consistency.Quorum)
			done <- err
		}()
		time.Sleep(ms(15)) // the repair of B is out
		e.c.DropTable(tbl)
		require.NoError(t, <-done)
		settle()
		m := e.c.Metrics()
		assert.Nil(t, m.Tables, "the read that ran on does not bring it back")
		assert.Equal(t, int64(1), m.Total.RepairsSent)
		assert.Equal(t, int64(1), m.Total.RepairsAcked)
		assert.Len(t, *events, 1)
		assert.Equal(t, int64(2), m.Total.Reads)
	})
}

// SetTableOptions, DropTable, Metrics and reads all at once (run with
// -race): nothing crashes or wedges, every read succeeds, and Total's
// counters never go backwards.
func TestConcurrentOptionsDropMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		policies := []coordinator.TableOptions{policy(t, "ALWAYS"), policy(t, "NEVER"), policy(t, "2ms"), policy(t, "MIN(99p,3ms)")}
		policies[1].ReadRepair = repair.Async
		policies[2].ReadRepair = repair.None
		stop := make(chan struct{})
		var wg sync.WaitGroup
		const readers, reads = 4, 30
		var readersWG sync.WaitGroup
		for range readers {
			readersWG.Go(func() {
				for range reads {
					_, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
					assert.NoError(t, err)
				}
			})
		}
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(ms(1)):
				}
				assert.NoError(t, e.c.SetTableOptions(tbl, policies[i%len(policies)]))
			}
		})
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(ms(3)):
				}
				e.c.DropTable(tbl)
			}
		})
		wg.Go(func() {
			last := counterValues(e.c.Metrics().Total)
			for {
				select {
				case <-stop:
					return
				case <-time.After(ms(0.5)):
				}
				now := counterValues(e.c.Metrics().Total)
				for name, n := range now {
					assert.GreaterOrEqual(t, n, last[name], name)
				}
				last = now
			}
		})
		readersWG.Wait()
		close(stop)
		wg.Wait()
		require.NoError(t, e.c.Close())
		total := e.c.Metrics().Total
		assert.LessOrEqual(t, total.Reads, int64(readers*reads), "counts of reads running at a drop may be lost, never doubled")
		assert.Positive(t, total.Reads)
	})
}
