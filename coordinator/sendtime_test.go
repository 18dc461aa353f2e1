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
	"github.com/readpath/readpath/replica"
)

// sentTimeOutcomes keeps every replica.Outcome the coordinator reports.
type sentTimeOutcomes struct {
	mu  sync.Mutex
	got []replica.Outcome
}

func (o *sentTimeOutcomes) ReportOutcome(x replica.Outcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.got = append(o.got, x)
}

// sentTimeArrivals wraps a replica and notes when each Read reached it.
type sentTimeArrivals struct {
	replica.Replica
	mu *sync.Mutex
	at map[string][]time.Time
}

func (a sentTimeArrivals) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	a.mu.Lock()
	id := a.Replica.Endpoint().ID
	a.at[id] = append(a.at[id], time.Now())
	a.mu.Unlock()
	return a.Replica.Read(ctx, cmd)
}

// A read's initial requests are timed from when they go out, once the
// Locator has placed the read and the plan is made, not from when Read was
// called: the trace's send times, the latency fed to the snitch
// (ReplicaMetrics.Latency) and replica.Outcome.Latency measure the
// replica, not the Locator. Replicas answering in 1 ms were charged the
// Locator's 5 ms too, and the trace said they were sent at 0 when they
// reached the replicas at 5 ms (found by a review of the metrics).
func TestInitialRequestsAreTimedFromWhenTheyAreSent(t *testing.T) {
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		t.Run(strategy.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := newEnv(t, coordinator.Config{}).cluster // replicas answering in 1 ms
				arrivals := sentTimeArrivals{mu: new(sync.Mutex), at: map[string][]time.Time{}}
				outcomes := new(sentTimeOutcomes)
				o := policy(t, "NEVER")
				o.Strategy = strategy
				cfg := coordinator.Config{ReadTimeout: ms(100), DefaultTable: o, Outcomes: outcomes, Liveness: cl}
				cfg.Locator = coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
					time.Sleep(ms(5)) // a lookup of the ring's metadata, say
					reps, repl, err := cl.Locate(table, k)
					wrapped := make([]replica.Replica, len(reps))
					for i, r := range reps {
						wrapped[i] = sentTimeArrivals{Replica: r, mu: arrivals.mu, at: arrivals.at}
					}
					return wrapped, repl, err
				})
				c, err := coordinator.New(cfg)
				require.NoError(t, err)
				defer c.Close()

				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				require.NoError(t, err)
				settle()

				nth := map[string]int{}
				for _, rq := range res.Trace.Requests {
					arrived := arrivals.at[rq.Endpoint][nth[rq.Endpoint]].Sub(res.Trace.Start)
					nth[rq.Endpoint]++
					assert.Equal(t, arrived, rq.Sent, "%s: trace's send time, against when the request reached the replica", rq.Endpoint)
					if rq.Outcome == coordinator.Answered {
						assert.Equal(t, ms(1), rq.Done-rq.Sent, "%s: answered 1 ms after it was sent", rq.Endpoint)
					}
				}
				outcomes.mu.Lock()
				for _, x := range outcomes.got {
					assert.Equal(t, ms(1), x.Latency, "%s: Outcome.Latency", x.Endpoint.ID)
				}
				outcomes.mu.Unlock()
				for _, r := range c.Metrics().Replicas {
					if r.Requests > 0 {
						assert.Equal(t, ms(1), r.Latency, "%s: ReplicaMetrics.Latency of a replica that answers in 1 ms", r.Endpoint.ID)
					}
				}
			})
		})
	}
}
