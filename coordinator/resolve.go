package coordinator

import (
	"errors"
	"fmt"
	"sync"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// resolve compares the digests of every answer in hand. If they agree the
// data answer is the result; if not, the replicas are reconciled. Data
// answers are digested here, and only when there is something to compare
// them with: a read at ONE digests nothing.
func (r *read) resolve() (replica.Partition, error) {
	data := r.firstData()
	if data == nil {
		return replica.Partition{}, errNoData
	}
	if len(r.answers) == 1 {
		return data.part, nil
	}
	for _, a := range r.answers {
		if !a.cmd.DigestOnly && !a.digestData {
			a.digest, _ = a.part.DigestAt(a.cmd.DigestVersion) // the version the plan chose: known
		}
	}
	for _, a := range r.answers {
		if a.digest != data.digest {
			return r.reconcile()
		}
	}
	return data.part, nil
}

func (r *read) firstData() *call {
	for _, a := range r.answers {
		if !a.cmd.DigestOnly {
			return a
		}
	}
	return nil
}

// errNoData would mean a bug: gather ends a round only with data in hand.
var errNoData = errors.New("coordinator: internal error: round ended without data")

// version is one replica's data.
type version struct {
	cand candidate
	part replica.Partition
}

// reconcile runs after a digest mismatch: a round of full data reads
// from every replica that answered with a digest or is still due to
// answer (see askStragglers), unless the versions already in hand (two
// data answers under ALWAYS) meet the level, until blockFor versions
// are in hand (per datacenter at EACH_QUORUM), then the merge by timestamp
// and the read repair. If the versions are not in by the table's threshold,
// counted from the mismatch, one data request goes to the closest replica
// not contacted at all (see reconcileMaySpeculate).
func (r *read) reconcile() (replica.Partition, error) {
	r.trace.DigestMismatch = true
	r.t.m.mismatches.Add(1)
	first, have, asked := len(r.answers), r.versions(), len(r.calls)
	r.newRound(PhaseReconcile, first+1+r.pendingOf(asked), true, r.reconcileMaySpeculate())
	for i := range have {
		r.rd.credit(&have[i].cand, true)
	}
	if !r.rd.done() { // else the versions in hand suffice: a request would not be waited for
		if r.outOfTime(r.now()) { // a hook the first round waited on took the read's time
			return replica.Partition{}, r.interrupted()
		}
		r.askForVersions(first, asked, have)
	}
	// have is spent: versions overwrites it.
	r.armSpeculation(r.now(), r.threshold)
	if err := r.gather(); err != nil {
		return replica.Partition{}, err
	}
	for _, a := range r.answers[first:] {
		r.trace.Requests[a.idx].Used = true // every version is merged
		if a.idx < r.rd.first {
			r.usedAdopted(a.idx)
		}
	}
	r.trace.ReconcileHedge.Won = r.speculationAnswered(PhaseReconcile)
	vs := r.versions()
	if r.q.Limit == 0 && r.opts.ReadRepair != repair.None {
		return r.resolveVersions(vs)
	}
	merged, protected, err := r.protectShortReads(vs)
	if err != nil {
		return replica.Partition{}, err
	}
	if !protected {
		if merged, err = r.mergeVersions(vs); err != nil {
			return replica.Partition{}, err
		}
	}
	// A limited query returns, and repairs, what its limit reaches and
	// no more: past it, some replicas' answers did not go.
	merged, _ = merged.Limit(r.q, r.nowInSec)
	return merged, r.readRepair(merged, vs)
}

// askForVersions asks for data every replica among the read's first
// answers that gave a digest, and the stragglers among its first asked
// requests (see askStragglers), unless it is still working on a data
// request of the read (see askData).
func (r *read) askForVersions(first, asked int, have []version) {
	for _, a := range r.answers[:first] {
		if a.cmd.DigestOnly && !containsVersion(have, a.cand.ep.ID) {
			r.askData(a.cand, asked)
		}
	}
	r.askStragglers(asked, have)
}

// askData asks cand's replica for data in the running round, which waits
// instead for the answer to a data request of the read's first asked
// requests still pending there, when it can take that answer over (see
// call.adoptInto): a replica gets one data request of a read at a time.
// Under ALWAYS the first round asks two replicas for data and completes
// on one of them, and a reconcile round that sent the other one another
// had it read the partition twice at once.
func (r *read) askData(cand candidate, asked int) {
	for i, k := range r.calls[:asked] {
		rt := &r.trace.Requests[i]
		if k.cand.ep.ID == cand.ep.ID && rt.Kind == KindData && rt.Outcome == Pending && k.adoptInto(r.rd.ch) {
			r.rd.sent(&k.cand, true)
			r.rd.adopted++
			return
		}
	}
	r.send(cand, KindData, false, r.now())
}

// usedAdopted books the use of the answer to request idx, of the first
// round, which the reconcile round adopted (see askData): the hedge, if it
// is, won after all, as its answer is in the result (bookHedges counts it
// when the read ends).
func (r *read) usedAdopted(idx int) {
	if r.trace.Hedge.Fired && idx == r.hedgeIdx {
		r.trace.Hedge.Won = true
	}
}

// pendingOf counts the read's first n requests still pending.
func (r *read) pendingOf(n int) int {
	p := 0
	for _, rt := range r.trace.Requests[:n] {
		if rt.Outcome == Pending {
			p++
		}
	}
	return p
}

// askStragglers asks for data every replica with one of the read's first
// n requests still pending and no version in have, not asked yet in this
// round: as Cassandra's startRepair asks every contact, a replica whose
// digest is late may answer in time to make up the level where the one
// that mismatched stalls (read_repair_test.py's
// test_quorum_requirement_on_speculated_read).
func (r *read) askStragglers(n int, have []version) {
	for i, k := range r.calls[:n] {
		if r.trace.Requests[i].Outcome == Pending && !containsVersion(have, k.cand.ep.ID) && !r.askedInRound(k.cand.ep.ID) {
			r.askData(k.cand, n)
		}
	}
}

// askedInRound reports whether the running round sent a request to id,
// or adopted one of an earlier round (see askData).
func (r *read) askedInRound(id string) bool {
	for _, k := range r.calls[r.rd.first:] {
		if k.cand.ep.ID == id {
			return true
		}
	}
	if r.rd.adopted > 0 {
		for _, k := range r.calls[:r.rd.first] {
			if k.cand.ep.ID == id && k.state.Load()&callMoved != 0 {
				return true
			}
		}
	}
	return false
}

// versions returns the data answers in hand, one per replica, in the
// read's kept buffer: a call overwrites what the one before returned.
func (r *read) versions() []version {
	vs := r.vs.take()
	for _, a := range r.answers {
		if !a.cmd.DigestOnly && !containsVersion(vs, a.cand.ep.ID) {
			vs = append(vs, version{a.cand, a.part})
		}
	}
	return r.vs.keep(vs)
}

// versionBuf is a read's room for its versions and their partitions,
// kept from read to read: a mismatch made them three times, the versions
// growing twice (four allocations, 1.5 KB, for two versions).
type versionBuf struct {
	vs    []version
	parts []replica.Partition
	used  int // how many of vs, and of parts, the read may have filled
}

func (b *versionBuf) take() []version { return b.vs[:0] }

func (b *versionBuf) keep(vs []version) []version {
	b.vs, b.used = vs, max(b.used, len(vs))
	return vs
}

// partsOf returns the partitions of vs, which the buffer holds.
func (b *versionBuf) partsOf(vs []version) []replica.Partition {
	b.parts = b.parts[:0]
	for _, v := range vs {
		b.parts = append(b.parts, v.part)
	}
	return b.parts
}

// clear drops the answers and replicas the buffer refers to, keeping its
// arrays.
func (b *versionBuf) clear() {
	clear(b.vs[:b.used])
	clear(b.parts[:min(b.used, cap(b.parts))])
	b.vs, b.parts, b.used = b.vs[:0], b.parts[:0], 0
}

func containsVersion(vs []version, id string) bool {
	for _, v := range vs {
		if v.cand.ep.ID == id {
			return true
		}
	}
	return false
}

// resolveVersions merges the versions and repairs them from the diffs
// worked out in the same pass: a read without a limit repairs all it read.
// (With a limit, the merge is cut at the limit first, and the cut decides
// what is repaired: those reads diff against the cut merge.) Every version
// is a data answer its worker validated (checkData), so the merge does
// not check their rows again; and the merge keeps the answers' value bytes,
// as a read whose replicas agree returns the data answer itself. The diffs
// share no memory with the merge, so a caller that changes its result
// changes no repair still on its way. The merge is built in recycled
// blocks, which the read's Result hands back on Release.
func (r *read) resolveVersions(vs []version) (replica.Partition, error) {
	parts := r.vs.partsOf(vs)
	res := resolvers.Get().(*repair.Resolver)
	var diffs []replica.Partition
	defer func() { // after the repairs, which may panic: the list of diffs is res's
		clear(diffs) // a pooled Resolver must not keep them alive
		resolvers.Put(res)
	}()
	rooms := r.takeRooms(len(parts))
	merged, diffs, err := res.ResolveValidInRooms(r.takeBlocks(parts), rooms, parts...)
	if err != nil {
		return replica.Partition{}, fmt.Errorf("coordinator: merging replica versions: %w", err)
	}
	r.stale = nil // set again if this repair blocks (see returnRooms)
	err = r.sendRepairs(vs, diffs)
	if rooms != nil {
		r.returnRooms(rooms, diffs)
	}
	return merged, err
}

// resolvers recycles the Resolvers that reconcile reads, so that their
// scratch space serves read after read. A read state would keep one, but
// read states are cleared when recycled.
var resolvers = sync.Pool{New: func() any { return new(repair.Resolver) }}
