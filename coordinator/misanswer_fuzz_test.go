package coordinator_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// FuzzMisansweringReplicas reads, in pages, from A, B and C, which disagree
// (so reads reconcile, repair and protect against short reads), while those
// the setup picks answer, and take repair writes, as a program of fuzzed
// actions says: malformed or foreign partitions, wrong digests, lying
// tombstone counts, every column for the ones selected, errors, panics,
// hangs. setup picks the level, strategy, repair mode, speculative retry,
// bad replicas, query, and Read or ReadMany. Every read ends, in a bubble,
// by its deadline however the replicas stall, with nothing left running,
// either failing with a typed error whose reasons name only bad replicas,
// or with a valid result of the query; no repair write is malformed or
// outside the query or its columns. With a program too short to act, at
// ALL, the pages of a Read show the replicas' merged rows exactly.
func FuzzMisansweringReplicas(f *testing.F) {
	for act := range byte(12) {
		for _, setup := range []uint32{0, 1 | 1<<7 | 8<<10, 2 | 4 | 2<<7 | 9<<10, 1 | 3<<5 | 4<<7 | 26<<10} {
			f.Add(setup, []byte{act, act * 17})
		}
	}
	for op := range byte(16) {
		f.Add(1|2<<7|uint32(op)<<10, []byte{1, op, 0, 0, 2, op * 16})
		f.Add(2|1<<26|uint32(op)<<27|uint32(op)<<10, []byte{1, op, 9, op, 2, op * 16})
	}
	for _, shape := range []uint32{32, 32 | 256} { // every column, for a selection of b, or of s and b
		for _, setup := range []uint32{0, 1 | 4, 2 | 1<<26, 1 | 6<<7, 1 | 4 | 1<<26 | 1<<27} {
			f.Add(setup|shape<<10, []byte{0, 1})
			f.Add(setup|shape<<10, []byte{0, 1, 0, 0, 2, 3})
		}
	}
	for _, shape := range honestShapes {
		f.Add(2|shape<<10, []byte{})
		f.Add(2|4|shape<<10, []byte{7})
	}
	f.Fuzz(func(t *testing.T, setup uint32, prog []byte) {
		synctest.Test(t, func(t *testing.T) {
			readThrough(t, setup, stalls(prog), len(prog) < 2, func(r replica.Replica, bad bool, at *atomic.Int64, check *writeCheck) replica.Replica {
				m := misanswer{Replica: r, at: at, check: check}
				if bad {
					m.prog = prog
				}
				return m
			})
		})
	})
}

// honestShapes are queries, column selections and page sizes (see
// fuzzQuery) the seeds read at ALL from honest replicas.
var honestShapes = []uint32{0, 8 | 64, 4 | 64, 3 | 8 | 128, 1 | 4 | 16 | 64, 32 | 256 | 64}

// stalls reports whether prog has a replica wait for its context's end
// (action 9) or sleep (action 10).
func stalls(prog []byte) bool {
	for i := 0; i+1 < len(prog); i += 2 {
		if act := prog[i] % 12; act == 9 || act == 10 {
			return true
		}
	}
	return false
}

// readTimeout is readThrough's ReadTimeout (the default, set so that the
// check below does not depend on it).
const readTimeout = 5 * time.Second

// readThrough reads as setup says from divergedCluster, each replica behind
// what wrap makes of it, given whether setup makes it bad, a counter of
// its requests and the check of its repair writes, and checks the read.
// Unless the replicas stall, the reads end in milliseconds of fake time:
// half the read timeout is a hedge's delay before the table has latency
// samples, so a read that took it waited on a lost answer. When every
// replica is honest, a Read at ALL must show, over its pages, exactly the
// merged rows of all three under the query.
func readThrough(t *testing.T, setup uint32, stall, honest bool, wrap func(r replica.Replica, bad bool, at *atomic.Int64, check *writeCheck) replica.Replica) {
	cl := divergedCluster(t)
	check := &writeCheck{keys: map[string]bool{key: true, otherKey: true}}
	bad, steps := map[string]bool{}, map[string]*atomic.Int64{}
	for i, id := range []string{A, B, C} {
		bad[id], steps[id] = setup>>7&(1<<i) != 0 || setup>>7&7 == 0 && i == 0, new(atomic.Int64)
	}
	locate := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
		reps, repl, err := cl.Locate(table, k)
		out := make([]replica.Replica, len(reps))
		for i, r := range reps {
			id := r.Endpoint().ID
			out[i] = wrap(r, bad[id], steps[id], check)
		}
		return out, repl, err
	})
	c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: cl, ReadTimeout: readTimeout,
		DefaultTable: misansweredOptions(t, setup)})
	require.NoError(t, err)
	defer func() {
		c.Close()
		time.Sleep(time.Second) // a replica ignoring its context ends its own goroutine; nothing else may be left
	}()
	q, columns, pageSize := fuzzQuery(uint16(setup >> 10))
	check.q, check.columns = replica.Query{Slices: q.Slices}, columns
	level := []consistency.Level{consistency.One, consistency.Quorum, consistency.All, consistency.Two}[setup%4]
	start := time.Now()
	if setup&(1<<26) != 0 {
		readManyMisanswered(t, c, bad, coordinator.ManyRequest{Table: tbl, Keys: []string{key, otherKey}, Level: level,
			Query: q, Columns: columns, PageSize: pageSize, Limit: int(setup>>27) % 4, NowInSec: now})
	} else {
		shown, err := readPagesMisanswered(t, c, bad, coordinator.Request{Table: tbl, Key: key, Level: level, Query: q,
			Columns: columns, PageSize: pageSize, NowInSec: now})
		if honest && level == consistency.All {
			require.NoError(t, err)
			want := mergedRows(t, q, columns, pageSize)
			require.True(t, slices.EqualFunc(want, shown, replica.ViewRow.Equal), "pages %v, merged %v", shown, want)
		}
	}
	require.True(t, stall || time.Since(start) < readTimeout/2, "reads from replicas that never stall took %v", time.Since(start))
	c.Close()
	require.Empty(t, check.problems)
}

// requireWithinTimeout checks that a call started at start, of reads of n
// keys, ended within their read timeouts, however its replicas stalled: a
// read waiting past its deadline, on a replica that ignores its context
// say, hangs its caller.
func requireWithinTimeout(t *testing.T, start time.Time, n int) {
	took := time.Since(start)
	require.LessOrEqual(t, took, time.Duration(n)*readTimeout, "a call reading %d keys took %v", n, took)
}

// otherKey is a partition no replica holds, read with key by ReadMany.
const otherKey = "k2"

// readPagesMisanswered reads req page by page, checking each page, and
// returns the rows the pages show, in the query's order, and the error
// that ended them.
func readPagesMisanswered(t *testing.T, c *coordinator.Coordinator, bad map[string]bool,
	req coordinator.Request) ([]replica.ViewRow, error) {
	var shown []replica.ViewRow
	for page := 0; ; page++ {
		require.Less(t, page, 2*len(fuzzKeys), "paging does not end")
		start := time.Now()
		res, err := c.Read(context.Background(), req)
		requireWithinTimeout(t, start, 1)
		if err != nil {
			requireNamesBad(t, err, bad)
			return shown, err
		}
		requireValidPage(t, req.Key, req.Query, req.Columns, req.PageSize, res)
		shown = append(shown, inQueryOrder(res, req.Query)...)
		if req.PagingState = res.PagingState; req.PagingState == nil {
			return shown, nil
		}
	}
}

// mergedRows are the rows a client sees of divergedCluster's three
// versions merged, read with q and columns in pages of pageSize to the
// end, in q's order: the limit is a total only when a page size is set.
func mergedRows(t *testing.T, q replica.Query, columns []string, pageSize int) []replica.ViewRow {
	versions := divergedVersions()
	merged, err := repair.Merge(versions[A], versions[B], versions[C])
	require.NoError(t, err)
	if pageSize == 0 {
		q.Limit = 0
	}
	resp, err := replica.Command{Table: tbl, Key: key, Query: q, Columns: columns, NowInSec: now}.Respond(merged)
	require.NoError(t, err)
	rows := resp.Partition.Visible(now).Rows
	if len(rows) == 1 && rows[0].Static && !q.SelectsAllRows() {
		rows = nil
	}
	if q.Reversed {
		slices.Reverse(rows)
	}
	return rows
}

// readManyMisanswered reads req page by page, checking each key's result.
func readManyMisanswered(t *testing.T, c *coordinator.Coordinator, bad map[string]bool, req coordinator.ManyRequest) {
	for page := 0; ; page++ {
		require.Less(t, page, 4*len(fuzzKeys), "paging does not end")
		start := time.Now()
		results, err := c.ReadMany(context.Background(), req)
		requireWithinTimeout(t, start, len(req.Keys))
		require.NoError(t, err)
		rows := 0
		for _, kr := range results {
			if kr.Err != nil {
				requireNamesBad(t, kr.Err, bad)
				continue
			}
			requireValidPage(t, kr.Key, req.Query, req.Columns, req.PageSize, kr.Result)
			// The rows a client sees: a key the page resumed after a row
			// shows its static data as no row, which counting under the
			// whole query would make one (as Cassandra's paging counts it).
			rows += len(kr.Result.Visible().Rows)
		}
		require.True(t, req.PageSize == 0 || rows <= req.PageSize, "%d rows in a page of %d", rows, req.PageSize)
		require.True(t, req.Limit == 0 || rows <= req.Limit, "%d rows under limit %d", rows, req.Limit)
		var more bool
		if req, more = req.Next(results); !more {
			return
		}
	}
}

// misansweredOptions draws the table's options from setup's bits 2 to 6.
func misansweredOptions(t *testing.T, setup uint32) coordinator.TableOptions {
	spec, err := latency.ParseSpeculativeRetry([]string{"99p", "NEVER", "ALWAYS", "5ms"}[setup>>5%4])
	require.NoError(t, err)
	o := coordinator.TableOptions{SpeculativeRetry: spec,
		ReadRepair: []repair.Mode{repair.Blocking, repair.Blocking, repair.None, repair.Async}[setup>>3%4]}
	if setup&4 != 0 {
		o.Strategy = coordinator.DigestFirst
	}
	return o
}

// requireNamesBad checks a failed read's error: typed, and blaming no
// replica that answered well.
func requireNamesBad(t *testing.T, err error, bad map[string]bool) {
	var failure *consistency.ReadFailureError
	var timeout *consistency.ReadTimeoutError
	switch {
	case errors.As(err, &failure):
		for id, reason := range failure.Reasons {
			require.True(t, bad[id], "%s failed the read, yet answered well: %v", id, reason)
		}
	case errors.As(err, &timeout):
	default:
		t.Fatalf("untyped read error %T: %v", err, err)
	}
}

// requireValidPage checks what a page of a read of k with q and columns
// returned: valid, of k, within q, the columns and the page size, showing
// nothing dead at its time.
func requireValidPage(t *testing.T, k string, q replica.Query, columns []string, pageSize int, res coordinator.Result) {
	p := res.Partition
	require.NoError(t, p.Validate())
	require.Equal(t, k, p.Key)
	col, outside := columnOutside(columns, p)
	require.False(t, outside, "column %q not selected", col)
	ck, outside := q.FirstRowOutside(p.Rows)
	require.False(t, outside, "row %q outside the query", ck)
	rt, outside := rangeOutside(q, p.RangeTombstones)
	require.False(t, outside, "range tombstone %v outside the query", rt)
	rows := p.LiveRows(q, res.NowInSec)
	require.True(t, pageSize == 0 || rows <= pageSize, "%d rows in a page of %d", rows, pageSize)
	require.True(t, q.Limit == 0 || rows <= q.Limit, "%d rows under limit %d", rows, q.Limit)
	v := res.Visible()
	for _, r := range append(v.Rows, replica.ViewRow{Cells: v.Static}) {
		for _, cell := range r.Cells {
			require.True(t, cell.IsLive(res.NowInSec), "row %q shows %v, dead at %d", r.Clustering, cell, res.NowInSec)
		}
	}
}

// divergedCluster is three replicas of key, A, B and C in the locator's
// order, answering in 1 ms, whose versions differ: B deleted rows A holds
// and C wrote later, one cell of it expired at now.
func divergedCluster(t *testing.T) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, A, B, C))
	for id, p := range divergedVersions() {
		require.NoError(t, cl.SeedOn(tbl, p, id))
	}
	return cl
}

// divergedVersions are the versions of key divergedCluster seeds on A, B
// and C.
func divergedVersions() map[string]replica.Partition {
	a, b := replica.NewPartition(key), replica.NewPartition(key)
	for i, ck := range fuzzKeys {
		a.Rows = append(a.Rows, replica.NewRow(ck, replica.Live("a", "v", 10), replica.Live("b", "w", 10)))
		if i%2 == 1 {
			b.Rows = append(b.Rows, replica.NewRow(ck).WithDeletion(replica.DeletedAt(20, now-10)))
		}
	}
	b = b.WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("d"), replica.EndAt("e"), replica.DeletedAt(25, now-10)))
	c := replica.NewPartition(key, replica.NewRow("c", replica.Expiring("a", "gone", 40, 10, now)),
		replica.NewRow("f", replica.Live("b", "late", 50))).WithStatic(replica.Live("s", "static", 30))
	return map[string]replica.Partition{A: a, B: b, C: c}
}
