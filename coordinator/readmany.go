package coordinator

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/readpath/readpath/consistency"
)

// ManyRequest is a read of several partitions of one table at one level,
// as CQL's SELECT … WHERE pk IN (…), or the multi-get of The Tail at Scale.
type ManyRequest struct {
	Table string
	// Keys are the partitions to read; a key listed twice is read once.
	Keys  []string
	Level consistency.Level
	// Columns, if not nil, reads only these columns of every partition.
	Columns []string
	// Concurrency bounds the reads running at once. Default 32.
	Concurrency int
}

// KeyResult is the outcome of one key of a ReadMany: its result, or the
// error its read ended with.
type KeyResult struct {
	Key    string
	Result Result
	Err    error
}

// defaultConcurrency is ManyRequest.Concurrency's default: reads wait on
// replicas, not on this machine's cores.
const defaultConcurrency = 32

// ReadMany reads every key of req, at most req.Concurrency at once, each
// as its own Read — with its own plan, hedging, read repair, trace and
// error — and returns their results in the order of req.Keys (without
// repeats). One key's failure does not cancel the others: each KeyResult
// carries its own error. When ctx ends, reads running end as Read does,
// and keys not yet started are not read: their error wraps ctx's. The
// error ReadMany itself returns is for a request it cannot run: no table,
// no key, or an invalid level or concurrency (ErrInvalidRequest), or
// ErrClosed.
func (c *Coordinator) ReadMany(ctx context.Context, req ManyRequest) ([]KeyResult, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	if c.closed.Load() {
		return nil, ErrClosed
	}
	keys := distinct(req.Keys)
	out := make([]KeyResult, len(keys))
	var g errgroup.Group // not WithContext: one key's failure must not cancel the others
	g.SetLimit(cmpOr(req.Concurrency, defaultConcurrency))
	for i, key := range keys {
		out[i].Key = key
		if notStarted(ctx, &out[i]) {
			continue
		}
		g.Go(func() error {
			if !notStarted(ctx, &out[i]) { // ctx may have ended while this waited for a slot
				out[i].Result, out[i].Err = c.Read(ctx, Request{Table: req.Table, Key: key, Level: req.Level, Columns: req.Columns})
			}
			return nil
		})
	}
	g.Wait()
	return out, nil
}

// notStarted gives r the error of a read not started because ctx ended.
func notStarted(ctx context.Context, r *KeyResult) bool {
	if err := ctx.Err(); err != nil {
		r.Err = fmt.Errorf("coordinator: read of %q not started: %w", r.Key, err)
		return true
	}
	return false
}

func (req ManyRequest) validate() error {
	switch {
	case len(req.Keys) == 0:
		return fmt.Errorf("%w: no keys to read", ErrInvalidRequest)
	case req.Concurrency < 0:
		return fmt.Errorf("%w: negative concurrency %d", ErrInvalidRequest, req.Concurrency)
	}
	for _, k := range req.Keys {
		if err := (Request{Table: req.Table, Key: k, Level: req.Level}).validate(); err != nil {
			return err
		}
	}
	return nil
}

// distinct returns keys without repeats, in their first order.
func distinct(keys []string) []string {
	seen := make(map[string]bool, len(keys))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
