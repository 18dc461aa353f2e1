package coordinator

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// pageFill collects the results of the keys of a ReadMany and watches a
// page of an IN query fill, in key order: once the keys before some key,
// all read, hold the page's rows, the keys from it on can only be cut, so
// no more are started and those in flight are cancelled, instead of reading
// every key of every page (a query of many keys paged by Next read each key
// once per page before it).
type pageFill struct {
	keys   []string
	size   int                // the page's rows; 0: no page, nothing to watch
	stop   context.CancelFunc // cancels the reads of the keys after the page
	isFull atomic.Bool
	// enough is set once the keys read, in any order, hold the page's
	// rows: keys are started in order, so every key not started yet lies
	// past them, after the page, even while one before them is still
	// being read and keeps the page from filling in order.
	enough atomic.Bool

	mu sync.Mutex
	// moved wakes the workers waiting to take a key (take): the page moved
	// on (front, enough), or its context ended.
	moved sync.Cond
	// window is the most keys a page reads from its front on, the
	// concurrency: keys read past an unread key, however few rows they
	// hold, are read again by the next page if it fills the page.
	window int
	// perKey is the most rows one key can give the page (its
	// per-partition limit), or 0 when only the page bounds it: then the
	// rows the keys sampled so far gave, or guess, are the guess of what
	// the next will (see needsMore).
	perKey int
	// guess is, when not 0, the rows per key the page before gave, the
	// guess before any key of this page is sampled, without a perKey.
	guess int
	// resumed is set when the first key continues from the page before's
	// paging state: the rows it has left tell nothing of a key's, and it
	// is not sampled.
	resumed bool
	// sampled is the keys read but a resumed one, sampledRows their live
	// rows: what a key gives. A key that failed counts as giving none, as
	// it gives the page none: behind keys that fail, the page starts
	// more at once, not one a round as a guess would have it; but not one
	// whose read the full page cancelled (stop), which says nothing.
	sampled, sampledRows int
	nread                int         // the keys read
	taken                int         // the keys workers have taken, in order
	done                 bool        // the page's context ended
	unwake               func() bool // stops the wake-up at the context's end (close)
	// out holds a result for every key without a page; with one, for the
	// keys up to the last read: a page reads a few of the keys a long IN
	// list has left, and allocates for those alone.
	out []KeyResult
	// rows holds, per key up to the last read, its live rows once read, or
	// -1.
	rows  []int
	front int // the first key not yet read
	ahead int // the live rows of the keys before front
	got   int // the live rows of every key read
	cut   int // front when the page filled: the first key it leaves out

	panicOnce sync.Once
	panicked  any         // the first panic of a key's read, raised again by raise
	exited    atomic.Bool // a key's read called runtime.Goexit
}

// maxPageRoom bounds the results a page makes room for at first, where its
// keys may each hold many of its rows: past it, they grow as read.
const maxPageRoom = 1024

func newPageFill(ctx context.Context, keys []string, size, window, perKey int, stop context.CancelFunc) *pageFill {
	f := &pageFill{keys: keys, size: size, stop: stop, cut: len(keys), window: window, perKey: perKey}
	f.moved.L = &f.mu
	if size == 0 { // every key is read
		f.out = make([]KeyResult, len(keys))
		for i, k := range keys {
			f.out[i].Key = k // the rest is zero: no copy of a whole KeyResult
		}
		return f
	}
	// Room for a key a row and the window's keys read past the page's
	// last: grown by appends from nothing, a page of 100 keys allocated
	// its results' 584 bytes a key twice over, in eight arrays. size+window
	// only below the cap: a size near math.MaxInt wrapped it negative.
	room := min(len(keys), maxPageRoom)
	if size < room {
		room = min(room, size+window)
	}
	f.out, f.rows = make([]KeyResult, 0, room), make([]int, 0, room)
	f.unwake = context.AfterFunc(ctx, func() {
		f.mu.Lock()
		f.done = true
		f.mu.Unlock()
		f.moved.Broadcast()
	})
	return f
}

// close ends what newPageFill started.
func (f *pageFill) close() {
	if f.unwake != nil {
		f.unwake()
	}
}

// full reports whether the page needs no key that is not started yet.
func (f *pageFill) full() bool { return f.enough.Load() }

// take returns the next key to read, in order, and true; or false once
// there is none, or the page needs no more. A page takes a key at most
// window keys past its front (the first key not yet read), waiting for the
// keys before to be read: behind a late key, the keys read on hold none
// of the page's rows when they hold none at all, and without the window a
// page read every key the list had left, and the next page again. It also
// waits while the keys being read may hold the rows the page still needs
// (needsMore): keys that answer together all finish before the page is
// known full, and 10 keys of 100 rows each, in pages of 200, were read 30
// times over the five pages, every key left read again by each.
func (f *pageFill) take() (int, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.size > 0 && !f.done && !f.full() && f.taken < len(f.keys) && (f.taken >= f.front+f.window || !f.needsMore()) {
		f.moved.Wait()
	}
	if f.full() || f.taken >= len(f.keys) {
		return 0, false
	}
	f.taken++
	return f.taken - 1, true
}

// needsMore reports whether the page may need a key more than those being
// read: whether they could fall short of its rows left, each giving the
// per-partition limit, or without one the rows per key the keys sampled
// so far gave (at least one), or before any is sampled the page before's
// (guess: only without a limit, whose pacing reads each key about once).
// With neither a limit nor a guess, before any key is sampled,
// the window alone bounds the keys taken.
func (f *pageFill) needsMore() bool {
	out := f.taken - f.nread
	est := f.perKey
	switch {
	case f.sampled > 0:
		est = max(f.sampledRows/f.sampled, 1)
	case f.guess > 0 && f.perKey == 0: // a limit is surer
		est = f.guess
	}
	if f.perKey > 0 && est > 0 {
		est = min(est, f.perKey)
	}
	if out == 0 || est == 0 {
		return true
	}
	need := f.size - f.got
	return out < need/est+min(need%est, 1)
}

// rowsPerKey returns the live rows the keys sampled gave a key, rounded
// up, or with none sampled the guess it had.
func (f *pageFill) rowsPerKey() uint32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sampled == 0 {
		return uint32(min(uint64(f.guess), math.MaxUint32)) // an int may be 32 bits
	}
	return uint32(min(uint64((f.sampledRows+f.sampled-1)/f.sampled), math.MaxUint32))
}

// read files r, the result of key i, and stops the page's other reads once
// the keys read in order hold its rows.
func (f *pageFill) read(i int, r KeyResult) {
	rows := 0
	if f.size > 0 && r.Err == nil {
		rows = r.Result.Partition.LiveRows(r.Result.query, r.Result.NowInSec)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.grow(i + 1)
	f.out[i] = r
	f.nread++
	if f.size == 0 {
		return
	}
	for len(f.rows) <= i {
		f.rows = append(f.rows, -1)
	}
	f.rows[i] = rows
	if (i > 0 || !f.resumed) && (r.Err == nil || !f.isFull.Load()) {
		f.sampled++
		f.sampledRows += rows
	}
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
	f.moved.Broadcast()
}

// grow extends out to n keys, each result holding its key.
func (f *pageFill) grow(n int) {
	for len(f.out) < n {
		f.out = append(f.out, KeyResult{Key: f.keys[len(f.out)]})
	}
}

// results returns, once the reads have ended, a result for every key up to
// the page's cut and the first key it leaves out, if any: cut, with nothing
// read, so that Next reads it and those after it again. The keys left out
// after the first are dropped, with what their reads, cancelled, returned.
// Keys before the cut that no worker took would end with ctx's error, but
// there are none today: workers take every key, filing a key taken after
// ctx ended as not started, until the page is full, and a full
// page's rows lie in the keys taken, so its cut is at or before the last
// taken. The loop guards results against a take that stops sooner.
func (f *pageFill) results(ctx context.Context) []KeyResult {
	started := f.taken
	end := min(f.cut+1, len(f.keys))
	f.grow(end)
	out := f.out[:end]
	clear(f.out[end:])
	for i := started; i < f.cut; i++ {
		notStarted(ctx, &out[i])
	}
	if f.cut < len(f.keys) {
		r := &out[f.cut]
		*r = KeyResult{Key: r.Key, Cut: true}
		r.Result.Partition.Key = r.Key
	}
	return out
}
