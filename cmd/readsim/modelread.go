package main

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"time"
)

// hedgePlan is when a policy sends a read's one speculative request.
type hedgePlan struct {
	speculate bool          // the policy hedges at all
	always    bool          // ALWAYS: with the first requests
	after     time.Duration // otherwise: once the read has taken this long
}

// readResult is one simulated read.
type readResult struct {
	latency    time.Duration // until the read returned
	firstRound time.Duration // until blockFor answers with data were in
	requests   int           // data and digest requests sent
	hedges     int           // speculative requests among them
	failed     bool          // the read timed out
}

// modelRun is the state of one simulated run: its random source, its hedge
// budget and which keys are still stale. It is used by one goroutine.
type modelRun struct {
	m      *model
	rng    *rand.Rand
	budget budget
	stale  []bool // the model's, copied: repairs change it
}

func (m *model) newRun(rng *rand.Rand) *modelRun {
	return &modelRun{m: m, rng: rng, budget: budget{spec: m.budget}, stale: slices.Clone(m.stale)}
}

// read simulates one read under h, of a key drawn at random.
func (r *modelRun) read(h hedgePlan) readResult {
	m := r.m
	r.budget.deposit()
	order := m.order(r.rng)
	reqs := r.firstRequests(h, order)
	res := readResult{requests: len(reqs), hedges: len(reqs) - m.blockFor}
	done, used, ok := completion(reqs, m.blockFor)
	if ok && h.speculate && !h.always && done > h.after && m.replicas > m.blockFor && r.budget.withdraw() {
		hedge := request{at: h.after + m.draw(r.rng), replica: order[m.blockFor], data: !dataBy(reqs, h.after)}
		reqs = append(reqs, hedge)
		res.requests++
		res.hedges++
		done, used, ok = completion(reqs, m.blockFor)
	}
	res.firstRound, res.latency = done, done
	if key := r.key(); ok && r.mismatch(reqs[:used], key) {
		took, sent, hedged := r.reconcile(reqs, used, key, h, order)
		res.latency += took
		res.requests += sent
		res.hedges += hedged
	}
	if !ok || res.latency >= m.timeout {
		res.latency, res.failed = m.timeout, true
	}
	return res
}

// firstRequests sends a data request to the first replica in order and
// digest requests to the next ones up to blockFor; under ALWAYS, budget
// permitting, one more, and then two of them are data requests.
func (r *modelRun) firstRequests(h hedgePlan, order []int) []request {
	m := r.m
	extra := h.always && m.replicas > m.blockFor && r.budget.withdraw()
	reqs := make([]request, 0, m.blockFor+1)
	for i := range m.blockFor {
		reqs = append(reqs, request{at: m.draw(r.rng), replica: order[i], data: i == 0 || (i == 1 && extra)})
	}
	if extra {
		reqs = append(reqs, request{at: m.draw(r.rng), replica: order[m.blockFor], data: m.blockFor == 1})
	}
	return reqs
}

// key draws the key a read reads, when keys can differ.
func (r *modelRun) key() int {
	if r.stale == nil {
		return 0
	}
	return r.rng.IntN(len(r.stale))
}

// mismatch reports whether the answers used disagree: replica 0 holds
// key's older version and another replica answered too.
func (r *modelRun) mismatch(used []request, key int) bool {
	if r.stale == nil || !r.stale[key] || len(used) < 2 {
		return false
	}
	return slices.ContainsFunc(used, func(q request) bool { return q.replica == 0 })
}

// reconcile is what follows a digest mismatch, once the first used of
// reqs (sorted by arrival) are in: unless the data answers in hand are
// blockFor versions already (under ALWAYS), data reads from the replicas
// that answered with a digest and from those whose first requests are
// still out, until blockFor versions are in (a first-round digest's late
// answer does not count: the coordinator's reconcile round waits on its
// own requests, and on a first-round data request still out, which it
// takes over rather than send that replica another); if they are not in
// by h's threshold after the
// mismatch, one speculative data read, budget permitting, from the first
// replica in order not contacted at all; then, if replica 0's stale
// version is among them and too few others are up to date, the repair
// write that the read waits for. It marks the key repaired and returns how
// long it took, the requests it sent and how many were speculative.
func (r *modelRun) reconcile(reqs []request, used, key int, h hedgePlan, order []int) (took time.Duration, sent, hedges int) {
	m := r.m
	versions, staleIn := 0, false
	for _, q := range reqs[:used] {
		if q.data {
			versions++
			staleIn = staleIn || q.replica == 0
		}
	}
	if need := m.blockFor - versions; need > 0 {
		var reads []request // from the mismatch
		done := reqs[used-1].at
		for i, q := range reqs {
			switch {
			case i >= used && q.data: // taken over: its answer comes when it was due
				reads = append(reads, request{at: q.at - done, replica: q.replica, data: true})
			case i >= used || !q.data:
				reads = append(reads, request{at: m.draw(r.rng), replica: q.replica, data: true})
				sent++
			}
		}
		byArrival := func(a, b request) int { return cmp.Compare(a.at, b.at) }
		slices.SortStableFunc(reads, byArrival)
		if late := len(reads) < need || reads[need-1].at > h.after; late && h.speculate {
			if to, ok := uncontacted(order, reqs); ok && r.budget.withdraw() {
				reads = append(reads, request{at: h.after + m.draw(r.rng), replica: to, data: true})
				sent, hedges = sent+1, 1
				slices.SortStableFunc(reads, byArrival)
			}
		}
		took = reads[need-1].at
		staleIn = staleIn || slices.ContainsFunc(reads[:need], func(q request) bool { return q.replica == 0 })
		versions += need
	}
	if staleIn && versions-1 < m.blockFor {
		took += m.draw(r.rng)
	}
	if staleIn {
		r.stale[key] = false
	}
	return took, sent, hedges
}

// uncontacted returns the first replica in order that none of reqs went to.
func uncontacted(order []int, reqs []request) (int, bool) {
	for _, to := range order {
		if !slices.ContainsFunc(reqs, func(q request) bool { return q.replica == to }) {
			return to, true
		}
	}
	return 0, false
}

// budget is a hedge budget over one run, in millionths of a hedge like
// the coordinator's, so that its rounding is the same.
type budget struct {
	spec          budgetSpec
	reads, hedges uint64
}

func (b *budget) deposit() { b.reads++ }

// withdraw spends one hedge if the budget allows it.
func (b *budget) withdraw() bool {
	const micro = 1_000_000
	if !b.spec.unlimited {
		allowed := uint64(b.spec.percent*micro+0.5)*b.reads + uint64(b.spec.floor*micro+0.5)
		if (b.hedges+1)*micro > allowed {
			return false
		}
	}
	b.hedges++
	return true
}
