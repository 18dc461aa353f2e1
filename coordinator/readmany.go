package coordinator

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/ctxcause"
	"github.com/readpath/readpath/replica"
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
	// Query selects the rows of every partition (slices, order), and its
	// Limit is a per-partition limit (CQL's PER PARTITION LIMIT).
	Query replica.Query
	// Limit, if not 0, is the most live rows returned across all keys, in
	// the order of Keys (CQL's LIMIT on an IN query): each partition is read
	// with at most that many, and the results are cut once the rows of the
	// keys before reach it. Without a PageSize it is also the page size of
	// the pages Next reads.
	Limit int
	// PageSize, if not 0, is the most live rows one page returns, and Limit
	// the most over all the pages Next reads (CQL's LIMIT under a driver's
	// fetch size). The page size may change from page to page.
	PageSize int
	// PagingState, set by Next, continues Keys[0] right after the last row
	// the page before returned of it; nil or empty reads every key from its
	// start.
	PagingState []byte
	// Concurrency bounds the reads running at once. Default 32.
	Concurrency int
	// NowInSec, if not 0, is the time of every read (see Request); 0
	// takes the coordinator's clock when ReadMany starts, for every key.
	NowInSec int64
}

// KeyResult is the outcome of one key of a ReadMany: its result, or the
// error its read ended with.
type KeyResult struct {
	Key    string
	Result Result
	Err    error
	// Cut is set when the page's size (ManyRequest.PageSize, or else
	// Limit) was reached before this key's rows ran out: its Result holds
	// the rows within the page (none for a key after it), and a paging
	// state if rows remain, which ManyRequest.Next continues.
	Cut bool
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
// no key, an invalid level, concurrency or paging state
// (ErrInvalidRequest), or ErrClosed. When the page's size (PageSize, or
// else Limit) cut the results, Next returns the request that reads the
// next page.
func (c *Coordinator) ReadMany(ctx context.Context, req ManyRequest) ([]KeyResult, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidRequest)
	}
	if err := req.validate(); err != nil {
		return nil, err
	}
	if c.closed.Load() {
		return nil, ErrClosed
	}
	budget, err := req.resumed()
	if err != nil {
		return nil, err
	}
	if req.NowInSec == 0 {
		// One time for every key, as Cassandra's IN query reads its
		// partitions at the statement's: a key read a second after
		// another would otherwise see a row that expired at that second
		// gone, where the other shows its twin.
		req.NowInSec = now().Unix()
	}
	out := distinct(req.Keys)
	readCtx, stop := ctx, context.CancelFunc(func() {})
	if req.pageRows() > 0 { // a page may fill before its keys are all read
		readCtx, stop = context.WithCancel(ctx)
		defer stop()
	}
	fill := newPageFill(req.pageRows(), len(out), stop)
	// Concurrency goroutines take the keys in order, rather than one a key:
	// a new goroutine grows its stack before a read fits. One key's failure
	// does not cancel the others.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(cmpOr(req.Concurrency, defaultConcurrency), len(out)) {
		wg.Go(func() {
			for !fill.full() {
				i := int(next.Add(1) - 1)
				if i >= len(out) {
					return
				}
				if notStarted(ctx, &out[i]) {
					continue
				}
				kr := req.request(out[i].Key)
				if i == 0 {
					kr.PagingState = req.PagingState
				}
				out[i].Result, out[i].Err = c.Read(readCtx, kr)
				fill.read(i, out)
			}
		})
	}
	wg.Wait()
	started := min(int(next.Load()), len(out))
	// The keys read, in any order, may hold the page's rows while a key
	// before them was never started, ctx having ended as it was taken: the
	// page then never fills in order, and the keys no worker took lie
	// before its cut. Like every key not started, they end with ctx's error.
	for i := started; i < fill.cut; i++ {
		notStarted(ctx, &out[i])
	}
	fill.leaveOut(out, started)
	req.limitRows(out[:fill.cut], budget) // the keys left out return nothing already
	return out, nil
}

// request is the read of one key: the per-partition query, in a page of
// the most rows the whole page may take (pageRows), since no partition can
// return more, or else of the per-partition limit. Its read, and a paging
// state for it, are then bounded by the per-partition limit, and the state
// resumes whatever the page size.
func (req ManyRequest) request(key string) Request {
	size := req.pageRows()
	if size == 0 {
		size = req.Query.Limit
	}
	return Request{Table: req.Table, Key: key, Level: req.Level, Columns: req.Columns, Query: req.Query,
		PageSize: size, NowInSec: req.NowInSec}
}

// pageRows is the most live rows a page returns across its keys: the
// smaller of PageSize and Limit, 0 for no bound.
func (req ManyRequest) pageRows() int {
	switch {
	case req.PageSize == 0:
		return req.Limit
	case req.Limit == 0:
		return req.PageSize
	}
	return min(req.PageSize, req.Limit)
}

// notStarted gives r the error of a read not started because ctx ended.
func notStarted(ctx context.Context, r *KeyResult) bool {
	if err := ctxcause.Err(ctx); err != nil {
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
	case req.Limit < 0:
		return fmt.Errorf("%w: negative limit %d", ErrInvalidRequest, req.Limit)
	case req.PageSize < 0:
		return fmt.Errorf("%w: negative page size %d", ErrInvalidRequest, req.PageSize)
	}
	// Every key's read is the same request but for its key, of which
	// Request.validate checks only that it is not empty, after the table:
	// the first key's read is checked whole, the others' keys alone, so
	// that a page of n keys checks the query once, not n times.
	first := req.request(req.Keys[0])
	if err := first.validate(); err != nil {
		return err
	}
	for _, k := range req.Keys[1:] {
		if k == "" {
			kr := req.request(k)
			return kr.validate()
		}
	}
	return nil
}

// distinct returns a KeyResult for each of keys, without repeats, in their
// first order. It finds repeats in an open-addressed table of indexes into
// the results, 4 bytes a slot and two slots a key or more, where a set of
// the keys in a map took 55 bytes a key and a list of them 16 more (a
// page of 8,000 keys: 565 KB, now 64 KB), on every page of a paged query.
func distinct(keys []string) []KeyResult {
	out := make([]KeyResult, 0, len(keys))
	bits := 1
	for 1<<bits < 2*len(keys) {
		bits++
	}
	slots := make([]int32, 1<<bits) // an index into out plus one; 0 is empty
	mask := len(slots) - 1
	seed := maphash.MakeSeed()
next:
	for _, k := range keys {
		s := int(maphash.String(seed, k) >> (64 - bits))
		for ; slots[s] != 0; s = (s + 1) & mask {
			if out[slots[s]-1].Key == k {
				continue next
			}
		}
		out = out[:len(out)+1]
		out[len(out)-1].Key = k // the rest is zero: no copy of a whole KeyResult
		slots[s] = int32(len(out))
	}
	return out
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
