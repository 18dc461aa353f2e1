package replicatest

import (
	"context"
	"fmt"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// Read answers cmd as the replica's Behavior dictates, when the request's
// service ends: cmd.Respond of the partition it holds then (a partition it
// does not hold reads as Partition{Key: cmd.Key}). A replica made with
// WithMaxDigestVersion answers digests as an older build would. Failures,
// an invalid command's and Respond's *replica.TombstoneOverwhelmingError
// included, are *RequestError values, which errors.As sees through.
//
// A data answer shares memory with the partition the replica holds, as
// Respond's may, and so does a coordinator's Result read from it: modifying
// either changes the replica's data (Partition returns a copy).
func (r *Replica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	req := request{kind: dataRead, table: cmd.Table, key: cmd.Key}
	if cmd.DigestOnly {
		r.stats.digestReads.Add(1)
		req.kind = digestRead
	} else {
		r.stats.dataReads.Add(1)
	}
	if err := r.serve(ctx, "read", req); err != nil {
		return replica.Response{}, err
	}
	if cmd.DigestOnly && r.maxDigest < digest.Latest {
		switch v := cmd.DigestVersion; {
		case v == 0:
			cmd.DigestVersion = r.maxDigest // the newest it knows
		case v > r.maxDigest: // a version this build predates: refused, as Respond refuses one no build knows
			err := &replica.CommandError{Reason: "digest version", Err: &digest.VersionError{Version: v, Known: r.maxDigest}}
			return replica.Response{}, r.fail("read", err)
		}
	}
	resp, err := r.data.read(cmd)
	if err != nil {
		return replica.Response{}, r.fail("read", err)
	}
	return resp, nil
}

// Apply merges m into the replica's copy with repair.Merge once the
// request's service ends, so a newer write already held survives. An
// invalid mutation fails with repair's error and changes nothing. Writes
// are merged together when a read first needs them (or when their rows
// outnumber the partition's), so building a wide partition a row at a time
// costs time linear in its rows, not quadratic; but a read after writes
// merges them into the whole partition, so one-row writes between reads of
// a wide partition cost a merge of all its rows each. It keeps a copy of m's
// partition, nothing of m itself: the caller may reuse m's memory once Apply
// returns (coordinator.Config.ReuseRepairWrites).
func (r *Replica) Apply(ctx context.Context, m replica.Mutation) error {
	r.stats.mutations.Add(1)
	if err := r.serve(ctx, "apply", request{kind: mutation, table: m.Table, key: m.Partition.Key}); err != nil {
		return err
	}
	if err := r.data.merge(m.Table, m.Partition); err != nil {
		return r.fail("apply", err)
	}
	return nil
}

// serve runs a request's life up to the moment it is answered: its fault,
// its pause window, its queueing and its service time.
func (r *Replica) serve(ctx context.Context, op string, req request) error {
	r.stats.inFlight.Add(1)
	defer r.stats.inFlight.Add(-1)
	if r.err != nil {
		return r.fail(op, r.err)
	}
	b := r.behavior.Load()
	// Drawn before anything can end the request, so that whether it is
	// cancelled changes no later request's draws.
	var service time.Duration
	if b.draws() { // spares the call: the benchmarks' replicas answer at once
		service = r.draws.draw(b, req, r.cluster.load())
	}
	ignoreCtx := b.Fault.kind == ignoresContext
	if err := ctx.Err(); err != nil && !ignoreCtx {
		return r.cancelled(op, err)
	}
	if decided, err := r.decide(ctx, op, b.Fault); decided {
		return err
	}
	if err := r.wait(ctx, b, service, ignoreCtx); err != nil {
		if err == ErrOverloaded { // the queue's refusal itself, not an injected one
			r.stats.overloaded.Add(1)
			return r.fail(op, err)
		}
		return r.cancelled(op, err)
	}
	if ignoreCtx && ctx.Err() != nil {
		r.stats.lateAnswers.Add(1)
	}
	return nil
}

// decide settles a request that the fault decides on arrival.
func (r *Replica) decide(ctx context.Context, op string, f Fault) (bool, error) {
	switch f.kind {
	case down:
		return true, r.fail(op, ErrDown)
	case unreachable:
		<-ctx.Done()
		return true, r.cancelled(op, ctx.Err())
	case panics:
		r.stats.panics.Add(1)
		panic(fmt.Errorf("%w: %s on %s", ErrInjectedPanic, op, r.ep.ID))
	case errorAfter:
		if err := r.sleep(ctx, f.delay, false); err != nil {
			return true, r.cancelled(op, err)
		}
		return true, r.fail(op, f.err)
	}
	return false, nil
}

// wait holds the request through its pause window, its queueing for a
// worker and its service time.
func (r *Replica) wait(ctx context.Context, b *Behavior, service time.Duration, ignoreCtx bool) error {
	if err := r.pauseWindow(ctx, b, ignoreCtx); err != nil {
		return err
	}
	if err := r.workers.acquire(ctx, ignoreCtx); err != nil {
		return err
	}
	defer r.workers.release()
	return r.sleep(ctx, service, ignoreCtx)
}

// pauseWindow holds a request arriving in a pause window until its end.
// Only arrivals: holding requests in service too, as a real GC would,
// moves virtual times that the coordinator's tests pin.
func (r *Replica) pauseWindow(ctx context.Context, b *Behavior, ignoreCtx bool) error {
	if len(b.Pauses) == 0 {
		return nil // spares the clock read
	}
	end, paused := b.windowEnd(time.Since(r.start))
	if !paused {
		return nil
	}
	return r.sleep(ctx, time.Until(r.start.Add(end)), ignoreCtx)
}

// sleep waits d on a timer, or until ctx ends unless ignoreCtx is set.
func (r *Replica) sleep(ctx context.Context, d time.Duration, ignoreCtx bool) error {
	set := r.late.correct(d)
	if set <= 0 {
		return nil
	}
	var start time.Time
	if r.late != nil {
		start = time.Now()
	}
	t := time.NewTimer(set)
	defer t.Stop()
	var done <-chan struct{}
	if !ignoreCtx {
		done = ctx.Done()
	}
	select {
	case <-t.C:
		if r.late != nil {
			r.late.observe(set, time.Since(start))
		}
		return nil
	case <-done:
		return ctx.Err()
	}
}

// fail counts a request that failed otherwise than by its context's end,
// whatever its error wraps (an injected error may wrap context.Canceled,
// or be ErrOverloaded), and wraps its cause.
func (r *Replica) fail(op string, err error) error {
	r.stats.errors.Add(1)
	return &RequestError{Replica: r.ep.ID, Op: op, Err: err}
}

// cancelled counts a request that ended with its context's error, err,
// and wraps it.
func (r *Replica) cancelled(op string, err error) error {
	r.stats.cancellations.Add(1)
	return &RequestError{Replica: r.ep.ID, Op: op, Err: err}
}
