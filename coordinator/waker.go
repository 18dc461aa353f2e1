package coordinator

import (
	"math"
	"sync/atomic"
)

// waker wakes a read's goroutine when what arrived on its round's channel
// may end its wait: as many answers as would complete the round, a failure,
// or a tick. Waking it for every answer cost a QUORUM read, whose round
// needs both its answers, a switch to a goroutine that had nothing to do
// yet and back, on one core, and a futex wake on two.
//
// A read keeps its waker from round to round and, recycled, from read to
// read. A request of an earlier round, or of the read the state served
// before, that ends late may count here or signal: that only wakes the
// read early, never late, and a read woken early looks and waits again.
type waker struct {
	wake chan struct{} // a token when the read may have what it waits for
	// arrived counts answers pushed on the round's channel; want is the
	// count at which one wakes the read (math.MaxInt32 until it waits).
	arrived, want atomic.Int32
	taken         int32 // answers the read took off the channel (the read's alone)
}

func newWaker() *waker {
	w := &waker{wake: make(chan struct{}, 1)}
	w.want.Store(math.MaxInt32)
	return w
}

// delivered counts an answer just pushed on the round's channel and wakes
// the read if the answers reach what it waits for, or if the request
// failed (the round may no longer be able to complete, and the read must
// act), unless the read is not waiting on the waker (want is
// math.MaxInt32): then it takes the answer off the channel itself.
// Counting after the push is what makes a wake-up never missed: see wait.
func (w *waker) delivered(failed bool) {
	n := w.arrived.Add(1)
	if want := w.want.Load(); n >= want || (failed && want != math.MaxInt32) {
		w.signal()
	}
}

func (w *waker) signal() {
	select {
	case w.wake <- struct{}{}:
	default: // a token is waiting already
	}
}

// next takes what waits on ch, without waiting.
func (w *waker) next(ch chan int) (int, bool) {
	select {
	case idx := <-ch:
		if idx != tick {
			w.taken++
		}
		return idx, true
	default:
		return 0, false
	}
}

// wait returns the next index or tick on ch, waiting until more answers
// than the read took have arrived (at least 1), or a failure or tick, or
// until stop closes (ok false). more must not exceed the answers still to
// come, or only a tick wakes the read: gather waits only while the
// requests out can complete the round, so it asks for no more than they
// are. A wake-up is
// never missed: want is stored before ch is looked at, so an answer pushed
// after that look counts after the store, and the one whose count reaches
// want sees it. A spare token, from a wake-up that look overtook, only
// makes a later wait look once more.
func (w *waker) wait(ch chan int, more int, stop <-chan struct{}) (int, bool) {
	if more <= 1 {
		// The next answer ends the wait: it is handed over on ch itself,
		// without a signal.
		w.want.Store(math.MaxInt32)
		return w.receive(ch, stop)
	}
	for {
		w.want.Store(w.taken + int32(max(more, 1)))
		if idx, ok := w.next(ch); ok {
			return idx, true
		}
		if stop == nil {
			<-w.wake
			continue
		}
		select {
		case <-w.wake:
		case <-stop:
			return w.next(ch) // what came before the stop first: see receive
		}
	}
}

// receive takes the next index or tick off ch, waiting for it, or until
// stop closes: then it still takes what waits on ch first, whenever it
// came (a stop has no place on ch), as Cassandra's ReadCallback counts
// the answers in when a late thread looks. A select with both ready
// picks at random, and a read whose caller's deadline passed while a hook
// held its goroutine took the stop over a quorum that had come in before
// it, now and then, and failed with a timeout; one whose own read timeout
// passed then never did.
func (w *waker) receive(ch chan int, stop <-chan struct{}) (idx int, ok bool) {
	if stop == nil {
		idx, ok = <-ch, true
	} else {
		select {
		case idx, ok = <-ch:
		case <-stop:
			return w.next(ch)
		}
	}
	if idx != tick {
		w.taken++
	}
	return idx, ok
}

// reset starts a round: nothing arrived, nothing taken, no token waiting.
func (w *waker) reset() {
	select {
	case <-w.wake:
	default:
	}
	w.arrived.Store(0)
	w.want.Store(math.MaxInt32)
	w.taken = 0
}
