package coordinator

import (
	"context"
	"sync"
	"sync/atomic"
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
	// enough is set once the keys read, in any order, hold the page's
	// rows: keys are started in order, so every key not started yet lies
	// past them, after the page, even while one before them is still
	// being read and keeps the page from filling in order.
	enough atomic.Bool

	mu sync.Mutex
	// rows holds, per key up to the last read, its live rows once read, or
	// -1. It grows with the keys read, not with all the page's keys: a
	// page reads a few of the keys a long IN list has left.
	rows  []int
	front int // the first key not yet read
	ahead int // the live rows of the keys before front
	got   int // the live rows of every key read
	cut   int // front when the page filled: the first key it leaves out
}

func newPageFill(size, keys int, stop context.CancelFunc) *pageFill {
	return &pageFill{size: size, stop: stop, cut: keys}
}

// full reports whether the page needs no key that is not started yet.
func (f *pageFill) full() bool { return f.enough.Load() }

// read counts key i, whose read has ended with out[i], and stops the page's
// other reads once the keys read in order hold its rows.
func (f *pageFill) read(i int, out []KeyResult) {
	if f.size == 0 {
		return
	}
	rows := 0
	if r := &out[i]; r.Err == nil {
		rows = r.Result.Partition.LiveRows(r.Result.query, r.Result.NowInSec)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.rows) <= i {
		f.rows = append(f.rows, -1)
	}
	f.rows[i] = rows
	if f.got += rows; f.got >= f.size {
		f.enough.Store(true)
	}
	for f.front < len(f.rows) && f.rows[f.front] >= 0 && f.ahead < f.size {
		f.ahead += f.rows[f.front]
		f.front++
	}
	if f.ahead >= f.size && !f.isFull.Load() {
		f.cut = f.front
		f.isFull.Store(true)
		f.stop()
	}
}

// leaveOut gives the keys the page left out the result of a key after the
// page's limit: cut, with nothing read, so that Next reads them again.
// Their reads, if started (those before started), were cancelled or are
// dropped; the others' results hold their key alone, and are set field by
// field, where writing each whole KeyResult cost a copy of 568 bytes (a
// bulk write barrier while the collector marks) for every key a long IN
// list has left.
func (f *pageFill) leaveOut(out []KeyResult, started int) {
	for i := f.cut; i < len(out); i++ {
		r := &out[i]
		if i < started {
			*r = KeyResult{Key: r.Key}
		}
		r.Cut, r.Result.Partition.Key = true, r.Key
	}
}
