package readpath_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- a reference that does the coordinator's measurable work by hand ----

// sameWork is the fan-out on kept workers grown by the work a read needs
// beyond its two requests, each step done the cheapest way: it locates
// the replicas and checks that two are alive, runs the requests under a
// cancel context with a timer set for a hedge, times every answer and
// records it against its replica, validates and digests the data answer
// in one walk, compares the digests, and records the read's latency.
//
// What the coordinator does besides is what this leaves out: ranking the
// replicas (the snitch, the rack spread), the trace, the counters, the
// hedge budget and the speculation decision, the request checks, and the
// recycling that keeps it at four allocations. BenchmarkReadQuorum
// against this measures what those cost; against BenchmarkKeptWorkersFanout
// it measures them and this work together.
type sameWork struct {
	cl      *replicatest.Cluster
	jobs    chan sameWorkJob
	timer   *time.Timer
	perRep  map[string]*latency.Tracker // a response-time tracker per replica
	latency *latency.Tracker            // the read's
}

// errTooFewAlive would mean the benchmark's cluster lost a replica.
var errTooFewAlive = errors.New("bench: fewer than two replicas alive")

type sameWorkJob struct {
	ctx  context.Context
	r    replica.Replica
	cmd  replica.Command
	sent time.Time
	rec  *latency.Tracker
	done chan<- sameWorkAnswer
}

type sameWorkAnswer struct {
	digest digest.Digest
	data   bool
	err    error
}

func newSameWork(b *testing.B, cl *replicatest.Cluster, n int) *sameWork {
	s := &sameWork{
		cl: cl, jobs: make(chan sameWorkJob, n), timer: time.NewTimer(time.Hour),
		perRep: map[string]*latency.Tracker{}, latency: latency.NewTracker(),
	}
	s.timer.Stop()
	for _, r := range cl.Replicas() {
		s.perRep[r.Endpoint().ID] = latency.NewTracker()
	}
	for range n {
		go s.work()
	}
	b.Cleanup(func() { close(s.jobs) })
	return s
}

// work runs requests: the replica call, its time recorded, and a data
// answer validated and digested in one walk.
func (s *sameWork) work() {
	for j := range s.jobs {
		resp, err := j.r.Read(j.ctx, j.cmd)
		at := time.Now()
		j.rec.Record(at.Sub(j.sent))
		a := sameWorkAnswer{digest: resp.Digest, data: !j.cmd.DigestOnly, err: err}
		if err == nil && a.data {
			a.digest, a.err = resp.Partition.ValidateDigest(digest.Latest)
		}
		j.done <- a
	}
}

// read is one QUORUM read: data from the first live replica, a digest
// from the second.
func (s *sameWork) read(parent context.Context) error {
	start := time.Now()
	reps, _, err := s.cl.Locate("t", "k")
	if err != nil {
		return err
	}
	var live [2]replica.Replica
	n := 0
	for _, r := range reps {
		if n < len(live) && s.cl.IsAlive(r.Endpoint()) {
			live[n] = r
			n++
		}
	}
	if n < len(live) {
		return errTooFewAlive
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s.timer.Reset(time.Second) // the hedge's; the replicas answer long before
	defer s.timer.Stop()
	done := make(chan sameWorkAnswer, 2)
	for i, r := range live {
		cmd := dataCommand
		if i > 0 {
			cmd = digestCommand
		}
		s.jobs <- sameWorkJob{ctx, r, cmd, start, s.perRep[r.Endpoint().ID], done}
	}
	var data, other digest.Digest
	for range live {
		a := <-done
		if a.err != nil {
			return a.err
		}
		if a.data {
			data = a.digest
		} else {
			other = a.digest
		}
	}
	if data != other {
		return errDigestMismatch
	}
	s.latency.Record(time.Since(start))
	return nil
}

// BenchmarkSameWorkFanout is the reference that tells what the remaining
// gap between BenchmarkReadQuorum and BenchmarkKeptWorkersFanout is made
// of: the fan-out on kept workers doing the read's measurable work too.
func BenchmarkSameWorkFanout(b *testing.B) {
	s := newSameWork(b, benchCluster(b), 8)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := s.read(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
