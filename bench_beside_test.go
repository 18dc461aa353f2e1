package readpath_test

import (
	"context"
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
// sized so that both halves of a pair take about as long.
type side struct {
	op    func() error
	batch int
}

// besideOf runs op's and ref's batches by turns, alternating which goes
// first, and reports op's time per operation as ns/op, ref's as
// ref-ns/op, and op's over ref's as "ratio".
func besideOf(b *testing.B, op, ref side) {
	sides := [2]side{op, ref}
	var times [2]time.Duration
	turns := 0
	for b.Loop() {
		first := turns % 2
		times[first] += runBatch(b, sides[first])
		times[1-first] += runBatch(b, sides[1-first])
		turns++
	}
	var perOp [2]float64
	for i, s := range sides {
		perOp[i] = float64(times[i].Nanoseconds()) / float64(turns*s.batch)
	}
	b.ReportMetric(perOp[0], "ns/op")
	b.ReportMetric(perOp[1], "ref-ns/op")
	b.ReportMetric(perOp[0]/perOp[1], "ratio")
}

// runBatch runs one batch of s and returns the time it took.
func runBatch(b *testing.B, s side) time.Duration {
	start := time.Now()
	for range s.batch {
		if err := s.op(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// readSide is a read of key "k" at level through c, batch at a time.
func readSide(c *coordinator.Coordinator, level consistency.Level, batch int) side {
	req := coordinator.Request{Table: "t", Key: "k", Level: level}
	ctx := context.Background()
	return side{op: func() error {
		_, err := c.Read(ctx, req)
		return err
	}, batch: batch}
}

// fanoutSide is a fan-out over three replicas holding key "k", batch at a
// time.
func fanoutSide(b *testing.B, fanout func([]replica.Replica) error, batch int) side {
	reps := benchReplicas(b)
	return side{op: func() error { return fanout(reps) }, batch: batch}
}

// BenchmarkBeside runs each single read whose target is a ratio beside
// its reference: the sub-benchmark's name is the two benchmarks', and its
// ratio is checked against their target. Single reads only, whose times
// beside their references were their times alone: beside each other the
// 10,000- and 1,000-row merges took 1.75x and 1.44x their times alone, on
// two cores a matching read beside one that repairs took 1.18x (the
// other's garbage collected in its turn), and parallel batches that end
// together took 1.3-1.5x RunParallel's time (7 December).
func BenchmarkBeside(b *testing.B) {
	quorum := func(b *testing.B) side {
		return readSide(benchCoordinator(b, benchCluster(b)), consistency.Quorum, 256)
	}
	b.Run("ReadQuorum/BareFanout", func(b *testing.B) {
		besideOf(b, quorum(b), fanoutSide(b, bareFanout, 256))
	})
	b.Run("ReadQuorum/ErrgroupFanout", func(b *testing.B) {
		besideOf(b, quorum(b), fanoutSide(b, errgroupFanout, 256))
	})
	b.Run("ReadQuorum/KeptWorkersFanout", func(b *testing.B) {
		besideOf(b, quorum(b), fanoutSide(b, newKeptWorkers(b, 8).fanout, 512))
	})
	b.Run("ReadOneRF9/ReadOneRF3", func(b *testing.B) {
		besideOf(b, readSide(benchCoordinator(b, rfCluster(b, 9)), consistency.One, 256),
			readSide(benchCoordinator(b, rfCluster(b, 3)), consistency.One, 256))
	})
}
