package coordinator

import (
	"slices"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// PlacementLocator is a Locator that also hands out checked Placements,
// which a Coordinator's reads use instead of Locate: a locator that keeps
// its placements (a token ring keeps one per range) so spares every read
// the asking and checking of every replica. A *ring.Locator is one.
type PlacementLocator interface {
	Locator
	// LocatePlacement returns the placement of (table, key): the replicas
	// and replication Locate would return, checked once. It must be safe
	// for concurrent use. A nil placement without an error fails the read
	// with ErrBadPlacement.
	LocatePlacement(table, key string) (*Placement, error)
}

// Placement is a partition's natural replicas, in the locator's order,
// with their endpoints and the replication of its table, checked as a read
// checks a Locator's answer. A read of a Placement neither asks its
// replicas for their endpoints (which must not change) nor checks them
// again, and a DC-local read looks at the local datacenter's replicas
// alone: at LOCAL_ONE over eight datacenters of nine replicas, a Locator's
// answer had all 72 asked and checked for the one request sent. A
// Placement is immutable and safe for concurrent use; make one with
// NewPlacement.
type Placement struct {
	reps []replica.Replica
	eps  []replica.Endpoint
	repl consistency.Replication
	dcs  []placedDC // each datacenter's replicas, in the order of their first
}

// placedDC is one datacenter's replicas of a Placement, in its order.
type placedDC struct {
	name string
	reps []replica.Replica
	eps  []replica.Endpoint
}

// NewPlacement checks reps and repl as a read checks a Locator's answer,
// asking each replica for its endpoint once, and returns them as a
// Placement that keeps a copy of reps. It fails with an error wrapping
// ErrBadPlacement for what a read would refuse: no replicas, a nil one, an
// ID listed twice, more replicas than the total factor, a replica whose
// Endpoint panics, or an invalid replication. More replicas in a
// datacenter than its factor there are refused by reads whose coordinator
// is there, as with a Locator.
func NewPlacement(reps []replica.Replica, repl consistency.Replication) (*Placement, error) {
	eps, err := endpoints(reps, make([]replica.Endpoint, 0, len(reps)))
	if err == nil {
		err = checkPlacement(reps, eps, repl, "", &dupTables{})
	}
	if err != nil {
		return nil, err
	}
	p := &Placement{reps: slices.Clone(reps), eps: eps, repl: repl}
	p.dcs = groupByDatacenter(p.reps, p.eps)
	return p, nil
}

// groupByDatacenter splits a placement by datacenter. A placement in one
// datacenter shares its arrays; others get one array each for all groups.
func groupByDatacenter(reps []replica.Replica, eps []replica.Endpoint) []placedDC {
	var names []string
	for i := range eps {
		if !slices.Contains(names, eps[i].Datacenter) {
			names = append(names, eps[i].Datacenter)
		}
	}
	if len(names) == 1 {
		return []placedDC{{name: names[0], reps: reps, eps: eps}}
	}
	dcs := make([]placedDC, len(names))
	byReps := make([]replica.Replica, 0, len(reps))
	byEps := make([]replica.Endpoint, 0, len(eps))
	for d, name := range names {
		from := len(byReps)
		for i := range eps {
			if eps[i].Datacenter == name {
				byReps, byEps = append(byReps, reps[i]), append(byEps, eps[i])
			}
		}
		to := len(byReps)
		dcs[d] = placedDC{name: name, reps: byReps[from:to:to], eps: byEps[from:to:to]}
	}
	return dcs
}

// Replicas returns a copy of the placement's replicas, in its order.
func (p *Placement) Replicas() []replica.Replica { return slices.Clone(p.reps) }

// Replication returns the replication of the placement's table.
func (p *Placement) Replication() consistency.Replication { return p.repl }

// in returns the replicas of datacenter dc and their endpoints, none if it
// holds none.
func (p *Placement) in(dc string) ([]replica.Replica, []replica.Endpoint) {
	for i := range p.dcs {
		if p.dcs[i].name == dc {
			return p.dcs[i].reps, p.dcs[i].eps
		}
	}
	return nil, nil
}

// forRead returns the replicas a read at level may plan over, and their
// endpoints: the local datacenter's at a DC-local level, else all. It
// checks what NewPlacement could not, the replicas in the local datacenter
// against its factor, as checkPlacement does for a Locator's answer.
func (p *Placement) forRead(level consistency.Level, localDC string) ([]replica.Replica, []replica.Endpoint, error) {
	reps, eps := p.in(localDC)
	if localDC != "" && len(reps) > p.repl.Factor(localDC) {
		return nil, nil, tooManyLocal(len(reps), localDC, p.repl)
	}
	if level.IsDatacenterLocal() {
		return reps, eps, nil
	}
	return p.reps, p.eps, nil
}
