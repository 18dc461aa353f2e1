package coordinator_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// dataCounter counts each replica's data requests in flight, and the most
// one had at once.
type dataCounter struct {
	mu       sync.Mutex
	now, max map[string]int
}

func newDataCounter() *dataCounter {
	return &dataCounter{now: map[string]int{}, max: map[string]int{}}
}

func (d *dataCounter) wrap(r replica.Replica) replica.Replica { return countsData{r, d} }

func (d *dataCounter) add(id string, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.now[id] += n
	d.max[id] = max(d.max[id], d.now[id])
}

type countsData struct {
	replica.Replica
	d *dataCounter
}

func (c countsData) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if !cmd.DigestOnly {
		id := c.Endpoint().ID
		c.d.add(id, 1)
		defer c.d.add(id, -1)
	}
	return c.Replica.Read(ctx, cmd)
}

// No replica gets two data requests of one read at once. Under ALWAYS a
// read asks two replicas for data; when the first one's data mismatches a
// digest, the reconcile round asks for data every replica whose version
// is not in hand, and the second one, still working on the first round's
// data request, got another (B, straggling, by DATA_AND_DIGESTS; C, whose
// digest mismatched, by DIGEST_FIRST). The reconcile round now waits for
// that request's answer instead.
func TestNoReplicaGetsTwoDataRequestsAtOnce(t *testing.T) {
	for _, s := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		t.Run(s.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), C))
				e.behave(t, B, constant(ms(5)))
				e.behave(t, C, constant(ms(2)))
				o := policy(t, "ALWAYS")
				o.Strategy = s
				d := newDataCounter()
				c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, DefaultTable: o,
					Snitch:  coordinator.SnitchConfig{Disabled: true},
					Locator: wrapIDs(e.cluster, map[string]bool{A: true, B: true, C: true}, d.wrap)})
				require.NoError(t, err)
				defer c.Close()

				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				require.NoError(t, err)
				settle()
				assert.True(t, res.Trace.DigestMismatch)
				for id, n := range d.max {
					assert.LessOrEqual(t, n, 1, "%s had %d data requests of the read at once\n%s", id, n, res.Trace)
				}
				assert.Equal(t, "v2", string(res.Partition.Rows[0].Cells[0].Value), "C's newer write")
				data := map[string]int{}
				for _, rq := range res.Trace.Requests {
					if rq.Kind == coordinator.KindData {
						data[rq.Endpoint]++
					}
				}
				for id, n := range data {
					assert.Equal(t, 1, n, "data requests to %s\n%s", id, res.Trace)
				}
			})
		})
	}
}
