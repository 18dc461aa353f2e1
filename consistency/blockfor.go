package consistency

// quorum is a strict majority of rf replicas.
func quorum(rf int) int { return rf/2 + 1 }

// BlockFor returns how many replicas must answer for an operation at level l
// to succeed, with Cassandra's formulas: QUORUM and SERIAL are a majority of
// the total replication factor; LOCAL_QUORUM and LOCAL_SERIAL a majority of
// localDC's (1 for a datacenter with no replicas, and QUORUM under Simple);
// EACH_QUORUM the sum of the majorities of every datacenter holding replicas
// (QUORUM under Simple);
// ALL the total; ANY, ONE and LOCAL_ONE 1; TWO 2; THREE 3.
//
// BlockFor does not check that the replication can satisfy the level; that is
// AssureSufficientLive's job. It returns 0 for an undefined level.
func (l Level) BlockFor(r Replication, localDC string) int {
	switch l {
	case Any, One, LocalOne:
		return 1
	case Two:
		return 2
	case Three:
		return 3
	case Quorum, Serial:
		return quorum(r.Total())
	case All:
		return r.Total()
	case LocalQuorum, LocalSerial:
		return quorum(r.Factor(localDC))
	case EachQuorum:
		return eachQuorumTotal(r)
	}
	return 0
}

func eachQuorumTotal(r Replication) int {
	if r.IsSimple() {
		return quorum(r.Total())
	}
	n := 0
	for _, d := range r.dcs {
		if d.Factor > 0 {
			n += quorum(d.Factor)
		}
	}
	return n
}

// EachQuorumFor returns EACH_QUORUM's requirement per datacenter: a majority
// of each datacenter's replicas. A datacenter with a factor of 0 holds no data
// and is left out, as Cassandra 4 drops it from the keyspace. Under Simple it
// returns nil: EACH_QUORUM is then QUORUM.
func EachQuorumFor(r Replication) map[string]int {
	if r.IsSimple() {
		return nil
	}
	m := make(map[string]int, len(r.dcs))
	for _, d := range r.dcs {
		if d.Factor > 0 {
			m[d.Datacenter] = quorum(d.Factor)
		}
	}
	return m
}
