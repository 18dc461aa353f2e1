package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
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

// outcomeCounter counts the outcomes reported.
type outcomeCounter struct {
	mu sync.Mutex
	n  map[string]int64
}

func (o *outcomeCounter) ReportOutcome(out replica.Outcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n == nil {
		o.n = map[string]int64{}
	}
	o.n[out.Endpoint.ID]++
}

// ownErr reports whether err's chain of single Unwraps holds a T.
func ownErr[T error](err error) bool {
	for err != nil {
		if _, ok := err.(T); ok {
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// expectFromTrace adds what one read's trace and error say to want, as
// the coordinator counts it.
func expectFromTrace(want *coordinator.TableMetrics, level consistency.Level, tr coordinator.Trace, err error) {
	if want.ReadsByLevel == nil {
		want.ReadsByLevel = map[consistency.Level]int64{}
	}
	want.Reads++
	want.ReadsByLevel[level]++
	switch {
	case err == nil:
	case ownErr[*consistency.UnavailableError](err):
		want.Unavailable++
	case ownErr[*consistency.ReadTimeoutError](err):
		want.Timeouts++
	case ownErr[*consistency.ReadFailureError](err):
		want.Failures++
	case errors.Is(err, context.Canceled):
		want.Cancelled++
	default:
		want.OtherErrors++
	}
	for _, rq := range tr.Requests {
		switch rq.Kind {
		case coordinator.KindData:
			want.DataRequests++
		case coordinator.KindDigest:
			want.DigestRequests++
		}
		if rq.Phase == coordinator.PhaseShortRead {
			want.ShortReadRequests++
		}
		if rq.Kind == coordinator.KindRepair && rq.Speculative {
			want.AdditionalWrites++
		}
		if rq.Phase == coordinator.PhaseSpeculative { // the hedge, and any stand-ins
			want.SpeculativeRetries++
			if rq.Used {
				want.HedgeWins++
			} else {
				want.FailedSpeculations++
			}
		}
	}
	if tr.ReconcileHedge.Fired {
		want.ReconcileSpeculations++
	}
	for _, h := range []coordinator.HedgeTrace{tr.Hedge, tr.ReconcileHedge, tr.AdditionalWrite} {
		switch h.Suppressed {
		case coordinator.NoCandidate:
			if level != consistency.All {
				want.NoCandidate++
			}
		case coordinator.SuppressedBudget:
			want.SuppressedBudget++
		case coordinator.SuppressedOverload:
			want.SuppressedOverload++
		}
		want.PostponedSpeculations += int64(h.Postponed)
	}
	if tr.DigestMismatch {
		want.DigestMismatches++
	}
	if tr.TombstoneWarning {
		want.TombstoneWarnings++
	}
	for _, rq := range tr.Requests {
		if rq.Outcome == coordinator.Failed && errors.Is(rq.Err, replica.ErrTombstoneOverwhelming) {
			want.TombstoneFailures++
			break
		}
	}
	want.RepairsSent += int64(len(tr.Repaired))
}

var propTables = []string{"t_blocking", "t_async", "t_none"}
var propIDs = []string{A, B, C, D, E}

// propCluster is five nodes of RF 5 answering in a millisecond.
func propCluster(t *rapid.T) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
		Replication: consistency.Simple(5), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func runMetricsProp(t *rapid.T) {
	cl := propCluster(t)
	keys := []string{"k1", "k2"}
	for _, table := range propTables {
		for _, k := range keys {
			if err := cl.Pin(table, k, A, B, C, D, E); err != nil {
				t.Fatal(err)
			}
			var rows []replica.Row
			for i := range 4 {
				rows = append(rows, replica.NewRow(fmt.Sprintf("r%d", i), replica.Live("v", "v1", 10)))
			}
			if err := cl.Seed(table, replica.NewPartition(k, rows...)); err != nil {
				t.Fatal(err)
			}
		}
	}
	specs := []string{"NEVER", "ALWAYS", "5ms", "99p", "2ms"}
	tables := map[string]coordinator.TableOptions{}
	for i, table := range propTables {
		o := coordinator.TableOptions{}
		sp := rapid.SampledFrom(specs).Draw(t, "spec_"+table)
		p, err := parseSpec(sp)
		if err != nil {
			t.Fatal(err)
		}
		o.SpeculativeRetry = p
		o.ReadRepair = []repair.Mode{repair.Blocking, repair.Async, repair.None}[i]
		if rapid.Bool().Draw(t, "digestFirst_"+table) {
			o.Strategy = coordinator.DigestFirst
		}
		if rapid.Bool().Draw(t, "tombThresholds_"+table) {
			o.TombstoneWarnThreshold = rapid.IntRange(1, 2).Draw(t, "warn_"+table)
			o.TombstoneFailureThreshold = rapid.IntRange(2, 4).Draw(t, "fail_"+table)
		}
		tables[table] = o
	}
	obs := &repairRecorder{}
	outs := &outcomeCounter{}
	cfg := coordinator.Config{
		ReadTimeout: ms(100), Observer: obs, Outcomes: outs, Tables: tables,
		HedgeBudget: coordinator.HedgeBudget{Unlimited: rapid.Bool().Draw(t, "unlimited")},
	}
	if rapid.Bool().Draw(t, "smallQueue") {
		cfg.RepairQueue, cfg.RepairWorkers = 1, 1
	}
	if rapid.Bool().Draw(t, "capAbandoned") {
		cfg.MaxAbandonedPerReplica = 1
	}
	cfg.Locator, cfg.Liveness = cl, cl
	c, err := coordinator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			c.Close()
		}
		time.Sleep(time.Minute)
	}()

	behaviors := []replicatest.Behavior{
		constant(ms(1)), constant(ms(3)), constant(ms(20)), constant(ms(150)),
		{Latency: replicatest.Constant(ms(1)), Fault: replicatest.Down()},
		{Latency: replicatest.Constant(ms(1)), Fault: replicatest.Unreachable()},
		{Latency: replicatest.Constant(ms(1)), Fault: replicatest.Panics()},
		{Latency: replicatest.Constant(ms(1)), Fault: replicatest.ErrorAfter(ms(4), nil)},
		{Latency: replicatest.Constant(ms(130)), Fault: replicatest.IgnoresContext()},
		{Latency: replicatest.Constant(ms(450)), Fault: replicatest.IgnoresContext()},
	}
	want := map[string]*coordinator.TableMetrics{} // since the table's last drop
	var total coordinator.TableMetrics
	var hedgeActions int64
	ts := int64(20)
	levels := []consistency.Level{consistency.One, consistency.Two, consistency.Quorum, consistency.All}
	var prev coordinator.Metrics
	checkMonotonic := func(where string) {
		m := c.Metrics()
		for name, n := range m.Total.Counters() {
			var before int64
			for pn, pv := range prev.Total.Counters() {
				if pn == name {
					before = pv
				}
			}
			if n < before {
				t.Fatalf("%s: Total.%s went from %d to %d", where, name, before, n)
			}
		}
		prev = m
	}
	seenHedges := 0
	book := func(table, key string, level consistency.Level, res coordinator.Result, err error) {
		if res.Trace.Start.IsZero() {
			return // refused before it started: counts nowhere
		}
		hs, _ := obs.snapshot()
		var mine []coordinator.HedgeEvent
		for _, h := range hs[seenHedges:] {
			if h.Key == key {
				mine = append(mine, h)
			}
		}
		hedgeActions += int64(checkHedgeEvents(t, table, res.Trace, mine))
		w := want[table]
		if w == nil {
			w = &coordinator.TableMetrics{}
			want[table] = w
		}
		expectFromTrace(w, level, res.Trace, err)
		expectFromTrace(&total, level, res.Trace, err)
		checkTrace(t, res.Trace, err)
	}
	forgotten := map[string]bool{}
	n := rapid.IntRange(1, 60).Draw(t, "ops")
	for i := range n {
		switch op := rapid.IntRange(0, 12).Draw(t, "op"); op {
		case 0, 1:
			id := rapid.SampledFrom(propIDs).Draw(t, "who")
			b := rapid.SampledFrom(behaviors).Draw(t, "behavior")
			if err := cl.Replica(id).SetBehavior(b); err != nil {
				t.Fatal(err)
			}
		case 2, 10, 11:
			table := rapid.SampledFrom(propTables).Draw(t, "staleTable")
			k := rapid.SampledFrom(keys).Draw(t, "staleKey")
			ts++
			var on []string
			for _, id := range propIDs {
				if rapid.Bool().Draw(t, "has_"+id) {
					on = append(on, id)
				}
			}
			row := fmt.Sprintf("r%d", rapid.IntRange(0, 5).Draw(t, "row"))
			cell := replica.Live("v", fmt.Sprint(ts), ts)
			if rapid.Bool().Draw(t, "tombstone") {
				cell = replica.Tombstone("v", ts, time.Now().Unix())
			}
			if len(on) > 0 {
				if err := cl.SeedOn(table, replica.NewPartition(k, replica.NewRow(row, cell)), on...); err != nil {
					t.Fatal(err)
				}
			}
		case 3:
			table := rapid.SampledFrom(propTables).Draw(t, "dropTable")
			c.DropTable(table)
			delete(want, table)
		case 12:
			id := rapid.SampledFrom(propIDs).Draw(t, "aliveWho")
			if err := cl.SetAlive(id, rapid.Bool().Draw(t, "alive")); err != nil {
				t.Fatal(err)
			}
		case 4:
			id := rapid.SampledFrom(propIDs).Draw(t, "forget")
			c.ForgetReplica(id)
			forgotten[id] = true
		case 5:
			table := rapid.SampledFrom(propTables).Draw(t, "manyTable")
			level := rapid.SampledFrom(levels).Draw(t, "manyLevel")
			req := coordinator.ManyRequest{Table: table, Keys: keys, Level: level,
				Concurrency: rapid.IntRange(0, 2).Draw(t, "conc")}
			rs, err := c.ReadMany(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				book(table, r.Key, level, r.Result, r.Err)
			}
			hs, _ := obs.snapshot()
			seenHedges = len(hs)
		default:
			table := rapid.SampledFrom(propTables).Draw(t, "table")
			level := rapid.SampledFrom(levels).Draw(t, "level")
			req := coordinator.Request{Table: table, Key: rapid.SampledFrom(keys).Draw(t, "key"), Level: level}
			req.Query.Limit = rapid.IntRange(0, 3).Draw(t, "limit")
			ctx := context.Background()
			var cancel context.CancelFunc = func() {}
			switch rapid.IntRange(0, 3).Draw(t, "ctx") {
			case 1:
				ctx, cancel = context.WithTimeout(ctx, ms(rapid.Float64Range(0, 50).Draw(t, "deadline")))
			case 2:
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(ms(rapid.Float64Range(0, 30).Draw(t, "cancelAt")), cancel)
			case 3:
				ctx, cancel = context.WithCancel(ctx)
				cancel()
			}
			res, err := c.Read(ctx, req)
			cancel()
			book(table, req.Key, level, res, err)
			hs, _ := obs.snapshot()
			seenHedges = len(hs)
		}
		if rapid.Bool().Draw(t, "settle") {
			time.Sleep(ms(300))
		}
		checkMonotonic(fmt.Sprint("op ", i))
	}
	time.Sleep(3 * time.Second) // every repair, late answer and abandoned call ends
	if rapid.Bool().Draw(t, "close") {
		c.Close()
		closed = true
		time.Sleep(time.Second)
	}
	checkMonotonic("end")
	m := c.Metrics()
	propSeen.Lock()
	propSeen.tot.add(m.Total)
	propSeen.Unlock()

	// Per table, since its last drop.
	for _, tm := range m.Tables {
		w := want[tm.Table]
		if w == nil {
			w = &coordinator.TableMetrics{}
		}
		compareCounters(t, tm.Table, *w, tm)
	}
	// In total.
	compareCounters(t, "total", total, m.Total)

	hedges, repairs := obs.snapshot()
	if int64(len(hedges)) != hedgeActions {
		t.Fatalf("hedge events %d, the traces account for %d", len(hedges), hedgeActions)
	}
	tot := m.Total
	if tot.RepairsSent != tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned {
		t.Fatalf("total repairs: sent %d != acked %d + failed %d + dropped %d + abandoned %d", tot.RepairsSent,
			tot.RepairsAcked, tot.RepairsFailed, tot.RepairsDropped, tot.RepairsAbandoned)
	}
	for _, tm := range m.Tables {
		if tm.RepairsSent != tm.RepairsAcked+tm.RepairsFailed+tm.RepairsDropped+tm.RepairsAbandoned {
			t.Fatalf("%s repairs: sent %d != acked %d + failed %d + dropped %d + abandoned %d", tm.Table, tm.RepairsSent,
				tm.RepairsAcked, tm.RepairsFailed, tm.RepairsDropped, tm.RepairsAbandoned)
		}
	}
	if got := tot.RepairsAcked + tot.RepairsFailed + tot.RepairsDropped; int64(len(repairs)) != got {
		t.Fatalf("repair events %d, acked+failed+dropped %d", len(repairs), got)
	}
	outs.mu.Lock()
	for _, id := range propIDs {
		st := cl.Replica(id).Stats()
		// A request to a replica ForgetReplica forgot that ended after
		// it is told to no one (see ForgetReplica).
		if got := outs.n[id]; got != st.Reads+st.Mutations && !(forgotten[id] && got < st.Reads+st.Mutations) {
			t.Fatalf("%s: %d outcomes, %d reads and %d writes\n%+v", id, got, st.Reads, st.Mutations, st)
		}
	}
	outs.mu.Unlock()
	for _, rm := range m.Replicas {
		if rm.Outstanding != 0 || rm.Abandoned != 0 {
			t.Fatalf("replica %s at quiescence: outstanding %d abandoned %d", rm.Endpoint.ID, rm.Outstanding, rm.Abandoned)
		}
		if rm.Misses > rm.Requests || rm.Timeouts < 0 || rm.Failures < 0 || rm.Timeouts+rm.Failures > rm.Misses {
			t.Fatalf("replica %s: requests %d, misses %d (timeouts %d, failures %d)", rm.Endpoint.ID, rm.Requests, rm.Misses, rm.Timeouts, rm.Failures)
		}
	}
}

func compareCounters(t *rapid.T, what string, want, got coordinator.TableMetrics) {
	wantC := map[string]int64{}
	for name, n := range want.Counters() {
		wantC[name] = n
	}
	for name, n := range got.Counters() {
		switch name {
		case "repairs_acked", "repairs_failed", "repairs_dropped", "repairs_abandoned", "repairs_timed_out":
			continue // not derivable from the trace
		}
		if wantC[name] != n {
			t.Fatalf("%s: %s = %d, traces say %d\n%v", what, name, n, wantC[name], got)
		}
	}
	for l, n := range want.ReadsByLevel {
		if got.ReadsByLevel[l] != n {
			t.Fatalf("%s: ReadsByLevel[%v] = %d, traces say %d", what, l, got.ReadsByLevel[l], n)
		}
	}
	for l, n := range got.ReadsByLevel {
		if want.ReadsByLevel[l] != n {
			t.Fatalf("%s: ReadsByLevel[%v] = %d, traces say %d", what, l, n, want.ReadsByLevel[l])
		}
	}
}

// checkTrace checks what a read's trace says of itself.
func checkTrace(t *rapid.T, tr coordinator.Trace, err error) {
	for i, rq := range tr.Requests {
		if rq.Sent < 0 || rq.Sent > tr.Duration {
			t.Fatalf("request %d sent at %v, read took %v\n%v", i, rq.Sent, tr.Duration, tr)
		}
		switch rq.Outcome {
		case coordinator.Pending:
			if rq.Done != 0 || rq.Used || rq.Err != nil {
				t.Fatalf("pending request %d: done %v used %v err %v\n%v", i, rq.Done, rq.Used, rq.Err, tr)
			}
		case coordinator.Answered:
			if rq.Err != nil || rq.Done < rq.Sent || rq.Done > tr.Duration {
				t.Fatalf("answered request %d: sent %v done %v err %v\n%v", i, rq.Sent, rq.Done, rq.Err, tr)
			}
		case coordinator.Failed:
			if rq.Err == nil || rq.Used || rq.Done < rq.Sent || rq.Done > tr.Duration {
				t.Fatalf("failed request %d: sent %v done %v used %v err %v\n%v", i, rq.Sent, rq.Done, rq.Used, rq.Err, tr)
			}
		}
		if rq.Used && rq.Outcome != coordinator.Answered {
			t.Fatalf("request %d used but %v\n%v", i, rq.Outcome, tr)
		}
		if rq.Speculative != (rq.Phase == coordinator.PhaseSpeculative) && rq.Phase != coordinator.PhaseReconcile && rq.Phase != coordinator.PhaseRepair {
			t.Fatalf("request %d: speculative %v in phase %v\n%v", i, rq.Speculative, rq.Phase, tr)
		}
	}
	if err == nil && tr.Hedge.Fired && !tr.Hedge.Won {
		// nothing to check: a lost hedge
	}
	refusedUnsent := false
	for _, rq := range tr.Requests {
		var backlog *coordinator.BacklogError
		refusedUnsent = refusedUnsent || errors.As(rq.Err, &backlog)
	}
	for _, h := range []coordinator.HedgeTrace{tr.Hedge, tr.ReconcileHedge, tr.AdditionalWrite} {
		// Both only when a stand-in for a request refused unsent went out
		// (HedgeTrace.Suppressed's doc).
		if h.Fired && h.Suppressed != coordinator.NotSuppressed && !refusedUnsent {
			t.Fatalf("hedge fired and suppressed: %+v\n%v", h, tr)
		}
	}
	if tr.Hedge.Fired {
		found := false
		for _, rq := range tr.Requests {
			if rq.Phase == coordinator.PhaseSpeculative && rq.Endpoint == tr.Hedge.To && rq.Sent == tr.Hedge.At {
				found = true
			}
		}
		if !found {
			t.Fatalf("hedge to %s at %v not among the requests\n%v", tr.Hedge.To, tr.Hedge.At, tr)
		}
	}
	if len(tr.Repaired) > 0 && !tr.DigestMismatch {
		t.Fatalf("repaired without a mismatch\n%v", tr)
	}
	// A round asks a replica once: its failures are its replicas'.
	var fe *consistency.ReadFailureError
	if errors.As(err, &fe) && (fe.Failures != len(fe.Reasons) || fe.Failures == 0) {
		t.Fatalf("%d failures with %d reasons: %v\n%v", fe.Failures, len(fe.Reasons), err, tr)
	}
}

func parseSpec(s string) (latency.SpeculativeRetry, error) { return latency.ParseSpeculativeRetry(s) }

// propSeen sums what a property test's scenarios counted, so that the
// test can check they still reach the paths it is about.
var propSeen struct {
	sync.Mutex
	tot sumMetrics
}

// checkScenarios runs prop over rapid's scenarios and fails if they never
// counted one of the counters named: a generator that stopped reaching a
// path would leave the property unchecked there. A counter that a hundred
// random scenarios miss by chance (one run in hundreds missed repairs)
// gets up to two more hundreds; a generator that cannot reach it misses
// it in all three.
func checkScenarios(t *testing.T, prop func(*rapid.T), counters ...string) {
	propSeen.Lock()
	propSeen.tot = nil
	propSeen.Unlock()
	var missed []string
	for range 3 {
		rapid.Check(t, func(rt *rapid.T) { inBubble(t, func() { prop(rt) }) })
		missed = missed[:0]
		for _, n := range counters {
			if propSeen.tot[n] == 0 {
				missed = append(missed, n)
			}
		}
		if len(missed) == 0 || t.Failed() {
			break
		}
	}
	for _, n := range missed {
		t.Errorf("no scenario counted %s: %v", n, propSeen.tot)
	}
}

type sumMetrics map[string]int64

func (s *sumMetrics) add(tm coordinator.TableMetrics) {
	if *s == nil {
		*s = map[string]int64{}
	}
	for n, v := range tm.Counters() {
		(*s)[n] += v
	}
}

func TestMetricsAgreeWithTraces(t *testing.T) {
	checkScenarios(t, runMetricsProp, "hedge_wins", "failed_speculations", "digest_mismatches",
		"repairs_acked", "timeouts", "failures", "cancelled", "unavailable")
}

// Concurrent reads, drops, forgets and Close: totals never go backwards,
// and at quiescence the repairs add up and nothing is outstanding.
func runMetricsConcurrent(t *rapid.T) {
	cl := propCluster(t)
	keys := []string{"k1", "k2", "k3"}
	for _, table := range propTables {
		for _, k := range keys {
			if err := cl.Pin(table, k, A, B, C, D, E); err != nil {
				t.Fatal(err)
			}
			if err := cl.Seed(table, row(k, "v1", 10)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tables := map[string]coordinator.TableOptions{}
	for i, table := range propTables {
		p, _ := parseSpec(rapid.SampledFrom([]string{"NEVER", "ALWAYS", "2ms", "99p"}).Draw(t, "spec_"+table))
		tables[table] = coordinator.TableOptions{SpeculativeRetry: p, ReadRepair: []repair.Mode{repair.Blocking, repair.Async, repair.None}[i]}
	}
	obs := &repairRecorder{}
	cfg := coordinator.Config{ReadTimeout: ms(100), Observer: obs, Tables: tables,
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true}}
	if rapid.Bool().Draw(t, "smallQueue") {
		cfg.RepairQueue, cfg.RepairWorkers = 1, 1
	}
	var locates atomic.Int64
	cfg.Locator = coordinator.LocatorFunc(func(table, key string) ([]replica.Replica, consistency.Replication, error) {
		locates.Add(1)
		if table == "ghost" {
			return nil, consistency.Replication{}, errors.New("no such table")
		}
		return cl.Locate(table, key)
	})
	cfg.Liveness = cl
	c, err := coordinator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		c.Close()
		time.Sleep(time.Minute)
	}()
	behaviors := []replicatest.Behavior{
		constant(ms(1)), constant(ms(20)), constant(ms(150)),
		{Fault: replicatest.Down()}, {Fault: replicatest.Unreachable()}, {Fault: replicatest.Panics()},
		{Latency: replicatest.Constant(ms(130)), Fault: replicatest.IgnoresContext()},
		{Latency: replicatest.Constant(ms(450)), Fault: replicatest.IgnoresContext()},
	}
	for _, id := range propIDs {
		if err := cl.Replica(id).SetBehavior(rapid.SampledFrom(behaviors).Draw(t, "b_"+id)); err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range propTables {
		for _, k := range keys {
			var on []string
			for _, id := range propIDs {
				if rapid.Bool().Draw(t, "has_"+id) {
					on = append(on, id)
				}
			}
			if len(on) > 0 {
				_ = cl.SeedOn(table, row(k, "v2", 20), on...)
			}
		}
	}
	type op struct {
		at   time.Duration
		kind int
		arg  string
		lvl  consistency.Level
		key  string
	}
	var ops []op
	for range rapid.IntRange(1, 40).Draw(t, "ops") {
		ops = append(ops, op{
			at:   ms(rapid.Float64Range(0, 300).Draw(t, "at")),
			kind: rapid.IntRange(0, 9).Draw(t, "kind"),
			arg:  rapid.SampledFrom(append(append([]string{}, propTables...), propIDs...)).Draw(t, "arg"),
			lvl:  rapid.SampledFrom([]consistency.Level{consistency.One, consistency.Quorum, consistency.All}).Draw(t, "lvl"),
			key:  rapid.SampledFrom(keys).Draw(t, "key"),
		})
	}
	var mu sync.Mutex
	var prev map[string]int64
	var failure string
	snap := func(where string) {
		mu.Lock()
		defer mu.Unlock()
		m := c.Metrics()
		cur := map[string]int64{}
		for n, v := range m.Total.Counters() {
			cur[n] = v
		}
		for n, v := range cur {
			if v < prev[n] && failure == "" {
				failure = fmt.Sprintf("%s: Total.%s went from %d to %d", where, n, prev[n], v)
			}
		}
		prev = cur
	}
	var wg sync.WaitGroup
	for _, o := range ops {
		wg.Go(func() {
			time.Sleep(o.at)
			switch {
			case o.kind == 0:
				c.DropTable(o.arg)
			case o.kind == 1:
				c.ForgetReplica(o.arg)
			case o.kind == 2 && o.at > ms(250):
				c.Close()
			case o.kind == 3:
				snap("concurrent")
			case o.kind == 4:
				table := propTables[int(o.at)%len(propTables)]
				_, _ = c.ReadMany(context.Background(), coordinator.ManyRequest{Table: table, Keys: keys, Level: o.lvl,
					Limit: int(o.at) % 3, Concurrency: int(o.at) % 4})
			case o.kind == 5 && int(o.at)%2 == 0:
				_, _ = c.Read(context.Background(), coordinator.Request{Table: "ghost", Key: o.key, Level: o.lvl})
			default:
				table := propTables[int(o.at)%len(propTables)]
				_, _ = c.Read(context.Background(), coordinator.Request{Table: table, Key: o.key, Level: o.lvl})
			}
			snap("after op")
		})
	}
	wg.Wait()
	time.Sleep(3 * time.Second)
	snap("end")
	if failure != "" {
		t.Fatal(failure)
	}
	m := c.Metrics()
	tot := m.Total
	drops := false
	for _, o := range ops {
		drops = drops || o.kind == 0
	}
	if !drops && tot.Reads != locates.Load() {
		t.Fatalf("Total.Reads %d, Locator called %d times\n%v", tot.Reads, locates.Load(), m)
	}
	var byErr int64
	for _, n := range []int64{tot.Unavailable, tot.Timeouts, tot.Failures, tot.Cancelled, tot.OtherErrors} {
		byErr += n
	}
	if byErr > tot.Reads {
		t.Fatalf("more errors (%d) than reads (%d)", byErr, tot.Reads)
	}
	for _, tm := range m.Tables {
		if tm.Table == "ghost" {
			t.Fatalf("the Locator's unknown table is listed")
		}
	}
	if tot.RepairsSent != tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned {
		t.Fatalf("total repairs: sent %d != acked %d + failed %d + dropped %d + abandoned %d", tot.RepairsSent,
			tot.RepairsAcked, tot.RepairsFailed, tot.RepairsDropped, tot.RepairsAbandoned)
	}
	for _, rm := range m.Replicas {
		if rm.Outstanding != 0 || rm.Abandoned != 0 {
			t.Fatalf("replica %s at quiescence: outstanding %d abandoned %d", rm.Endpoint.ID, rm.Outstanding, rm.Abandoned)
		}
	}
	propSeen.Lock()
	propSeen.tot.add(m.Total)
	propSeen.Unlock()
}

func TestMetricsHoldUnderConcurrentLifecycle(t *testing.T) {
	checkScenarios(t, runMetricsConcurrent, "hedge_wins", "digest_mismatches", "repairs_acked",
		"timeouts", "failures", "other_errors")
}

// checkHedgeEvents checks a read's hedge events against its trace: in the
// first and reconcile rounds one for each speculative request (stand-ins
// for requests refused unsent are several), in the repair round one for
// its additional writes, the first of each round the one its HedgeTrace
// shows. It returns how many events the trace accounts for.
func checkHedgeEvents(t *rapid.T, table string, tr coordinator.Trace, events []coordinator.HedgeEvent) int {
	total := 0
	phases := []coordinator.Phase{coordinator.PhaseInitial, coordinator.PhaseReconcile, coordinator.PhaseRepair}
	for i, h := range []coordinator.HedgeTrace{tr.Hedge, tr.ReconcileHedge, tr.AdditionalWrite} {
		var got []coordinator.HedgeEvent
		for _, e := range events {
			if e.Phase == phases[i] {
				got = append(got, e)
			}
		}
		want := 0
		switch {
		case !h.Fired:
		case phases[i] == coordinator.PhaseRepair:
			want = 1
		default:
			in := phases[i]
			if in == coordinator.PhaseInitial {
				in = coordinator.PhaseSpeculative // the first round's are shown apart
			}
			for _, rq := range tr.Requests {
				if rq.Speculative && rq.Phase == in {
					want++
				}
			}
		}
		if len(got) != want {
			t.Fatalf("%d hedge events in the %v round, whose trace sent %d speculatively\n%v\n%+v", len(got), phases[i], want, tr, events)
		}
		total += want
		for j, e := range got {
			if e.Table != table || e.Threshold != tr.Threshold || j == 0 && (e.To.ID != h.To || e.At != h.At || e.After != h.At) {
				t.Fatalf("hedge event %+v against trace %+v (phase %v, threshold %v)\n%v", e, h, phases[i], tr.Threshold, tr)
			}
		}
	}
	return total
}
