package coordinator

import (
	"context"
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/ctxcause"
	"github.com/readpath/readpath/replica"
)

// ManyRequest is a read of several partitions of one table at one level,
// as CQL's SELECT … WHERE pk IN (…), or the multi-get of The Tail at Scale.
// As with Request, ReadMany keeps nothing of it once it returns. A ManyRequest
// is a plain value; sharing one between goroutines is safe as long as nobody
// modifies its slices.
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
	// the order of Keys (CQL's LIMIT on an IN query, whose values Cassandra
	// sorts by their type before it reads: a CQL layer passes Keys sorted,
	// as cql_select_test.go does): each partition is read
	// with at most that many, and the results are cut once the rows of the
	// keys before reach it. Without a PageSize it is also the page size of
	// the pages Next reads, unless a page before had one: it is then what
	// the LIMIT leaves, and the page reads all of it, while Keys,
	// PagingState and Limit are those Next set (a request with any of
	// them set afresh is a query of its own).
	Limit int
	// PageSize, if not 0, is the most live rows one page returns, and Limit
	// the most over all the pages Next reads (CQL's LIMIT under a driver's
	// fetch size). The page size may change from page to page.
	PageSize int
	// PagingState, set by Next, continues Keys[0] right after the last row
	// the page before returned of it; nil or empty reads every key from its
	// start.
	PagingState []byte
	// Concurrency bounds the reads running at once. Default 32. One past
	// the number of distinct keys, up to math.MaxInt, costs what that
	// number does: ReadMany starts no more goroutines than keys.
	Concurrency int
	// NowInSec, if not 0, is the time of every read (see Request); 0
	// takes the coordinator's clock when ReadMany starts, for every key.
	NowInSec int64

	// distinct is, when Next set Keys, its own copy of what it set them
	// to: keys distinct and checked already. A page reads these only
	// while Keys hold the same strings (keysDistinct), so that Keys
	// refilled, in place or in a new list, are checked again whole.
	distinct []string
	// limitLeft is the Limit Next set once a page with a PageSize has made
	// Limit a total, limitKeys and limitState the first key and state
	// byte of the Keys and PagingState it set: while the request holds
	// those, Limit is what the LIMIT leaves, even on a page whose PageSize
	// is dropped, as a single-partition read's state carries it; a caller
	// that sets any of them afresh starts a query of its own.
	limitLeft  int
	limitKeys  *string
	limitState *byte
	// rowsPerKey is, on a request Next made, the live rows a key gave the
	// page before: without a per-partition limit, the guess of what a key
	// gives before this page has read any, so that a page of keys larger
	// than it starts one key, not Concurrency of them (see
	// pageFill.needsMore). It bounds how many reads start at once, never
	// what they return.
	rowsPerKey int
}

// KeyResult is the outcome of one key of a ReadMany: its result, or the
// error its read ended with. To release the results, release each in its
// place, for i := range results { results[i].Result.Release() }: a range
// loop's copy would hand back memory the slice's Result still shows. It
// is safe for concurrent reads until its Result is released. In JSON its
// Err is its text, null for nil, as a RequestTrace's is.
type KeyResult struct {
	Key    string
	Result Result
	Err    error
	// Cut is set on the last result of a page whose size
	// (ManyRequest.PageSize, or else Limit) was reached before the rows of
	// its keys ran out: the key whose rows the page cut, with those within
	// the page and a paging state, or the key right after a page that
	// filled exactly, with nothing read. ManyRequest.Next continues from it.
	Cut bool
	// nextsKeys is set on a cut result of a page that read the keys Next
	// set (ManyRequest.distinct), which Next then follows without
	// checking the request's keys whole again (keysDistinct did). It
	// fills Cut's padding.
	nextsKeys bool
	// notStarted is set on a key not read because ctx ended (see
	// notStarted), which the page counts once its results are final.
	notStarted bool
	// rowsPerKey is set on a cut result: the live rows the page's keys
	// gave a key, rounded up, which Next carries to the next page
	// (ManyRequest.rowsPerKey). It fills the padding too.
	rowsPerKey uint32
}

// defaultConcurrency is ManyRequest.Concurrency's default: reads wait on
// replicas, not on this machine's cores.
const defaultConcurrency = 32

// ReadMany reads every key of req, at most req.Concurrency at once, each
// as its own Read — with its own plan, hedging, read repair, trace and
// error — and returns their results in the order of req.Keys (without
// repeats), up to the key a page's size (PageSize, or else Limit) cut, if
// any: the keys after it are not in the results. One key's failure does
// not cancel the others: each KeyResult carries its own error. When ctx
// ends, reads running end as Read does,
// and keys not yet started are not read: their error wraps ctx's, and
// each counts in Metrics as a Read that ctx ended before it sent anything
// (in Cancelled, or in Timeouts for a deadline). The
// error ReadMany itself returns is for a request it cannot run: no table,
// no key, an invalid level, concurrency or paging state
// (ErrInvalidRequest), or ErrClosed. When the page's size cut the
// results, Next returns the request that reads the next page; a page
// allocates for the keys it reads, however many the list has left (but
// one whose ctx ends before it fills returns a result for every key left,
// each not started, and counts each), and
// compares the rest with Next's copy, a pointer and a length a key, so
// that the request Next returned, passed back unchanged, is not searched
// for repeated keys again. A panic of the
// caller's own code in a key's read (its Locator's, say) stops the other
// keys' reads and is raised again on the caller's goroutine once they
// have returned, as Read would raise it, rather than end the process; a
// runtime.Goexit there (t.FailNow in a test's Locator) ends the caller's
// goroutine, as it would from Read.
func (c *Coordinator) ReadMany(ctx context.Context, req ManyRequest) ([]KeyResult, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidRequest)
	}
	if c.closed.Load() { // before the request, as Read
		return nil, ErrClosed
	}
	trusted := req.keysDistinct()
	if err := req.validate(trusted); err != nil {
		return nil, err
	}
	// Every key's read would copy the selection and the slices (see read);
	// paging states do not depend on the columns' order.
	req.Columns, req.Query.Slices = ownedColumns(req.Columns), slices.Clone(req.Query.Slices)
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
	keys := req.distinct
	if !trusted {
		keys = distinct(req.Keys)
	}
	// The keys' reads are cancelled when a page fills before they are all
	// read, and when one of them panics.
	readCtx, stop := context.WithCancel(ctx)
	defer stop()
	workers := min(cmpOr(req.Concurrency, defaultConcurrency), len(keys))
	fill := newPageFill(ctx, keys, req.pageRows(), workers, req.Query.Limit, stop)
	fill.guess, fill.resumed = req.rowsPerKey, len(req.PagingState) > 0
	defer fill.close()
	// Concurrency goroutines take the keys in order, rather than one a key:
	// a new goroutine grows its stack before a read fits, and grows it at
	// once, as a worker does (see growReadStack), not by copies deep in
	// its first read's planning. One key's failure does not cancel the
	// others.
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			growReadStack()
			returned := false
			defer fill.catch(&returned)
			for {
				i, ok := fill.take()
				if !ok {
					break
				}
				r := KeyResult{Key: keys[i]}
				if !notStarted(ctx, &r) {
					kr := req.request(r.Key)
					if i == 0 {
						kr.PagingState = req.PagingState
					}
					r.Result, r.Err = c.read(readCtx, kr, true)
				}
				fill.read(i, r)
			}
			returned = true
		})
	}
	wg.Wait()
	fill.raise()
	out := fill.results(ctx)
	req.limitRows(out, budget)
	// limitRows may cut a key before the page's last, and leave nothing of
	// those after it: the results end at the first key cut.
	for i := range out {
		if out[i].Cut {
			out[i].nextsKeys, out[i].rowsPerKey = trusted, fill.rowsPerKey()
			clear(out[i+1:])
			out = out[:i+1]
			break
		}
	}
	c.countNotStarted(ctx, req, out)
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
		r.notStarted = true
		return true
	}
	return false
}

// validate checks req, and its keys unless they are those Next set
// (trusted: see keysDistinct), which were checked on the page before.
func (req ManyRequest) validate(trusted bool) error {
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
	if trusted {
		return nil
	}
	for _, k := range req.Keys[1:] {
		if k == "" {
			kr := req.request(k)
			return kr.validate()
		}
	}
	return nil
}

// keysDistinct reports whether Keys hold, in order, the strings of the
// list Next set (distinct), which are distinct and checked already. The
// caller may have refilled them since, in a new list or in place, and a
// repeat past the page's keys would then be read again by a later page:
// so the page compares the whole list. Next's keys share their strings
// with its copy, so each key is one comparison of pointer and length:
// over 20,000 keys, about a tenth of a millisecond of a one-millisecond
// page of 100 rows. Next trusts the page's check (KeyResult.nextsKeys).
func (req ManyRequest) keysDistinct() bool {
	if len(req.Keys) == 0 || len(req.distinct) != len(req.Keys) {
		return false
	}
	for i, k := range req.Keys {
		own := req.distinct[i]
		if unsafe.StringData(k) != unsafe.StringData(own) || len(k) != len(own) {
			if k != own { // a caller's own copy of the same key is the same key
				return false
			}
		}
	}
	return true
}

// distinct returns keys without repeats, in their first order: keys itself
// if none repeats. It finds repeats in an open-addressed table, three
// slots of 4 bytes for two keys (6 bytes a key, where a set of the keys in
// a map took 55 and a list of them 16 more; a table sized to a power of
// two took up to 16). A slot holds a key's index plus one in its low bits
// and, above them, bits of the key's hash, so that a probe rarely reads a
// key that is not the one looked for.
func distinct(keys []string) []string {
	slots := make([]uint32, len(keys)+len(keys)/2+1) // 0 is empty
	index := uint32(1)<<bits.Len32(uint32(len(keys))) - 1
	seed := maphash.MakeSeed()
	var out []string // nil until a key repeats
next:
	for i, k := range keys {
		h := maphash.String(seed, k)
		s, _ := bits.Mul64(h, uint64(len(slots)))
		tag := uint32(h) &^ index
		for v := slots[s]; v != 0; v = slots[s] {
			if v&^index == tag && keys[v&index-1] == k {
				if out == nil {
					out = append(make([]string, 0, len(keys)-1), keys[:i]...)
				}
				continue next
			}
			if s++; s == uint64(len(slots)) {
				s = 0
			}
		}
		slots[s] = tag | uint32(i+1)
		if out != nil {
			out = append(out, k)
		}
	}
	if out == nil {
		return keys
	}
	return out
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
