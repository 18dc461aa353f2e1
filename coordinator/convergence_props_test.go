package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Read repair's end-to-end promise, against an oracle of our own (every
// version merged cell by cell by Cassandra's reconciliation rules, then
// queried), written without the repair or replica packages' merge, purge,
// query or view code. Over random partitions in the whole data model
// (fullWriteAt, static collections, batches of them; a zero-byte clustering,
// or a table without clustering columns), random staleness over RF 3, RF 5
// and two datacenters, random levels, strategies, speculation, slices,
// orders, limits, page sizes, column selections and ReadMany, replicas that
// stall or whose writes fail, and a short gc_grace_seconds (its deletions
// then reach every replica, or deleted data comes back, as documented):
//   - a read returns the oracle of the versions it used, live at its time,
//     within its slices and its page's limit; a replica whose digest
//     matched holds that too;
//   - when a BLOCKING read returns, at a level any two sets of which
//     share a replica, every set of replicas that meets the level shows
//     nothing older than its result in the part of the partition it read
//     (two such reads at once too);
//   - NONE writes nothing; once the repairs left to the queue (and ASYNC's)
//     land, every healthy replica whose data was merged shows the result,
//     and they digest alike for the read's command;
//   - no repair loses a replica's data or brings deleted data back;
//   - a second read at the same level, from any blockFor replicas the
//     first merged, returns what the first returned.

const cvNow = now

// cvRowState is everything the versions hold of one row.
type cvRowState struct {
	del     int64 // highest row deletion timestamp (0: none)
	live    replica.Liveness
	complex map[string]int64
	cells   map[[2]string]refCell
}

func (s *cvRowState) add(r replica.Row) {
	if r.Deletion != (replica.Deletion{}) {
		s.del = max(s.del, r.Deletion.MarkedForDeleteAt)
	}
	if cvLivenessBeats(r.Liveness, s.live) {
		s.live = r.Liveness
	}
	for _, cd := range r.ComplexDeletions {
		s.complex[cd.Column] = max(s.complex[cd.Column], cd.Deletion.MarkedForDeleteAt)
	}
	for _, c := range r.Cells {
		id, cc := [2]string{c.Column, c.Path}, refCellAt(c, cvNow)
		if old, ok := s.cells[id]; !ok || cc.beats(old) {
			s.cells[id] = cc
		}
	}
}

func cvLivenessBeats(a, b replica.Liveness) bool {
	switch {
	case a == (replica.Liveness{}):
		return false
	case b == (replica.Liveness{}):
		return true
	case a.Timestamp != b.Timestamp:
		return a.Timestamp > b.Timestamp
	case (a.TTL > 0) != (b.TTL > 0):
		return a.TTL > 0
	case a.ExpiresAt != b.ExpiresAt:
		return a.ExpiresAt > b.ExpiresAt
	}
	return a.TTL > b.TTL
}

// visible returns the live cells ("col[path]=value", sorted) of the
// selected columns (nil: all) under the deletion del, and whether the row
// exists.
func (s *cvRowState) visible(del int64, cols []string) (string, bool) {
	del = max(del, s.del)
	var cells []string
	for id, c := range s.cells {
		if cols != nil && !slices.Contains(cols, id[0]) {
			continue
		}
		if c.rank < 2 && c.ts > max(del, s.complex[id[0]]) {
			cells = append(cells, fmt.Sprintf("%s[%s]=%s", id[0], id[1], c.value))
		}
	}
	slices.Sort(cells)
	l := s.live
	alive := l != (replica.Liveness{}) && l.Timestamp > del && (l.TTL == 0 || cvNow < l.ExpiresAt)
	return strings.Join(cells, ","), alive || len(cells) > 0
}

// cvRow is one row a client sees.
type cvRow struct{ ck, cells string }

// cvResult is what a client sees of a partition: its static cells and its
// rows, in the query's order.
type cvResult struct {
	static string
	rows   []cvRow
}

func (r cvResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "static{%s}", r.static)
	for _, row := range r.rows {
		fmt.Fprintf(&b, " %s{%s}", row.ck, row.cells)
	}
	return b.String()
}

// cvOracle merges versions cell by cell and answers q on them for the
// columns cols, as a client sees it: the static cells, and the rows in
// q's slices, in its order, up to limit (0: no limit).
func cvOracle(versions []replica.Partition, q replica.Query, limit int, cols []string) cvResult {
	var pdel int64
	var rts []replica.RangeTombstone
	static := &cvRowState{complex: map[string]int64{}, cells: map[[2]string]refCell{}}
	rows := map[string]*cvRowState{}
	for _, p := range versions {
		if p.Deletion != (replica.Deletion{}) {
			pdel = max(pdel, p.Deletion.MarkedForDeleteAt)
		}
		rts = append(rts, p.RangeTombstones...)
		static.add(p.Static)
		for _, r := range p.Rows {
			s := rows[r.Clustering]
			if s == nil {
				s = &cvRowState{complex: map[string]int64{}, cells: map[[2]string]refCell{}}
				rows[r.Clustering] = s
			}
			s.add(r)
		}
	}
	var res cvResult
	res.static, _ = static.visible(pdel, cols)
	for ck, s := range rows {
		del := pdel
		for _, rt := range rts {
			if refWithin(rt.Start, rt.End, ck) {
				del = max(del, rt.Deletion.MarkedForDeleteAt)
			}
		}
		in := q.Slices == nil
		for _, sl := range q.Slices {
			in = in || refWithin(sl.Start, sl.End, ck)
		}
		if cells, ok := s.visible(del, cols); ok && in {
			res.rows = append(res.rows, cvRow{ck, cells})
		}
	}
	slices.SortFunc(res.rows, func(a, b cvRow) int { return strings.Compare(a.ck, b.ck) })
	if q.Reversed {
		slices.Reverse(res.rows)
	}
	if limit > 0 && len(res.rows) > limit {
		res.rows = res.rows[:limit]
	}
	if len(res.rows) == 0 && res.static != "" && q.SelectsAllRows() {
		res.rows = []cvRow{{"(static only)", ""}} // CQL's row of a partition of static data alone
	}
	return res
}

// cvSeen is what a read returned, in the oracle's terms and q's order.
func cvSeen(v replica.View, q replica.Query) cvResult {
	var res cvResult
	var st []string
	for _, c := range v.Static {
		st = append(st, fmt.Sprintf("%s[%s]=%s", c.Column, c.Path, c.Value))
	}
	slices.Sort(st)
	res.static = strings.Join(st, ",")
	for _, r := range v.Rows {
		if r.Static {
			res.rows = append(res.rows, cvRow{"(static only)", ""})
			continue
		}
		var cells []string
		for _, c := range r.Cells {
			cells = append(cells, fmt.Sprintf("%s[%s]=%s", c.Column, c.Path, c.Value))
		}
		slices.Sort(cells)
		res.rows = append(res.rows, cvRow{r.Clustering, strings.Join(cells, ",")})
	}
	if q.Reversed {
		slices.Reverse(res.rows)
	}
	return res
}

// cvCovered is the part of q a read returning got with the limit lim
// covered: q's slices, up to its last row when the limit was reached.
func cvCovered(q replica.Query, got cvResult, lim int) replica.Query {
	c := replica.Query{Slices: q.Slices, Reversed: q.Reversed}
	if lim > 0 && len(got.rows) == lim && got.rows[0].ck != "(static only)" {
		last := got.rows[len(got.rows)-1].ck
		var cut replica.Slice
		if q.Reversed {
			cut = replica.Slice{Start: replica.StartAt(last), End: replica.Top()}
		} else {
			cut = replica.Slice{Start: replica.Bottom(), End: replica.EndAt(last)}
		}
		var sl []replica.Slice
		if q.Slices == nil {
			sl = []replica.Slice{cut}
		}
		for _, s := range q.Slices {
			if q.Reversed && refBeforeEnd(s.End, last) || !q.Reversed && refAfterStart(s.Start, last) {
				s2 := s
				if q.Reversed {
					s2.Start = maxStart(s.Start, cut.Start)
				} else {
					s2.End = minEnd(s.End, cut.End)
				}
				sl = append(sl, s2)
			}
		}
		c.Slices = sl
	}
	return c
}

func maxStart(a, b replica.Bound) replica.Bound {
	if a.Compare(b) >= 0 {
		return a
	}
	return b
}

func minEnd(a, b replica.Bound) replica.Bound {
	if a.Compare(b) <= 0 {
		return a
	}
	return b
}

type cvRun struct {
	t     *rapid.T
	ids   []string
	dc    map[string]string
	snap  func() map[string]replica.Partition
	level consistency.Level
	lay   modelLayout
	// merged are the replicas the last read merged, unpaused.
	merged []string
	many   bool // read by ReadMany
	zeroCK bool
	// grace is the table's GCGraceSeconds, gcBefore the reads'.
	grace, gcBefore int64
}

// holders returns the replicas of snap that show res for the covered query.
func (m *cvRun) holders(snap map[string]replica.Partition, among []string, cov replica.Query, cols []string, res cvResult) []string {
	var out []string
	for _, id := range among {
		if got := cvOracle([]replica.Partition{snap[id]}, cov, 0, cols); got.String() == res.String() {
			out = append(out, id)
		}
	}
	return out
}

// enough reports whether ids make up the level's blockFor (per datacenter
// at EACH_QUORUM, in the local one at a DC-local level).
func (m *cvRun) enough(ids []string) bool {
	count := map[string]int{}
	for _, id := range ids {
		count[m.dc[id]]++
	}
	total := 0
	for _, n := range count {
		total += n
	}
	switch m.level {
	case consistency.EachQuorum:
		for dc, rf := range m.lay.rf {
			if rf > 0 && count[dc] < rf/2+1 {
				return false
			}
		}
		return true
	case consistency.LocalOne, consistency.LocalQuorum:
		return count["dc1"] >= m.level.BlockFor(m.lay.repl, "dc1")
	}
	return total >= m.level.BlockFor(m.lay.repl, "dc1")
}

// intersecting reports whether any two sets of replicas that meet the
// level share one (in the local datacenter at a DC-local level, in each
// at EACH_QUORUM): the levels whose reads BLOCKING repair makes monotonic.
func (m *cvRun) intersecting() bool {
	switch m.level {
	case consistency.LocalOne, consistency.One:
		return false
	case consistency.LocalQuorum, consistency.EachQuorum, consistency.Quorum, consistency.All:
		return true
	}
	return 2*m.level.BlockFor(m.lay.repl, "dc1") > len(m.ids)
}

// monotonic checks that every set of replicas that meets the level shows,
// in snap, nothing older than the result r1 in the part cov of the query.
func (m *cvRun) monotonic(snap map[string]replica.Partition, r1 replica.Partition, cov replica.Query, cols []string) {
	for mask := 1; mask < 1<<len(m.ids); mask++ {
		var set []string
		var vs []replica.Partition
		for i, id := range m.ids {
			if mask&(1<<i) != 0 {
				set, vs = append(set, id), append(vs, snap[id])
			}
		}
		if !m.enough(set) {
			continue
		}
		if a, b := cvOracle(vs, cov, 0, cols), cvOracle(append(vs, r1), cov, 0, cols); a.String() != b.String() {
			m.t.Fatalf("when the BLOCKING read returned, %v show\n  %v\nwith its result\n  %v", set, a, b)
		}
	}
}

func TestReadRepairConvergesOnTheOracle(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) { inBubble(t, func() { runConvergence(rt) }) })
}

func runConvergence(t *rapid.T) {
	lay := drawLayout(t)
	cl := cvCluster(t, lay)
	m := &cvRun{t: t, lay: lay, dc: map[string]string{}}
	rs, _, err := cl.Locate(tbl, key)
	if err != nil {
		t.Fatalf("locate: %v", err)
	}
	for _, r := range rs {
		m.ids, m.dc[r.Endpoint().ID] = append(m.ids, r.Endpoint().ID), r.Endpoint().Datacenter
	}
	// A short gc_grace_seconds lets replicas purge tombstones, which
	// then must have reached every replica (or deleted data comes back,
	// as documented): such writes go everywhere.
	m.grace = rapid.SampledFrom([]int64{0, 0, 0, -1, 4}).Draw(t, "gc grace")
	m.gcBefore = cvNow - map[int64]int64{0: 864000, -1: 0, 4: 4}[m.grace]
	recent := rapid.Bool().Draw(t, "recent deletions")
	noCK := rapid.IntRange(0, 4).Draw(t, "no clustering columns") == 0
	zeroCK := !noCK && rapid.IntRange(0, 3).Draw(t, "zero-byte clustering") == 0 // "a" is ""
	m.zeroCK = zeroCK
	for range rapid.IntRange(3, 16).Draw(t, "writes") {
		p := cvWrite(t, recent, noCK)
		if zeroCK {
			p = cvZeroA(p)
		}
		everywhere := m.grace != 0 && cvDeletes(p)
		for _, id := range m.ids {
			if everywhere || rapid.IntRange(0, 2).Draw(t, "lost") > 0 {
				if err := cl.Replica(id).Apply(context.Background(), replica.Mutation{Table: tbl, Partition: p}); err != nil {
					t.Fatalf("apply: %v", err)
				}
			}
		}
	}
	m.snap = func() map[string]replica.Partition {
		s := map[string]replica.Partition{}
		for _, id := range m.ids {
			p, _ := cl.Replica(id).Partition(tbl, key)
			s[id] = p
		}
		return s
	}
	paused := map[string]bool{}
	for i, id := range m.ids {
		d := ms(float64(rapid.IntRange(0, 6).Draw(t, "latency ms"))) + time.Duration(i)*100*time.Microsecond
		b := cvLatency(d)
		if rapid.IntRange(0, 5).Draw(t, "stalls") == 0 { // its repair writes, say
			at := ms(float64(rapid.IntRange(1, 12).Draw(t, "stalls at ms")))
			b.Pauses = []replicatest.Window{{Start: at, End: at + 3*time.Second}}
			paused[id] = true
		}
		if err := cl.Replica(id).SetBehavior(b); err != nil {
			t.Fatal(err)
		}
	}
	m.level = rapid.SampledFrom(lay.levels).Draw(t, "level")
	m.many = rapid.IntRange(0, 3).Draw(t, "by ReadMany") == 0
	mode := rapid.SampledFrom([]repair.Mode{repair.Blocking, repair.Async, repair.None}).Draw(t, "read repair")
	spec, _ := latency.ParseSpeculativeRetry(rapid.SampledFrom([]string{"NEVER", "ALWAYS", "2ms", "99p"}).Draw(t, "spec"))
	addl, _ := latency.ParseSpeculativeRetry(rapid.SampledFrom([]string{"99p", "1ms", "4ms", "NEVER"}).Draw(t, "additional writes"))
	opts := coordinator.TableOptions{SpeculativeRetry: spec, ReadRepair: mode, AdditionalWritePolicy: addl, NoClusteringColumns: noCK, GCGraceSeconds: m.grace,
		Strategy: rapid.SampledFrom([]coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst}).Draw(t, "strategy")}
	failing := map[string]bool{}
	for _, id := range m.ids {
		if rapid.IntRange(0, 7).Draw(t, "writes fail") == 0 {
			failing[id], paused[id] = true, true
		}
	}
	loc := wrapping(cl, len(m.ids), func(r replica.Replica) replica.Replica {
		if failing[r.Endpoint().ID] {
			return cvFailingWrites{r}
		}
		return r
	})
	cfg := coordinator.Config{Locator: loc, Liveness: cl, LocalDatacenter: "dc1", ReadTimeout: time.Second,
		Tables: map[string]coordinator.TableOptions{tbl: opts}}
	cfg.ReuseRepairWrites = rapid.Bool().Draw(t, "reuse repair writes")
	c, err := coordinator.New(cfg)
	if err != nil {
		t.Fatalf("coordinator: %v", err)
	}
	defer func() { c.Close(); time.Sleep(time.Second) }()
	cols := rpColumns(t)
	if rapid.IntRange(0, 5).Draw(t, "no columns") == 0 {
		cols = []string{}
	}
	if len(cols) > 0 && rapid.Bool().Draw(t, "columns unsorted, repeated") {
		cols = append([]string{cols[len(cols)-1]}, cols...)
	}
	q := cvQuery(t, noCK, zeroCK)
	if mode == repair.Blocking && m.intersecting() && rapid.IntRange(0, 2).Draw(t, "concurrent") == 0 {
		m.concurrent(c, coordinator.Request{Table: tbl, Key: key, Level: m.level, Query: q, Columns: cols, NowInSec: cvNow},
			coordinator.Request{Table: tbl, Key: key, Level: m.level, Query: cvQuery(t, noCK, zeroCK), Columns: cols, NowInSec: cvNow})
		return
	}
	ps := rapid.IntRange(0, 3).Draw(t, "page size")
	t.Logf("replicas %v level %v mode %v options %+v query %+v page %d cols %v", m.ids, m.level, mode, opts, q, ps, cols)
	req := coordinator.Request{Table: tbl, Key: key, Level: m.level, Query: q, Columns: cols, NowInSec: cvNow, PageSize: ps}
	remaining := q.Limit
	var last *string
	for page := 0; ; page++ {
		if page > len(modelClusterings)+1 {
			t.Fatalf("paging does not end")
		}
		pq := q
		if last != nil {
			pq = q.After(*last)
		}
		lim := q.Limit
		if ps > 0 {
			lim = ps
			if remaining > 0 {
				lim = min(ps, remaining)
			}
		}
		res, ok := m.page(c, req, pq, lim, mode, paused)
		if !ok || res.PagingState == nil || m.many {
			if ok && page == 0 && mode != repair.None && res.Trace.DigestMismatch {
				m.readAgain(cl, c, req, res)
			}
			return
		}
		got := cvSeen(res.Visible(), q)
		if len(got.rows) > 0 && got.rows[0].ck != "(static only)" {
			l := got.rows[len(got.rows)-1].ck
			last = &l
		}
		if ps > 0 && remaining > 0 {
			remaining -= len(got.rows)
		}
		req.PagingState = res.PagingState
	}
}

// page reads one page of pq, limited to lim, and checks it and its
// repairs.
func (m *cvRun) page(c *coordinator.Coordinator, req coordinator.Request, pq replica.Query, lim int, mode repair.Mode, paused map[string]bool) (coordinator.Result, bool) {
	t := m.t
	before := m.snap()
	for _, id := range m.ids {
		t.Logf("  %s holds %v", id, before[id])
	}
	var res coordinator.Result
	var err error
	if m.many {
		var rs []coordinator.KeyResult
		rs, err = c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: req.Level,
			Columns: req.Columns, Query: req.Query, PageSize: req.PageSize, NowInSec: req.NowInSec})
		if err == nil {
			res, err = rs[0].Result, rs[0].Err
		}
	} else {
		res, err = c.Read(context.Background(), req)
	}
	if err != nil {
		if len(paused) > 0 {
			return res, false // a stall may time it out
		}
		t.Fatalf("read: %v", err)
	}
	atReturn := m.snap()
	u := used(res.Trace)
	t.Logf("trace %v", res.Trace)
	var usedVersions []replica.Partition
	for _, id := range u {
		usedVersions = append(usedVersions, before[id])
	}
	cols := req.Columns
	got := cvSeen(res.Visible(), pq)
	if want := cvOracle(usedVersions, pq, lim, cols); got.String() != want.String() {
		t.Fatalf("read of %+v from %v returned\n  %v\nthe oracle of their versions holds\n  %v", pq, u, got, want)
	}
	if !res.Trace.DigestMismatch { // every digest compared showed the same
		for _, r := range res.Trace.Requests {
			if r.Used && r.Kind == coordinator.KindDigest {
				if v := cvOracle([]replica.Partition{before[r.Endpoint]}, pq, lim, cols); v.String() != got.String() {
					t.Fatalf("%s's digest matched, but it holds\n  %v\nthe read returned\n  %v", r.Endpoint, v, got)
				}
			}
		}
	}
	cov := cvCovered(pq, got, lim)
	if mode == repair.Blocking && m.intersecting() {
		m.monotonic(atReturn, res.Partition, cov, cols)
	}
	time.Sleep(5 * time.Second) // the stalls end, the repairs queued land
	if err := c.DrainRepairs(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := m.snap()
	if mode == repair.None {
		for _, id := range m.ids {
			if !after[id].Equal(before[id]) {
				t.Fatalf("NONE wrote to %s: %v, before %v", id, after[id], before[id])
			}
		}
	}
	// Nothing lost, nothing brought back.
	all := replica.Query{}
	var allBefore, allAfter []replica.Partition
	for _, id := range m.ids {
		allBefore, allAfter = append(allBefore, before[id]), append(allAfter, after[id])
		if a, b := cvOracle([]replica.Partition{after[id]}, all, 0, nil), cvOracle([]replica.Partition{before[id], after[id]}, all, 0, nil); a.String() != b.String() {
			t.Fatalf("%s lost data: it shows %v, with what it held before %v", id, a, b)
		}
	}
	if a, b := cvOracle(allAfter, all, 0, nil), cvOracle(allBefore, all, 0, nil); a.String() != b.String() {
		t.Fatalf("the replicas together show %v after the read, %v before", a, b)
	}
	if mode == repair.None || !res.Trace.DigestMismatch {
		return res, true
	}
	var unpaused []string
	for _, id := range u {
		if !paused[id] {
			unpaused = append(unpaused, id)
		}
	}
	if h := m.holders(after, unpaused, cov, cols, got); len(h) != len(unpaused) {
		t.Fatalf("once its repairs landed, of the replicas %v it merged only %v show its result %v", unpaused, h, got)
	}
	// They digest alike for the read's command.
	cmd := replica.Command{Table: tbl, Key: key, Query: replica.Query{Slices: pq.Slices, Reversed: pq.Reversed, Limit: lim},
		Columns: cols, NowInSec: cvNow, GCBefore: m.gcBefore, DigestOnly: true}
	var first string
	for i, id := range unpaused {
		r, err := cmd.Respond(after[id])
		if err != nil {
			t.Fatal(err)
		}
		if d := fmt.Sprint(r.Digest); i == 0 {
			first = d
		} else if d != first {
			t.Fatalf("after repair %s digests %s, %s %s", id, d, unpaused[0], first)
		}
	}
	m.merged = unpaused
	return res, true
}

// readAgain reads req again from blockFor of the replicas the first read
// merged, which must return what it did.
func (m *cvRun) readAgain(cl *replicatest.Cluster, c *coordinator.Coordinator, req coordinator.Request, res coordinator.Result) {
	t := m.t
	got := cvSeen(res.Visible(), req.Query)
	var sub []string
	for _, id := range m.merged {
		if rapid.Bool().Draw(t, "keep "+id) {
			sub = append(sub, id)
		}
	}
	if !m.enough(sub) {
		return
	}
	for _, id := range m.ids {
		_ = cl.SetAlive(id, slices.Contains(sub, id))
	}
	res2, err := c.Read(context.Background(), req)
	if err != nil {
		t.Fatalf("read 2 from %v: %v", sub, err)
	}
	if got2 := cvSeen(res2.Visible(), req.Query); got2.String() != got.String() {
		t.Fatalf("read 2 from %v returned\n  %v\nread 1 returned\n  %v\ntrace %v", sub, got2, got, res2.Trace)
	}
}

// cvFailingWrites is a replica whose writes fail.
type cvFailingWrites struct{ replica.Replica }

func (cvFailingWrites) Apply(context.Context, replica.Mutation) error {
	return errors.New("disk full")
}

// cvWrite draws a write of fullWriteAt's, a static collection's, or a
// batch of them.
func cvWrite(t *rapid.T, recent, noCK bool) replica.Partition {
	var ps []replica.Partition
	for range rapid.IntRange(1, 3).Draw(t, "batch") {
		ts := rapid.Int64Range(1, 4).Draw(t, "static ts")
		path := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "static path")
		switch rapid.IntRange(0, 9).Draw(t, "static collection") {
		case 0:
			ps = append(ps, replica.NewPartition(key).WithStatic(replica.Live("sm", "x", ts).WithPath(path)))
		case 1:
			st := replica.NewRow("", replica.Live("sm", "y", ts).WithPath(path)).WithComplexDeletion("sm", replica.DeletedAt(ts-1, cvNow-5))
			ps = append(ps, replica.Partition{Key: key, Static: st})
		case 2:
			st := replica.NewRow("").WithComplexDeletion("sm", replica.DeletedAt(ts, cvNow-5))
			ps = append(ps, replica.Partition{Key: key, Static: st})
		default:
			ps = append(ps, fullWriteAt(t, key, recent))
		}
		if p := &ps[len(ps)-1]; noCK { // one row of no clustering; no statics, no ranges
			p.RangeTombstones, p.Static = nil, replica.Row{}
			for i := range p.Rows {
				p.Rows[i].Clustering = ""
			}
		}
	}
	p, err := repair.Merge(ps...)
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	return p
}

func cvZero(ck string) string {
	if ck == "a" {
		return ""
	}
	return ck
}

// cvZeroA returns p with the clustering "a" made "", which sorts first too.
func cvZeroA(p replica.Partition) replica.Partition {
	p = p.Clone()
	for i := range p.Rows {
		p.Rows[i].Clustering = cvZero(p.Rows[i].Clustering)
	}
	for i := range p.RangeTombstones {
		rt := &p.RangeTombstones[i]
		rt.Start.Clustering, rt.End.Clustering = cvZero(rt.Start.Clustering), cvZero(rt.End.Clustering)
	}
	p.RangeTombstones = slices.DeleteFunc(p.RangeTombstones, func(rt replica.RangeTombstone) bool {
		return rt.End == replica.EndBefore("") // covers nothing
	})
	return p
}

// cvQuery draws a query (see modelQuery) for a table without clustering
// columns, or one where the clustering "a" is "".
func cvQuery(t *rapid.T, noCK, zeroCK bool) replica.Query {
	q := modelQuery(t)
	if noCK {
		q.Slices = nil
	}
	if zeroCK && q.Slices != nil {
		for i := range q.Slices {
			q.Slices[i].Start.Clustering = cvZero(q.Slices[i].Start.Clustering)
			q.Slices[i].End.Clustering = cvZero(q.Slices[i].End.Clustering)
		}
		var err error
		if q.Slices, err = replica.NormalizeSlices(q.Slices); err != nil {
			t.Fatalf("NormalizeSlices: %v", err)
		}
	}
	return q
}

// concurrent runs two BLOCKING reads at once: when each returns, every
// set of replicas that meets the level shows nothing older than its
// result in the part of the partition it read, whatever the other's
// repairs did meanwhile.
func (m *cvRun) concurrent(c *coordinator.Coordinator, reqs ...coordinator.Request) {
	type ended struct {
		res  coordinator.Result
		err  error
		snap map[string]replica.Partition
	}
	out := make([]ended, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			res, err := c.Read(context.Background(), req)
			out[i] = ended{res, err, m.snap()}
		})
	}
	wg.Wait()
	for i, e := range out {
		if e.err != nil {
			continue // a stall may time it out
		}
		q := reqs[i].Query
		got := cvSeen(e.res.Visible(), q)
		m.monotonic(e.snap, e.res.Partition, cvCovered(q, got, q.Limit), reqs[i].Columns)
	}
}

// cvDeletes reports whether p deletes or expires anything.
func cvDeletes(p replica.Partition) bool {
	if p.Deletion != (replica.Deletion{}) || len(p.RangeTombstones) > 0 {
		return true
	}
	for _, r := range append([]replica.Row{p.Static}, p.Rows...) {
		if r.Deletion != (replica.Deletion{}) || len(r.ComplexDeletions) > 0 || r.Liveness.TTL > 0 {
			return true
		}
		for _, c := range r.Cells {
			if c.Tombstone || c.TTL > 0 {
				return true
			}
		}
	}
	return false
}

func cvCluster(t *rapid.T, lay modelLayout) *replicatest.Cluster {
	var opts []replicatest.Option
	if rapid.IntRange(0, 3).Draw(t, "digest v1") == 0 {
		opts = append(opts, replicatest.WithMaxDigestVersion(digest.V1))
	}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{Datacenters: lay.dcs, Replication: lay.repl, Seed: 1, Options: opts})
	if err != nil {
		t.Fatalf("cluster: %v", err)
	}
	return cl
}

func cvLatency(d time.Duration) replicatest.Behavior {
	return replicatest.Behavior{Latency: replicatest.Constant(d)}
}
