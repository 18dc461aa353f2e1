package replica_test

// Edge cases of the data model against Apache Cassandra 4.1/5.0:
// AbstractCell.isLive/purge, LivenessInfo.isLive, DeletionPurger,
// DeletionTime, ClusteringBound ordering, Validate, and digest laws.

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// AbstractCell.isLive: nowInSec < localDeletionTime for an expiring cell;
// AbstractCell.purge: expired -> tombstone(ts, ldt - ttl), then purged if
// that is before gcBefore.
func TestTTLBoundaryAtNowInSec(t *testing.T) {
	c := replica.Expiring("v", "x", 50, 10, 100)
	if !c.IsLive(99) || c.IsLive(100) || c.IsLive(101) {
		t.Fatalf("IsLive around expiry 100: %v %v %v", c.IsLive(99), c.IsLive(100), c.IsLive(101))
	}
	p := replica.NewPartition("k", replica.NewRow("r", c))
	if got := p.Purge(99, 0); !got.Equal(p) {
		t.Fatalf("purge before expiry changed the cell: %v", got)
	}
	want := replica.NewPartition("k", replica.NewRow("r", replica.Tombstone("v", 50, 90)))
	if got := p.Purge(100, 90); !got.Equal(want) {
		t.Fatalf("purge at expiry, gcBefore = written: got %v want %v", got, want)
	}
	if got := p.Purge(100, 91); !got.IsEmpty() {
		t.Fatalf("purge at expiry, gcBefore past written: got %v", got)
	}
	if v := p.Visible(99); len(v.Rows) != 1 {
		t.Fatalf("visible before expiry: %v", v)
	}
	if v := p.Visible(100); !v.IsEmpty() {
		t.Fatalf("visible at expiry: %v", v)
	}

	// LivenessInfo: isLive = nowInSec < localExpirationTime; purged when
	// not live and localExpirationTime < gcBefore.
	l := replica.InsertedWithTTL(50, 10, 100)
	if !l.IsLive(99) || l.IsLive(100) {
		t.Fatalf("liveness IsLive around expiry")
	}
	lp := replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: l})
	if v := lp.Visible(100); !v.IsEmpty() {
		t.Fatalf("row with expired liveness visible: %v", v)
	}
	if got := lp.Purge(100, 100); !got.Equal(lp) {
		t.Fatalf("expired liveness with expiry == gcBefore must stay: %v", got)
	}
	if got := lp.Purge(101, 101); !got.IsEmpty() {
		t.Fatalf("expired liveness before gcBefore must go: %v", got)
	}
	// A row with expired liveness but a live cell stays visible.
	lp2 := replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: l, Cells: []replica.Cell{replica.Live("v", "x", 1)}})
	if v := lp2.Visible(200); len(v.Rows) != 1 {
		t.Fatalf("row with a live cell: %v", v)
	}
	if n := lp2.LiveRows(replica.Query{}, 200); n != 1 {
		t.Fatalf("LiveRows = %d", n)
	}
}

// Deletions delete at their own timestamp (DeletionTime.deletes: ts <=
// markedForDeleteAt) at every level.
func TestDeletionsAtEqualTimestamps(t *testing.T) {
	d := replica.DeletedAt(5, 1)
	cases := map[string]replica.Partition{
		"row deletion vs liveness": replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: replica.Inserted(5), Deletion: d}),
		"row deletion vs cell":     replica.NewPartition("k", replica.NewRow("r", replica.Live("v", "x", 5)).WithDeletion(d)),
		"range vs cell": replica.NewPartition("k", replica.NewRow("r", replica.Live("v", "x", 5))).
			WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("r"), replica.EndAt("r"), d)),
		"partition vs cell":     replica.NewPartition("k", replica.NewRow("r", replica.Live("v", "x", 5))).WithDeletion(d),
		"partition vs static":   replica.NewPartition("k").WithStatic(replica.Live("s", "x", 5)).WithDeletion(d),
		"complex vs element":    replica.NewPartition("k", replica.NewRow("r", replica.Live("m", "", 5).WithPath("e")).WithComplexDeletion("m", d)),
		"static complex vs elt": replica.NewPartition("k").WithStatic(replica.Live("m", "", 5).WithPath("e")),
	}
	sp := cases["static complex vs elt"]
	sp.Static = sp.Static.WithComplexDeletion("m", d)
	cases["static complex vs elt"] = sp
	for name, p := range cases {
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v := p.Visible(10); !v.IsEmpty() {
			t.Errorf("%s: visible %v", name, v)
		}
		if n := p.LiveRows(replica.Query{}, 10); n != 0 {
			t.Errorf("%s: LiveRows %d", name, n)
		}
		cmd := replica.Command{Table: "t", Key: "k", NowInSec: 10}
		resp, err := cmd.Respond(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v := resp.Partition.Visible(10); !v.IsEmpty() {
			t.Errorf("%s: answer visible %v", name, v)
		}
		// One newer microsecond survives.
		q := p.Clone()
		bump := func(r *replica.Row) {
			for i := range r.Cells {
				r.Cells[i].Timestamp = 6
			}
			if !r.Liveness.IsEmpty() {
				r.Liveness.Timestamp = 6
			}
		}
		bump(&q.Static)
		for i := range q.Rows {
			bump(&q.Rows[i])
		}
		if v := q.Visible(10); v.IsEmpty() {
			t.Errorf("%s: written after the deletion, invisible", name)
		}
	}
	// Range tombstones do not delete the static row.
	p := replica.NewPartition("k").WithStatic(replica.Live("s", "x", 5)).
		WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(9, 1)))
	if v := p.Visible(10); len(v.Static) != 1 {
		t.Errorf("range tombstone deleted the static row: %v", v)
	}
}

// boundRef maps a bound to a string whose order is the bound's position:
// before k is k, after k is k+"\x00"; Top is a sentinel above all keys
// used here.
func boundRef(b replica.Bound) (string, bool) {
	switch b.Kind {
	case replica.BoundBottom:
		return "", false
	case replica.BoundTop:
		return "", true
	case replica.BoundInclusiveStart, replica.BoundExclusiveEnd:
		return b.Clustering, false
	}
	return b.Clustering + "\x00", false
}

func refCompare(a, b replica.Bound) int {
	as, at := boundRef(a)
	bs, bt := boundRef(b)
	switch {
	case at && bt:
		return 0
	case at:
		return 1
	case bt:
		return -1
	}
	return strings.Compare(as, bs)
}

func TestBoundOrderWithZeroBytes(t *testing.T) {
	keyGen := rapid.StringOfN(rapid.SampledFrom([]rune{0, 'a', 1}), 0, 4, -1)
	boundGen := rapid.Custom(func(t *rapid.T) replica.Bound {
		k := keyGen.Draw(t, "k")
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0:
			return replica.Bottom()
		case 1:
			return replica.StartAt(k)
		case 2:
			return replica.StartAfter(k)
		case 3:
			return replica.EndAt(k)
		case 4:
			return replica.EndBefore(k)
		}
		return replica.Top()
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b := boundGen.Draw(t, "a"), boundGen.Draw(t, "b")
		if got, want := a.Compare(b), refCompare(a, b); got != want {
			t.Fatalf("Compare(%v, %v) = %d, want %d", a, b, got, want)
		}
		if got := a.AsStart(); a.Kind != replica.BoundTop && refCompare(got, a) != 0 {
			t.Fatalf("AsStart(%v) = %v moves", a, got)
		}
		if got := a.AsEnd(); a.Kind != replica.BoundBottom && refCompare(got, a) != 0 && !(refCompare(a, replica.Bottom()) == 0) {
			t.Fatalf("AsEnd(%v) = %v moves", a, got)
		}
		k := keyGen.Draw(t, "row")
		if a.IsStart() && b.IsEnd() {
			rt := replica.NewRangeTombstone(a, b, replica.DeletedAt(1, 1))
			as, _ := boundRef(a)
			bs, bt := boundRef(b)
			want := as <= k && (bt || k+"\x00" <= bs)
			if a.Kind == replica.BoundTop {
				want = false
			}
			if got := rt.Covers(k); got != want {
				t.Fatalf("[%v, %v] covers %q: %v, want %v", a, b, k, got, want)
			}
			s := replica.Slice{Start: a, End: b}
			if got := s.Contains(k); got != want {
				t.Fatalf("slice [%v, %v] contains %q: %v, want %v", a, b, k, got, want)
			}
		}
	})
}

func TestValidateVectors(t *testing.T) {
	ok := func(p replica.Partition) replica.Partition { return p }
	accept := map[string]replica.Partition{
		"tombstone ldt 0":                     ok(replica.NewPartition("k", replica.NewRow("r", replica.Tombstone("v", 1, 0)))),
		"expiring written at epoch":           ok(replica.NewPartition("k", replica.NewRow("r", replica.Expiring("v", "x", 1, 5, 5)))),
		"negative timestamp cell":             ok(replica.NewPartition("k", replica.NewRow("r", replica.Live("v", "x", -7)))),
		"deletion at ts 0 made at time 1":     ok(replica.NewPartition("k").WithDeletion(replica.DeletedAt(0, 1))),
		"touching range tombstones":           ok(replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndBefore("b"), replica.DeletedAt(1, 1)), replica.NewRangeTombstone(replica.StartAt("b"), replica.Top(), replica.DeletedAt(2, 1)))),
		"single-key range":                    ok(replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("a"), replica.DeletedAt(1, 1)))),
		"exclusive range holding a\\x00 only": ok(replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("a"), replica.EndBefore("a\x00\x00"), replica.DeletedAt(1, 1)))),
		"row of liveness only":                ok(replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: replica.Inserted(1)})),
		"row of row deletion only":            ok(replica.NewPartition("k", replica.Row{Clustering: "r", Deletion: replica.DeletedAt(1, 1)})),
		"row of complex deletion only":        ok(replica.NewPartition("k", replica.Row{Clustering: "r"}.WithComplexDeletion("m", replica.DeletedAt(1, 1)))),
		"static of complex deletion only": func() replica.Partition {
			p := replica.NewPartition("k")
			p.Static = replica.Row{}.WithComplexDeletion("m", replica.DeletedAt(1, 1))
			return p
		}(),
		"expiring liveness": ok(replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: replica.InsertedWithTTL(1, 5, 10)})),
	}
	for name, p := range accept {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: rejected: %v", name, err)
		}
	}
	reject := map[string]replica.Partition{
		"overlap at one key":       replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("b"), replica.DeletedAt(1, 1)), replica.NewRangeTombstone(replica.StartAt("b"), replica.Top(), replica.DeletedAt(2, 1))),
		"overlap via zero byte":    replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("a\x00"), replica.DeletedAt(1, 1)), replica.NewRangeTombstone(replica.StartAfter("a"), replica.Top(), replica.DeletedAt(2, 1))),
		"empty exclusive range":    replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("a"), replica.EndBefore("a\x00"), replica.DeletedAt(1, 1))),
		"end before start":         replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("a"), replica.DeletedAt(1, 1))),
		"top as start":             replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.Top(), replica.Top(), replica.DeletedAt(1, 1))),
		"bottom as end":            replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Bottom(), replica.DeletedAt(1, 1))),
		"duplicate rows":           {Key: "k", Rows: []replica.Row{replica.NewRow("a", replica.Live("v", "x", 1)), replica.NewRow("a", replica.Live("v", "y", 1))}},
		"duplicate cells":          {Key: "k", Rows: []replica.Row{{Clustering: "a", Cells: []replica.Cell{replica.Live("v", "x", 1), replica.Live("v", "y", 2)}}}},
		"cells out of path order":  {Key: "k", Rows: []replica.Row{{Clustering: "a", Cells: []replica.Cell{replica.Live("m", "", 1).WithPath("q"), replica.Live("m", "", 1).WithPath("p")}}}},
		"tombstone with value":     {Key: "k", Rows: []replica.Row{{Clustering: "a", Cells: []replica.Cell{{Column: "v", Value: []byte("x"), Timestamp: 1, LocalDeletionTime: 1, Tombstone: true}}}}},
		"negative TTL":             {Key: "k", Rows: []replica.Row{{Clustering: "a", Cells: []replica.Cell{{Column: "v", Timestamp: 1, TTL: -1}}}}},
		"expiring without expiry":  {Key: "k", Rows: []replica.Row{{Clustering: "a", Cells: []replica.Cell{{Column: "v", Timestamp: 1, TTL: 5}}}}},
		"empty row":                {Key: "k", Rows: []replica.Row{{Clustering: "a"}}},
		"static with liveness":     {Key: "k", Static: replica.Row{Liveness: replica.Inserted(1), Cells: []replica.Cell{replica.Live("s", "x", 1)}}},
		"negative partition ldt":   replica.NewPartition("k").WithDeletion(replica.DeletedAt(1, -1)),
		"liveness ttl no expiry":   replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: replica.Liveness{Timestamp: 1, TTL: 5}}),
		"MV expired liveness":      replica.NewPartition("k", replica.Row{Clustering: "r", Liveness: replica.InsertedWithTTL(1, math.MaxInt32, 10)}),
		"complex deletion nothing": {Key: "k", Rows: []replica.Row{{Clustering: "r", Cells: []replica.Cell{replica.Live("v", "x", 1)}, ComplexDeletions: []replica.ComplexDeletion{{Column: "m"}}}}},
	}
	for name, p := range reject {
		if err := p.Validate(); err == nil {
			t.Errorf("%s: accepted %v", name, p)
		}
	}
}

// --- A generator with zero-byte keys, for purge and digest laws -----------

var edgeModelKeys = []string{"", "\x00", "a", "a\x00", "a\x00\x00", "a\x01", "b"}

func edgeBoundAt(t *rapid.T, i int, start bool) replica.Bound {
	if i >= 2*len(edgeModelKeys) {
		return replica.Top()
	}
	k := edgeModelKeys[i/2]
	if i%2 == 1 {
		if start {
			return rapid.SampledFrom([]replica.Bound{replica.StartAfter(k), replica.StartAt(k + "\x00")}).Draw(t, "b")
		}
		return rapid.SampledFrom([]replica.Bound{replica.EndAt(k), replica.EndBefore(k + "\x00")}).Draw(t, "b")
	}
	if start {
		if k == "" && rapid.Bool().Draw(t, "bottom") {
			return replica.Bottom()
		}
		return replica.StartAt(k)
	}
	return replica.EndBefore(k)
}

func reviewDeletion(t *rapid.T) replica.Deletion {
	if rapid.IntRange(0, 2).Draw(t, "del?") != 0 {
		return replica.Deletion{}
	}
	return replica.DeletedAt(rapid.Int64Range(1, 4).Draw(t, "dts"), rapid.Int64Range(1, 6).Draw(t, "dldt"))
}

func reviewCell(t *rapid.T, col, path string) replica.Cell {
	ts := rapid.Int64Range(1, 4).Draw(t, "ts")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return replica.Tombstone(col, ts, rapid.Int64Range(0, 6).Draw(t, "ldt")).WithPath(path)
	case 1:
		ttl := rapid.Int32Range(1, 3).Draw(t, "ttl")
		return replica.Expiring(col, rapid.SampledFrom([]string{"", "a", "\x80"}).Draw(t, "v"), ts, ttl, int64(ttl)+rapid.Int64Range(0, 5).Draw(t, "w")).WithPath(path)
	}
	return replica.Live(col, rapid.SampledFrom([]string{"", "a", "\x80"}).Draw(t, "v"), ts).WithPath(path)
}

func reviewContents(t *rapid.T, r *replica.Row) {
	if rapid.IntRange(0, 3).Draw(t, "cd?") == 0 {
		if d := reviewDeletion(t); !d.IsLive() {
			*r = r.WithComplexDeletion("m", d)
		}
	}
	var cells []replica.Cell
	if rapid.Bool().Draw(t, "m?") {
		for _, p := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"p", "q"}), 1, 2, rapid.ID[string]).Draw(t, "paths") {
			cells = append(cells, reviewCell(t, "m", p))
		}
	}
	for _, col := range []string{"v", "w"} {
		if rapid.Bool().Draw(t, col+"?") {
			cells = append(cells, reviewCell(t, col, ""))
		}
	}
	r.Cells = replica.NewRow("", cells...).Cells
}

func reviewPartition(t *rapid.T) replica.Partition {
	keys := rapid.SliceOfDistinct(rapid.SampledFrom(edgeModelKeys), rapid.ID[string]).Draw(t, "keys")
	var rows []replica.Row
	for _, k := range keys {
		r := replica.Row{Clustering: k, Deletion: reviewDeletion(t)}
		switch rapid.IntRange(0, 2).Draw(t, "lv") {
		case 1:
			r.Liveness = replica.Inserted(rapid.Int64Range(1, 4).Draw(t, "lts"))
		case 2:
			ttl := rapid.Int32Range(1, 3).Draw(t, "lttl")
			r.Liveness = replica.InsertedWithTTL(rapid.Int64Range(1, 4).Draw(t, "lts"), ttl, int64(ttl)+rapid.Int64Range(0, 5).Draw(t, "lw"))
		}
		reviewContents(t, &r)
		if r.IsEmpty() {
			r.Liveness = replica.Inserted(1)
		}
		rows = append(rows, r)
	}
	p := replica.NewPartition("k", rows...).WithDeletion(reviewDeletion(t))
	var rts []replica.RangeTombstone
	at, last := 0, 2*len(edgeModelKeys)
	for range rapid.IntRange(0, 3).Draw(t, "nrt") {
		if at >= last {
			break
		}
		s := rapid.IntRange(at, last-1).Draw(t, "s")
		e := rapid.IntRange(s+1, last).Draw(t, "e")
		at = e
		start, end := edgeBoundAt(t, s, true), edgeBoundAt(t, e, false)
		if start.Compare(end) >= 0 || len(rts) > 0 && start.Compare(rts[len(rts)-1].End) < 0 {
			continue
		}
		d := reviewDeletion(t)
		if d.IsLive() {
			d = replica.DeletedAt(2, 2)
		}
		rts = append(rts, replica.NewRangeTombstone(start, end, d))
	}
	p = p.WithRangeTombstones(rts...)
	if rapid.Bool().Draw(t, "static?") {
		reviewContents(t, &p.Static)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("generated invalid %v: %v", p, err)
	}
	return p
}

// Purge keeps what a client sees, leaves a valid partition, is idempotent;
// Respond answers the partition and its compaction alike.
func TestPurgeAndRespondLawsZeroByteKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := reviewPartition(t)
		now := rapid.Int64Range(0, 9).Draw(t, "now")
		gc := rapid.Int64Range(0, now).Draw(t, "gc")
		q := p.Purge(now, gc)
		if err := q.Validate(); err != nil {
			t.Fatalf("purged invalid: %v\n%v", err, q)
		}
		if again := q.Purge(now, gc); !again.Equal(q) {
			t.Fatalf("purge not idempotent")
		}
		if got, want := q.Visible(now), p.Visible(now); !got.Equal(want) {
			t.Fatalf("purge changed the view at %d (gc %d):\n got  %v\n want %v\n p %v\n q %v", now, gc, got, want, p, q)
		}
		if a, b := q.LiveRows(replica.Query{}, now), p.LiveRows(replica.Query{}, now); a != b {
			t.Fatalf("LiveRows %d after purge, %d before", a, b)
		}
		compacted, err := repair.Merge(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := compacted.Visible(now), p.Visible(now); !got.Equal(want) {
			t.Fatalf("compaction changed the view:\n got  %v\n want %v", got, want)
		}
		cmd := replica.Command{Table: "t", Key: "k", NowInSec: now, GCBefore: gc}
		ra, err := cmd.Respond(p)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := cmd.Respond(compacted)
		if err != nil {
			t.Fatal(err)
		}
		if !ra.Partition.Equal(rb.Partition) || ra.Tombstones != rb.Tombstones {
			t.Fatalf("raw and compacted answer differently:\n raw %v (%d)\n cmp %v (%d)", ra.Partition, ra.Tombstones, rb.Partition, rb.Tombstones)
		}
		if got, want := ra.Partition.Visible(now), p.Visible(now); !got.Equal(want) {
			t.Fatalf("answer changes the view:\n got  %v\n want %v", got, want)
		}
		if err := ra.Partition.Validate(); err != nil {
			t.Fatalf("answer invalid: %v", err)
		}
		// A reversed, limited query counts the same rows as a forward one.
		if n := p.LiveRows(replica.Query{}, now); n != len(p.Visible(now).Rows) {
			t.Fatalf("LiveRows %d, visible rows %d", n, len(p.Visible(now).Rows))
		}
	})
}

// Digests: equal content digests alike; a change of any one field digests
// differently.
func TestDigestDistinguishesEveryField(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := reviewPartition(t)
		c := p.Clone()
		if p.Digest() != c.Digest() {
			t.Fatalf("clone digests differently")
		}
		var mutations []func(*replica.Partition) bool
		mutations = append(mutations,
			func(q *replica.Partition) bool { q.Deletion.LocalDeletionTime++; return true },
			func(q *replica.Partition) bool { q.Key += "\x00"; return true },
		)
		for i := range p.RangeTombstones {
			mutations = append(mutations, func(q *replica.Partition) bool {
				q.RangeTombstones[i].Deletion.LocalDeletionTime++
				return true
			})
		}
		for ri := range p.Rows {
			mutations = append(mutations,
				func(q *replica.Partition) bool { q.Rows[ri].Clustering += "\x00"; return true },
				func(q *replica.Partition) bool {
					q.Rows[ri].Liveness.Timestamp++
					return true
				},
				func(q *replica.Partition) bool { q.Rows[ri].Deletion.MarkedForDeleteAt++; return true },
			)
			for ci := range p.Rows[ri].Cells {
				mutations = append(mutations,
					func(q *replica.Partition) bool { q.Rows[ri].Cells[ci].Timestamp++; return true },
					func(q *replica.Partition) bool { q.Rows[ri].Cells[ci].LocalDeletionTime++; return true },
					func(q *replica.Partition) bool { q.Rows[ri].Cells[ci].TTL++; return true },
					func(q *replica.Partition) bool { q.Rows[ri].Cells[ci].Path += "z"; return true },
					func(q *replica.Partition) bool {
						q.Rows[ri].Cells[ci].Tombstone = !q.Rows[ri].Cells[ci].Tombstone
						return true
					},
					func(q *replica.Partition) bool {
						q.Rows[ri].Cells[ci].Value = append([]byte{0}, q.Rows[ri].Cells[ci].Value...)
						return true
					},
				)
			}
		}
		for i, mut := range mutations {
			q := p.Clone()
			mut(&q)
			if q.Equal(p) {
				continue
			}
			if q.Digest() == p.Digest() {
				t.Fatalf("mutation %d: %v and %v digest alike", i, p, q)
			}
		}
	})
}
