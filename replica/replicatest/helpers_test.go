package replicatest_test

import (
	"context"
	"testing"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/require"
)

const table = "t"

var ep = replica.Endpoint{ID: "n1", Datacenter: "dc1", Rack: "r1"}

// newReplica returns a replica that the test fails on a bad option.
func newReplica(t *testing.T, opts ...replicatest.Option) *replicatest.Replica {
	t.Helper()
	r, err := replicatest.New(ep, opts...)
	require.NoError(t, err)
	return r
}

func with(b replicatest.Behavior) replicatest.Option { return replicatest.WithBehavior(b) }

func latency(l replicatest.Latency) replicatest.Option {
	return with(replicatest.Behavior{Latency: l})
}

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

// timedRead reads cmd and returns how much (virtual) time the call took.
func timedRead(ctx context.Context, r replica.Replica, cmd replica.Command) (time.Duration, replica.Response, error) {
	start := time.Now()
	resp, err := r.Read(ctx, cmd)
	return time.Since(start), resp, err
}

// readAt reads key "k" and returns the time it took.
func readTook(t *testing.T, r replica.Replica) time.Duration {
	t.Helper()
	d, _, err := timedRead(t.Context(), r, replica.Command{Table: table, Key: "k"})
	require.NoError(t, err)
	return d
}

// concurrentReads starts n reads of "k" at once and returns the virtual
// time at which each ended, in order of ending, and their errors.
func concurrentReads(t *testing.T, r replica.Replica, n int) ([]time.Duration, []error) {
	type result struct {
		at  time.Duration
		err error
	}
	start := time.Now()
	results := make(chan result, n)
	for range n {
		go func() {
			_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
			results <- result{time.Since(start), err}
		}()
	}
	var ats []time.Duration
	var errs []error
	for range n {
		res := <-results
		ats, errs = append(ats, res.at), append(errs, res.err)
	}
	return ats, errs
}

func partition(key, value string, ts int64) replica.Partition {
	return replica.NewPartition(key, replica.NewRow("row", replica.Live("col", value, ts)))
}
