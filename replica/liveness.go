package replica

import "cmp"

// Liveness is a row's primary-key liveness (Cassandra's LivenessInfo): the
// timestamp, and the time to live, of the INSERT that wrote the row. A row
// whose liveness is live exists even when none of its cells does; a row
// written only by UPDATE has none, and exists only while one of its cells
// is live.
//
// The zero Liveness means "none". So an INSERT at timestamp 0 without a TTL
// cannot be told apart from no INSERT: use real timestamps. A Liveness is a
// plain value, safe for concurrent use.
type Liveness struct {
	// Timestamp is the write time in microseconds since the Unix epoch.
	Timestamp int64
	// ExpiresAt is when an expiring liveness expires, in seconds since the
	// Unix epoch; 0 unless TTL > 0.
	ExpiresAt int64
	// TTL is the time to live in seconds; 0 means it does not expire.
	TTL int32
}

// Inserted returns the liveness of a row inserted at ts (microseconds).
func Inserted(ts int64) Liveness { return Liveness{Timestamp: ts} }

// InsertedWithTTL returns the liveness of a row inserted at ts
// (microseconds) with a time to live of ttl seconds, expiring at expiresAt
// (seconds since the Unix epoch).
func InsertedWithTTL(ts int64, ttl int32, expiresAt int64) Liveness {
	return Liveness{Timestamp: ts, TTL: ttl, ExpiresAt: expiresAt}
}

// IsEmpty reports whether l is the zero Liveness: the row has none.
func (l Liveness) IsEmpty() bool { return l == Liveness{} }

// IsExpiring reports whether l has a time to live.
func (l Liveness) IsExpiring() bool { return l.TTL > 0 }

// IsLive reports whether l keeps its row alive at nowInSec (seconds since
// the epoch): it is not empty and has not expired. Deletions that shadow it
// are not considered. An expired liveness is not a tombstone: it deletes
// nothing, it only stops keeping its row.
func (l Liveness) IsLive(nowInSec int64) bool {
	return !l.IsEmpty() && (!l.IsExpiring() || nowInSec < l.ExpiresAt)
}

// Supersedes reports whether l wins over o when two versions of a row meet,
// by Cassandra's rules (LivenessInfo.supersedes, 5.0): the higher timestamp;
// on a tie, an expiring liveness over one that does not expire, and of two
// that expire the later expiry. Any liveness supersedes none. Unlike
// Cassandra, two that tie on all of that and differ in TTL are ordered by
// TTL, so that the winner never depends on the order of the replies.
func (l Liveness) Supersedes(o Liveness) bool {
	if l.IsEmpty() || o.IsEmpty() {
		return !l.IsEmpty() && o.IsEmpty()
	}
	if l.Timestamp != o.Timestamp {
		return l.Timestamp > o.Timestamp
	}
	if l.IsExpiring() != o.IsExpiring() {
		return l.IsExpiring()
	}
	if c := cmp.Compare(l.ExpiresAt, o.ExpiresAt); c != 0 {
		return c > 0
	}
	return l.TTL > o.TTL
}
