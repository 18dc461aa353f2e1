package coordinator

import (
	"slices"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// PlacementLocator is a Locator that also hands out checked Placements,
// which a Coordinator's reads use instead of Locate: a locator that keeps
// its placements (a token ring keeps one per range) so spares every read
// the check of its replicas, and a DC-local read the asking of the other
// datacenters' replicas for their endpoints. A *ring.Locator is one. Like
// a Locator, it must be safe for concurrent use.
type PlacementLocator interface {
	Locator
	// LocatePlacement returns the placement of (table, key): the replicas
	// and replication Locate would return, checked once. It must be safe
	// for concurrent use. A nil placement without an error, or one not
	// made by NewPlacement (the zero Placement), fails the read with
	// ErrBadPlacement.
	LocatePlacement(table, key string) (*Placement, error)
}

// Placement is a partition's natural replicas, in the locator's order,
// and the replication of its table, checked as a read checks a Locator's
// answer, with where each datacenter's replicas are. A read of a Placement
// does not check it again, and a DC-local read looks at the local
// datacenter's replicas alone: at LOCAL_ONE over eight datacenters of nine
// replicas, a Locator's answer had all 72 asked for their endpoints and
// checked for the one request sent. A Placement is immutable and safe for
// concurrent use; make one with NewPlacement.
type Placement struct {
	reps []replica.Replica
	repl consistency.Replication
	// at holds the replicas' positions grouped by datacenter, each group
	// in the placement's order, and dcs where each group is. A token ring
	// keeps a placement per range, so positions (4 bytes a replica), not
	// copies, and no endpoints: kept, they took three times the memory of
	// the rest, and asking the replicas a read plans over for theirs costs
	// it little.
	at  []int32
	dcs []placedDC
}

// placedDC is where one datacenter's replicas are in Placement.at.
type placedDC struct {
	name     string
	from, to int32
}

// NewPlacement checks reps and repl as a read checks a Locator's answer,
// asking each replica for its endpoint once, and returns them as a
// Placement that keeps a copy of reps. It fails with an error wrapping
// ErrBadPlacement for what a read would refuse: no replicas, a nil one, an
// empty ID or one listed twice, more replicas than the total factor, a
// replica whose Endpoint panics, or an invalid replication. More replicas
// in a datacenter than its factor there are refused by reads whose
// coordinator is there, and by every read at a level that is not
// DC-local, as with a Locator.
func NewPlacement(reps []replica.Replica, repl consistency.Replication) (*Placement, error) {
	eps, err := endpoints(reps, make([]replica.Endpoint, 0, len(reps)), nil)
	if err == nil {
		err = checkPlacement(reps, eps, repl, "", false, &dupTables{})
	}
	if err != nil {
		return nil, err
	}
	p := &Placement{reps: slices.Clone(reps), repl: repl, at: make([]int32, 0, len(eps))}
	for i := range eps {
		name := eps[i].Datacenter
		if slices.ContainsFunc(p.dcs, func(d placedDC) bool { return d.name == name }) {
			continue
		}
		from := int32(len(p.at))
		for j := i; j < len(eps); j++ {
			if eps[j].Datacenter == name {
				p.at = append(p.at, int32(j))
			}
		}
		p.dcs = append(p.dcs, placedDC{name, from, int32(len(p.at))})
	}
	return p, nil
}

// Replicas returns a copy of the placement's replicas, in its order.
func (p *Placement) Replicas() []replica.Replica { return slices.Clone(p.reps) }

// Replication returns the replication of the placement's table.
func (p *Placement) Replication() consistency.Replication { return p.repl }

// in returns the positions of datacenter dc's replicas, none if it holds
// none.
func (p *Placement) in(dc string) []int32 {
	for _, d := range p.dcs {
		if d.name == dc {
			return p.at[d.from:d.to]
		}
	}
	return nil
}

// forRead returns the positions of the replicas a read at level plans
// over, the local datacenter's at a DC-local level, or nil for all of them
// (and for a DC-local read of a placement with no local replica, which
// fails explaining where its replicas are). It checks what NewPlacement
// could not, the replicas in the local datacenter against its factor, as
// checkPlacement does for a Locator's answer, and at a level that is not
// DC-local those of every datacenter, as the read of a Locator's answer
// does (see overListed).
func (p *Placement) forRead(level consistency.Level, localDC string) (only []int32, err error) {
	local := p.in(localDC)
	if len(local) > p.repl.Factor(localDC) {
		return nil, tooManyLocal(len(local), localDC, p.repl)
	}
	if level.IsDatacenterLocal() {
		return local, nil
	}
	for _, d := range p.dcs {
		if n := int(d.to - d.from); !p.repl.IsSimple() && n > p.repl.Factor(d.name) {
			return nil, tooMany(n, d.name, p.repl, level)
		}
	}
	return nil, nil
}
