package coordinator

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/readpath/readpath/replica"
)

// pageFill watches a page of an IN query fill, in key order: once the keys
// before some key, all read, hold the page's rows, the keys from it on can
// only be cut, so no more are started and those in flight are cancelled,
// instead of reading every key of every page (a query of many keys paged
// by Next read each key once per page before it).
type pageFill struct {
	size   int                // the page's rows; 0: no page, nothing to watch
	stop   context.CancelFunc // cancels the reads of the keys after the page
	isFull atomic.Bool

	mu    sync.Mutex
	done  []bool
	front int // the first key not yet read
	rows  int // the live rows of the keys before front
	cut   int // front when the page filled: the first key it leaves out
}

func newPageFill(size, keys int, stop context.CancelFunc) *pageFill {
	f := &pageFill{size: size, stop: stop, cut: keys}
	if size > 0 {
		f.done = make([]bool, keys)
	}
	return f
}

// full reports whether the page holds its rows: keys not started need not be.
func (f *pageFill) full() bool { return f.isFull.Load() }

// read counts key i, whose read has ended with out[i], and stops the page's
// other reads once the keys read in order hold its rows.
func (f *pageFill) read(i int, out []KeyResult) {
	if f.size == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done[i] = true
	for f.front < len(f.done) && f.done[f.front] && f.rows < f.size {
		if r := &out[f.front]; r.Err == nil {
			f.rows += r.Result.Partition.LiveRows(r.Result.query, r.Result.NowInSec)
		}
		f.front++
	}
	if f.rows >= f.size && !f.isFull.Load() {
		f.cut = f.front
		f.isFull.Store(true)
		f.stop()
	}
}

// leaveOut gives the keys the page left out the result of a key after the
// page's limit: cut, with nothing read, so that Next reads them again.
// Their reads, if started, were cancelled or are dropped.
func (f *pageFill) leaveOut(out []KeyResult) {
	for i := f.cut; i < len(out); i++ {
		k := out[i].Key
		out[i] = KeyResult{Key: k, Cut: true, Result: Result{Partition: replica.Partition{Key: k}}}
	}
}
