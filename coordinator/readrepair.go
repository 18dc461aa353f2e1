package coordinator

import (
	"context"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// staleReplica is a replica and exactly what it lacks.
type staleReplica struct {
	cand candidate
	diff replica.Partition
}

// readRepair sends every stale replica its diff, as the table's mode says:
// BLOCKING waits until blockFor replicas hold the merged data (those
// already up to date count), NONE sends nothing, ASYNC queues the writes.
func (r *read) readRepair(ctx context.Context, merged replica.Partition, vs []version) error {
	mode := r.opts.ReadRepair
	if mode == repair.None {
		return nil
	}
	upToDate, stale := 0, make([]staleReplica, 0, len(vs))
	for _, v := range vs {
		if diff, needed := repair.Diff(merged, v.part); needed {
			stale = append(stale, staleReplica{v.cand, diff})
			r.trace.Repaired = append(r.trace.Repaired, v.cand.ep.ID)
		} else {
			upToDate++
		}
	}
	if mode == repair.Async || upToDate >= r.plan.blockFor {
		r.enqueueRepairs(stale)
		return nil
	}
	return r.blockingRepair(ctx, stale, upToDate)
}

// blockingRepair writes the diffs and waits for acknowledgements until
// blockFor replicas are up to date. Writes still running then are cancelled
// with the read and handed to the ASYNC queue, so every stale replica is
// repaired and no goroutine outlives the read.
func (r *read) blockingRepair(ctx context.Context, stale []staleReplica, upToDate int) error {
	r.newPhase(len(stale))
	first := len(r.trace.Requests)
	for _, s := range stale {
		r.sendMutation(ctx, s.cand, s.diff)
	}
	r.received, r.dataIn = upToDate, true
	err := r.gather(ctx, ctx.Done(), r.plan.blockFor, false)
	var leftover []staleReplica
	for i, s := range stale {
		rt := r.trace.Requests[first+i]
		if rt.Outcome == Pending {
			leftover = append(leftover, s)
			continue
		}
		r.c.repairDone(r.t, r.req.Key, s, repair.Blocking, rt.Err)
	}
	if ctx.Err() != nil {
		r.t.m.repairsTimedOut.Add(int64(len(leftover)))
	}
	r.enqueueRepairs(leftover)
	return err
}

func (r *read) enqueueRepairs(stale []staleReplica) {
	for _, s := range stale {
		r.c.repairs.enqueue(repairJob{t: r.t, key: r.req.Key, s: s})
	}
}

// repairDone books the outcome of one repair write and tells the observer.
func (c *Coordinator) repairDone(t *table, key string, s staleReplica, mode repair.Mode, err error) {
	if err == nil {
		t.m.repairsAcked.Add(1)
	} else {
		t.m.repairsFailed.Add(1)
	}
	if c.cfg.Observer != nil {
		c.cfg.Observer.OnRepair(RepairEvent{Table: t.name, Key: key, To: s.cand.ep, Mode: mode, Mutation: s.diff, Err: err})
	}
}
