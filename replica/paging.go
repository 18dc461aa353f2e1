package replica

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"slices"
	"strconv"

	"github.com/zeebo/xxh3"
)

// ErrInvalidPagingState is matched by every *PagingStateError.
var ErrInvalidPagingState = errors.New("replica: invalid paging state")

// PagingStateError says why a paging state cannot be read or resumed. It is
// not modified after it is returned, so it may be shared between
// goroutines.
type PagingStateError struct{ Reason string }

func (e *PagingStateError) Error() string { return ErrInvalidPagingState.Error() + ": " + e.Reason }

// Is makes errors.Is(err, ErrInvalidPagingState) hold.
func (e *PagingStateError) Is(target error) bool { return target == ErrInvalidPagingState }

// PagingState is where one page of a paged read of a partition ended: the
// last row it returned, and a fingerprint of the read (table, partition
// key, query slices, order and limit, column selection) so that it resumes
// only the read that made it. It is opaque to callers, who hand it back to
// read the next page; MarshalBinary and UnmarshalBinary carry it between
// processes.
//
// A state may also carry how many more live rows the read may return over
// all the pages still to come (WithRemaining), as Cassandra's paging state
// carries the rows left under a per-partition limit: then the page that
// returns the last of them ends the read.
//
// A state only ever narrows the query it resumes (Resume returns that
// query restricted to after the last row, its limit at most the query's),
// so a forged or stale one can make a read skip or repeat rows of its own
// query, or count its rows remaining afresh, but never read outside its
// slices, columns or order: the checksum guards against corruption, not
// forgery. A reader bounds the rows remaining a state claims by the
// query's limit (as the coordinator does).
//
// The zero PagingState resumes nothing. A PagingState is a plain value,
// safe for concurrent use.
type PagingState struct {
	version     byte // 0 in the zero PagingState
	last        string
	remaining   uint64 // 0: no bound but the query's limit
	fingerprint uint64
}

// The layouts MarshalBinary writes. Version 1: the version byte, the last
// clustering key (a uvarint length, then its bytes), the fingerprint (8
// bytes, big-endian) and the CRC-32C of all that (4 bytes, big-endian).
// Version 2, for a state with rows remaining, has them as a uvarint (at
// least 1) after the key; a state without stays in version 1, so states
// made before version 2 existed still resume.
const (
	pagingVersion          byte = 1
	pagingVersionRemaining byte = 2
)

// minPagingState is the length of the shortest state, of an empty key.
const minPagingState = 1 + 1 + 8 + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// NewPagingState returns the state of a read of partition key of table by
// q (the query every page repeats, not the restricted one Resume returns)
// and columns, whose page ended at the row at clustering last
// (Partition.LastClustering of the page).
func NewPagingState(table, key string, q Query, columns []string, last string) PagingState {
	return PagingState{version: pagingVersion, last: last, fingerprint: fingerprint(table, key, q, columns)}
}

// IsZero reports whether s is the zero PagingState: no page was read.
func (s PagingState) IsZero() bool { return s.version == 0 }

// WithRemaining returns s bounding the read it resumes to n more live rows
// over all the pages to come: Resume lowers the query's limit to n when it
// is higher, and a reader ends the read when the rows it has returned since
// reach n (see Remaining). This is how a read under a per-partition limit
// that is cut before reaching it (an IN query's LIMIT) continues without
// returning more than that limit. n < 1 returns s without the bound.
func (s PagingState) WithRemaining(n int) PagingState {
	s.remaining = uint64(max(n, 0))
	return s
}

// Remaining returns the bound WithRemaining set: how many more live rows the
// read may return, or 0 when only the query's limit bounds its pages.
func (s PagingState) Remaining() int { return int(s.remaining) }

// Resume returns the query that reads the page after s: q restricted to the
// rows after the last one s returned, in q's order (Query.After), its limit
// lowered to the rows s has remaining, if it has a bound. The read
// must be the one that made s: the same table, key, query (its slices
// written in any form that selects the same rows, two that touch or the
// one they join into) and columns (in any order, nil for every column).
// Otherwise, or for the zero state, it returns a *PagingStateError; for an
// invalid q, q's *QueryError.
func (s PagingState) Resume(table, key string, q Query, columns []string) (Query, error) {
	if s.IsZero() {
		return Query{}, &PagingStateError{Reason: "the zero paging state continues no read"}
	}
	if err := q.Validate(); err != nil {
		return Query{}, err
	}
	if s.fingerprint != fingerprint(table, key, q, columns) && !s.madeAsWritten(table, key, q, columns) {
		return Query{}, &PagingStateError{Reason: "made for another table, partition, query or column selection"}
	}
	q = q.After(s.last)
	if r := s.Remaining(); r > 0 && (q.Limit == 0 || r < q.Limit) {
		q.Limit = r
	}
	return q, nil
}

// MarshalBinary encodes s, versioned and checksummed. The zero state is a
// *PagingStateError: it has nothing to carry.
func (s PagingState) MarshalBinary() ([]byte, error) {
	if s.IsZero() {
		return nil, &PagingStateError{Reason: "the zero paging state has nothing to encode"}
	}
	b := make([]byte, 0, minPagingState+2*binary.MaxVarintLen64+len(s.last))
	b = append(b, pagingVersion)
	if s.remaining > 0 {
		b[0] = pagingVersionRemaining
	}
	b = binary.AppendUvarint(b, uint64(len(s.last)))
	b = append(b, s.last...)
	if s.remaining > 0 {
		b = binary.AppendUvarint(b, s.remaining)
	}
	b = binary.BigEndian.AppendUint64(b, s.fingerprint)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded into s, in either
// layout. Bytes that are not such an encoding (of another version,
// truncated, with bytes to spare, a number not written as MarshalBinary
// writes it, or a checksum that does not match) are a *PagingStateError,
// and leave s as it was.
func (s *PagingState) UnmarshalBinary(data []byte) error {
	switch {
	case len(data) == 0:
		return &PagingStateError{Reason: "empty"}
	case data[0] != pagingVersion && data[0] != pagingVersionRemaining:
		return &PagingStateError{Reason: "unknown version " + strconv.Itoa(int(data[0]))}
	}
	n, size := uvarint(data[1:])
	if size <= 0 {
		return &PagingStateError{Reason: "malformed length"}
	}
	key := 1 + size
	if n > uint64(len(data)-key) {
		return &PagingStateError{Reason: "truncated or with bytes to spare"}
	}
	tail := key + int(n)
	var remaining uint64
	if data[0] == pagingVersionRemaining {
		remaining, size = uvarint(data[tail:])
		if size <= 0 || remaining == 0 || remaining > math.MaxInt {
			return &PagingStateError{Reason: "malformed rows remaining"}
		}
		tail += size
	}
	if len(data)-tail != 12 {
		return &PagingStateError{Reason: "truncated or with bytes to spare"}
	}
	end := len(data) - 4
	if crc32.Checksum(data[:end], castagnoli) != binary.BigEndian.Uint32(data[end:]) {
		return &PagingStateError{Reason: "checksum mismatch"}
	}
	*s = PagingState{version: pagingVersion, last: string(data[key : key+int(n)]), remaining: remaining,
		fingerprint: binary.BigEndian.Uint64(data[end-8 : end])}
	return nil
}

// madeAsWritten reports whether s was made, before fingerprints joined
// touching slices, for q as written: such a state still resumes the query
// text that made it. Only a query with touching slices hashes otherwise.
func (s PagingState) madeAsWritten(table, key string, q Query, columns []string) bool {
	return runs(q.Slices) != len(q.Slices) && s.fingerprint == fingerprintAs(table, key, q, columns, false)
}

// uvarint is binary.Uvarint, refusing (size 0) a number written in more
// bytes than it needs, so that one state has one encoding.
func uvarint(b []byte) (uint64, int) {
	v, size := binary.Uvarint(b)
	if size > 1 && b[size-1] == 0 {
		return 0, 0
	}
	return v, size
}

// fingerprint hashes what identifies a paged read: q's slices in canonical
// form (nil as the one slice of every row, touching slices joined, as
// NormalizeSlices joins them), so that equal queries match however their
// slices are written, and the set of columns. Bottom and StartAt("") hash
// alike, though only Bottom leaves a query unrestricted (SelectsAllRows),
// and so do [Bottom, "m") with ["m", Top) and AllRows: a state resumes a
// query after a row, restricted either way, so both read the same. It
// streams the encoding into the hash rather than building it: a read pages
// an IN list of n values with this twice a page, and building it cost two
// growing buffers of the whole list every page.
func fingerprint(table, key string, q Query, columns []string) uint64 {
	return fingerprintAs(table, key, q, columns, true)
}

// fingerprintAs is fingerprint, joining touching slices or, as states made
// before were, not. Slices that do not touch hash alike either way.
func fingerprintAs(table, key string, q Query, columns []string, join bool) uint64 {
	var f fingerprinter
	f.bytes("readpath paging state")
	f.string(table)
	f.string(key)
	sl := q.Slices
	if sl == nil {
		sl = []Slice{AllRows()}
	}
	n := len(sl)
	if join {
		n = runs(sl)
		join = n != len(sl) // none touch: no need to look again
	}
	f.uvarint(uint64(n))
	for i := 0; i < len(sl); i++ {
		start := sl[i].Start
		for join && i+1 < len(sl) && touch(&sl[i].End, &sl[i+1].Start) {
			i++
		}
		f.bound(start.AsStart())
		f.bound(sl[i].End.AsEnd())
	}
	f.byte(flag(q.Reversed, 1))
	f.uvarint(uint64(q.Limit))
	f.columns(columns)
	return f.sum()
}

// runs returns how many slices sl holds once those that touch are joined.
// It tests touch inline: a call a pair took four times as long, which a
// page of an IN list pays twice.
func runs(sl []Slice) int {
	n := len(sl)
	for i := 1; i < len(sl); i++ {
		if e, s := &sl[i-1].End, &sl[i].Start; mayTouch(e, s) && e.Compare(*s) == 0 {
			n--
		}
	}
	return n
}

// touch reports whether the start s is where the end e is.
func touch(e, s *Bound) bool { return mayTouch(e, s) && e.Compare(*s) == 0 }

// mayTouch reports whether e and s may be at one position. Bounds at one
// position have keys of one length, both before or both after it, or one
// key longer by a last byte, a zero: that rules most out (an IN's points,
// [k, k] then [k', k']) before comparing positions.
func mayTouch(e, s *Bound) bool {
	d := len(s.Clustering) - len(e.Clustering)
	return d == 0 && afterKey(e.Kind) == afterKey(s.Kind) || d == 1 || d == -1
}

// afterKey reports whether a bound of kind k stands just after its key.
func afterKey(k BoundKind) bool { return k == BoundExclusiveStart || k == BoundInclusiveEnd }

// fingerprinter feeds xxh3's streaming hash through a small buffer. xxh3
// hashes a stream as it hashes the same bytes in one piece, so the
// fingerprint is the one computed before from the whole encoding (states
// handed out then still resume), and nothing is allocated.
type fingerprinter struct {
	h   xxh3.Hasher
	buf [256]byte
	n   int // bytes of buf not yet written to h
}

// room makes room for n bytes in buf, n at most its size.
func (f *fingerprinter) room(n int) {
	if f.n+n > len(f.buf) {
		f.flush()
	}
}

func (f *fingerprinter) flush() {
	_, _ = f.h.Write(f.buf[:f.n]) // never fails
	f.n = 0
}

func (f *fingerprinter) byte(b byte) {
	f.room(1)
	f.buf[f.n] = b
	f.n++
}

func (f *fingerprinter) uvarint(v uint64) {
	f.room(binary.MaxVarintLen64)
	f.n += binary.PutUvarint(f.buf[f.n:], v)
}

// bytes writes s as it is; string writes it with its length before it.
func (f *fingerprinter) bytes(s string) {
	if len(s) > len(f.buf) {
		f.flush()
		_, _ = f.h.WriteString(s) // never fails
		return
	}
	f.room(len(s))
	f.n += copy(f.buf[f.n:], s)
}

func (f *fingerprinter) string(s string) {
	f.uvarint(uint64(len(s)))
	f.bytes(s)
}

func (f *fingerprinter) bound(b Bound) {
	f.byte(byte(b.Kind))
	f.string(b.Clustering)
}

// columns writes the set of columns, sorted and without repeats, or 0 for
// nil (every column). Up to inlineColumns of them are sorted on the stack.
func (f *fingerprinter) columns(columns []string) {
	if columns == nil {
		f.byte(0)
		return
	}
	var room [inlineColumns]string
	set := append(room[:0], columns...)
	slices.Sort(set)
	set = slices.Compact(set)
	f.byte(1)
	f.uvarint(uint64(len(set)))
	for _, c := range set {
		f.string(c)
	}
}

// inlineColumns is how many selected columns a fingerprint sorts without
// allocating.
const inlineColumns = 16

func (f *fingerprinter) sum() uint64 {
	f.flush()
	return f.h.Sum64()
}
