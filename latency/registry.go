package latency

import (
	"iter"
	"slices"
	"sort"
	"sync"
)

// Registry holds one Tracker per table, created on the table's first use.
// Looking a table up takes no lock once it exists, but it does hash the
// name: resolve a table's tracker once and keep the handle for its reads.
//
// A Registry is safe for concurrent use. The zero Registry is valid and
// creates trackers with default options.
type Registry struct {
	opts     []Option
	trackers sync.Map // table name -> *Tracker
}

// NewRegistry returns an empty registry whose trackers are created with opts.
func NewRegistry(opts ...Option) *Registry {
	return &Registry{opts: slices.Clone(opts)}
}

// Tracker returns the tracker of table, creating it on first use. Concurrent
// first uses of one table get the same tracker.
func (r *Registry) Tracker(table string) *Tracker {
	if t, ok := r.trackers.Load(table); ok {
		return t.(*Tracker)
	}
	t, _ := r.trackers.LoadOrStore(table, NewTracker(r.opts...))
	return t.(*Tracker)
}

// Remove drops table's tracker, as after DROP TABLE, so that a registry
// does not keep every table it has ever seen; the next Tracker call for it
// creates a new one. A handle taken before still records, into the
// dropped tracker. Removing an unknown table does nothing.
func (r *Registry) Remove(table string) { r.trackers.Delete(table) }

// All yields every table and its tracker, in table-name order.
func (r *Registry) All() iter.Seq2[string, *Tracker] {
	return func(yield func(string, *Tracker) bool) {
		var tables []string
		r.trackers.Range(func(k, _ any) bool {
			tables = append(tables, k.(string))
			return true
		})
		sort.Strings(tables)
		for _, table := range tables {
			t, ok := r.trackers.Load(table)
			if !ok { // removed since
				continue
			}
			if !yield(table, t.(*Tracker)) {
				return
			}
		}
	}
}
