package coordinator_test

import (
	"fmt"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// The generators of the model-based read-path property.

var modelClusterings = []string{"a", "b", "c", "d", "e", "f"}

// modelWrite draws one write at a timestamp up to maxTS, so that writes
// tie, written at a time up to six seconds before now.
func modelWrite(t *rapid.T, k string, now, maxTS int64) replica.Partition {
	ts := rapid.Int64Range(1, maxTS).Draw(t, "ts")
	at := now - int64(rapid.IntRange(0, 6).Draw(t, "written secs ago"))
	ck := rapid.SampledFrom(modelClusterings).Draw(t, "clustering")
	col := rapid.SampledFrom([]string{"x", "y"}).Draw(t, "column")
	val := rapid.SampledFrom([]string{"", "v", "v1", "w"}).Draw(t, "value")
	switch rapid.IntRange(0, 9).Draw(t, "write kind") {
	case 0, 1, 2:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)))
	case 3:
		ttl := rapid.IntRange(1, 8).Draw(t, "ttl")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Expiring(col, val, ts, int32(ttl), at+int64(ttl))))
	case 4:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Tombstone(col, ts, at)))
	case 5:
		l := replica.Inserted(ts)
		if ttl := rapid.SampledFrom([]int{0, 1, 2, 6}).Draw(t, "insert ttl"); ttl > 0 {
			l = replica.InsertedWithTTL(ts, int32(ttl), at+int64(ttl))
		}
		return replica.NewPartition(k, replica.NewRow(ck).WithLiveness(l))
	case 6:
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, at)))
	case 7, 8:
		s := modelSlice(t)
		return replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(s.Start, s.End, replica.DeletedAt(ts, at)))
	}
	return replica.NewPartition(k).WithDeletion(replica.DeletedAt(ts, at))
}

// modelSlice draws a non-empty range of clusterings, either end open or
// inclusive or exclusive.
func modelSlice(t *rapid.T) replica.Slice {
	lo := rapid.IntRange(0, len(modelClusterings)-1).Draw(t, "slice start")
	hi := rapid.IntRange(lo, len(modelClusterings)-1).Draw(t, "slice end")
	start, end := replica.StartAt(modelClusterings[lo]), replica.EndAt(modelClusterings[hi])
	switch rapid.IntRange(0, 3).Draw(t, "start kind") {
	case 0:
		start = replica.Bottom()
	case 1:
		if lo < hi {
			start = replica.StartAfter(modelClusterings[lo])
		}
	}
	switch rapid.IntRange(0, 3).Draw(t, "end kind") {
	case 0:
		end = replica.Top()
	case 1:
		if lo < hi {
			end = replica.EndBefore(modelClusterings[hi])
		}
	}
	return replica.Slice{Start: start, End: end}
}

// modelQuery draws every rows, or one or two slices, either order, and a
// limit of 0 (none) to 4.
func modelQuery(t *rapid.T) replica.Query {
	var q replica.Query
	for range rapid.IntRange(0, 2).Draw(t, "slices") {
		q.Slices = append(q.Slices, modelSlice(t))
	}
	if q.Slices != nil {
		s, err := replica.NormalizeSlices(q.Slices)
		if err != nil {
			t.Fatalf("NormalizeSlices(%v): %v", q.Slices, err)
		}
		q.Slices = s
	}
	q.Reversed = rapid.Bool().Draw(t, "reversed")
	q.Limit = rapid.IntRange(0, 4).Draw(t, "limit")
	return q
}

// modelLayout is a cluster's shape: its datacenters with one node per
// replica, its replication, and the levels a read may use on it.
type modelLayout struct {
	dcs    []replicatest.Datacenter
	repl   consistency.Replication
	rf     map[string]int
	levels []consistency.Level
}

func drawLayout(t *rapid.T) modelLayout {
	rfs := rapid.SampledFrom([][2]int{{3, 0}, {5, 0}, {3, 3}, {2, 1}, {3, 2}}).Draw(t, "replication")
	levels := []consistency.Level{consistency.One, consistency.Two, consistency.Three, consistency.Quorum,
		consistency.All, consistency.LocalOne, consistency.LocalQuorum, consistency.EachQuorum}
	if rfs[1] == 0 {
		dc := replicatest.Datacenter{Name: "dc1", Racks: rfs[0], Nodes: rfs[0]}
		return modelLayout{[]replicatest.Datacenter{dc}, consistency.Simple(rfs[0]), map[string]int{"dc1": rfs[0]}, levels}
	}
	rf := map[string]int{"dc1": rfs[0], "dc2": rfs[1]}
	var dcs []replicatest.Datacenter
	for _, name := range []string{"dc1", "dc2"} {
		dcs = append(dcs, replicatest.Datacenter{Name: name, Racks: rf[name], Nodes: rf[name]})
	}
	return modelLayout{dcs, consistency.NetworkTopology(rf), rf, levels}
}

// modelFault is one replica's state for a read.
type modelFault struct {
	dead    bool // in the liveness view
	down    bool // refuses requests
	errs    bool // fails requests after a while
	latency time.Duration
}

func (f modelFault) String() string {
	return fmt.Sprintf("{dead=%v down=%v errs=%v latency=%v}", f.dead, f.down, f.errs, f.latency)
}

func drawFault(t *rapid.T) modelFault {
	f := modelFault{latency: ms(float64(rapid.IntRange(0, 20).Draw(t, "latency ms")))}
	// rapid favours small draws: the first cases, healthy, are the common ones.
	switch rapid.IntRange(0, 9).Draw(t, "fault") {
	case 6:
		f.down = true
	case 7:
		f.errs = true
	case 8:
		f.dead = true
	case 9:
		f.dead, f.down = true, true
	}
	return f
}

func (f modelFault) behavior() replicatest.Behavior {
	b := replicatest.Behavior{Latency: replicatest.Constant(f.latency)}
	switch {
	case f.down:
		b.Fault = replicatest.Down()
	case f.errs:
		b.Fault = replicatest.ErrorAfter(f.latency/2, nil)
	}
	return b
}
