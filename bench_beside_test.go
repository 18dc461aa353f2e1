package readpath_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// The host these benchmarks run on has slow and fast spells of seconds
// (a process, or a stretch of one, runs everything ~1.5x slower, a bare hash
// loop too), so a benchmark and its reference run seconds apart can each
// catch either, and a ratio of their medians can be off by as much. A
// benchmark of BenchmarkBeside runs an operation and its reference by
// turns, a batch of each, within one run, and reports the ratio of their
// times per operation: both meet the host in the same mood.

// side is one half of a pair: op, run batch times between clock readings
// (sized so that both halves of a pair take about as long), from one
// goroutine, or from GOMAXPROCS kept ones if parallel.
type side struct {
	op       func() error
	batch    int
	parallel bool
}

// besideOf runs op's and ref's batches by turns, alternating which goes
// first, and reports op's time per operation as ns/op, ref's as
// ref-ns/op, and op's over ref's as "ratio".
func besideOf(b *testing.B, op, ref side) {
	var times [2]time.Duration
	sides := [2]side{op, ref}
	runs := [2]func() time.Duration{batchRunner(b, op), batchRunner(b, ref)}
	turns := 0
	for b.Loop() {
		first := turns % 2
		times[first] += runs[first]()
		times[1-first] += runs[1-first]()
		turns++
	}
	var perOp [2]float64
	for i, s := range sides {
		ops := float64(turns * s.batch)
		if s.parallel {
			ops *= float64(runtime.GOMAXPROCS(0))
		}
		perOp[i] = float64(times[i].Nanoseconds()) / ops
	}
	b.ReportMetric(perOp[0], "ns/op")
	b.ReportMetric(perOp[1], "ref-ns/op")
	b.ReportMetric(perOp[0]/perOp[1], "ratio")
}

// batchRunner returns a function that runs one batch of s and returns the
// time it took, wall time for a parallel side.
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
	// Kept goroutines, as RunParallel's: each batch is one hand-off to
	// each, not a goroutine started.
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

// readSide is a read of key "k" at level through c, batch at a time,
// each result released if release (as the benchmark the side stands for
// does).
func readSide(c *coordinator.Coordinator, level consistency.Level, release bool, batch int, parallel bool) side {
	req := coordinator.Request{Table: "t", Key: "k", Level: level}
	ctx := context.Background()
	return side{op: func() error {
		res, err := c.Read(ctx, req)
		if release {
			res.Release()
		}
		return err
	}, batch: batch, parallel: parallel}
}

// fanoutSide is a fan-out over three replicas holding key "k", batch at a
// time.
func fanoutSide(b *testing.B, fanout func([]replica.Replica) error, batch int, parallel bool) side {
	reps := benchReplicas(b)
	return side{op: func() error { return fanout(reps) }, batch: batch, parallel: parallel}
}

// mergeSide merges vs, batch at a time.
func mergeSide(vs []replica.Partition, batch int) side {
	return side{op: func() error {
		m, err := repair.Merge(vs...)
		sinkPartition = m
		return err
	}, batch: batch}
}

// BenchmarkBeside runs each read or merge whose target is a ratio near
// the host's swings beside its reference: the sub-benchmark's name is
// the two benchmarks', and its ratio is checked against theirs' target.
func BenchmarkBeside(b *testing.B) {
	quorum := func(b *testing.B) side {
		return readSide(benchCoordinator(b, benchCluster(b)), consistency.Quorum, false, 256, false)
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
		besideOf(b, readSide(benchCoordinator(b, benchCluster(b)), consistency.Quorum, false, 256, true),
			fanoutSide(b, bareFanout, 256, true))
	})
	b.Run("ReadOneRF9/ReadOneRF3", func(b *testing.B) {
		besideOf(b, readSide(benchCoordinator(b, rfCluster(b, 9)), consistency.One, false, 256, false),
			readSide(benchCoordinator(b, rfCluster(b, 3)), consistency.One, false, 256, false))
	})
	b.Run("ReadMismatch100/ReadMatch100", func(b *testing.B) {
		mismatch := readSide(staleCoordinator(b, true), consistency.Quorum, true, 16, false)
		match := readSide(staleCoordinator(b, false), consistency.Quorum, true, 64, false)
		besideOf(b, mismatch, match)
	})
	b.Run("Merge3x10000/Merge3x1000", func(b *testing.B) {
		clearSinkAtEnd(b)
		heap := divergentVersions(mergeHeapRows) // the 10,000-row merge's versions, alive for both
		besideOf(b, mergeSide(heap, 1), mergeSide(divergentVersions(1000), 10))
		runtime.KeepAlive(heap)
	})
}
