package coordinator

import (
	"context"

	"github.com/readpath/readpath/replica"
)

// readOne runs one replica read and hands the answer back on ch. It
// recovers a panicking replica, checks a data answer, and feeds the
// response time, from the moment the read sent it, to the snitch: a
// loser cancelled at the end of a read is recorded at its cancellation
// time, so a replica that is always hedged around still looks slow.
func (c *Coordinator) readOne(ctx context.Context, ch chan<- answer, req request, cmd replica.Command) {
	a := answer{idx: req.idx}
	resp, err := c.safeRead(ctx, req.cand, cmd)
	a.at = now()
	req.cand.score.answered(a.at.Sub(req.sent), a.at)
	switch {
	case err != nil:
		a.err = err
	case cmd.DigestOnly:
		a.digest = resp.Digest
	default:
		a.part = resp.Partition
		a.err = checkData(&cmd, &a.part)
	}
	ch <- a
}

// applyOne runs one repair write and hands the outcome back on ch.
func (c *Coordinator) applyOne(ctx context.Context, ch chan<- answer, req request, m replica.Mutation) {
	err := c.safeApply(ctx, req.cand, m)
	ch <- answer{idx: req.idx, err: err, at: now()}
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
