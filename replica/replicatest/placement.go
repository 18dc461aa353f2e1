package replicatest

import (
	"slices"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// picker chooses a key's replicas among the nodes a ring walk offers, in
// the order offered. Under a simple replication it takes the first RF
// distinct nodes. Under NetworkTopology it does per datacenter what
// Cassandra's NetworkTopologyStrategy does: the first node of each rack not
// yet used, and a node of an already used rack only while there are more
// replicas to place than racks left to use.
type picker struct {
	nodes  []*Replica
	dcs    map[string]*dcPick // nil under a simple replication
	taken  []int              // the nodes chosen, a handful: searched in order
	chosen []*Replica
	left   int // replicas still to place
}

// dcPick is a datacenter's progress during a walk.
type dcPick struct {
	left    int             // replicas still to place here
	repeats int             // nodes that may still share a used rack
	racks   map[string]bool // racks used
}

// newPicker starts a walk over nodes under rep; racks is rackCounts'.
func newPicker(nodes []*Replica, rep consistency.Replication, racks map[string]int) *picker {
	p := &picker{nodes: nodes, left: rep.Total()}
	if rep.IsSimple() {
		return p
	}
	p.dcs = map[string]*dcPick{}
	for _, d := range rep.Datacenters() {
		p.dcs[d.Datacenter] = &dcPick{left: d.Factor, repeats: d.Factor - racks[d.Datacenter], racks: map[string]bool{}}
	}
	return p
}

// rackCounts returns how many racks each datacenter of nodes has: counted
// once per ring, not once per walk (a walk per token made that
// quadratic in the nodes).
func rackCounts(nodes []*Replica) map[string]int {
	seen := map[replica.Endpoint]bool{}
	counts := map[string]int{}
	for _, n := range nodes {
		at := replica.Endpoint{Datacenter: n.ep.Datacenter, Rack: n.ep.Rack}
		if !seen[at] {
			seen[at] = true
			counts[at.Datacenter]++
		}
	}
	return counts
}

func (p *picker) done() bool { return p.left == 0 }

// offer considers node i, the next one on the walk.
func (p *picker) offer(i int) {
	if slices.Contains(p.taken, i) || !p.wants(p.nodes[i]) {
		return
	}
	p.taken = append(p.taken, i)
	p.chosen = append(p.chosen, p.nodes[i])
	p.left--
}

// wants reports whether n is to be a replica, and books it if so.
func (p *picker) wants(n *Replica) bool {
	if p.dcs == nil {
		return true
	}
	dc := p.dcs[n.ep.Datacenter]
	if dc == nil || dc.left == 0 {
		return false
	}
	switch {
	case !dc.racks[n.ep.Rack]:
		dc.racks[n.ep.Rack] = true
	case dc.repeats > 0:
		dc.repeats--
	default:
		return false
	}
	dc.left--
	return true
}
