package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// After a BLOCKING read at QUORUM or ALL over replicas holding
// random disagreeing versions (regular, static and collection cells,
// liveness, row, range and partition deletions, expiring data), (1) the
// result is the merge of the versions the read used, restricted to the
// query, its columns and its limit; (2) no repair write carries anything
// outside the query, its columns or past the limit's last row; (3) every
// replica whose version was merged then shows what the read returned.

func rpWrite(t *rapid.T, k string) replica.Partition {
	ts := rapid.Int64Range(1, 6).Draw(t, "ts")
	ck := rapid.SampledFrom(modelClusterings).Draw(t, "ck")
	col := rapid.SampledFrom([]string{"v", "w"}).Draw(t, "col")
	val := rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, "val")
	at := int64(now - 10)
	switch rapid.IntRange(0, 13).Draw(t, "kind") {
	case 0, 1:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)))
	case 2:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Tombstone(col, ts, at)))
	case 3:
		exp := now - 1 + rapid.Int64Range(0, 2).Draw(t, "exp")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Expiring(col, val, ts, 60, exp)))
	case 4:
		return replica.NewPartition(k, replica.NewRow(ck).WithLiveness(replica.Inserted(ts)))
	case 5:
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, at)))
	case 6, 7:
		s := modelSlice(t)
		return replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(s.Start, s.End, replica.DeletedAt(ts, at)))
	case 8:
		return replica.NewPartition(k).WithDeletion(replica.DeletedAt(ts, at))
	case 9:
		if rapid.Bool().Draw(t, "static tomb") {
			return replica.NewPartition(k).WithStatic(replica.Tombstone("s", ts, at))
		}
		return replica.NewPartition(k).WithStatic(replica.Live("s", val, ts))
	case 10:
		path := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "path")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live("m", val, ts).WithPath(path)))
	case 11:
		path := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "path")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live("m", val, ts).WithPath(path)).
			WithComplexDeletion("m", replica.DeletedAt(ts-1, at)))
	case 12:
		return replica.NewPartition(k, replica.NewRow(ck).WithComplexDeletion("m", replica.DeletedAt(ts, at)))
	}
	return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)).WithLiveness(replica.Inserted(ts)))
}

func rpColumns(t *rapid.T) []string {
	if rapid.IntRange(0, 2).Draw(t, "all cols") == 0 {
		return nil
	}
	all := []string{"m", "s", "v", "w"}
	var cols []string
	for _, c := range all {
		if rapid.Bool().Draw(t, "col "+c) {
			cols = append(cols, c)
		}
	}
	if cols == nil {
		cols = []string{"v"}
	}
	return cols
}

type rpWrap struct {
	replica.Replica
	log *rpLog
}

type rpLog struct {
	mu   sync.Mutex
	sent map[string][]replica.Partition
}

func (w rpWrap) Apply(ctx context.Context, m replica.Mutation) error {
	w.log.mu.Lock()
	w.log.sent[w.Endpoint().ID] = append(w.log.sent[w.Endpoint().ID], m.Partition.Clone())
	w.log.mu.Unlock()
	return w.Replica.Apply(ctx, m)
}

// rpView is what a client sees of p read by q and cols, cut after last
// (in q's order) when cut.
func rpView(p replica.Partition, q replica.Query, cols []string, last string, cut bool) replica.View {
	v := p.Purge(now, gcBefore).Restrict(replica.Query{Slices: q.Slices}).Project(cols).Visible(now)
	if len(v.Rows) == 1 && v.Rows[0].Static && !q.SelectsAllRows() {
		v.Rows = nil
	}
	if cut {
		v.Rows = slices.DeleteFunc(v.Rows, func(r replica.ViewRow) bool {
			return !r.Static && ((!q.Reversed && r.Clustering > last) || (q.Reversed && r.Clustering < last))
		})
	}
	if len(v.Rows) == 0 {
		v.Rows = nil
	}
	if len(v.Static) == 0 {
		v.Static = nil
	}
	return v
}

func TestBlockingRepairProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3),
		})
		require.NoError(rt, err)
		k := "rk"
		reps := cl.Replicas()
		versions := rpSeed(rt, reps, k, 4)
		log := &rpLog{sent: map[string][]replica.Partition{}}
		opts := policy(t, rapid.SampledFrom([]string{"NEVER", "ALWAYS"}).Draw(rt, "spec"))
		opts.ReadRepair = repair.Blocking
		opts.Strategy = rapid.SampledFrom([]coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst}).Draw(rt, "strategy")
		c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: opts,
			Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return rpWrap{Replica: r, log: log} })})
		require.NoError(rt, err)
		q := modelQuery(rt)
		cols := rpColumns(rt)
		level := rapid.SampledFrom([]consistency.Level{consistency.Quorum, consistency.All}).Draw(rt, "level")
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: level, Query: q, Columns: cols, NowInSec: now})
		c.Close() // drains the ASYNC queue
		require.NoError(rt, err)

		used, got, last, cut := rpCheckResult(rt, res, versions, q, cols)
		// (2) nothing outside the query.
		for id, ms := range log.sent {
			for _, m := range ms {
				if err := rpCheckMutation(m, q, cols, cut, last); err != nil {
					rt.Fatalf("repair write to %s: %v\n mutation %v\n query %+v cols %v\n versions %v\n result %v", id, err, m, q, cols, versions, res.Partition)
				}
			}
		}
		// (3) every replica whose version was merged shows the result.
		for _, id := range used {
			p, _ := cl.Replica(id).Partition(tbl, k)
			if v := rpView(p, q, cols, last, cut); fmt.Sprint(v) != fmt.Sprint(got) {
				rt.Fatalf("after BLOCKING repair %s shows %v, the read returned %v\n versions %v\n writes %v", id, v, got, versions, log.sent)
			}
		}
	})
}

func rpCheckMutation(m replica.Partition, q replica.Query, cols []string, cut bool, last string) error {
	in := func(c string) bool { return cols == nil || slices.Contains(cols, c) }
	for _, c := range m.Static.Cells {
		if !in(c.Column) {
			return fmt.Errorf("static cell of unselected column %q", c.Column)
		}
	}
	if ck, out := q.FirstRowOutside(m.Rows); out {
		return fmt.Errorf("row %q outside the slices", ck)
	}
	for _, r := range m.Rows {
		for _, c := range r.Cells {
			if !in(c.Column) {
				return fmt.Errorf("cell of unselected column %q in row %q", c.Column, r.Clustering)
			}
		}
		for _, cd := range r.ComplexDeletions {
			if !in(cd.Column) {
				return fmt.Errorf("complex deletion of unselected column %q in row %q", cd.Column, r.Clustering)
			}
		}
		if cut && ((!q.Reversed && r.Clustering > last) || (q.Reversed && r.Clustering < last)) {
			return fmt.Errorf("row %q past the limit's last row %q", r.Clustering, last)
		}
	}
	for _, rt := range m.RangeTombstones {
		if !rvRangeInside(q.Slices, rt) {
			return fmt.Errorf("range tombstone %v outside the slices", rt)
		}
		if cut && ((!q.Reversed && rt.End.Compare(replica.EndAt(last)) > 0) || (q.Reversed && rt.Start.Compare(replica.StartAt(last)) < 0)) {
			return fmt.Errorf("range tombstone %v past the limit's last row %q", rt, last)
		}
	}
	return nil
}

// The same over five replicas with random latencies, in a bubble: reconcile
// speculation, stragglers, additional writes and writes left to the ASYNC
// queue all happen.
func TestBlockingRepairPropertiesTimed(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		inBubble(t, func() {
			cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
				Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
				Replication: consistency.Simple(5), Seed: 1,
			})
			require.NoError(rt, err)
			k := "rk"
			reps := cl.Replicas()
			versions := rpSeed(rt, reps, k, 3)
			for _, r := range reps {
				b := replicatest.Behavior{Latency: replicatest.Constant(ms(float64(rapid.IntRange(0, 30).Draw(rt, "latency"))))}
				if rapid.IntRange(0, 9).Draw(rt, "fault") == 0 {
					b.Fault = replicatest.ErrorAfter(ms(1), nil)
				}
				require.NoError(rt, r.SetBehavior(b))
			}
			log := &rpLog{sent: map[string][]replica.Partition{}}
			opts := policy(t, rapid.SampledFrom([]string{"NEVER", "ALWAYS", "5ms", "1ms"}).Draw(rt, "spec"))
			opts.ReadRepair = repair.Blocking
			opts.Strategy = rapid.SampledFrom([]coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst}).Draw(rt, "strategy")
			c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: opts,
				Locator: wrapping(cl, 5, func(r replica.Replica) replica.Replica { return rpWrap{Replica: r, log: log} })})
			require.NoError(rt, err)
			defer func() { c.Close(); time.Sleep(time.Second) }()
			q := modelQuery(rt)
			cols := rpColumns(rt)
			level := rapid.SampledFrom([]consistency.Level{consistency.Quorum, consistency.All, consistency.Two, consistency.Three}).Draw(rt, "level")
			res, rerr := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: level, Query: q, Columns: cols, NowInSec: now})
			snap := map[string]replica.Partition{}
			for _, r := range reps {
				snap[r.Endpoint().ID], _ = r.Partition(tbl, k)
			}
			synctest.Wait()
			if rerr != nil {
				return
			}
			used, got, last, cut := rpCheckResult(rt, res, versions, q, cols)
			log.mu.Lock()
			for id, ms := range log.sent {
				for _, m := range ms {
					if err := rpCheckMutation(m, q, cols, cut, last); err != nil {
						rt.Fatalf("repair write to %s: %v\n mutation %v\n query %+v cols %v\n versions %v\n result %v", id, err, m, q, cols, versions, res.Partition)
					}
				}
			}
			log.mu.Unlock()
			holders := 0
			for _, r := range reps {
				if v := rpView(snap[r.Endpoint().ID], q, cols, last, cut); fmt.Sprint(v) == fmt.Sprint(got) {
					holders++
				}
			}
			if bf := level.BlockFor(consistency.Simple(5), ""); holders < bf {
				rt.Fatalf("when the read returned only %d replicas showed its result, blockFor %d; used %v\n trace %+v", holders, bf, used, res.Trace.Requests)
			}
		})
	})
}

// rpCheckResult checks that the read's result is the merge of the versions
// it used, within its query, and returns those versions' replicas, the
// result's view, and where a limit cut it (last row, whether it did).
func rpCheckResult(rt *rapid.T, res coordinator.Result, versions map[string]replica.Partition, q replica.Query, cols []string) (used []string, got replica.View, last string, cut bool) {
	for _, r := range res.Trace.Requests {
		if r.Used && r.Kind == coordinator.KindData && !slices.Contains(used, r.Endpoint) {
			used = append(used, r.Endpoint)
		}
	}
	var parts []replica.Partition
	for _, id := range used {
		parts = append(parts, versions[id].Purge(now, gcBefore))
	}
	ref, err := repair.Merge(parts...)
	require.NoError(rt, err)
	last, hasLast := res.Partition.LastClustering(q)
	_, cut = res.Partition.Limit(q, now)
	cut = cut && hasLast
	got = rpView(res.Partition, replica.Query{Slices: q.Slices, Reversed: q.Reversed}, cols, "", false)
	want := rpView(ref, q, cols, last, cut)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		rt.Fatalf("result differs from the merge of the used versions %v\n got  %v\n want %v\nversions %v\nresult %v",
			used, got, want, versions, res.Partition)
	}
	return used, got, last, cut
}

// rpSeed seeds each replica with a version of partition k: up to four
// writes all share, then up to own writes of its own; it returns the
// versions by replica.
func rpSeed(rt *rapid.T, reps []*replicatest.Replica, k string, own int) map[string]replica.Partition {
	base := replica.NewPartition(k)
	var err error
	for range rapid.IntRange(0, 4).Draw(rt, "common writes") {
		base, err = repair.Merge(base, rpWrite(rt, k))
		require.NoError(rt, err)
	}
	versions := map[string]replica.Partition{}
	for _, r := range reps {
		v := base
		for range rapid.IntRange(0, own).Draw(rt, "own writes") {
			v, err = repair.Merge(v, rpWrite(rt, k))
			require.NoError(rt, err)
		}
		versions[r.Endpoint().ID] = v
		require.NoError(rt, r.Seed(tbl, v))
	}
	return versions
}
