package replica_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// A replica may store one partition in many valid forms: range tombstones
// with bounds written differently (StartAfter(k) or StartAt(k+"\x00"),
// Bottom or StartAt("")) or split in touching pieces, and data that a
// deletion it holds covers (cells, liveness, row and complex deletions,
// whole rows, a range deletion under the partition deletion), kept until
// it compacts. Every such form answers every command as the partition
// does, data and digest at every version: the coordinator compares the
// digests of replicas that hold one partition in different forms.
func TestEquivalentStoredFormsAnswerAlike(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		var wideSlices []replica.Slice
		if rapid.Bool().Draw(t, "wide") { // limits that stop early, in answerWindow
			w := widePartitionGen().Draw(t, "wide partition")
			p, wideSlices = w.p, w.slices
		}
		q := equivalentForm(t, p)
		if err := q.Validate(); err != nil {
			t.Skipf("form not valid: %v", err)
		}
		cmd := commandGen(t, p)
		cmd.TombstoneFailureThreshold = 0
		if wideSlices != nil && rapid.Bool().Draw(t, "wide slices") {
			cmd.Query.Slices, cmd.Query.Limit = wideSlices, rapid.IntRange(1, 4).Draw(t, "wide limit")
		}
		if cmd.Columns != nil && rapid.Bool().Draw(t, "select covered columns") {
			cmd.Columns = append(slices.Clone(cmd.Columns), "za", "zb", "zz")
			slices.Sort(cmd.Columns)
		}
		for _, v := range []byte{digest.V1, digest.V2} {
			cmd.DigestVersion = v
			cmd.DigestOnly = false
			ap, errP := cmd.Respond(p)
			aq, errQ := cmd.Respond(q)
			if errP != nil || errQ != nil {
				t.Fatalf("respond: %v, %v", errP, errQ)
			}
			if !ap.Partition.Equal(aq.Partition) {
				t.Fatalf("answers differ to %+v\n stored  %v\n form    %v\n answer  %v\n answer' %v",
					cmd, p, q, ap.Partition, aq.Partition)
			}
			cmd.DigestOnly = true
			dp, _ := cmd.Respond(p)
			dq, _ := cmd.Respond(q)
			if dp.Digest != dq.Digest {
				t.Fatalf("digests differ at version %d to %+v\n stored %v\n form   %v", v, cmd, p, q)
			}
		}
	})
}

// equivalentForm returns a copy of p in another form that holds the same
// data, as far as any read can tell.
func equivalentForm(t *rapid.T, p replica.Partition) replica.Partition {
	q := p.Clone()
	q.RangeTombstones = splitRanges(t, q.RangeTombstones)
	for i := range q.RangeTombstones {
		rt := &q.RangeTombstones[i]
		if rapid.Bool().Draw(t, "rewrite start") {
			rt.Start = otherForm(rt.Start)
		}
		if rapid.Bool().Draw(t, "rewrite end") {
			rt.End = otherForm(rt.End)
		}
	}
	if !q.Deletion.IsLive() && len(q.RangeTombstones) == 0 && rapid.Bool().Draw(t, "shadowed range") {
		d := q.Deletion
		d.MarkedForDeleteAt -= rapid.Int64Range(0, 1).Draw(t, "older by")
		if !d.IsLive() {
			q.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(replica.Bottom(), replica.Top(), d)}
		}
	}
	if rapid.Bool().Draw(t, "cover static") { // no liveness or row deletion: Validate rejects them
		s := withCovered(t, q.Static, q.Deletion)
		s.Liveness, s.Deletion = replica.Liveness{}, replica.Deletion{}
		q.Static = s
	}
	for i := range q.Rows {
		if rapid.Bool().Draw(t, "cover") {
			q.Rows[i] = withCovered(t, q.Rows[i], coveringRow(&q, q.Rows[i].Clustering))
		}
	}
	if rapid.Bool().Draw(t, "covered row") {
		k := rapid.StringMatching(`[a-h]?[abc]{0,3}\x00?`).Draw(t, "covered key")
		if d := coveringRow(&q, k); !d.IsLive() && !slices.ContainsFunc(q.Rows, func(r replica.Row) bool { return r.Clustering == k }) {
			r := withCovered(t, replica.Row{Clustering: k}, d)
			if !r.IsEmpty() {
				q.Rows = append(q.Rows, r)
				slices.SortFunc(q.Rows, func(a, b replica.Row) int { return strings.Compare(a.Clustering, b.Clustering) })
			}
		}
	}
	return q
}

// otherForm returns b, or another bound at its position.
func otherForm(b replica.Bound) replica.Bound {
	k := b.Clustering
	switch b.Kind {
	case replica.BoundBottom:
		return replica.StartAt("")
	case replica.BoundExclusiveStart:
		return replica.StartAt(k + "\x00")
	case replica.BoundInclusiveEnd:
		return replica.EndBefore(k + "\x00")
	case replica.BoundInclusiveStart:
		if strings.HasSuffix(k, "\x00") {
			return replica.StartAfter(k[:len(k)-1])
		}
	case replica.BoundExclusiveEnd:
		if strings.HasSuffix(k, "\x00") {
			return replica.EndAt(k[:len(k)-1])
		}
	}
	return b
}

// splitRanges splits range tombstones in two touching pieces, now and
// then, at the position before a key or after it.
func splitRanges(t *rapid.T, rts []replica.RangeTombstone) []replica.RangeTombstone {
	var out []replica.RangeTombstone
	for _, rt := range rts {
		if rapid.IntRange(0, 2).Draw(t, "split") > 0 {
			out = append(out, rt)
			continue
		}
		k := rapid.StringMatching(`[a-h]?[abc]{0,3}`).Draw(t, "at")
		end, start := replica.EndBefore(k), replica.StartAt(k)
		if rapid.Bool().Draw(t, "after") {
			end, start = replica.EndAt(k), replica.StartAfter(k)
		}
		first, second := rt, rt
		first.End, second.Start = end, start
		if first.Start.Compare(first.End) >= 0 || second.Start.Compare(second.End) >= 0 {
			out = append(out, rt)
			continue
		}
		out = append(out, first, second)
	}
	return out
}

// coveringRow returns the strongest deletion of p's partition and range
// tombstones over the row at clustering.
func coveringRow(p *replica.Partition, clustering string) replica.Deletion {
	d := p.Deletion
	for _, rt := range p.RangeTombstones {
		if rt.Covers(clustering) && rt.Deletion.Supersedes(d) {
			d = rt.Deletion
		}
	}
	return d
}

// withCovered returns r with data that a deletion over it covers: a cell
// of a new column, liveness, and a row or complex deletion no newer.
func withCovered(t *rapid.T, r replica.Row, outer replica.Deletion) replica.Row {
	d := outer
	if r.Deletion.Supersedes(d) {
		d = r.Deletion
	}
	if d.IsLive() {
		return r
	}
	ts := d.MarkedForDeleteAt - rapid.Int64Range(0, 1).Draw(t, "older by")
	if rapid.Bool().Draw(t, "covered cell") {
		c := replica.Live("z"+rapid.StringMatching(`[ab]`).Draw(t, "column"), "old", ts)
		if !slices.ContainsFunc(r.Cells, func(o replica.Cell) bool { return o.Column == c.Column }) {
			r.Cells = append(r.Cells, c)
			slices.SortStableFunc(r.Cells, func(a, b replica.Cell) int {
				return strings.Compare(a.Column+"\xff"+a.Path, b.Column+"\xff"+b.Path)
			})
		}
	}
	if r.Liveness.IsEmpty() && ts > 0 && rapid.Bool().Draw(t, "covered liveness") {
		r.Liveness = replica.Inserted(ts)
	}
	if r.Deletion.IsLive() && !outer.IsLive() && rapid.Bool().Draw(t, "covered row deletion") {
		r.Deletion = replica.DeletedAt(outer.MarkedForDeleteAt-rapid.Int64Range(0, 1).Draw(t, "row older by"), outer.LocalDeletionTime)
	}
	if rapid.Bool().Draw(t, "covered complex deletion") {
		cd := replica.DeletedAt(d.MarkedForDeleteAt-rapid.Int64Range(0, 1).Draw(t, "cd older by"), d.LocalDeletionTime)
		if !cd.IsLive() && !slices.ContainsFunc(r.ComplexDeletions, func(o replica.ComplexDeletion) bool { return o.Column == "zz" }) {
			r = r.WithComplexDeletion("zz", cd)
		}
	}
	return r
}
