package readpath_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// The host these benchmarks run on has slow and fast spells of seconds
// (a process, or a stretch of one, runs everything ~1.5x slower, a bare hash
// loop too), so a benchmark and its reference run seconds apart can each
// catch either, and a ratio of their medians can be off by as much. A
// benchmark of BenchmarkBeside runs a read and its reference by turns, a
// batch of each, within one run, and reports the ratio of their times per
// operation: both meet the host in the same mood.

// side is one half of a pair: op, run batch times between clock readings,
// sized so that both halves of a pair take about as long; if parallel, by
// GOMAXPROCS kept goroutines at once, each running a batch.
type side struct {
	op       func() error
	batch    int
	parallel bool
}

// besideOf runs op's and ref's batches by turns, alternating which goes
// first, and reports op's time per operation as ns/op, ref's as
// ref-ns/op, and op's over ref's as "ratio".
func besideOf(b *testing.B, op, ref side) {
	sides := [2]side{op, ref}
	runs := [2]func() time.Duration{batchRunner(b, op), batchRunner(b, ref)}
	var times [2]time.Duration
	turns := 0
	for b.Loop() {
		first := turns % 2
		times[first] += runs[first]()
		times[1-first] += runs[1-first]()
		turns++
	}
	var perOp [2]float64
	for i, s := range sides {
		ops := turns * s.batch
		if s.parallel {
			ops *= runtime.GOMAXPROCS(0)
		}
		perOp[i] = float64(times[i].Nanoseconds()) / float64(ops)
	}
	b.ReportMetric(perOp[0], "ns/op")
	b.ReportMetric(perOp[1], "ref-ns/op")
	b.ReportMetric(perOp[0]/perOp[1], "ratio")
}

// batchRunner returns a function that runs one batch of s, on every kept
// goroutine if s is parallel, and returns the time it took.
func batchRunner(b *testing.B, s side) func() time.Duration {
	batch := func() {
		for range s.batch {
			if err := s.op(); err != nil {
				b.Error(err)
				return
			}
		}
	}
	if !s.parallel {
		return func() time.Duration {
			start := time.Now()
			batch()
			return time.Since(start)
		}
	}
	// Kept goroutines, as RunParallel's. A batch ends when the slowest
	// goroutine's does, so batches are long: at 256 reads the wait at its
	// end added 16-41 % to each side's time, moving the ratio towards 1;
	// at 8,192, 8-13 % (two cores, 7 December).
	procs := runtime.GOMAXPROCS(0)
	start := make([]chan struct{}, procs)
	var done sync.WaitGroup
	for i := range start {
		start[i] = make(chan struct{})
		go func() {
			for range start[i] {
				batch()
				done.Done()
			}
		}()
	}
	b.Cleanup(func() {
		for _, c := range start {
			close(c)
		}
	})
	return func() time.Duration {
		t := time.Now()
		done.Add(procs)
		for _, c := range start {
			c <- struct{}{}
		}
		done.Wait()
		return time.Since(t)
	}
}

// readSide is a read of key "k" at level through c, batch at a time.
func readSide(c *coordinator.Coordinator, level consistency.Level, batch int, parallel bool) side {
	req := coordinator.Request{Table: "t", Key: "k", Level: level}
	ctx := context.Background()
	return side{op: func() error {
		_, err := c.Read(ctx, req)
		return err
	}, batch: batch, parallel: parallel}
}

// fanoutSide is a fan-out over three replicas holding key "k", batch at a
// time.
func fanoutSide(b *testing.B, fanout func([]replica.Replica) error, batch int, parallel bool) side {
	reps := benchReplicas(b)
	return side{op: func() error { return fanout(reps) }, batch: batch, parallel: parallel}
}

// BenchmarkBeside runs each read whose target is a ratio beside its
// reference: the sub-benchmark's name is the two benchmarks', and its
// ratio is checked against their target. Reads only, whose times beside
// their references were about their times alone: beside each other the
// 10,000- and 1,000-row merges took 1.75x and 1.44x their times alone,
// and on two cores a matching read beside one that repairs took 1.18x
// (the other's garbage collected in its turn), so those pairs measured a
// mix (7 December).
func BenchmarkBeside(b *testing.B) {
	quorum := func(b *testing.B) side {
		return readSide(benchCoordinator(b, benchCluster(b)), consistency.Quorum, 256, false)
	}
	b.Run("ReadQuorum/BareFanout", func(b *testing.B) {
		besideOf(b, quorum(b), fanoutSide(b, bareFanout, 256, false))
	})
	b.Run("ReadQuorum/ErrgroupFanout", func(b *testing.B) {
		besideOf(b, quorum(b), fanoutSide(b, errgroupFanout, 256, false))
	})
	b.Run("ReadQuorum/KeptWorkersFanout", func(b *testing.B) {
		besideOf(b, quorum(b), fanoutSide(b, newKeptWorkers(b, 8).fanout, 512, false))
	})
	b.Run("ReadQuorumParallel/BareFanoutParallel", func(b *testing.B) {
		besideOf(b, readSide(benchCoordinator(b, benchCluster(b)), consistency.Quorum, 8192, true),
			fanoutSide(b, bareFanout, 8192, true))
	})
	b.Run("ReadOneRF9/ReadOneRF3", func(b *testing.B) {
		besideOf(b, readSide(benchCoordinator(b, rfCluster(b, 9)), consistency.One, 256, false),
			readSide(benchCoordinator(b, rfCluster(b, 3)), consistency.One, 256, false))
	})
}
