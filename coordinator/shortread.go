package coordinator

import (
	"fmt"
	"slices"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// protectShortReads is Cassandra's short-read protection (ShortReadRows-
// Protection; CASSANDRA-12872, -13794, -13911, -14330). A replica that
// answered a limited query stopped at its limit-th live row; after the
// merge some of those rows may be dead (another replica deleted them), so
// the merge may hold fewer live rows than the limit while that replica
// holds more. So, while the merged rows up to where such a replica's
// answer ends are fewer than the limit, that same replica — never another:
// another replica's rows are not its continuation — is asked for the rows
// after its last, with the query's own limit again (CASSANDRA-13794), until
// it answers short or the limit is met. It runs only when more than one
// data answer is merged, never for a table without clustering columns
// (CASSANDRA-13880), and within the read's deadline, without speculation.
// The rows fetched join their replica's version, and so the repair.
//
// Each round costs what it fetched, not what came before (see shortReads):
// a replica that missed a partition deletion over N rows is asked N/limit
// times, and re-merging everything each round made that quadratic.
//
// It returns the merge of the versions as it leaves them, which it keeps
// as it goes (merging them again afterwards was a tenth of a read of 400
// rounds), or false when it does not run.
func (r *read) protectShortReads(vs []version) (replica.Partition, bool, error) {
	if r.q.Limit <= 0 || len(vs) < 2 || r.opts.NoClusteringColumns {
		return replica.Partition{}, false, nil
	}
	s, err := r.newShortReads(vs)
	if err != nil {
		return replica.Partition{}, false, err
	}
	for {
		asks := r.shortReplicas(vs, s)
		if len(asks) == 0 {
			return s.merged, true, nil
		}
		if err := r.fetchMore(vs, s, asks); err != nil {
			return replica.Partition{}, false, err
		}
	}
}

// shortReplicas returns, in version order, the versions to ask for more:
// those whose last answer reached the limit, where the merge holds fewer
// live rows than the limit up to the end of that answer. The count grows
// with the end, so they are the first candidates in q's order; the count
// at the first of them is where the next round's count starts. The list is
// s's, which the next round's call overwrites.
func (r *read) shortReplicas(vs []version, s *shortReads) []int {
	cands := s.candidates(vs)
	asks := s.asks[:0]
	t := s.mark
	for k, i := range cands {
		// The static row never counts: rows may follow a candidate's end,
		// and Cassandra counts a partition of static data alone only as it
		// closes (DataLimits.CQLCounter.onPartitionClose).
		if t = s.countThrough(t, s.ends[i]); t.n >= r.q.Limit {
			break
		}
		if k == 0 {
			s.mark = t
		}
		asks = append(asks, i)
	}
	slices.Sort(asks) // sent in version order, as ever
	s.asks = asks
	return asks
}

// fetchMore asks the versions asks for the rows after their last, in one
// round, and folds the answers into them and into the running merge.
func (r *read) fetchMore(vs []version, s *shortReads, asks []int) error {
	r.newRound(PhaseShortRead, len(asks), true, false)
	// Every version merged must be complete; those not asked for more
	// are, so a failure's or a timeout's Received counts them with the
	// continuations that came in, as the reconcile round counts the
	// versions in hand.
	r.rd.needEvery(len(vs))
	for i := range vs {
		if !slices.Contains(asks, i) {
			r.rd.credit(&vs[i].cand, true)
		}
	}
	first := len(r.answers)
	if r.outOfTime(r.now()) { // a hook the rounds before waited on took the read's time
		return r.interrupted()
	}
	for _, i := range asks {
		r.sendQuery(vs[i].cand, r.q.After(s.ends[i]), KindData, false, r.now())
		r.t.m.shortReads.Add(1)
	}
	r.armDeadline()
	if err := r.gather(); err != nil {
		return err
	}
	for _, a := range r.answers[first:] {
		r.trace.Requests[a.idx].Used = true
		i := versionOf(vs, a.cand.ep.ID)
		if err := s.add(vs, i, a.part); err != nil {
			return err
		}
		s.noteAnswer(i, a.part, a.cmd.Query)
	}
	return nil
}

func versionOf(vs []version, id string) int {
	for i := range vs {
		if vs[i].cand.ep.ID == id {
			return i
		}
	}
	return -1
}

// mergeVersions merges the versions' partitions, in recycled blocks that
// the read's Result hands back on Release, as resolveVersions does (a
// read merges its versions once; a second merge would get new memory).
func (r *read) mergeVersions(vs []version) (replica.Partition, error) {
	parts := r.vs.partsOf(vs)
	res := resolvers.Get().(*repair.Resolver)
	merged, err := res.MergeValidIn(r.takeBlocks(parts), parts...)
	resolvers.Put(res)
	if err != nil {
		return replica.Partition{}, fmt.Errorf("coordinator: merging replica versions: %w", err)
	}
	return merged, nil
}
