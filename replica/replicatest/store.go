package replicatest

import (
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

// entry is a stored partition and its digest, computed once per write.
type entry struct {
	p replica.Partition
	d digest.Digest
}

func newEntry(p replica.Partition) entry {
	e := entry{p: p}
	e.d = e.p.Digest()
	return e
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

// read answers cmd from what is stored now.
func (s *store) read(cmd replica.Command) replica.Response {
	e, ok := s.get(cmd.Table, cmd.Key)
	if !ok {
		e.p = replica.Partition{Key: cmd.Key}
	}
	if !cmd.DigestOnly {
		return replica.Response{Partition: e.p.Project(cmd.Columns)}
	}
	if ok && cmd.Columns == nil {
		return replica.Response{Digest: e.d}
	}
	p := e.p.Project(cmd.Columns)
	return replica.Response{Digest: p.Digest()}
}
