package replicatest

import (
	"container/heap"
	"slices"
	"strings"

	"github.com/readpath/readpath/replica"
)

// runs joins the writes of ps that hold only rows into as few partitions
// as keep each one's rows in order with no clustering repeated, and
// returns those with the other writes, so that a fold merges few inputs:
// n one-row writes to different rows make one run. Writes are taken in
// order of their first row and each joins the run that ends lowest, if it
// ends below that row (the greedy that needs fewest runs). The runs share
// the writes' rows, which fold's merge then copies.
func runs(ps []replica.Partition) []replica.Partition {
	out := ps[:0:0]
	rowsOnly := ps[:0]
	for _, p := range ps {
		if onlyRows(&p) {
			rowsOnly = append(rowsOnly, p)
		} else {
			out = append(out, p)
		}
	}
	slices.SortFunc(rowsOnly, func(a, b replica.Partition) int {
		return strings.Compare(a.Rows[0].Clustering, b.Rows[0].Clustering)
	})
	rows := 0 // the room of the first run: all of them, when the rows differ
	for _, p := range rowsOnly {
		rows += len(p.Rows)
	}
	var ends runEnds
	for _, p := range rowsOnly {
		if len(ends) > 0 && ends[0].last < p.Rows[0].Clustering {
			r := &out[ends[0].run]
			r.Rows = append(r.Rows, p.Rows...)
			ends[0].last = p.Rows[len(p.Rows)-1].Clustering
			heap.Fix(&ends, 0)
			continue
		}
		out = append(out, replica.Partition{Key: p.Key, Rows: append(make([]replica.Row, 0, max(rows, len(p.Rows))), p.Rows...)})
		rows = 0
		heap.Push(&ends, runEnd{last: p.Rows[len(p.Rows)-1].Clustering, run: len(out) - 1})
	}
	return out
}

// onlyRows reports whether p holds rows and nothing else: no partition
// deletion, static row or range tombstone.
func onlyRows(p *replica.Partition) bool {
	return len(p.Rows) > 0 && p.Deletion.IsLive() && len(p.RangeTombstones) == 0 &&
		p.Static.IsEmpty() && p.Static.Clustering == ""
}

// runEnd is a run's last clustering and its index in runs' output.
type runEnd struct {
	last string
	run  int
}

// runEnds is a min-heap of runs by their last clustering.
type runEnds []runEnd

func (h runEnds) Len() int           { return len(h) }
func (h runEnds) Less(i, j int) bool { return h[i].last < h[j].last }
func (h runEnds) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runEnds) Push(x any)        { *h = append(*h, x.(runEnd)) }
func (h *runEnds) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
