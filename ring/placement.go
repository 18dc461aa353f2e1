package ring

import "github.com/readpath/readpath/consistency"

// walker computes replica placements on one ring under one replication. It
// reuses its scratch space across walks and is not safe for concurrent use.
//
// Under Simple it is Cassandra's SimpleStrategy: walking clockwise from the
// token's range, the first rf distinct nodes. Under NetworkTopology it is
// NetworkTopologyStrategy.calculateNaturalReplicas of Cassandra 4.1 with its
// DatacenterEndpoints: walking clockwise, a node of a datacenter that still
// needs replicas is taken if its rack has no replica yet, or, if its rack
// has one, while the datacenter's allowance of rack repeats (its factor
// minus its number of racks) lasts; a datacenter needs min(factor, nodes)
// replicas. Repeats are taken where the walk meets them, so the replicas
// come in ring order. (Cassandra before 3.0, and the Java driver, skipped
// them and appended them once every rack was seen: the same set and the
// same primary, in another order.)
type walker struct {
	r      *Ring
	simple int       // rf under Simple; 0 under NetworkTopology
	quota  []dcQuota // per datacenter of the ring, under NetworkTopology
	fill   []dcQuota // the quota left during a walk
	room   []dcQuota // quota's and fill's, kept for the next replication
	want   int       // datacenters with replicas to place
	taken  []bool    // per node
	seen   []bool    // per (datacenter, rack)
	picked []int32   // positions of the nodes taken, in order
	met    int       // how many tokens the last walk met
	walks  int       // walks made
	offers int       // tokens offered, over all walks under NetworkTopology
}

// dcQuota is what a datacenter still needs during a walk.
type dcQuota struct {
	left    int // replicas to place
	repeats int // nodes that may still share a rack with a replica
}

func (r *Ring) newWalker(repl consistency.Replication) *walker {
	w := &walker{r: r, taken: make([]bool, len(r.nodes))}
	w.place(repl)
	return w
}

// place readies w for walks under repl, in the scratch space it has: a
// walker may serve one replication, then another (see ReplicasFor).
func (w *walker) place(repl consistency.Replication) {
	r := w.r
	w.simple, w.want, w.quota, w.fill = 0, 0, nil, nil
	if repl.IsSimple() {
		w.simple = min(repl.Total(), len(r.nodes))
		return
	}
	n := len(r.dcInfo)
	if w.room == nil {
		w.room, w.seen = make([]dcQuota, 2*n), make([]bool, r.racks)
	}
	w.quota, w.fill = w.room[:n:n], w.room[n:]
	clear(w.quota)
	for dc, d := range r.dcs { // a datacenter repl does not name has factor 0
		if q, ok := r.quota(consistency.DatacenterFactor{Datacenter: dc, Factor: repl.Factor(dc)}); ok {
			w.quota[d] = q
			w.want++
		}
	}
}

// perWalk is how many replicas each walk places: min(factor, nodes) of
// each datacenter, or of the ring under Simple.
func (w *walker) perWalk() int {
	if w.quota == nil {
		return w.simple
	}
	n := 0
	for _, q := range w.quota {
		n += q.left
	}
	return n
}

// walk returns the positions of the replicas of the range ending at
// tokens[start], appended to dst[:0]. The result is valid until the next
// walk.
func (w *walker) walk(start int, dst []int32) []int32 {
	w.picked = dst[:0]
	w.walks++
	if w.quota == nil {
		w.walkSimple(start)
	} else {
		w.walkTopology(start)
	}
	for _, n := range w.picked { // not clear(w.taken): a walk takes a few of many nodes
		w.taken[n] = false
	}
	return w.picked
}

func (w *walker) walkSimple(start int) {
	owners := w.r.owners
	i := 0
	for ; len(w.picked) < w.simple && i < len(owners); i++ {
		w.take(owners[(start+i)%len(owners)])
	}
	w.met = i
}

// take adds node n unless it is already a replica, and reports whether it
// did.
func (w *walker) take(n int32) bool {
	if w.taken[n] {
		return false
	}
	w.taken[n] = true
	w.picked = append(w.picked, n)
	return true
}

func (w *walker) walkTopology(start int) {
	copy(w.fill, w.quota)
	clear(w.seen)
	owners := w.r.owners
	i, idle := 0, 0
	for want := w.want; want > 0 && i < len(owners); i++ {
		took := len(w.picked)
		w.offers++
		if w.offer(owners[(start+i)%len(owners)]) {
			want--
		}
		if idle++; len(w.picked) > took {
			idle = 0
		} else if idle > skipAfter { // see placement_skip.go
			i, idle = w.next(start, i+1)-1, 0
		}
	}
	w.met = i
}

// offer is DatacenterEndpoints.addEndpointAndCheckIfDone: it takes node n
// if its datacenter's rules allow, and reports whether that completed the
// datacenter.
func (w *walker) offer(n int32) bool {
	q := &w.fill[w.r.nodeDC[n]]
	if q.left == 0 || w.taken[n] {
		return false
	}
	rack := w.r.rackOf[n]
	switch {
	case !w.seen[rack]:
		w.seen[rack] = true
	case q.repeats > 0:
		q.repeats--
	default:
		return false
	}
	w.take(n)
	q.left--
	return q.left == 0
}
