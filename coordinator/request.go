package coordinator

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// ErrInvalidRequest is wrapped by the error of a read whose Request is
// unusable: no table or key, a level that cannot read, an invalid query, or
// a paging state that is malformed or belongs to another query; or of a
// read at a datacenter-local level when Config.LocalDatacenter is not set
// and the partition's replicas are in datacenters, which the read finds
// once it has located them (it is counted in Metrics and has a Trace).
var ErrInvalidRequest = errors.New("coordinator: invalid request")

// Request is one read of one partition. Read keeps nothing of it once it
// returns: it reads copies of Columns and Query.Slices, so the caller may
// reuse them, even while a request the read gave up on is still answered.
// A Request is a plain value; sharing one between goroutines is safe as
// long as nobody modifies its slices.
type Request struct {
	Table string
	Key   string
	Level consistency.Level
	// Columns, if not nil, reads only these columns.
	Columns []string
	// Query selects the rows: slices of clustering keys, their order and a
	// limit of live rows (see replica.Query). The zero Query reads the
	// whole partition.
	Query replica.Query
	// PagingState, from the Result of the previous page of the same
	// request (same table, key, columns and query), continues right after
	// the last row that page returned; nil or empty (a driver's "no
	// state", or JSON's "") reads the first page.
	PagingState []byte
	// PageSize, if not 0, is the most live rows one page returns, and
	// Query.Limit the most over all the pages (CQL's LIMIT under a
	// driver's fetch size): the paging state carries the rows the limit
	// leaves, and the page size may change from page to page. 0 makes
	// Query.Limit the page size: every page returns up to that many, or up
	// to the rows a state from a read with a page size left.
	PageSize int
	// NowInSec, if not 0, is the read's time in seconds since the Unix
	// epoch, at which every replica judges what has expired and which
	// tombstones may be purged; 0 takes the coordinator's clock when the
	// read starts. Every request of the read carries the same time. A
	// negative time is refused with ErrInvalidRequest.
	NowInSec int64
}

func (req *Request) validate() error {
	switch {
	case req.Table == "":
		return fmt.Errorf("%w: empty table name", ErrInvalidRequest)
	case req.Key == "":
		return fmt.Errorf("%w: key may not be empty", ErrInvalidRequest)
	case req.Level == consistency.Any:
		return fmt.Errorf("%w: %w ANY: it is for writes only, and the zero Level: was Request.Level left unset?", ErrInvalidRequest, consistency.ErrUnsupportedLevel)
	case req.NowInSec < 0:
		return fmt.Errorf("%w: negative read time %d", ErrInvalidRequest, req.NowInSec)
	case req.Level.IsSerial():
		return fmt.Errorf("%w: %w %s: a serial read needs a Paxos round, which readpath does not run; read at QUORUM or LOCAL_QUORUM, or through your engine's Paxos", ErrInvalidRequest, consistency.ErrUnsupportedLevel, req.Level)
	}
	if err := req.Level.ValidateForRead(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if err := req.Query.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if req.PageSize < 0 { // after the query: a ReadMany's derives from its limit
		return fmt.Errorf("%w: negative page size %d", ErrInvalidRequest, req.PageSize)
	}
	return nil
}

// query returns the query to run: req.Query, or its continuation after the
// paging state's last row, with the rows the state has remaining (0 for no
// bound but the query's limit).
func (req *Request) query() (q replica.Query, remaining int, err error) {
	if len(req.PagingState) == 0 {
		return req.Query, 0, nil
	}
	var s replica.PagingState
	if err := s.UnmarshalBinary(req.PagingState); err != nil {
		return replica.Query{}, 0, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	q, err = s.Resume(req.Table, req.Key, req.Query, req.Columns)
	if err != nil {
		return replica.Query{}, 0, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	return q, s.Remaining(), nil
}

// stateAfter returns the encoded paging state that resumes req after the
// row at last, with rows remaining (0: no bound but the query's limit).
func (req *Request) stateAfter(last string, remaining int) []byte {
	s := replica.NewPagingState(req.Table, req.Key, req.Query, req.Columns, last).WithRemaining(remaining)
	b, err := s.MarshalBinary()
	if err != nil {
		return nil // cannot happen: a state made here always encodes
	}
	return b
}

// paged applies req.PageSize to q, the query a page runs, whose limit is
// what the query's limit leaves (remaining, or all of it on the first
// page): the page's limit becomes the page size, and what the query's
// limit leaves goes to the paging state. Without a page size, q and
// remaining are the page's as they are.
func (req Request) paged(q replica.Query, remaining int) (replica.Query, int) {
	if req.PageSize == 0 {
		return q, remaining
	}
	if remaining == 0 || (req.Query.Limit > 0 && remaining > req.Query.Limit) {
		remaining = req.Query.Limit // a state's claim is at most the limit: states may be forged
	}
	if q.Limit == 0 || req.PageSize < q.Limit {
		q.Limit = req.PageSize
	}
	return q, remaining
}

// Result is what a read returns. A failed read's Result holds only its
// Trace: what it sent and how each request ended, for a tracer or a log.
// A read refused before it started (a bad request, ErrClosed) has a zero
// Trace; one refused for a DC-local level without Config.LocalDatacenter
// has the Trace of its planning (see ErrInvalidRequest). A Result is safe
// for concurrent reads until Release.
type Result struct {
	// Partition is the reconciled data, tombstones included: empty (no
	// rows) when no replica holds the partition. Under a query it holds
	// what the query selected, up to its limit. It may share memory with
	// the replicas' answers, and so, with in-memory replicas such as
	// replicatest's, with their stored data: Clone it before modifying it.
	// Its Rows and RangeTombstones have no room to grow, so appending to
	// them copies them. Release hands back the memory the coordinator
	// built it in.
	Partition replica.Partition
	// NowInSec is the read's time, at which replicas purged what they
	// answered and Visible judges what is live.
	NowInSec int64
	// PagingState is set when the page reached its limit, whether the
	// limit cut the result or its last rows filled it exactly (then the
	// next page is empty, as in Cassandra): pass it in the next Request,
	// unchanged otherwise but for PageSize, to read the next page. It is
	// opaque and may be stored or sent to a client; nil when fewer live
	// rows than the limit came back, when the page reached the query's
	// LIMIT under a PageSize, and for a table with no clustering columns
	// (TableOptions.NoClusteringColumns). A coordinator of a release before
	// PageSize refuses a state that carries rows remaining (one from a read
	// with a PageSize, or from ReadMany): upgrade every coordinator that
	// may see such states first.
	PagingState []byte
	Trace       Trace

	query replica.Query // what the read ran
	// blocks hold Partition's rows and cells when the read merged them,
	// and gen is their count of releases then (see Release).
	blocks *resultBlocks
	gen    uint64
}

// Release hands back to the coordinator the memory the read built
// r.Partition in, for later reads to build theirs in, and empties
// r.Partition. Call it once nothing uses the result's partition any more:
// a later read overwrites its rows and cells, in r and in any copy of r or
// of r.Partition; what r.Visible returned is the caller's, and stays.
//
// Release is optional: without it the memory is collected as usual. It
// pays when reads merge: a read whose replicas disagreed builds its result
// from their versions, and one that merged and repaired 100 rows allocated
// a third as much when it reused a released result's memory (the README's
// BenchmarkReadMismatch100 and BenchmarkReadMismatch100Kept). Released
// memory serves later merges of about its size, so reads of partitions of
// many sizes each reuse some (BenchmarkReadMismatchMixed). Under a
// limit, the rows short-read protection merged in after the first round
// are in new memory, collected as usual. A result that is a replica's
// answer (its replicas agreed) or a failed read's holds no such memory,
// and releasing it, or releasing a result twice, does nothing but empty
// r.Partition. Release the Result you keep, not a copy of it: a copy's
// Release hands back the memory the kept one still shows (for ReadMany's,
// for i := range results { results[i].Result.Release() }, not a range
// loop's copy). Release may be called from any goroutine, but not on one
// Result from two at once.
func (r *Result) Release() {
	if b := r.blocks; b != nil && b.gen.CompareAndSwap(r.gen, r.gen+1) {
		b.recycle()
	}
	r.blocks, r.Partition = nil, replica.Partition{}
}

// Visible returns what a client sees of the result: live rows and cells
// only, at the read's time (replica.Partition.Visible). A partition holding
// only static data shows as one row only to a query with no clustering
// restriction (replica.Query.SelectsAllRows), as CQL shows it.
func (r Result) Visible() replica.View {
	v := r.Partition.Visible(r.NowInSec)
	if len(v.Rows) == 1 && v.Rows[0].Static && !r.query.SelectsAllRows() {
		v.Rows = nil
	}
	return v
}
