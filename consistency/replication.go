package consistency

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ErrInvalidReplication is returned, wrapped, by Replication.Validate.
var ErrInvalidReplication = errors.New("consistency: invalid replication")

// DatacenterFactor is the number of replicas one datacenter holds. It is
// a plain value, safe for concurrent use.
type DatacenterFactor struct {
	Datacenter string
	Factor     int
}

// Replication says how many replicas hold each piece of data: either one
// replication factor for the whole cluster (Simple) or one per datacenter
// (NetworkTopology). It is an immutable value, safe for concurrent use.
//
// The zero Replication has no replicas and does not validate.
type Replication struct {
	simple int
	dcs    []DatacenterFactor // sorted by name; nil for Simple
	total  int
	err    error // why the constructor's input was invalid
}

// Simple returns a replication of rf replicas with no datacenters, like
// Cassandra's SimpleStrategy. Check an untrusted rf with Validate.
func Simple(rf int) Replication {
	r := Replication{simple: rf, total: rf}
	if rf <= 0 {
		r.err = fmt.Errorf("%w: replication factor %d, must be at least 1", ErrInvalidReplication, rf)
	}
	return r
}

// NetworkTopology returns a replication with rf[dc] replicas in each
// datacenter, like Cassandra's NetworkTopologyStrategy. The map is copied.
// A datacenter may hold zero replicas, but not all of them, and no factor may
// be negative or have an empty name; check untrusted input with Validate.
func NetworkTopology(rf map[string]int) Replication {
	r := Replication{dcs: make([]DatacenterFactor, 0, len(rf))}
	overflow := false
	for dc, n := range rf {
		r.dcs = append(r.dcs, DatacenterFactor{dc, n})
		overflow = overflow || n > 0 && r.total > math.MaxInt-n
		r.total += n
	}
	sort.Slice(r.dcs, func(i, j int) bool { return r.dcs[i].Datacenter < r.dcs[j].Datacenter })
	r.err = r.check(overflow)
	return r
}

func (r Replication) check(overflow bool) error {
	for _, d := range r.dcs {
		if d.Datacenter == "" {
			return fmt.Errorf("%w: empty datacenter name", ErrInvalidReplication)
		}
		if d.Factor < 0 {
			return fmt.Errorf("%w: datacenter %q has replication factor %d", ErrInvalidReplication, d.Datacenter, d.Factor)
		}
	}
	if overflow {
		return fmt.Errorf("%w: replication factors sum past %d", ErrInvalidReplication, math.MaxInt)
	}
	if r.total <= 0 {
		return fmt.Errorf("%w: no datacenter holds a replica", ErrInvalidReplication)
	}
	return nil
}

// Validate returns an error wrapping ErrInvalidReplication if the factors the
// replication was built from are invalid, or if it is the zero Replication.
func (r Replication) Validate() error {
	if r.err == nil && r.total <= 0 {
		return fmt.Errorf("%w: no replicas", ErrInvalidReplication)
	}
	return r.err
}

// IsSimple reports whether the replication has no datacenters.
func (r Replication) IsSimple() bool { return r.dcs == nil }

// Total returns the replication factor summed over all datacenters.
func (r Replication) Total() int { return r.total }

// Factor returns the number of replicas in datacenter dc: 0 for a datacenter
// the replication does not name. Under Simple it returns the total for any dc.
func (r Replication) Factor(dc string) int {
	if r.IsSimple() {
		return r.simple
	}
	for _, d := range r.dcs {
		if d.Datacenter == dc {
			return d.Factor
		}
	}
	return 0
}

// Datacenters returns the per-datacenter factors sorted by name, or nil under
// Simple. The slice is a copy.
func (r Replication) Datacenters() []DatacenterFactor {
	if r.IsSimple() {
		return nil
	}
	return append([]DatacenterFactor(nil), r.dcs...)
}

// String renders the replication as "Simple(3)" or "NetworkTopology(dc1:3, dc2:2)".
func (r Replication) String() string {
	if r.IsSimple() {
		return "Simple(" + strconv.Itoa(r.simple) + ")"
	}
	parts := make([]string, len(r.dcs))
	for i, d := range r.dcs {
		parts[i] = d.Datacenter + ":" + strconv.Itoa(d.Factor)
	}
	return "NetworkTopology(" + strings.Join(parts, ", ") + ")"
}
