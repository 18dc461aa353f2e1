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
// and the lock is held only for map operations, never across a wait.
type store struct {
	mu     sync.RWMutex
	tables map[string]map[string]*entry
}

// entry is a stored partition: base, as seeded or as folded before, and
// the writes applied since, merged into it only when a read first needs
// the result. So n writes with no read between them cost one merge of
// them all, O(n log n), not a merge of the whole partition each,
// O(n²): 16,000 one-row writes to one partition took 46 s when every
// write merged and digested it.
type entry struct {
	base   replica.Partition
	writes *write // newest first
	n      int    // how many writes
	once   sync.Once
	v      view
	folded atomic.Bool // v is set: a later entry may start from it
}

// write is one applied mutation's partition, validated and copied, and the
// writes before it.
type write struct {
	p    replica.Partition
	prev *write
}

// view is an entry's partition with its writes merged, the answer to a
// digest read of all of it at the newest version, and the read times at
// which that answer is still what Respond gives.
type view struct {
	p replica.Partition
	d digest.Digest
	// tombstones is how many tombstones that read counts.
	tombstones int
	// Respond answers the same while nowInSec < expiry and gcBefore <=
	// deletion: no cell or liveness has expired and no tombstone is old
	// enough to purge.
	expiry, deletion int64
	// err is the fold's merge error, which validated writes cannot have.
	err error
}

// minFold is how many writes an entry holds unmerged before Apply folds
// them, whatever the partition's size: few, so that a partition rewritten
// in place without reads stays small.
const minFold = 64

// view returns e's partition with its writes merged, merging them on the
// first call.
func (e *entry) view() *view {
	e.once.Do(func() {
		e.v = fold(e.base, e.writes, e.n)
		e.folded.Store(true)
	})
	return &e.v
}

// fold merges writes into base: the writes first, joined into runs and the
// runs merged two by two (Merge is associative and commutative; a k-way
// merge costs O(rows·k)), then their merge into base.
func fold(base replica.Partition, w *write, n int) view {
	p := base
	if n > 0 {
		ps := make([]replica.Partition, 0, n)
		for ; w != nil; w = w.prev {
			ps = append(ps, w.p)
		}
		merged, err := mergePairs(runs(ps))
		if err == nil {
			p, err = repair.Merge(base, merged)
		}
		if err != nil {
			return view{p: base, err: err}
		}
	}
	v := view{p: p, expiry: math.MaxInt64, deletion: math.MaxInt64}
	// A read at time 0 expires and purges nothing, as reads before the
	// horizon do not.
	resp, _ := replica.Command{Key: p.Key, DigestOnly: true}.Respond(p)
	v.d, v.tombstones = resp.Digest, resp.Tombstones
	v.horizon()
	return v
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

// horizon sets v.expiry to the earliest expiry of a cell or row liveness,
// and v.deletion to the earliest local deletion time of a tombstone or
// expiry of a row liveness.
func (v *view) horizon() {
	v.deleted(v.p.Deletion)
	v.row(&v.p.Static)
	for _, rt := range v.p.RangeTombstones {
		v.deleted(rt.Deletion)
	}
	for i := range v.p.Rows {
		v.row(&v.p.Rows[i])
	}
}

func (v *view) deleted(d replica.Deletion) {
	if !d.IsLive() {
		v.deletion = min(v.deletion, d.LocalDeletionTime)
	}
}

func (v *view) row(r *replica.Row) {
	v.deleted(r.Deletion)
	if r.Liveness.IsExpiring() {
		v.deletion = min(v.deletion, r.Liveness.ExpiresAt)
		v.expiry = min(v.expiry, r.Liveness.ExpiresAt)
	}
	for _, cd := range r.ComplexDeletions {
		v.deleted(cd.Deletion)
	}
	for _, c := range r.Cells {
		switch {
		case c.Tombstone:
			v.deletion = min(v.deletion, c.LocalDeletionTime)
		case c.IsExpiring():
			v.expiry = min(v.expiry, c.LocalDeletionTime)
		}
	}
}

// get returns the entry of (table, key), or nil.
func (s *store) get(table, key string) *entry {
	s.mu.RLock()
	e := s.tables[table][key]
	s.mu.RUnlock()
	return e
}

// put replaces the partition of (table, p.Key) by a copy of p.
func (s *store) put(table string, p replica.Partition) {
	e := &entry{base: p.Clone()}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tableLocked(table)[p.Key] = e
}

// merge merges p into the partition of (table, p.Key): it stores p's
// validated copy as the newest write, and folds the writes when they
// outnumber the rows they are to be merged into (so a fold's cost is
// amortized over the writes it merges).
func (s *store) merge(table string, p replica.Partition) error {
	// Merging with nothing validates p, with the error merging it into
	// what is stored would give, and copies it.
	w, err := repair.Merge(replica.Partition{Key: p.Key}, p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tableLocked(table)
	e := &entry{base: replica.Partition{Key: p.Key}, writes: &write{p: w}, n: 1}
	switch old := t[p.Key]; {
	case old == nil:
	case old.folded.Load():
		e.base = old.v.p
	default:
		e.base, e.writes.prev, e.n = old.base, old.writes, old.n+1
	}
	if e.n > max(minFold, len(e.base.Rows)) {
		e.view()
	}
	t[p.Key] = e
	return nil
}

func (s *store) tableLocked(table string) map[string]*entry {
	if s.tables == nil {
		s.tables = make(map[string]map[string]*entry)
	}
	t := s.tables[table]
	if t == nil {
		t = make(map[string]*entry)
		s.tables[table] = t
	}
	return t
}

// read answers cmd from what is stored now, by cmd.Respond. A digest-only
// read of a whole partition at the newest version that the read time does
// not change and the tombstone threshold lets through is the stored
// answer: no need to compute it again.
func (s *store) read(cmd replica.Command) (replica.Response, error) {
	e := s.get(cmd.Table, cmd.Key)
	if e == nil {
		return cmd.Respond(replica.Partition{})
	}
	v := e.view()
	if v.err != nil {
		return replica.Response{}, v.err
	}
	if cmd.DigestOnly && v.answers(cmd) && cmd.Validate() == nil {
		return replica.Response{Digest: v.d, Tombstones: v.tombstones}, nil
	}
	return cmd.Respond(v.p)
}

// answers reports whether v's stored answer is Respond's to the digest read
// cmd.
func (v *view) answers(cmd replica.Command) bool {
	return cmd.Columns == nil && cmd.Query.Slices == nil && cmd.Query.Limit == 0 &&
		(cmd.DigestVersion == 0 || cmd.DigestVersion == digest.Latest) &&
		cmd.NowInSec < v.expiry && cmd.GCBefore <= v.deletion &&
		(cmd.TombstoneFailureThreshold == 0 || v.tombstones <= cmd.TombstoneFailureThreshold)
}
