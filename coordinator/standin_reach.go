package coordinator

// standInsFallShort reports whether the stand-ins the running round could
// send for its requests refused unsent, to every candidate left for them,
// would still leave it unable to complete. Then it sends none and fails at
// once, as Cassandra answers Unavailable, sending nothing, when too few
// replicas are live: sent, they loaded healthy replicas for a read that
// failed as soon as they were out. Only a round with a refusal asks.
func (r *read) standInsFallShort() bool {
	return !r.rd.completableWith(r.standInCandidates())
}

// standInCandidates are the candidates a stand-in of the running round may
// go to: a repair round's additional writes go to the replicas without a
// version (withoutVersion), a digest-first read's data request to the
// next fastest digest replicas (hedgeTarget), the rest to the replicas
// not yet asked (speculationTarget, standInEach).
func (r *read) standInCandidates() []candidate {
	switch {
	case r.rd.phase == PhaseRepair:
		return r.withoutVersion()
	case r.rd.phase == PhaseInitial && r.fetching:
		return r.sendableWhere(func(i int) bool { return i >= r.next && i < r.answered })
	}
	return r.sendableWhere(func(i int) bool { return !r.asked(i) })
}

// completableWith reports whether stand-ins to free could complete the
// round with the answers in and the requests out: at EACH_QUORUM in every
// datacenter, which a replica of another cannot make up for; and with
// data, which the first stand-in asks for while none is in or asked for.
func (rd *round) completableWith(free []candidate) bool {
	if rd.needData && !rd.dataIn && rd.outData == 0 && len(free) == 0 {
		return false
	}
	if rd.dc == nil {
		return rd.received+rd.outstanding+len(free) >= rd.need
	}
	lack := make([]int, len(rd.dc))
	for i, d := range rd.dc {
		lack[i] = d.need - d.received - d.outstanding
	}
	for _, c := range free {
		if c.dc >= 0 {
			lack[c.dc]--
		}
	}
	for _, n := range lack {
		if n > 0 {
			return false
		}
	}
	return true
}
