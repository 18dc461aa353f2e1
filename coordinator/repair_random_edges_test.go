package coordinator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Review, randomized: a BLOCKING read at ALL over three random versions
// (srGen's: row, range, cell, partition deletions, expiring data, statics),
// with a random query (limit, order, slices) and column selection,
// (1) writes nothing outside what the query read: no row or range
// tombstone outside its slices or past the row its limit cut at, no cell
// of a column it did not select; and (2) leaves the replicas agreeing on
// what the same query reads: the read repeated finds no mismatch.

func rvColumns(r *rand.Rand) []string {
	switch r.IntN(4) {
	case 0:
		return []string{"v"}
	case 1:
		return []string{"s"}
	case 2:
		return []string{"s", "v"}
	}
	return nil
}

// rvCheckMutation fails when m holds something outside what the read of
// q and cols, whose result res is, read (see rpCheckMutation).
func rvCheckMutation(t *testing.T, m replica.Partition, q replica.Query, cols []string, res replica.Partition) error {
	t.Helper()
	last, hasLast := res.LastClustering(q)
	_, cut := res.Limit(q, now)
	return rpCheckMutation(m, q, cols, cut && hasLast, last)
}

// rvRangeInside reports whether rt lies inside one of slices (nil: all).
func rvRangeInside(slices []replica.Slice, rt replica.RangeTombstone) bool {
	if slices == nil {
		return true
	}
	for _, s := range slices {
		if s.Start.Compare(rt.Start) <= 0 && rt.End.Compare(s.End) <= 0 {
			return true
		}
	}
	return false
}

func TestRepairRandomWritesOnlyWhatWasReadAndConverges(t *testing.T) {
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		t.Run(fmt.Sprint(strategy), func(t *testing.T) {
			cl := instantCluster(t)
			log := &rvLog{sent: map[string][]replica.Partition{}}
			opts := policy(t, "NEVER")
			opts.ReadRepair, opts.Strategy = repair.Blocking, strategy
			c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: opts,
				Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return rvWrap{Replica: r, log: log} })})
			require.NoError(t, err)
			t.Cleanup(func() { c.Close() })
			g := srGen{rand.New(rand.NewPCG(41, uint64(strategy)+1))}
			mismatches := 0
			for n := range 400 {
				k := fmt.Sprint("rv", n)
				vs := g.seeded(t, cl, k)
				q := g.query()
				if g.r.IntN(4) == 0 {
					q.Limit = 0
				}
				cols := rvColumns(g.r)
				log.mu.Lock()
				log.sent = map[string][]replica.Partition{}
				log.mu.Unlock()
				req := coordinator.Request{Table: tbl, Key: k, Level: consistency.All, Query: q, Columns: cols, NowInSec: now}
				res, err := c.Read(context.Background(), req)
				require.NoError(t, err)
				if res.Trace.DigestMismatch {
					mismatches++
				}
				for _, r := range cl.Replicas() {
					for _, m := range log.of(r.Endpoint().ID) {
						if err := rvCheckMutation(t, m, q, cols, res.Partition); err != nil {
							t.Fatalf("case %d: query %+v columns %v\n%sresult %v\n%s is sent %v: %v", n, q, cols, srDump(vs), res.Partition, r.Endpoint().ID, m, err)
						}
					}
				}
				again, err := c.Read(context.Background(), req)
				require.NoError(t, err)
				if again.Trace.DigestMismatch {
					var after []replica.Partition
					for _, r := range cl.Replicas() {
						p, _ := r.Partition(tbl, k)
						after = append(after, p)
					}
					t.Fatalf("case %d: query %+v columns %v: still a mismatch after a BLOCKING repair at ALL\nbefore:\n%safter:\n%sfirst %v\nagain %v",
						n, q, cols, srDump(vs), srDump(after), res.Partition, again.Partition)
				}
				if !again.Partition.Equal(res.Partition) {
					t.Fatalf("case %d: query %+v columns %v: the repeated read returns %v, the first %v", n, q, cols, again.Partition, res.Partition)
				}
			}
			require.Greater(t, mismatches, 100)
		})
	}
}

// The same at QUORUM under ALWAYS (two data answers, a third request) and
// NEVER, both strategies: whatever versions the read merged, its repairs
// hold nothing outside what the query read. A repair the read left running
// (handed to the ASYNC queue) lands after it returns: each case waits for
// the bubble to settle before it looks, so that it sees them all, and none
// lands in the next case's log.
func TestRepairRandomQuorumWritesOnlyWhatWasRead(t *testing.T) {
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		for _, sp := range []string{"ALWAYS", "NEVER"} {
			synctest.Test(t, func(t *testing.T) {
				cl := instantCluster(t)
				log := &rvLog{sent: map[string][]replica.Partition{}}
				opts := policy(t, sp)
				opts.ReadRepair, opts.Strategy = repair.Blocking, strategy
				c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: opts,
					HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
					Locator:     wrapping(cl, 3, func(r replica.Replica) replica.Replica { return rvWrap{Replica: r, log: log} })})
				require.NoError(t, err)
				t.Cleanup(func() { c.Close() })
				g := srGen{rand.New(rand.NewPCG(47, uint64(strategy)+uint64(len(sp))))}
				for n := range 300 {
					k := fmt.Sprint("rq", n)
					vs := g.seeded(t, cl, k)
					q := g.query()
					cols := rvColumns(g.r)
					log.mu.Lock()
					log.sent = map[string][]replica.Partition{}
					log.mu.Unlock()
					req := coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum, Query: q, Columns: cols, NowInSec: now}
					res, err := c.Read(context.Background(), req)
					require.NoError(t, err, "%v/%s", strategy, sp)
					synctest.Wait()
					for _, r := range cl.Replicas() {
						for _, m := range log.of(r.Endpoint().ID) {
							if err := rvCheckMutation(t, m, q, cols, res.Partition); err != nil {
								t.Fatalf("case %d: query %+v columns %v\n%sresult %v\n%s is sent %v: %v", n, q, cols, srDump(vs), res.Partition, r.Endpoint().ID, m, err)
							}
						}
					}
				}
			})
		}
	}
}
