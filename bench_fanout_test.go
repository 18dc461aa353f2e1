package readpath_test

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/readpath/readpath/replica"
)

// ---- references for the coordinator's read: fan-outs that do its requests ----

// errDigestMismatch would mean the benchmark's replicas disagree.
var errDigestMismatch = errors.New("bench: replicas disagree")

var (
	dataCommand   = replica.Command{Table: "t", Key: "k"}
	digestCommand = replica.Command{Table: "t", Key: "k", DigestOnly: true}
)

// errgroupFanout is what a careful engineer writes without readpath: the
// QUORUM read's two requests (data from one replica, a digest from
// another) through an errgroup, then the digest comparison. The reference
// BenchmarkReadQuorum must not exceed.
func errgroupFanout(reps []replica.Replica) error {
	g, ctx := errgroup.WithContext(context.Background())
	var data replica.Response
	var digest replica.Response
	g.Go(func() (err error) { data, err = reps[0].Read(ctx, dataCommand); return err })
	g.Go(func() (err error) { digest, err = reps[1].Read(ctx, digestCommand); return err })
	if err := g.Wait(); err != nil {
		return err
	}
	if data.Partition.Digest() != digest.Digest {
		return errDigestMismatch
	}
	return nil
}

// BenchmarkErrgroupFanout is a reference for BenchmarkReadQuorum: target,
// the read at most 1.0x its time.
func BenchmarkErrgroupFanout(b *testing.B) {
	reps := benchReplicas(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := errgroupFanout(reps); err != nil {
			b.Fatal(err)
		}
	}
}

// keptWorkers runs replica reads on goroutines started once, as the
// coordinator does: the hand-written fan-out on kept workers.
type keptWorkers struct{ jobs chan keptJob }

type keptJob struct {
	ctx  context.Context
	r    replica.Replica
	cmd  replica.Command
	done chan<- keptAnswer
}

type keptAnswer struct {
	resp replica.Response
	err  error
}

func newKeptWorkers(b *testing.B, n int) *keptWorkers {
	w := &keptWorkers{jobs: make(chan keptJob, n)}
	for range n {
		go func() {
			for j := range w.jobs {
				resp, err := j.r.Read(j.ctx, j.cmd)
				j.done <- keptAnswer{resp, err}
			}
		}()
	}
	b.Cleanup(func() { close(w.jobs) })
	return w
}

// fanout sends the QUORUM read's two requests to the workers, waits for
// both, cancels, and compares the digests.
func (w *keptWorkers) fanout(reps []replica.Replica) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan keptAnswer, 2)
	w.jobs <- keptJob{ctx, reps[0], dataCommand, done}
	w.jobs <- keptJob{ctx, reps[1], digestCommand, done}
	var answers [2]keptAnswer
	for i := range answers {
		answers[i] = <-done
		if answers[i].err != nil {
			return answers[i].err
		}
	}
	data, digest := answers[0].resp, answers[1].resp
	if data.Partition.Key == "" { // the digest answered first
		data, digest = digest, data
	}
	if data.Partition.Digest() != digest.Digest {
		return errDigestMismatch
	}
	return nil
}

// BenchmarkKeptWorkersFanout is a reference for BenchmarkReadQuorum:
// target, the read at most 1.2x its time.
func BenchmarkKeptWorkersFanout(b *testing.B) {
	reps := benchReplicas(b)
	w := newKeptWorkers(b, 8)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.fanout(reps); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeptWorkersFanoutParallel is the kept-workers reference for
// BenchmarkReadQuorumParallel.
func BenchmarkKeptWorkersFanoutParallel(b *testing.B) {
	reps := benchReplicas(b)
	w := newKeptWorkers(b, 64)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.fanout(reps); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
