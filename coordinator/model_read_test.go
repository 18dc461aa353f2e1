package coordinator_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A random cluster (RF 3 or 5, one or two datacenters) whose replicas each
// hold what a lossy replication of random writes left them (cells live,
// expiring and deleted, row liveness, row, range and partition deletions,
// at timestamps that tie), random faults (dead, down, failing, slow within
// the timeout), level, query, read-repair mode, strategy and speculative
// retry: every read agrees with the reference model of model_ref_test.go.
// A successful read returns exactly what the replicas it used hold, merged
// and queried at its nowInSec; a failed one fails for what the faults
// explain; under BLOCKING repair blockFor replicas hold what it returned
// when it returns; each page returns what its replicas hold after the
// page before. Size it with -rapid.checks.
func TestReadPathMatchesTheReferenceModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) { inBubble(t, func() { runModelRead(rt) }) })
}

const modelNow = 1_700_000_100

type modelRun struct {
	t     *rapid.T
	cl    *replicatest.Cluster
	c     *coordinator.Coordinator
	ids   []string // the key's replicas
	dc    map[string]string
	fault map[string]modelFault
	lay   modelLayout
	level consistency.Level
	mode  repair.Mode
	grace int64 // gc_grace_seconds, as the model applies it
	// columns are the reads' selection (nil: every column).
	columns []string
}

func runModelRead(t *rapid.T) {
	m := newModelRun(t)
	defer func() {
		m.c.Close()
		time.Sleep(time.Second) // let background repairs and cancelled requests end
	}()
	m.columns = rapid.SampledFrom([][]string{nil, {"x"}, {"y"}, {"x", "y"}}).Draw(t, "columns")
	req := coordinator.Request{Table: tbl, Key: key, Level: m.level, Query: modelQuery(t), Columns: m.columns, NowInSec: modelNow}
	pageSize := rapid.IntRange(1, 3).Draw(t, "page size")
	inLimit := rapid.IntRange(0, 4).Draw(t, "IN limit")
	if !m.read(req) {
		return
	}
	time.Sleep(time.Second) // ASYNC repairs land before the next snapshot
	m.many(req, inLimit)
	time.Sleep(time.Second)
	req.PageSize = pageSize
	m.pages(req)
}

func newModelRun(t *rapid.T) *modelRun {
	lay := drawLayout(t)
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{Datacenters: lay.dcs, Replication: lay.repl, Seed: 1})
	if err != nil {
		t.Fatalf("cluster: %v", err)
	}
	m := &modelRun{t: t, cl: cl, lay: lay, dc: map[string]string{}, fault: map[string]modelFault{}}
	rs, _, err := cl.Locate(tbl, key)
	if err != nil {
		t.Fatalf("locate: %v", err)
	}
	for _, r := range rs {
		ep := r.Endpoint()
		m.ids, m.dc[ep.ID] = append(m.ids, ep.ID), ep.Datacenter
	}
	maxTS := rapid.SampledFrom([]int64{8, 2}).Draw(t, "most ts")
	for range rapid.IntRange(2, 14).Draw(t, "writes") {
		p := modelWrite(t, key, modelNow, maxTS)
		for _, id := range m.ids {
			if rapid.IntRange(0, 3).Draw(t, "lost") < 3 {
				if err := cl.Replica(id).Apply(context.Background(), replica.Mutation{Table: tbl, Partition: p}); err != nil {
					t.Fatalf("apply: %v", err)
				}
			}
		}
	}
	for i, id := range m.ids {
		f := drawFault(t)
		// No two replicas answer at one instant, where the bubble's
		// scheduler would pick the winner and rapid could not replay it.
		f.latency += time.Duration(i) * 100 * time.Microsecond
		m.fault[id] = f
		if err := errors.Join(cl.Replica(id).SetBehavior(f.behavior()), cl.SetAlive(id, !f.dead)); err != nil {
			t.Fatalf("fault: %v", err)
		}
	}
	m.level = rapid.SampledFrom(lay.levels).Draw(t, "level")
	m.mode = rapid.SampledFrom([]repair.Mode{repair.Blocking, repair.None, repair.Async}).Draw(t, "read repair")
	spec, err := latency.ParseSpeculativeRetry(rapid.SampledFrom([]string{"ALWAYS", "NEVER", "99p", "5ms", "MIN(99p,3ms)"}).Draw(t, "speculative retry"))
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	grace := rapid.SampledFrom([]int64{0, -1, 3}).Draw(t, "gc grace")
	m.grace = map[int64]int64{0: 864000, -1: 0, 3: 3}[grace]
	opts := coordinator.TableOptions{SpeculativeRetry: spec, ReadRepair: m.mode, GCGraceSeconds: grace,
		Strategy: rapid.SampledFrom([]coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst}).Draw(t, "strategy")}
	m.c, err = coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1",
		ReadTimeout: time.Second, Tables: map[string]coordinator.TableOptions{tbl: opts}})
	if err != nil {
		t.Fatalf("coordinator: %v", err)
	}
	t.Logf("replicas %v faults %v level %v mode %v options %+v", m.ids, m.fault, m.level, m.mode, opts)
	return m
}

// snapshot is every replica's version of the key now.
func (m *modelRun) snapshot() map[string]replica.Partition {
	s := map[string]replica.Partition{}
	for _, id := range m.ids {
		p, _ := m.cl.Replica(id).Partition(tbl, key)
		s[id] = p.Clone()
		m.t.Logf("%s holds %v", id, p)
	}
	return s
}

// used lists the replicas whose data counted towards the result: after a
// digest mismatch a replica that answered only a digest, its data not
// awaited, did not (Cassandra's DataResolver merges the data responses).
func used(tr coordinator.Trace) []string {
	var ids []string
	for _, r := range tr.Requests {
		if r.Used && r.Kind == coordinator.KindData && !slices.Contains(ids, r.Endpoint) {
			ids = append(ids, r.Endpoint)
		}
	}
	slices.Sort(ids)
	return ids
}

func (m *modelRun) expect(snap map[string]replica.Partition, ids []string, q replica.Query, skip *string) []refRow {
	var vs []replica.Partition
	for _, id := range ids {
		vs = append(vs, refProject(snap[id], m.columns))
	}
	return refQuery(refVisible(vs, modelNow, modelNow-m.grace), q, skip)
}

// read reads once, whole, and holds the result to the model.
func (m *modelRun) read(req coordinator.Request) bool {
	snap := m.snapshot()
	res, err := m.c.Read(context.Background(), req)
	m.t.Logf("query %+v: %v\n%v", req.Query, err, res.Trace)
	if err != nil {
		m.checkError(err)
		return false
	}
	if m.unavailable() != nil {
		m.t.Fatalf("read succeeded with %v", m.unavailable())
	}
	ids := used(res.Trace)
	got, want := viewRows(res.Visible()), ascending(m.expect(snap, ids, req.Query, nil))
	if !slices.Equal(got, want) {
		m.t.Fatalf("read from %v returned\n  %v\nthe model of their versions holds\n  %v", ids, got, want)
	}
	// A tombstone a read may purge no longer shadows what a repair writes
	// under it, which the replica's store drops: Cassandra's resurrection
	// past gc_grace_seconds, which no repair can promise against.
	if m.mode == repair.Blocking && m.grace > 6 {
		m.checkRepaired(req.Query, got)
	}
	return true
}

// checkRepaired holds BLOCKING repair to its promise: when the read
// returns, blockFor replicas show what it returned in the part of the
// partition it read, up to its last row when the limit cut it.
func (m *modelRun) checkRepaired(q replica.Query, got []refRow) {
	snap := m.snapshot()
	var agree []string
	for _, id := range m.ids {
		rows := m.expect(snap, []string{id}, replica.Query{Slices: q.Slices, Reversed: q.Reversed}, nil)
		if q.Limit > 0 && len(got) == q.Limit {
			last := got[len(got)-1].Clustering
			if q.Reversed {
				last = got[0].Clustering
			}
			rows = slices.DeleteFunc(rows, func(r refRow) bool {
				return (!q.Reversed && r.Clustering > last) || (q.Reversed && r.Clustering < last)
			})
		}
		if slices.Equal(ascending(rows), got) {
			agree = append(agree, id)
		}
	}
	if need := m.blockFor(); len(agree) < need {
		m.t.Fatalf("after BLOCKING repair only %v of blockFor %d show what the read returned, %v", agree, need, got)
	}
}

// pages reads through every page, each held to the model of the replicas
// it used after the rows before it.
func (m *modelRun) pages(req coordinator.Request) {
	var last *string
	limit := req.Query.Limit
	for n := 0; ; n++ {
		if n > len(modelClusterings)+1 {
			m.t.Fatalf("paging does not end")
		}
		snap := m.snapshot()
		res, err := m.c.Read(context.Background(), req)
		m.t.Logf("page %d: %v\n%v", n, err, res.Trace)
		if err != nil {
			m.checkError(err)
			return
		}
		q := req.Query
		q.Limit = req.PageSize
		if limit > 0 {
			q.Limit = min(q.Limit, limit)
		}
		ids := used(res.Trace)
		got, want := viewRows(res.Visible()), ascending(m.expect(snap, ids, q, last))
		if !slices.Equal(got, want) {
			m.t.Fatalf("page %d from %v after %q returned\n  %v\nthe model of their versions holds\n  %v", n, ids, deref(last), got, want)
		}
		if res.PagingState == nil {
			if len(want) == q.Limit && (limit == 0 || limit > q.Limit) && len(m.expect(snap, ids, req.Query, lastOf(want, q.Reversed, last))) > 0 {
				m.t.Fatalf("page %d ended paging with rows left", n)
			}
			return
		}
		if len(got) == 0 {
			m.t.Fatalf("page %d is empty but hands out a paging state", n)
		}
		last = lastOf(want, q.Reversed, last)
		if limit > 0 {
			limit -= len(got)
		}
		req.PagingState = res.PagingState
	}
}

func lastOf(rows []refRow, reversed bool, before *string) *string {
	if len(rows) == 0 {
		return before
	}
	ck := rows[len(rows)-1].Clustering
	if reversed {
		ck = rows[0].Clustering
	}
	return &ck
}

func deref(s *string) string {
	if s == nil {
		return "(start)"
	}
	return *s
}
