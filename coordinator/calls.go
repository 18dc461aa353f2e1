package coordinator

import (
	"context"
	"time"

	"github.com/readpath/readpath/replica"
)

// readOne runs one replica read and hands the answer back on ch. It
// recovers a panicking replica, checks a data answer and digests it here,
// off the read's goroutine, and feeds the response time to the snitch: a
// loser cancelled at the end of a read is recorded at its cancellation
// time, so a replica that is always hedged around still looks slow.
func (c *Coordinator) readOne(ctx context.Context, ch chan<- answer, idx int, cand candidate, cmd replica.Command) {
	a := answer{idx: idx}
	t0 := now()
	resp, err := c.safeRead(ctx, cand, cmd)
	c.snitch.observe(cand.ep.ID, time.Since(t0), now())
	switch {
	case err != nil:
		a.err = err
	case cmd.DigestOnly:
		a.digest = resp.Digest
	default:
		a.part = resp.Partition
		if a.err = checkData(&cmd, &a.part); a.err == nil {
			a.digest = a.part.Digest()
		}
	}
	ch <- a
}

// applyOne runs one repair write and hands the outcome back on ch.
func (c *Coordinator) applyOne(ctx context.Context, ch chan<- answer, idx int, cand candidate, m replica.Mutation) {
	ch <- answer{idx: idx, err: c.safeApply(ctx, cand, m)}
}

func (c *Coordinator) safeRead(ctx context.Context, cand candidate, cmd replica.Command) (resp replica.Response, err error) {
	defer c.recoverReplica(cand, &err)
	return cand.r.Read(ctx, cmd)
}

func (c *Coordinator) safeApply(ctx context.Context, cand candidate, m replica.Mutation) (err error) {
	defer c.recoverReplica(cand, &err)
	return cand.r.Apply(ctx, m)
}

// recoverReplica turns a replica's panic into its failure.
func (c *Coordinator) recoverReplica(cand candidate, err *error) {
	v := recover()
	if v == nil {
		return
	}
	*err = &PanicError{Endpoint: cand.ep, Value: v}
	if c.cfg.Logger != nil {
		c.cfg.Logger.Warn("replica panicked", "replica", cand.ep.ID, "panic", v)
	}
}
