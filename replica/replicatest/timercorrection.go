package replicatest

import (
	"sync/atomic"
	"time"
)

// WithTimerCorrection makes the replica shorten its waits by how late the
// platform's timers have been firing, so that it answers after the
// modelled time on average instead of the modelled time plus the timers'
// lateness. A mostly idle Go program's timers fire late: on Linux by up to
// a millisecond, because the runtime sleeps in epoll_wait, which counts in
// milliseconds (golang/go#53824). Without the correction a replica modelled
// at 2 ms answers in 2.3 to 3 ms there. With it one wait may end a little
// early and the next a little late; their mean is the model's. Inside a
// testing/synctest bubble timers are exact and the correction stays zero.
func WithTimerCorrection() Option {
	return func(o *options) { o.timerCorrection = true }
}

// maxCorrection bounds the correction: timers that fire later than this are
// starved of CPU, which no correction should hide.
const maxCorrection = 2 * time.Millisecond

// lateness is a moving average of how late a replica's timers fire.
type lateness struct{ ns atomic.Int64 }

// correct returns how long to set a timer for, to wait d.
func (l *lateness) correct(d time.Duration) time.Duration {
	if l == nil {
		return d
	}
	return d - time.Duration(l.ns.Load())
}

// observe folds in a timer set for d that fired after elapsed.
func (l *lateness) observe(d, elapsed time.Duration) {
	if l == nil {
		return
	}
	late := min(max(elapsed-d, 0), maxCorrection)
	old := l.ns.Load()
	l.ns.Store(old + (int64(late)-old)/16)
}
