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
			t, _ := r.trackers.Load(table)
			if !yield(table, t.(*Tracker)) {
				return
			}
		}
	}
}
