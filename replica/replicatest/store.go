package replicatest

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// store holds a replica's partitions by table and key. A stored entry is
// never modified (but for its fold, made once): Seed stores a copy, Apply
// stores a new entry holding the write, and what a fold merges shares no
// memory with its inputs. So a read may hand out the stored value itself,
// found without a lock (readers on every core shared a read lock's count),
// and the write lock is held only to chain a write on to the entry it
// replaces, never across a wait.
type store struct {
	mu      sync.Mutex // writes
	entries sync.Map   // partKey -> *entry
}

// entry is a stored partition: a chain of writes, newest first, over the
// partition the chain starts from (base: as seeded, or as folded before; a
// seeded entry has no writes). The writes are merged only when a read first
// needs the result. So n writes with no read between them cost one merge of
// them all, O(n log n), not a merge of the whole partition each, O(n²):
// 10,000 one-row writes to one partition took 18 s when every write merged
// the partition and digested it again. A folded chain is kept until a
// write replaces its newest entry: clearing it would race with a write
// chaining on to it. The chain links writes, not entries, so that an entry
// folded after a write replaced it (by a reader that took it just before)
// is garbage once that reader is done.
type entry struct {
	base   *replica.Partition
	writes *write // nil for a seeded entry
	n      int    // the writes of the chain
	held   int    // their rows and range tombstones (at least 1 a write)
	once   sync.Once
	v      *view       // set by once
	folded atomic.Bool // v is set: a later write may start a chain from it
}

// write is one validated, copied write of a chain, and the writes before it.
type write struct {
	p    replica.Partition
	prev *write
}

// view is an entry's partition with its writes merged, or the merge's
// error, which validated writes cannot have.
type view struct {
	p   replica.Partition
	err error
	// The answer to a digest read of all of p at the newest version, made
	// when a read first needs it.
	once sync.Once
	a    answer
}

// answer is a digest read's answer, and the read times at which it is still
// what Respond gives.
type answer struct {
	d digest.Digest
	// tombstones is how many tombstones that read counts.
	tombstones int
	// Respond answers the same while nowInSec < expiry and gcBefore <=
	// deletion: no cell or liveness has expired and no tombstone is old
	// enough to purge.
	expiry, deletion int64
}

// minFold is how many rows and range tombstones (one-row writes: how many
// writes) a chain holds unmerged before Apply folds them, whatever the
// partition's size: few, so that a partition rewritten in place without
// reads stays small.
const minFold = 64

// view returns e's partition with its writes merged, merging them on the
// first call.
func (e *entry) view() *view {
	e.once.Do(func() {
		e.v = e.fold()
		e.folded.Store(true)
	})
	return e.v
}

// fold merges the chain's writes into its base: the writes first, joined
// into runs and the runs merged two by two (Merge is associative and
// commutative; a k-way merge costs O(rows·k)), then their merge into base.
func (e *entry) fold() *view {
	if e.n == 0 {
		return &view{p: *e.base}
	}
	ps := make([]replica.Partition, 0, e.n)
	for w := e.writes; w != nil; w = w.prev {
		ps = append(ps, w.p)
	}
	merged, err := mergePairs(runs(ps))
	if err == nil {
		merged, err = repair.Merge(*e.base, merged)
	}
	if err != nil {
		return &view{p: *e.base, err: err}
	}
	return &view{p: merged}
}

// answer returns the answer to a digest read of all of v.p at the newest
// version, computing it on the first call.
func (v *view) answer() *answer {
	v.once.Do(func() {
		a := answer{expiry: math.MaxInt64, deletion: math.MaxInt64}
		// A read at time 0 expires and purges nothing, as reads before the
		// horizon do not.
		resp, _ := replica.Command{Key: v.p.Key, DigestOnly: true}.Respond(v.p)
		a.d, a.tombstones = resp.Digest, resp.Tombstones
		a.horizon(&v.p)
		v.a = a
	})
	return &v.a
}

// mergePairs merges ps, which it overwrites, a pair at a time until one is
// left.
func mergePairs(ps []replica.Partition) (replica.Partition, error) {
	for len(ps) > 1 {
		next := ps[:0]
		for i := 0; i < len(ps); i += 2 {
			if i+1 == len(ps) {
				next = append(next, ps[i])
				break
			}
			m, err := repair.Merge(ps[i], ps[i+1])
			if err != nil {
				return replica.Partition{}, err
			}
			next = append(next, m)
		}
		ps = next
	}
	return ps[0], nil
}

// horizon sets a.expiry to the earliest expiry of a cell or row liveness
// of p, and a.deletion to the earliest local deletion time of a tombstone
// or expiry of a row liveness.
func (a *answer) horizon(p *replica.Partition) {
	a.deleted(p.Deletion)
	a.row(&p.Static)
	for _, rt := range p.RangeTombstones {
		a.deleted(rt.Deletion)
	}
	for i := range p.Rows {
		a.row(&p.Rows[i])
	}
}

func (a *answer) deleted(d replica.Deletion) {
	if !d.IsLive() {
		a.deletion = min(a.deletion, d.LocalDeletionTime)
	}
}

func (a *answer) row(r *replica.Row) {
	a.deleted(r.Deletion)
	if r.Liveness.IsExpiring() {
		a.deletion = min(a.deletion, r.Liveness.ExpiresAt)
		a.expiry = min(a.expiry, r.Liveness.ExpiresAt)
	}
	for _, cd := range r.ComplexDeletions {
		a.deleted(cd.Deletion)
	}
	for _, c := range r.Cells {
		switch {
		case c.Tombstone:
			a.deletion = min(a.deletion, c.LocalDeletionTime)
		case c.IsExpiring():
			a.expiry = min(a.expiry, c.LocalDeletionTime)
		}
	}
}

// get returns the entry of (table, key), or nil.
func (s *store) get(table, key string) *entry {
	if e, ok := s.entries.Load(partKey{table, key}); ok {
		return e.(*entry)
	}
	return nil
}

// put replaces the partition of (table, p.Key) by a copy of p.
func (s *store) put(table string, p replica.Partition) {
	c := p.Clone()
	e := &entry{base: &c}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries.Store(partKey{table, p.Key}, e)
}

// merge merges p into the partition of (table, p.Key): it stores p's
// validated copy as the newest write, and folds the writes when their rows
// and range tombstones outnumber the rows they are to be merged into (so a
// fold's cost is amortized over what it merges, and what is held unmerged
// stays within the partition's size).
func (s *store) merge(table string, p replica.Partition) error {
	if p.Validate() != nil {
		// The error merging p into what is stored would give.
		_, err := repair.Merge(replica.Partition{Key: p.Key}, p)
		return err
	}
	w := &write{p: p.Clone()} // a third of what merging it with nothing allocates
	s.mu.Lock()
	defer s.mu.Unlock()
	size := max(1, len(w.p.Rows)+len(w.p.RangeTombstones))
	e := &entry{writes: w, n: 1, held: size}
	switch old := s.get(table, p.Key); {
	case old == nil:
		e.base = &replica.Partition{Key: p.Key}
	case old.folded.Load() && old.v.err == nil: // a failed fold's writes are kept in its chain
		e.base = &old.v.p
	case old.n == 0: // seeded: a chain of no writes
		e.base = old.base
	default:
		e.base, e.n, e.held = old.base, old.n+1, old.held+size
		w.prev = old.writes
	}
	// Counting rows, not writes: 1,000 writes of a 1,000-row partition
	// would otherwise hold a million rows for a partition of a thousand.
	if e.held > max(minFold, len(e.base.Rows)) {
		e.view()
	}
	s.entries.Store(partKey{table, p.Key}, e)
	return nil
}

// read answers cmd from what is stored now, by cmd.Respond. A digest-only
// read of a whole partition at the newest version that the read time does
// not change and the tombstone threshold lets through is the stored
// answer, computed once: no need to compute it again.
func (s *store) read(cmd replica.Command) (replica.Response, error) {
	e := s.get(cmd.Table, cmd.Key)
	if e == nil {
		return cmd.Respond(replica.Partition{})
	}
	v := e.view()
	if v.err != nil {
		return replica.Response{}, v.err
	}
	if cmd.DigestOnly && whole(cmd) && cmd.Validate() == nil {
		if a := v.answer(); a.holdsAt(cmd) {
			return replica.Response{Digest: a.d, Tombstones: a.tombstones}, nil
		}
	}
	return cmd.Respond(v.p)
}

// whole reports whether the digest read cmd reads all of a partition at
// the newest version, as a stored answer does.
func whole(cmd replica.Command) bool {
	return cmd.Columns == nil && cmd.Query.Slices == nil && cmd.Query.Limit == 0 &&
		(cmd.DigestVersion == 0 || cmd.DigestVersion == digest.Latest)
}

// holdsAt reports whether a is Respond's answer to the digest read cmd,
// which reads the whole partition: its read time changes nothing and its
// tombstone threshold lets the answer through.
func (a *answer) holdsAt(cmd replica.Command) bool {
	return cmd.NowInSec < a.expiry && cmd.GCBefore <= a.deletion &&
		(cmd.TombstoneFailureThreshold == 0 || a.tombstones <= cmd.TombstoneFailureThreshold)
}
