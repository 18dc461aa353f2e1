package replica

// Deletion marks a partition or row deleted: everything in it written at or
// before MarkedForDeleteAt (microseconds) is gone. LocalDeletionTime is when
// the deletion was made, in seconds since the Unix epoch; it breaks ties
// between deletions and decides when the tombstone may be purged.
//
// The zero Deletion means "not deleted". A Deletion is a plain value, safe
// for concurrent use.
type Deletion struct {
	MarkedForDeleteAt int64
	LocalDeletionTime int64
}

// DeletedAt returns a deletion at timestamp ts (microseconds) made at
// localDeletionTime (seconds). DeletedAt(0, 0) is the zero Deletion, "not
// deleted": a real deletion is made at a positive local deletion time.
func DeletedAt(ts, localDeletionTime int64) Deletion {
	return Deletion{MarkedForDeleteAt: ts, LocalDeletionTime: localDeletionTime}
}

// IsLive reports whether d is the zero Deletion: nothing is deleted.
func (d Deletion) IsLive() bool { return d == Deletion{} }

// Deletes reports whether d removes data written at timestamp ts
// (microseconds, as MarkedForDeleteAt).
func (d Deletion) Deletes(ts int64) bool {
	return !d.IsLive() && ts <= d.MarkedForDeleteAt
}

// Supersedes reports whether d wins over o: a higher timestamp, then a
// higher local deletion time. Any deletion supersedes the zero Deletion.
func (d Deletion) Supersedes(o Deletion) bool {
	if d.IsLive() || o.IsLive() {
		return !d.IsLive() && o.IsLive()
	}
	if d.MarkedForDeleteAt != o.MarkedForDeleteAt {
		return d.MarkedForDeleteAt > o.MarkedForDeleteAt
	}
	return d.LocalDeletionTime > o.LocalDeletionTime
}

// shadows reports whether d removes the deletion o: d is a deletion and o
// does not supersede it. A row, range or complex deletion shadowed by a
// stronger deletion around it deletes nothing more, and a merge drops it.
func (d Deletion) shadows(o Deletion) bool { return !d.IsLive() && !o.Supersedes(d) }

// max returns the stronger of d and o.
func (d Deletion) max(o Deletion) Deletion {
	if o.Supersedes(d) {
		return o
	}
	return d
}

// ComplexDeletion deletes the cells of one complex column (a collection, a
// non-frozen user-defined type) written at or before Deletion's timestamp:
// DELETE of the whole column, or the deletion that precedes overwriting a
// collection. It deletes nothing outside its column. A ComplexDeletion is a
// plain value, safe for concurrent use.
type ComplexDeletion struct {
	Column   string
	Deletion Deletion
}
