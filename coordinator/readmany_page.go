package coordinator

import (
	"slices"

	"github.com/readpath/readpath/replica"
)

// Next returns the request that reads the page after results, the page req
// read, and true when the page size (PageSize, or else Limit) cut it: the
// key it cut, right after the last row it returned (from its start if it
// returned none), then every key after it, as Cassandra pages an IN query.
// The request's Keys are a copy of req's without repeats, made by the first
// page's Next and shared by the pages after it; ReadMany does not check them
// for repeats again while they hold the keys Next set (a page whose keys
// were changed, refilled in place or not, reads them as a new list, checked,
// and Next then follows that list). A list is checked for repeats within
// itself: a key changed to one a page before read is read again (to read
// other keys, start a new request). A key's pages return at most Query.Limit
// of its rows in all: the state carries the rows it has left; and once a
// page had a PageSize, all the pages at most Limit rows: the next page's
// Limit is what this one left, and a page whose PageSize is then dropped
// reads all of it, unless the caller set its Keys, PagingState or Limit
// afresh. It returns false when nothing was cut, or the Limit is reached:
// every key returned the rows it selects, up to the per-partition limit, or
// failed (KeyResult.Err; a key that failed before the cut is not read again,
// one after it is). The keys after a page that filled exactly are cut
// unread, so the next page may find nothing, as a full page's state may lead
// to an empty page in Cassandra.
//
// A page reads its keys Concurrency at a time, in order, for latency, none
// more than Concurrency keys past the first it has not read (behind a late
// key, keys that hold nothing were otherwise read to the end of the list,
// and again by the next page), and no more at once than the rows it has left
// could need: each key giving the per-partition limit (Query.Limit), or,
// once keys are read, the rows a key gave on average (a key that failed gave
// none; a key continued from the page before's state does not count: its
// rows left tell nothing of a key's), and before any is, without a limit,
// those a key gave the page before, which Next carries. It stops once the
// keys read hold its rows: no more start, and the reads in flight, of keys
// after its cut, are cancelled (Metrics counts them as Cancelled). So at a
// per-partition limit each key is read about once over all the pages;
// without one, only the first page, with nothing to go by, starts
// Concurrency keys at once: if each holds more rows than a page divided by
// Concurrency, it reads some of the next page's keys too, and those are read
// again. 10 keys of 1,000 rows in pages of 100 take 119 key reads over 101
// pages (560 when every page started Concurrency keys); where the guess is
// wrong a page takes a round or two more: after a key that ended exactly
// with the page before, whose continuation finds nothing, and where keys
// turn small. Cassandra's pager reads one partition after another.
func (req ManyRequest) Next(results []KeyResult) (ManyRequest, bool) {
	for i, r := range results {
		if !r.Cut {
			continue
		}
		// A cut key without a state returned nothing: a key that returned
		// rows was cut before its last, after which a row follows.
		next := req
		var kept bool
		next.Keys, next.distinct, kept = req.keysFrom(i, results[i:])
		next.PagingState = r.Result.PagingState
		next.rowsPerKey = int(r.rowsPerKey)
		next.limitLeft, next.limitKeys, next.limitState = 0, nil, nil
		// Limit is what the LIMIT left only on a request as Next made it:
		// one whose Limit, keys or state the caller set afresh pages by
		// its Limit.
		if req.Limit > 0 && (req.PageSize > 0 || kept && req.limitMade()) {
			if next.Limit -= req.pageRows(); next.Limit == 0 { // a cut page returned all it could
				return ManyRequest{}, false
			}
			next.limitLeft, next.limitKeys, next.limitState = next.Limit, &next.Keys[0], firstByte(next.PagingState)
		}
		return next, true
	}
	return ManyRequest{}, false
}

// limitMade reports whether req's Limit, Keys and PagingState are those
// Next set when it made Limit what the LIMIT left (limitLeft), not set
// afresh by the caller, to another value or slice.
func (req ManyRequest) limitMade() bool {
	return req.limitLeft == req.Limit && len(req.Keys) > 0 && &req.Keys[0] == req.limitKeys &&
		firstByte(req.PagingState) == req.limitState
}

// firstByte returns the address of b's first byte, nil when b is empty.
func firstByte(b []byte) *byte {
	if len(b) == 0 {
		return nil
	}
	return &b[0]
}

// keysFrom returns the next page's keys, left being the results from the
// cut key on, the i-th of the keys without repeats: those keys from it on,
// and a copy of them of its own (ManyRequest.distinct), or nil when they
// must be checked for repeats. The caller's list is copied once, by the
// first page's Next, so that a caller reusing it while paging does not
// change the keys left; the pages after share the copies, while the
// request's keys are still the own copy's strings (the page checked them
// whole: keysDistinct), so that keys the caller changed in the request's
// list are checked again. kept reports whether req's keys are, up to the
// cut, those Next set.
func (req ManyRequest) keysFrom(i int, left []KeyResult) (keys, own []string, kept bool) {
	// The page checked the keys whole; up to the cut is enough to tell
	// that they are still the ones it read.
	all, trusted, at := req.distinct, left[0].nextsKeys && len(req.distinct) == len(req.Keys), i
	i = cutIndex(all, at, left[0].Key)
	if trusted && (i < 0 || !slices.Equal(req.Keys[:i+1], all[:i+1])) {
		trusted = false
	}
	if !trusted {
		all = distinct(req.Keys)
		i = cutIndex(all, at, left[0].Key)
	}
	switch {
	case i < 0: // results of another request: read those, checked
		keys = make([]string, 0, len(left))
		for _, r := range left {
			keys = append(keys, r.Key)
		}
		return keys, nil, false
	case trusted:
		return req.Keys[i:], req.distinct[i:], true
	}
	own = all[i:]
	if len(all) == len(req.Keys) { // req.Keys itself
		own = slices.Clone(own)
	}
	return slices.Clone(own), own, false
}

// cutIndex returns the index in keys of the cut key, the i-th result:
// i, or where the key is (-1 if nowhere). Results a caller filtered end at
// the cut too: the keys after it are found in the list, not in them.
func cutIndex(keys []string, i int, cut string) int {
	if i >= 0 && i < len(keys) && keys[i] == cut {
		return i
	}
	return slices.Index(keys, cut)
}

// resumed checks req.PagingState and returns the rows the per-partition
// limit leaves Keys[0]: those its state carries, at most the limit, or the
// whole limit (0 for none). A state claiming more (forged: states may be)
// is held to the limit over the pages after it, as Request.paged holds a
// Request's, not only on this one.
func (req ManyRequest) resumed() (int, error) {
	if len(req.PagingState) == 0 {
		return req.Query.Limit, nil
	}
	first := req.request(req.Keys[0])
	first.PagingState = req.PagingState
	_, remaining, err := first.query()
	if err != nil {
		return 0, err
	}
	if remaining == 0 || (req.Query.Limit > 0 && remaining > req.Query.Limit) {
		return req.Query.Limit, nil
	}
	return remaining, nil
}

// limitRows cuts the results to the page's rows (pageRows) in all, in key
// order, as Cassandra's coordinator counts an IN query's rows; each key's
// read kept to its per-partition limit. A cut key's paging state carries
// what that limit leaves it: first for the first key (resumed), the whole
// limit for the others.
func (req ManyRequest) limitRows(out []KeyResult, first int) {
	left := req.pageRows()
	if left == 0 {
		return
	}
	for i := range out {
		r := &out[i]
		if r.Err != nil {
			continue
		}
		budget := req.Query.Limit
		if i == 0 {
			budget = first
		}
		p, q := r.Result.Partition, r.Result.query
		n := p.LiveRows(q, r.Result.NowInSec)
		if n < left || (n == left && r.Result.PagingState == nil) {
			left -= n
			continue
		}
		r.Cut = true
		if left == 0 { // after the limit: nothing of this key is returned
			r.Result.Partition, r.Result.PagingState = replica.Partition{Key: p.Key}, nil
			continue
		}
		q.Limit = left
		r.Result.Partition, _ = p.Limit(q, r.Result.NowInSec)
		r.Result.PagingState = req.pagingState(r.Key, r.Result.Partition, q, budget)
		left = 0
	}
}

// pagingState is the state that resumes a key cut at q.Limit rows after its
// last row, bounded by the rows its per-partition budget leaves it, or nil
// when it holds none.
func (req ManyRequest) pagingState(key string, p replica.Partition, q replica.Query, budget int) []byte {
	last, ok := p.LastClustering(q)
	if !ok {
		return nil
	}
	left := 0
	if budget > 0 {
		left = budget - q.Limit // at least 1: a key is cut only below its budget
	}
	kr := req.request(key)
	return kr.stateAfter(last, left)
}
