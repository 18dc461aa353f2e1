package coordinator

import (
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// staleReplica is a replica and exactly what it lacks.
type staleReplica struct {
	cand candidate
	diff replica.Partition
}

// readRepair repairs the versions of a limited read from their diffs
// against merged, the merge cut at the limit (see sendRepairs).
func (r *read) readRepair(merged replica.Partition, vs []version) error {
	if r.opts.ReadRepair == repair.None {
		return nil
	}
	diffs := make([]replica.Partition, len(vs))
	for i, v := range vs {
		diffs[i], _ = repair.Diff(merged, v.part)
	}
	return r.sendRepairs(vs, diffs)
}

// sendRepairs sends every stale replica its diff, diffs[i] for vs[i], as
// the table's mode says (NONE sends nothing, and does not get here):
// BLOCKING waits until blockFor replicas hold the merged data (those
// already up to date, with an empty diff, count; per datacenter at
// EACH_QUORUM); ASYNC queues the writes, as BLOCKING does once DropTable
// has dropped the table.
func (r *read) sendRepairs(vs []version, diffs []replica.Partition) error {
	mode := r.opts.ReadRepair
	from, wait, may := r.additionalWriteWait()
	r.newRound(PhaseRepair, len(vs)+len(r.plan.order), false, may)
	n := staleCount(diffs)
	stale := make([]staleReplica, 0, n)
	if r.trace.Repaired == nil && n > 0 { // the caller's, so not kept: made once, to size
		r.trace.Repaired = make([]string, 0, n)
	}
	for i, v := range vs {
		if !diffs[i].IsEmpty() {
			stale = append(stale, staleReplica{v.cand, diffs[i]})
			v.cand.score.repairs.Add(1)
			r.trace.Repaired = append(r.trace.Repaired, v.cand.ep.ID)
		} else {
			r.rd.credit(&v.cand, false)
		}
	}
	r.c.countRepairs(r.t, int64(len(stale)), func(m *counters) *atomic.Int64 { return &m.repairsSent })
	// A table dropped since the read began has its writes queued too, where
	// they are dropped at their turn (see ErrTableDropped), not written.
	if mode == repair.Async || r.rd.done() || r.c.isDropped(r.t) {
		r.enqueueRepairs(stale)
		return nil
	}
	return r.blockingRepair(stale, from, wait)
}

// staleCount returns how many of diffs are not empty.
func staleCount(diffs []replica.Partition) int {
	n := 0
	for i := range diffs {
		if !diffs[i].IsEmpty() {
			n++
		}
	}
	return n
}

// additionalWriteWait is how long, from now, a BLOCKING repair still short
// of acks waits before it sends additional writes (the table's
// additional-write threshold over its repair rounds' latency), and whether
// it may: not under NEVER, nor when the threshold exceeds the read timeout.
func (r *read) additionalWriteWait() (from time.Time, wait time.Duration, may bool) {
	t := r.now()
	d, ok := r.t.writeThreshold.LoadFor(r.opts.AdditionalWritePolicy, t)
	return t, d, ok && !r.c.atTimeout(d)
}

// blockingRepair writes the diffs and waits for acknowledgements until
// blockFor replicas are up to date. Writes still running then are
// cancelled with the read and handed to the ASYNC queue, so every stale
// replica is repaired and no goroutine outlives the read.
func (r *read) blockingRepair(stale []staleReplica, from time.Time, wait time.Duration) error {
	if r.outOfTime(r.now()) { // a hook the rounds before waited on took the read's time
		// Ended before they were sent, the writes go on in the ASYNC
		// queue, as those a timeout cuts off do (counted so if it did).
		err := r.interrupted()
		if isTimeout(err) {
			r.c.countRepairs(r.t, int64(len(stale)), func(m *counters) *atomic.Int64 { return &m.repairsTimedOut })
		}
		r.enqueueRepairs(stale)
		return err
	}
	r.stale, r.staleFirst = stale, len(r.trace.Requests)
	for _, s := range stale {
		r.sendMutation(s.cand, s.diff, false)
	}
	// A panic of the Liveness view while the writes run (asked for the
	// additional writes' targets) goes on to Read's caller; the writes
	// are settled on its way, or RepairsSent would count them for good
	// with no end booked, and the read's cancel would stop the pending
	// ones unrepaired.
	settled := false
	defer func() {
		if !settled {
			r.settleRepairs(stale, false)
		}
	}()
	r.armSpeculation(from, wait)
	err := r.gather()
	settled = true
	r.recordRepairRound(from, wait, err)
	r.trace.AdditionalWrite.Won = err == nil && r.speculationAnswered(PhaseRepair)
	r.settleRepairs(stale, isTimeout(err)) // not when the caller cancelled the read
	return err
}

// recordRepairRound feeds the additional-write threshold how long the
// repair round took, from when its writes went out to the acknowledgement
// that completed it (or to its timeout), as endFirstRound feeds the read
// threshold: not each acknowledgement's own latency, which recorded an
// additional write's quick ack and never the slow write it stood in for
// (cancelled with the read), so that sustained additional writes dragged
// the threshold down to the bystanders' latency, where it stayed. A round
// that its caller's own deadline, before the read timeout, ended sooner
// than wait, its additional writes' wait, is left out, as endFirstRound
// leaves out a first round so ended: its time is no write's.
func (r *read) recordRepairRound(from time.Time, wait time.Duration, err error) {
	switch {
	case err == nil && !r.ackedAt.IsZero():
		r.t.repairWrites.RecordAt(r.ackedAt.Sub(from), r.ackedAt)
	case isTimeout(err):
		if took := time.Since(from); !r.callers || took >= wait {
			r.t.repairWrites.Record(took)
		}
	}
}

// settleRepairs books the BLOCKING repair writes that ended and hands those
// still pending to the ASYNC queue, counting them in RepairsTimedOut if
// the read timed out. The Observer is told last, with every write booked,
// counted and queued (the queue tells it of those it drops once all are
// queued or dropped): one that calls runtime.Goexit (t.FailNow) ends the
// reading goroutine, and would leave undone what came after it.
func (r *read) settleRepairs(stale []staleReplica, timedOut bool) {
	var leftover []staleReplica
	for i, s := range stale {
		rt := &r.trace.Requests[r.staleFirst+i]
		if rt.Outcome == Pending {
			leftover = append(leftover, s)
			continue
		}
		r.c.bookRepair(r.t, rt.Err)
	}
	if timedOut { // before the queue tells the Observer of those it drops
		r.c.countRepairs(r.t, int64(len(leftover)), func(m *counters) *atomic.Int64 { return &m.repairsTimedOut })
	}
	r.enqueueRepairs(leftover)
	for i, s := range stale {
		if rt := &r.trace.Requests[r.staleFirst+i]; rt.Outcome != Pending {
			r.c.observeRepair(r.parent, RepairEvent{Table: r.t.name, Key: r.req.Key, To: s.cand.ep, Mode: repair.Blocking,
				Mutation: s.diff, Err: rt.Err, Sent: r.start.Add(rt.Sent), Took: rt.Done - rt.Sent})
		}
	}
}

// additionalWrites is the repair round's speculative action (Cassandra's
// BlockingPartitionRepair.maybeSendAdditionalWrites): the merge of the
// repairs not yet acknowledged goes, once, to every live replica whose
// data the read did not merge, and their acknowledgements count towards
// the level. None goes once DropTable has dropped the table, as no repair
// does (see sendRepairs): the round waits for its writes as without them.
func (r *read) additionalWrites() bool {
	if r.c.isDropped(r.t) {
		return false
	}
	targets := r.withoutVersion()
	update, ok := r.unackedRepairs()
	h := &r.trace.AdditionalWrite
	// Standing in for writes refused unsent, free of the budgets, it sends
	// no more writes than were refused: a healthy read would have sent
	// those, and no others.
	if r.rd.standsIn() {
		targets = r.standInTargets(targets)
	}
	if r.suppressed(h, r.allowed(ok && len(targets) > 0)) {
		return false
	}
	if r.outOfTime(r.now()) { // the Liveness view, asked for targets, took it
		r.refund()
		return false
	}
	refused := r.rd.refused
	for _, c := range targets {
		r.sendMutation(c, update, true)
	}
	r.refundUnsent(refused, len(targets))
	h.Fired, h.At, h.To = true, r.since(), targets[0].ep.ID
	r.t.m.additionalWrites.Add(int64(len(targets)))
	r.observeHedge(targets[0], KindRepair, h.At)
	return true
}

// standInTargets keeps of targets those that stand in for the writes
// refused unsent: as many as were refused, or at EACH_QUORUM as many in
// each datacenter as it lacks of its quorum, which a write to another
// datacenter would not make up for.
func (r *read) standInTargets(targets []candidate) []candidate {
	if r.rd.dc == nil {
		return targets[:min(len(targets), r.rd.refused)]
	}
	short := make([]int, len(r.rd.dc))
	for i, d := range r.rd.dc {
		short[i] = d.need - d.received - d.outstanding
	}
	kept := targets[:0]
	for _, c := range targets {
		if c.dc >= 0 && short[c.dc] > 0 {
			short[c.dc]--
			kept = append(kept, c)
		}
	}
	return kept
}

// withoutVersion returns the live candidates that hold no version of the
// merge: those no request of the read went to, and those asked whose data
// never came (a straggler of the first round, a reconcile read still
// pending), as Cassandra's repair plan is built from the replicas whose
// data was merged (DataResolver's sources), so its liveUncontacted are
// all the others. A replica that gave a version holds the merge, or is
// being written its diff.
func (r *read) withoutVersion() []candidate {
	return r.sendableWhere(func(i int) bool { return !r.gaveData(r.plan.order[i].ep.ID) })
}

// sendableWhere returns, closest first, the candidates plan.order[i] for
// which keep(i) holds that a speculative request may go to (see sendable).
func (r *read) sendableWhere(keep func(i int) bool) []candidate {
	var cs []candidate
	for i := range r.plan.order {
		r.rankTail(i)
		if c := &r.plan.order[i]; keep(i) && r.sendable(c) {
			cs = append(cs, *c)
		}
	}
	return cs
}

// gaveData reports whether id answered a data request of the read.
func (r *read) gaveData(id string) bool {
	for _, a := range r.answers {
		if !a.cmd.DigestOnly && a.cand.ep.ID == id {
			return true
		}
	}
	return false
}

// unackedRepairs merges the repairs not acknowledged yet into one update
// (Cassandra's mergeUnackedUpdates).
func (r *read) unackedRepairs() (replica.Partition, bool) {
	var diffs []replica.Partition
	for i, s := range r.stale {
		if r.trace.Requests[r.staleFirst+i].Outcome != Answered {
			diffs = append(diffs, s.diff)
		}
	}
	if len(diffs) == 0 {
		return replica.Partition{}, false
	}
	m, err := repair.Merge(diffs...)
	return m, err == nil
}

// enqueueRepairs hands repairs to the ASYNC queue. They are already
// counted as sent. The Observer hears of those a full queue dropped once
// all are queued or dropped: one that calls runtime.Goexit (t.FailNow)
// ended the read with the rest neither.
func (r *read) enqueueRepairs(stale []staleReplica) {
	var dropped []repairJob // rare: allocated only for a drop
	for _, s := range stale {
		if j := (repairJob{t: r.t, key: r.req.Key, s: s, labels: r.parent}); !r.c.repairs.enqueue(j) {
			dropped = append(dropped, j)
		}
	}
	r.c.repairs.observeDrops(dropped)
}

// bookRepair counts one repair write of t acknowledged, or failed with err.
func (c *Coordinator) bookRepair(t *table, err error) {
	if err == nil {
		c.countRepairs(t, 1, func(m *counters) *atomic.Int64 { return &m.repairsAcked })
	} else {
		c.countRepairs(t, 1, func(m *counters) *atomic.Int64 { return &m.repairsFailed })
	}
}
