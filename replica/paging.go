package replica

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
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
// A state only ever narrows the query it resumes (Resume returns that
// query restricted to after the last row), so a forged or stale one can
// make a read skip or repeat rows of its own query but never read outside
// it: the checksum guards against corruption, not forgery.
//
// The zero PagingState resumes nothing. A PagingState is a plain value,
// safe for concurrent use.
type PagingState struct {
	version     byte // 0 in the zero PagingState
	last        string
	fingerprint uint64
}

// pagingVersion is the layout MarshalBinary writes: the version byte, the
// last clustering key (a uvarint length, then its bytes), the fingerprint
// (8 bytes, big-endian) and the CRC-32C of all that (4 bytes, big-endian).
const pagingVersion byte = 1

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

// Resume returns the query that reads the page after s: q restricted to the
// rows after the last one s returned, in q's order (Query.After). The read
// must be the one that made s: the same table, key, query and columns (in
// any order, nil for every column). Otherwise, or for the zero state, it
// returns a *PagingStateError; for an invalid q, q's *QueryError.
func (s PagingState) Resume(table, key string, q Query, columns []string) (Query, error) {
	if s.IsZero() {
		return Query{}, &PagingStateError{Reason: "the zero paging state continues no read"}
	}
	if err := q.Validate(); err != nil {
		return Query{}, err
	}
	if s.fingerprint != fingerprint(table, key, q, columns) {
		return Query{}, &PagingStateError{Reason: "made for another table, partition, query or column selection"}
	}
	return q.After(s.last), nil
}

// MarshalBinary encodes s, versioned and checksummed. The zero state is a
// *PagingStateError: it has nothing to carry.
func (s PagingState) MarshalBinary() ([]byte, error) {
	if s.IsZero() {
		return nil, &PagingStateError{Reason: "the zero paging state has nothing to encode"}
	}
	b := make([]byte, 0, minPagingState+binary.MaxVarintLen64+len(s.last))
	b = append(b, s.version)
	b = binary.AppendUvarint(b, uint64(len(s.last)))
	b = append(b, s.last...)
	b = binary.BigEndian.AppendUint64(b, s.fingerprint)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// UnmarshalBinary decodes what MarshalBinary encoded into s. Bytes that are
// not such an encoding (of another version, truncated, with bytes to spare
// or a checksum that does not match) are a *PagingStateError, and leave s
// as it was.
func (s *PagingState) UnmarshalBinary(data []byte) error {
	switch {
	case len(data) == 0:
		return &PagingStateError{Reason: "empty"}
	case data[0] != pagingVersion:
		return &PagingStateError{Reason: "unknown version " + strconv.Itoa(int(data[0]))}
	}
	n, size := binary.Uvarint(data[1:])
	if size <= 0 {
		return &PagingStateError{Reason: "malformed length"}
	}
	body := 1 + size
	if n > uint64(len(data)) || len(data)-body-12 != int(n) {
		return &PagingStateError{Reason: "truncated or with bytes to spare"}
	}
	end := len(data) - 4
	if crc32.Checksum(data[:end], castagnoli) != binary.BigEndian.Uint32(data[end:]) {
		return &PagingStateError{Reason: "checksum mismatch"}
	}
	last := string(data[body : body+int(n)])
	*s = PagingState{version: pagingVersion, last: last, fingerprint: binary.BigEndian.Uint64(data[end-8 : end])}
	return nil
}

// fingerprint hashes what identifies a paged read: q's slices in canonical
// form (nil as the one slice of every row), so that equal queries match
// however their bounds are written, and the set of columns.
func fingerprint(table, key string, q Query, columns []string) uint64 {
	b := []byte("readpath paging state")
	b = appendString(b, table)
	b = appendString(b, key)
	sl := q.Slices
	if sl == nil {
		sl = []Slice{AllRows()}
	}
	b = binary.AppendUvarint(b, uint64(len(sl)))
	for _, s := range sl {
		b = appendBound(appendBound(b, s.Start.AsStart()), s.End.AsEnd())
	}
	b = append(b, flag(q.Reversed, 1))
	b = binary.AppendUvarint(b, uint64(q.Limit))
	return xxh3.Hash(appendColumns(b, columns))
}

func appendColumns(b []byte, columns []string) []byte {
	if columns == nil {
		return append(b, 0)
	}
	set := slices.Compact(slices.Sorted(slices.Values(columns)))
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(set)))
	for _, c := range set {
		b = appendString(b, c)
	}
	return b
}

func appendBound(b []byte, bd Bound) []byte {
	return appendString(append(b, byte(bd.Kind)), bd.Clustering)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
