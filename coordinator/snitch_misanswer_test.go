package coordinator_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// wrongKeyReplica answers every data read, at once, with another key's
// partition (a transport that mixed up its streams).
type wrongKeyReplica struct{ replica.Replica }

func (w wrongKeyReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := w.Replica.Read(ctx, cmd)
	if err == nil && !cmd.DigestOnly {
		resp.Partition = replica.NewPartition("someone-else", replica.NewRow("r", replica.Live("v", "x", 1)))
	}
	return resp, err
}

// failingReplica fails every read at once.
type failingReplica struct{ replica.Replica }

var errFailingReplica = errors.New("injected")

func (failingReplica) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{}, errFailingReplica
}

// errorLog keeps the errors told to Config.Outcomes for one replica.
type errorLog struct {
	mu   sync.Mutex
	id   string
	errs []error
}

func (l *errorLog) ReportOutcome(o replica.Outcome) {
	if o.Endpoint.ID != l.id {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, o.Err)
}

// An answer the coordinator refuses (for the wrong key here) is the
// replica's failure to the snitch and the outcome reporter, as an error
// is: the snitch ranks the replica behind the healthy ones after a read or
// two, and reads at ONE stop going to it first. Reported as a success, it
// kept its rank as the fastest, every read sent it the data request and
// needed a hedge, and once the hedge budget was spent reads failed with two
// healthy replicas idle (a review found 99 of 100 reads going to it first
// and 79 failing).
func TestMisansweringReplicaLosesItsRank(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func(replica.Replica) replica.Replica
	}{
		{"fails", func(r replica.Replica) replica.Replica { return failingReplica{r} }},
		{"answers the wrong key", func(r replica.Replica) replica.Replica { return wrongKeyReplica{r} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := newEnv(t, coordinator.Config{}).cluster
				log := &errorLog{id: A}
				c, err := coordinator.New(coordinator.Config{Locator: wrapID(cl, A, tc.wrap), Liveness: cl, Outcomes: log})
				require.NoError(t, err)
				defer c.Close()
				const reads = 100
				failed, aFirst := 0, 0
				for range reads {
					res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
					synctest.Wait()
					if err != nil {
						failed++
					}
					if len(res.Trace.Requests) > 0 && res.Trace.Requests[0].Endpoint == A {
						aFirst++
					}
				}
				assert.LessOrEqual(t, aFirst, 5, "reads whose data request went to the misanswering replica A first")
				assert.LessOrEqual(t, failed, 5, "failed reads, with B and C healthy")
				log.mu.Lock()
				defer log.mu.Unlock()
				require.NotEmpty(t, log.errs)
				for _, err := range log.errs {
					assert.Error(t, err, "every outcome of A's requests is a failure")
				}
			})
		})
	}
}
