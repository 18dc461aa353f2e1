package repair_test

import (
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// The generators draw valid partitions from small alphabets so that versions
// collide often: same rows, same columns and paths, overlapping ranges,
// tied timestamps and deletion times.
var (
	genClustering = rapid.SampledFrom([]string{"", "a", "b", "c", "d"})
	genColumn     = rapid.SampledFrom([]string{"x", "y", "z"})
	genPath       = rapid.SampledFrom([]string{"", "p", "q"})
	genValue      = rapid.SampledFrom([]string{"", "a", "b", "ab", "\x7f", "\x80"})
	genTimestamp  = rapid.Int64Range(-1, 3)
)

// times bounds the local times a generator draws: deletion times and the
// times at which expiring data was written. The default, [1, 3], makes
// anything purgeable; recent data, at or after a gcBefore, is not.
type times struct {
	from, to int64
	// expiryTimestamps gives an expiring cell its expiry as timestamp, so
	// that two expiring cells with one timestamp expire together.
	expiryTimestamps bool
}

var anyTime = times{from: 1, to: 3}

func (tm times) draw(t *rapid.T, label string) int64 {
	return rapid.Int64Range(tm.from, tm.to).Draw(t, label)
}

// genCell draws a live, expiring or tombstone cell.
func genCell(t *rapid.T, column string) replica.Cell { return anyTime.cell(t, column, "") }

func (tm times) cell(t *rapid.T, column, path string) replica.Cell {
	ts := genTimestamp.Draw(t, "ts")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return replica.Tombstone(column, ts, tm.draw(t, "ldt")).WithPath(path)
	case 1:
		ttl := rapid.Int32Range(1, 2).Draw(t, "ttl")
		expiry := tm.draw(t, "written") + int64(ttl)
		if tm.expiryTimestamps {
			ts = expiry
		}
		return replica.Expiring(column, genValue.Draw(t, "value"), ts, ttl, expiry).WithPath(path)
	}
	return replica.Live(column, genValue.Draw(t, "value"), ts).WithPath(path)
}

// deletion draws no deletion half of the time.
func (tm times) deletion(t *rapid.T) replica.Deletion {
	if rapid.Bool().Draw(t, "deleted") {
		return replica.Deletion{}
	}
	return replica.DeletedAt(genTimestamp.Draw(t, "dts"), tm.draw(t, "dldt"))
}

func (tm times) liveness(t *rapid.T) replica.Liveness {
	switch rapid.IntRange(0, 2).Draw(t, "liveness") {
	case 0:
		return replica.Liveness{}
	case 1:
		return replica.Inserted(rapid.Int64Range(1, 3).Draw(t, "lts"))
	}
	ttl := rapid.Int32Range(1, 2).Draw(t, "lttl")
	return replica.InsertedWithTTL(genTimestamp.Draw(t, "lts"), ttl, tm.draw(t, "lwritten")+int64(ttl))
}

// contents draws complex deletions and cells into r.
func (tm times) contents(t *rapid.T, r *replica.Row) {
	for _, column := range rapid.SliceOfDistinct(genColumn, rapid.ID[string]).Draw(t, "complex deleted") {
		if d := tm.deletion(t); !d.IsLive() {
			*r = r.WithComplexDeletion(column, d)
		}
	}
	var cells []replica.Cell
	for _, column := range rapid.SliceOfDistinct(genColumn, rapid.ID[string]).Draw(t, "columns") {
		paths := []string{""}
		if rapid.IntRange(0, 2).Draw(t, "complex") == 0 {
			paths = rapid.SliceOfNDistinct(genPath, 1, -1, rapid.ID[string]).Draw(t, "paths")
		}
		for _, path := range paths {
			cells = append(cells, tm.cell(t, column, path))
		}
	}
	r.Cells = replica.NewRow("", cells...).Cells
}

// row draws a row holding something: never an empty one, which Validate
// rejects.
func (tm times) row(t *rapid.T, clustering string) replica.Row {
	r := replica.Row{Clustering: clustering, Deletion: tm.deletion(t), Liveness: tm.liveness(t)}
	tm.contents(t, &r)
	if r.IsEmpty() {
		r.Deletion = replica.DeletedAt(genTimestamp.Draw(t, "dts"), tm.draw(t, "dldt"))
	}
	return r
}

// rangePositions are where a drawn range bound may stand, in order.
var rangePositions = []string{"", "a", "b", "c", "d"}

// ranges draws an ordered list of range tombstones that do not overlap but
// may touch. Each bound takes one of its equivalent forms at random:
// Bottom or StartAt(""), StartAfter(k) or StartAt(k+"\x00"), and so on.
func (tm times) ranges(t *rapid.T) []replica.RangeTombstone {
	last := 2 * len(rangePositions) // the index of Top
	var rts []replica.RangeTombstone
	at := 0
	for range rapid.IntRange(0, 3).Draw(t, "ranges") {
		start := rapid.IntRange(at, last).Draw(t, "start")
		if start >= last {
			break
		}
		end := rapid.IntRange(start+1, last).Draw(t, "end")
		rts = append(rts, replica.NewRangeTombstone(drawBound(t, start, true), drawBound(t, end, false),
			replica.DeletedAt(genTimestamp.Draw(t, "rts"), tm.draw(t, "rldt"))))
		at = end
	}
	return rts
}

// drawBound returns a bound at position i: before rangePositions[i/2] for
// an even i, after it for an odd i, Top past the end.
func drawBound(t *rapid.T, i int, start bool) replica.Bound {
	if i/2 == len(rangePositions) {
		return replica.Top()
	}
	k := rangePositions[i/2]
	var b replica.Bound
	switch after, plain := i%2 == 1, rapid.Bool().Draw(t, "plain form"); {
	case after && !plain:
		b = replica.StartAt(k + "\x00") // the position after k
	case after:
		b = replica.StartAfter(k)
	case k == "" && !plain:
		b = replica.Bottom()
	default:
		b = replica.StartAt(k)
	}
	if start {
		return b
	}
	return endForm(b)
}

// endForm returns the end bound written like start bound b.
func endForm(b replica.Bound) replica.Bound {
	switch b.Kind {
	case replica.BoundExclusiveStart:
		return replica.EndAt(b.Clustering)
	case replica.BoundBottom:
		return replica.EndBefore("")
	}
	return replica.EndBefore(b.Clustering)
}

// version draws a valid version of partition "k" with every element.
func (tm times) version(t *rapid.T, label string) replica.Partition {
	keys := rapid.SliceOfDistinct(genClustering, rapid.ID[string]).Draw(t, label+" rows")
	rows := make([]replica.Row, len(keys))
	for i, key := range keys {
		rows[i] = tm.row(t, key)
	}
	p := replica.NewPartition("k", rows...).WithDeletion(tm.deletion(t)).WithRangeTombstones(tm.ranges(t)...)
	if rapid.Bool().Draw(t, "static") {
		tm.contents(t, &p.Static)
	}
	return p
}

// genVersion draws a valid version of partition "k".
func genVersion(t *rapid.T, label string) replica.Partition { return anyTime.version(t, label) }

// genVersions draws one to four versions.
func genVersions(t *rapid.T) []replica.Partition {
	n := rapid.IntRange(1, 4).Draw(t, "versions")
	vs := make([]replica.Partition, n)
	for i := range vs {
		vs[i] = genVersion(t, "v")
	}
	return vs
}
