package ring

import "github.com/readpath/readpath/consistency"

// A topology change moves few ranges: a range's replicas come from a walk
// clockwise from its token, and a walk that met no changed token (none
// added, removed or passed to another node) takes the same nodes on the new
// ring as on the old. placeChanged therefore walks again only the ranges
// whose walk the change reaches: a node joining a ring of 1,000 nodes of 16
// tokens over two datacenters reaches 32 of its 16,000 ranges under
// Simple(3), 141 under NetworkTopology(dc1:3, dc2:2). Placing every range
// was most of a change's time.
//
// Finding them relies on a law of both strategies: how many replicas a walk
// has taken after meeting a set of nodes depends on the set, not on the
// order (SimpleStrategy counts distinct nodes; NetworkTopologyStrategy, per
// datacenter, the racks met plus the rack repeats its allowance admits), and
// grows with it. A walk starting one token earlier meets a superset at every
// step, so it ends no later. Scanning counter-clockwise from a changed
// token, the first range whose walk stops short of it is thus the last one
// the change reaches. The law holds for fixed quotas (a datacenter's
// replicas to place and rack repeats allowed), which depend on its node and
// rack counts; a change that alters them places every range afresh.

// placeChanged returns the placement of old's replication on s.ring, from
// old, its placement on ring was; d is how the tokens moved from was.
func (s *locatorState) placeChanged(was *Ring, old *tableRanges, d *tokenDiff) *tableRanges {
	if !sameQuotas(was, s.ring, old.repl) {
		return s.place(old.repl)
	}
	return s.fill(old.repl, keep{old: old, from: d.from, reach: reachedRanges(was.newWalker(old.repl), d)})
}

// sameQuotas reports whether repl asks the same of rings a and b: as many
// replicas, and in each datacenter as many replicas and rack repeats.
func sameQuotas(a, b *Ring, repl consistency.Replication) bool {
	if repl.IsSimple() {
		return min(repl.Total(), len(a.nodes)) == min(repl.Total(), len(b.nodes))
	}
	for _, f := range repl.Datacenters() {
		qa, okA := a.quota(f)
		qb, okB := b.quota(f)
		if qa != qb || okA != okB {
			return false
		}
	}
	return true
}

// quota is what factor f asks of its datacenter on r, and whether r has
// that datacenter and f asks anything of it.
func (r *Ring) quota(f consistency.DatacenterFactor) (dcQuota, bool) {
	d, ok := r.dcs[f.Datacenter]
	if !ok || f.Factor <= 0 {
		return dcQuota{}, false
	}
	info := r.dcInfo[d]
	return dcQuota{left: min(f.Factor, info.nodes), repeats: f.Factor - info.racks}, true
}

// tokenDiff is how a change moved the tokens of a ring.
type tokenDiff struct {
	// from[j] is the old position of the new ring's token j when the same
	// node (the same ID, datacenter and rack) holds it in both, else -1.
	from []int
	// changed are the old positions of the tokens that left or changed
	// hands; gaps, the old positions before which new tokens came in.
	changed, gaps []int
}

// diffTokens merges the sorted token lists of rings was and now. The
// tokens node renewed of now holds (-1: none) changed hands, whatever its
// ID: it has a new replica.
func diffTokens(was, now *Ring, renewed int32) *tokenDiff {
	d := &tokenDiff{from: make([]int, len(now.tokens))}
	k, j := 0, 0
	for k < len(was.tokens) || j < len(now.tokens) {
		switch {
		case j == len(now.tokens) || k < len(was.tokens) && was.tokens[k] < now.tokens[j]:
			d.changed = append(d.changed, k)
			k++
		case k == len(was.tokens) || now.tokens[j] < was.tokens[k]:
			d.gaps = append(d.gaps, k%len(was.tokens)) // past the last: before the first
			d.from[j] = -1
			j++
		default:
			d.from[j] = -1
			if now.owners[j] != renewed && sameNode(was.nodes[was.owners[k]], now.nodes[now.owners[j]]) {
				d.from[j] = k
			} else {
				d.changed = append(d.changed, k)
			}
			k++
			j++
		}
	}
	return d
}

func sameNode(a, b Node) bool {
	return a.ID == b.ID && a.Datacenter == b.Datacenter && a.Rack == b.Rack
}

// reachedRanges marks the old ranges whose walk, by w on the old ring, met
// a changed token or passed a gap where new tokens came in.
func reachedRanges(w *walker, d *tokenDiff) []bool {
	n := len(w.r.tokens)
	reach := make([]bool, n)
	spans := make([]int32, n) // tokens each range's walk met; 0 until walked
	var picked []int32
	span := func(i int) int {
		if spans[i] == 0 {
			picked = w.walk(i, picked)
			spans[i] = int32(w.met)
		}
		return int(spans[i])
	}
	// scan marks the ranges ending at and before position at whose walk
	// meets at least past more tokens after the one at at.
	scan := func(at, past int) {
		for back := range n {
			i := (at - back + n) % n
			if s := span(i); back+past >= s && s < n {
				return // and, by the law above, every range before it
			}
			reach[i] = true
		}
	}
	for _, g := range d.changed {
		scan(g, 0) // a walk that met the changed token
	}
	for _, g := range d.gaps {
		scan((g-1+n)%n, 1) // a walk that went on past the token before the gap
	}
	return reach
}
