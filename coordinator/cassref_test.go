package coordinator_test

import (
	"sort"

	"github.com/readpath/readpath/consistency"
)

// A deliberately naive model of Cassandra 4.1's read planning, written
// from src/java/org/apache/cassandra/db/ConsistencyLevel.java (blockFor,
// localQuorumFor, assureSufficientLiveReplicas) and
// src/java/org/apache/cassandra/locator/ReplicaPlans.java (candidatesForRead,
// contactForRead, contactForEachQuorumRead), for the multi-datacenter
// sweeps to check the coordinator against. It knows nothing of readpath.

// cassRF is a NetworkTopologyStrategy's factors by datacenter.
type cassRF map[string]int

func cassQuorum(rf int) int { return rf/2 + 1 }

func (rf cassRF) total() int {
	n := 0
	for _, f := range rf {
		n += f
	}
	return n
}

// dcs lists the datacenters holding replicas, sorted.
func (rf cassRF) dcs() []string {
	var out []string
	for dc, f := range rf {
		if f > 0 {
			out = append(out, dc)
		}
	}
	sort.Strings(out)
	return out
}

// cassBlockFor is ConsistencyLevel.blockFor under NetworkTopologyStrategy.
func cassBlockFor(l consistency.Level, rf cassRF, localDC string) int {
	switch l {
	case consistency.One, consistency.LocalOne:
		return 1
	case consistency.Two:
		return 2
	case consistency.Three:
		return 3
	case consistency.Quorum:
		return cassQuorum(rf.total())
	case consistency.All:
		return rf.total()
	case consistency.LocalQuorum:
		return cassQuorum(rf[localDC])
	case consistency.EachQuorum:
		n := 0
		for _, dc := range rf.dcs() {
			n += cassQuorum(rf[dc])
		}
		return n
	}
	panic("level outside the sweep")
}

// cassUnavailable is assureSufficientLiveReplicas over the live replicas
// per datacenter (already filtered to the local one for DC-local levels,
// as candidatesForRead does): nil, or the numbers of its
// UnavailableException and the datacenter EACH_QUORUM names.
func cassUnavailable(l consistency.Level, rf cassRF, localDC string, live map[string]int) *consistency.UnavailableError {
	blockFor := cassBlockFor(l, rf, localDC)
	switch l {
	case consistency.LocalOne, consistency.LocalQuorum:
		if live[localDC] < blockFor {
			return &consistency.UnavailableError{Level: l, Required: blockFor, Alive: live[localDC], Datacenter: localDC}
		}
		return nil
	case consistency.EachQuorum:
		for _, dc := range rf.dcs() {
			if q := cassQuorum(rf[dc]); live[dc] < q {
				return &consistency.UnavailableError{Level: l, Required: q, Alive: live[dc], Datacenter: dc}
			}
		}
		return nil
	}
	n := 0
	for _, c := range live {
		n += c
	}
	if n < blockFor {
		return &consistency.UnavailableError{Level: l, Required: blockFor, Alive: n}
	}
	return nil
}

// cassContacts is how many replicas of each datacenter the first round
// contacts (contactForRead over candidates sorted local datacenter
// first, as every proximity snitch sorts them): a quorum of each at
// EACH_QUORUM, else the first blockFor (+1 under ALWAYS, never at
// EACH_QUORUM) of the candidates. Only the local datacenter's count and
// the total are determined by the rule; remote is the rest.
func cassContacts(l consistency.Level, rf cassRF, localDC string, live map[string]int, always bool) (local, total int, perDC map[string]int) {
	if l == consistency.EachQuorum {
		perDC = map[string]int{}
		for _, dc := range rf.dcs() {
			perDC[dc] = min(cassQuorum(rf[dc]), live[dc])
			total += perDC[dc]
		}
		return perDC[localDC], total, perDC
	}
	candidates := 0
	for dc, n := range live {
		if l.IsDatacenterLocal() && dc != localDC {
			continue
		}
		candidates += n
	}
	count := cassBlockFor(l, rf, localDC)
	if always {
		count++
	}
	total = min(count, candidates)
	return min(total, live[localDC]), total, nil
}
