package retry

import "github.com/readpath/readpath/consistency"

// levelSet is a set of consistency levels, one bit per protocol code.
type levelSet uint16

func bit(l consistency.Level) levelSet { return 1 << l }

// atMost returns the levels that never need more replicas than l, l
// included, under any replication where both can be met at all. Levels whose
// needs depend on the replication in opposite ways (QUORUM needs 2 of 3
// replicas, THREE needs 3; QUORUM needs 4 of 7) are left out of each
// other's sets: neither is a downgrade of the other.
func atMost(l consistency.Level) levelSet {
	const (
		ones   = 1<<consistency.One | 1<<consistency.LocalOne
		two    = ones | 1<<consistency.Two
		quorum = two | 1<<consistency.LocalQuorum | 1<<consistency.Quorum
		each   = quorum | 1<<consistency.EachQuorum
		all    = each | 1<<consistency.Three | 1<<consistency.All
	)
	switch l {
	case consistency.One, consistency.LocalOne:
		return ones
	case consistency.Two:
		return two
	case consistency.Three:
		return two | bit(consistency.Three)
	case consistency.LocalQuorum:
		return ones | bit(consistency.LocalQuorum)
	case consistency.Quorum:
		return quorum
	case consistency.EachQuorum:
		return each
	case consistency.All:
		return all
	}
	if !l.Valid() {
		return 0
	}
	return bit(l) // ANY, SERIAL and LOCAL_SERIAL compare with nothing else
}

// weakerOrEqual reports whether b never needs more replicas than a.
func weakerOrEqual(b, a consistency.Level) bool {
	return b.Valid() && atMost(a)&bit(b) != 0
}

// strictlyWeaker reports whether b is a true downgrade of a: weaker or
// equal, and not equivalent (as ONE and LOCAL_ONE are).
func strictlyWeaker(b, a consistency.Level) bool {
	return weakerOrEqual(b, a) && !weakerOrEqual(a, b)
}
