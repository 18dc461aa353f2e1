package replicatest

import (
	"math"
	"sync"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// store holds a replica's partitions by table and key. Stored partitions
// are never modified: Seed stores a copy and Apply replaces a partition by
// its merge, which shares no memory with it. So a read may hand out the
// stored value itself, and the lock is held only for map operations and
// merges, never across a wait.
type store struct {
	mu     sync.RWMutex
	tables map[string]map[string]entry
}

// entry is a stored partition, the answer to a digest read of all of it
// at the newest version, computed once per write, and the read times at
// which that answer is still what Respond gives.
type entry struct {
	p replica.Partition
	d digest.Digest
	// tombstones is how many tombstones that read counts.
	tombstones int
	// Respond answers the same while nowInSec < expiry and gcBefore <=
	// deletion: no cell or liveness has expired and no tombstone is old
	// enough to purge.
	expiry, deletion int64
}

func newEntry(p replica.Partition) entry {
	e := entry{p: p, expiry: math.MaxInt64, deletion: math.MaxInt64}
	// A read at time 0 expires and purges nothing, as reads before the
	// horizon do not.
	resp, _ := replica.Command{Key: p.Key, DigestOnly: true}.Respond(p)
	e.d, e.tombstones = resp.Digest, resp.Tombstones
	e.horizon()
	return e
}

// horizon sets e.expiry to the earliest expiry of a cell or row liveness,
// and e.deletion to the earliest local deletion time of a tombstone or
// expiry of a row liveness.
func (e *entry) horizon() {
	e.deleted(e.p.Deletion)
	e.row(&e.p.Static)
	for _, rt := range e.p.RangeTombstones {
		e.deleted(rt.Deletion)
	}
	for i := range e.p.Rows {
		e.row(&e.p.Rows[i])
	}
}

func (e *entry) deleted(d replica.Deletion) {
	if !d.IsLive() {
		e.deletion = min(e.deletion, d.LocalDeletionTime)
	}
}

func (e *entry) row(r *replica.Row) {
	e.deleted(r.Deletion)
	if r.Liveness.IsExpiring() {
		e.deletion = min(e.deletion, r.Liveness.ExpiresAt)
		e.expiry = min(e.expiry, r.Liveness.ExpiresAt)
	}
	for _, cd := range r.ComplexDeletions {
		e.deleted(cd.Deletion)
	}
	for _, c := range r.Cells {
		switch {
		case c.Tombstone:
			e.deletion = min(e.deletion, c.LocalDeletionTime)
		case c.IsExpiring():
			e.expiry = min(e.expiry, c.LocalDeletionTime)
		}
	}
}

// get returns the entry of (table, key), or an empty partition's.
func (s *store) get(table, key string) (entry, bool) {
	s.mu.RLock()
	e, ok := s.tables[table][key]
	s.mu.RUnlock()
	return e, ok
}

// put replaces the partition of (table, p.Key) by a copy of p.
func (s *store) put(table string, p replica.Partition) {
	e := newEntry(p.Clone())
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tableLocked(table)[p.Key] = e
}

// merge merges p into the partition of (table, p.Key).
func (s *store) merge(table string, p replica.Partition) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tableLocked(table)
	old, ok := t[p.Key]
	if !ok {
		old.p = replica.Partition{Key: p.Key}
	}
	merged, err := repair.Merge(old.p, p)
	if err != nil {
		return err
	}
	t[p.Key] = newEntry(merged)
	return nil
}

func (s *store) tableLocked(table string) map[string]entry {
	if s.tables == nil {
		s.tables = make(map[string]map[string]entry)
	}
	t := s.tables[table]
	if t == nil {
		t = make(map[string]entry)
		s.tables[table] = t
	}
	return t
}

// read answers cmd from what is stored now, by cmd.Respond. A digest-only
// read of a whole partition at the newest version that the read time does
// not change and the tombstone threshold lets through is the stored
// answer: no need to compute it again.
func (s *store) read(cmd replica.Command) (replica.Response, error) {
	e, ok := s.get(cmd.Table, cmd.Key)
	if ok && cmd.DigestOnly && e.answers(cmd) && cmd.Validate() == nil {
		return replica.Response{Digest: e.d, Tombstones: e.tombstones}, nil
	}
	return cmd.Respond(e.p)
}

// answers reports whether e's stored answer is Respond's to the digest read
// cmd.
func (e *entry) answers(cmd replica.Command) bool {
	return cmd.Columns == nil && cmd.Query.Slices == nil && cmd.Query.Limit == 0 &&
		(cmd.DigestVersion == 0 || cmd.DigestVersion == digest.Latest) &&
		cmd.NowInSec < e.expiry && cmd.GCBefore <= e.deletion &&
		(cmd.TombstoneFailureThreshold == 0 || e.tombstones <= cmd.TombstoneFailureThreshold)
}
