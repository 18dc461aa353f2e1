package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// fickleReplica holds, for every key, six rows whose values name the key
// and the replica, so a result built from another read's answer shows.
// Replicas disagree (timestamps differ, each deletes two rows), so reads
// reconcile, protect short reads under a limit and repair. Each request
// draws its fate: at once, after a short wait, a panic, an error, a hang
// until its context ends and then a late return, or an answer after the
// read's deadline that ignores the context.
type fickleReplica struct {
	ep    replica.Endpoint
	i     int
	mu    *sync.Mutex
	rng   *rand.Rand
	calls *atomic.Int64
}

func (r *fickleReplica) Endpoint() replica.Endpoint { return r.ep }

func (r *fickleReplica) stored(key string) replica.Partition {
	var rows []replica.Row
	for j := range 6 {
		c := replica.Live("v", fmt.Sprintf("%s/r%d/%d", key, j, r.i), int64(10+(r.i+j+len(key))%3))
		if j == r.i%6 || j == (r.i+1)%6 {
			c = replica.Tombstone("v", 20, 1_700_000_000)
		}
		rows = append(rows, replica.NewRow(fmt.Sprintf("r%d", j), c))
	}
	return replica.NewPartition(key, rows...)
}

func (r *fickleReplica) draw(n int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rng.IntN(n)
}

func (r *fickleReplica) fate(ctx context.Context) error {
	r.calls.Add(1)
	switch n := r.draw(100); {
	case n < 70:
	case n < 85:
		time.Sleep(time.Duration(r.draw(1500)) * time.Microsecond)
	case n < 88:
		panic("replica panics")
	case n < 91:
		return errors.New("replica error")
	case n < 95:
		<-ctx.Done()
		time.Sleep(time.Duration(r.draw(500)) * time.Microsecond)
		return ctx.Err()
	default:
		time.Sleep(time.Duration(10_000+r.draw(10_000)) * time.Microsecond) // past the deadline
	}
	return nil
}

func (r *fickleReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if err := r.fate(ctx); err != nil {
		return replica.Response{}, err
	}
	return cmd.Respond(r.stored(cmd.Key))
}

func (r *fickleReplica) Apply(ctx context.Context, m replica.Mutation) error {
	if !strings.HasPrefix(m.Partition.Key, "key") {
		return errors.New("repair of an unknown key")
	}
	return r.fate(ctx)
}

// fickleCluster is two datacenters of three fickleReplicas, RF 3 in each,
// drawing from one generator seeded with seed1 and seed2, and the count
// of their calls.
func fickleCluster(seed1, seed2 uint64) (coordinator.LocatorFunc, *atomic.Int64) {
	calls := new(atomic.Int64)
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed1, seed2))
	var reps []replica.Replica
	for d, dc := range []string{"dc1", "dc2"} {
		for n := range 3 {
			reps = append(reps, &fickleReplica{ep: replica.Endpoint{ID: fmt.Sprintf("%s-n%d", dc, n),
				Datacenter: dc, Rack: fmt.Sprint("r", n)}, i: d*3 + n, mu: &mu, rng: rng, calls: calls})
		}
	}
	repl := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	return func(string, string) ([]replica.Replica, consistency.Replication, error) { return reps, repl, nil }, calls
}

// Concurrent reads of distinct keys, at every level, under both strategies
// and every kind of speculation, reconciling, protecting short reads and
// repairing, against replicas that panic, fail, hang and answer late, and
// with callers that cancel: a read never gets an answer meant for another
// read (reads recycle their answer channels), and nothing leaks.
func TestReadsNeverSeeAnotherReadsAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		loc, calls := fickleCluster(7, 8)
		tables := isolationTables(t)
		c, err := coordinator.New(coordinator.Config{Locator: loc, LocalDatacenter: "dc1",
			ReadTimeout: 10 * time.Millisecond, Tables: tables, HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		require.NoError(t, err)
		names := []string{"always", "fixed", "p50", "digest-first", "digest-first-fixed", "never"}
		levels := []consistency.Level{consistency.One, consistency.Two, consistency.Quorum, consistency.All,
			consistency.LocalQuorum, consistency.EachQuorum, consistency.LocalOne}

		var wg sync.WaitGroup
		var ok atomic.Int64
		for g := range 16 {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			wg.Go(func() {
				for n := range 150 {
					k := fmt.Sprintf("key%d-%d", g, n)
					req := coordinator.Request{Table: names[rng.IntN(len(names))], Key: k,
						Level: levels[rng.IntN(len(levels))]}
					if rng.IntN(2) == 0 {
						req.Query.Limit = 1 + rng.IntN(3)
					}
					ctx, cancel := context.WithCancel(context.Background())
					if rng.IntN(5) == 0 {
						time.AfterFunc(time.Duration(rng.IntN(1500))*time.Microsecond, cancel)
					}
					res, err := c.Read(ctx, req)
					cancel()
					if err == nil {
						ok.Add(1)
						checkOwnAnswer(t, k, res)
					}
				}
			})
		}
		wg.Wait()
		require.NoError(t, c.Close())
		time.Sleep(time.Second) // late answers of replicas that ignore their context
		synctest.Wait()

		m := c.Metrics().Total
		t.Logf("%d reads ok of %d, %d replica calls\n%v", ok.Load(), m.Reads, calls.Load(), c.Metrics())
		for _, kind := range []int64{ok.Load(), m.ShortReadRequests, m.DigestMismatches, m.SpeculativeRetries,
			m.RepairsSent, m.Timeouts, m.Failures, m.Cancelled} {
			assert.Positive(t, kind, "the test exercised too little:\n%v", c.Metrics())
		}
	})
}

// isolationTables has both strategies, each read-repair mode and each
// kind of speculation.
func isolationTables(t *testing.T) map[string]coordinator.TableOptions {
	opts := func(retry string, s coordinator.Strategy, rr repair.Mode, write string) coordinator.TableOptions {
		o := policy(t, retry)
		o.Strategy, o.ReadRepair = s, rr
		o.AdditionalWritePolicy = policy(t, write).SpeculativeRetry
		return o
	}
	return map[string]coordinator.TableOptions{
		"always":             opts("ALWAYS", coordinator.DataAndDigests, repair.Blocking, "ALWAYS"),
		"fixed":              opts("1ms", coordinator.DataAndDigests, repair.Blocking, "1ms"),
		"p50":                opts("50p", coordinator.DataAndDigests, repair.Async, "NEVER"),
		"digest-first":       opts("ALWAYS", coordinator.DigestFirst, repair.Blocking, "ALWAYS"),
		"digest-first-fixed": opts("1ms", coordinator.DigestFirst, repair.Blocking, "1ms"),
		"never":              opts("NEVER", coordinator.DataAndDigests, repair.None, "NEVER"),
	}
}

// checkOwnAnswer fails unless res is key's partition, built only of cells
// that name key, and every request of its trace ended after it was sent.
func checkOwnAnswer(t *testing.T, key string, res coordinator.Result) {
	assert.Equal(t, key, res.Partition.Key, "a read got another key's partition")
	for _, row := range res.Partition.Rows {
		for _, cell := range row.Cells {
			if !cell.Tombstone {
				assert.True(t, strings.HasPrefix(string(cell.Value), key+"/"), "read of %s got cell %q", key, cell.Value)
			}
		}
	}
	for i, rt := range res.Trace.Requests {
		if rt.Outcome != coordinator.Pending {
			assert.GreaterOrEqual(t, rt.Done, rt.Sent, "read of %s: request %d done before it was sent", key, i)
		}
	}
}
