package latency

import (
	"sync/atomic"
	"time"
)

// DefaultRefresh is how long a Threshold keeps a computed value unless
// WithRefresh says otherwise.
const DefaultRefresh = time.Second

// Threshold caches the speculation threshold of one table: its policy applied
// to its tracker. Load is on every read's path and costs one atomic load
// while the cached value is fresh; the first Load to find it older than the
// refresh interval recomputes it, and concurrent Loads keep using the old
// value meanwhile. Nothing runs in the background.
//
// Until a table has enough samples for the policy's percentile p to mean
// something, ⌈2/(1-p)⌉ of them (200 for 99p, so that two lie above it), a
// percentile-based threshold is half the read timeout, unless a refresh
// finds fewer (the first Load, or one a refresh interval later) and takes
// their percentile, as Cassandra does; the first Load that finds enough
// computes the threshold at once, without waiting for the refresh interval.
// Meanwhile a Load also checks the tracker's sample count, one more atomic
// load. A policy of 99.997p or above needs more samples than a tracker
// counts early, and takes its first value at its first refresh.
//
// A Threshold is safe for concurrent use. Create it with NewThreshold.
type Threshold struct {
	tracker    *Tracker
	refresh    time.Duration
	state      atomic.Pointer[thresholdState]
	refreshing atomic.Bool // claimed by the Load that recomputes
}

// thresholdState is immutable once published.
type thresholdState struct {
	policy    SpeculativeRetry
	d         time.Duration
	speculate bool
	memory
	next time.Time // the next refresh; zero: on the next Load
	// due is when Load stops returning d without a look: next, or the zero
	// time while the threshold waits for need samples.
	due time.Time
	// from is a refresh interval before the refresh that computed it: a
	// Load at a time before it finds the caller's clock stepped back, and
	// refreshes. Zero for a state no refresh computed.
	from time.Time
	need uint32 // samples that make the first threshold; 0 once it had them
}

// memory is what a threshold's state hands on to the next one.
type memory struct {
	// kept is what an empty window keeps: the last threshold that followed
	// latency or a fixed delay, never ALWAYS's 0, nor a delay of 0 ms.
	kept time.Duration
	// tail is what Tail returns: d under a policy with a percentile (but
	// for MIN's bound of 0 ms), else what the percentile of learnt, as a
	// policy, would have set.
	tail time.Duration
	// learnt is the percentile of the last policy that had one (99p
	// before any), as a PERCENTILE policy.
	learnt SpeculativeRetry
}

// ThresholdOption configures a Threshold. Options are immutable and may
// be shared between goroutines.
type ThresholdOption func(*Threshold)

// WithRefresh sets how long a computed threshold is reused (default
// DefaultRefresh). A d of 0 or less recomputes it on every Load.
func WithRefresh(d time.Duration) ThresholdOption {
	return func(th *Threshold) { th.refresh = d }
}

// NewThreshold returns the cached threshold of policy p over tracker t for a
// table whose reads time out after readTimeout. Until t has enough samples,
// or until the first refresh finds some, a percentile-based policy answers
// readTimeout/2: late enough not to hedge every read of a table nobody has
// measured yet, early enough to rescue a read from a stalled replica. A
// readTimeout of 0 or less makes that threshold 0: such a policy hedges
// every read at once until then (coordinator.New refuses a negative
// ReadTimeout and takes 0 as its 5 s default). A nil t stands for a tracker
// that never gets a sample.
func NewThreshold(p SpeculativeRetry, t *Tracker, readTimeout time.Duration, opts ...ThresholdOption) *Threshold {
	if t == nil {
		t = NewTracker()
	}
	th := &Threshold{tracker: t, refresh: DefaultRefresh}
	for _, o := range opts {
		if o != nil {
			o(th)
		}
	}
	start := max(readTimeout/2, 0)
	m := memory{kept: start, tail: start, learnt: defaultPolicy}
	th.state.Store(th.compute(p, m, m.kept, time.Time{}))
	return th
}

// compute returns the state of policy p now, after the state that handed
// on m, to be refreshed at next. An empty window keeps previous: m.kept
// for a policy just set, the threshold in force for one refreshed. They
// differ only under MIN(Xp,0ms), whose 0 no other policy keeps (see
// memory.kept), but an idle table under it keeps, as Cassandra keeps a
// threshold's existing value: it went back to the last percentile's. A
// zero next is due at once, so that the first Load refreshes it on
// schedule; meanwhile concurrent Loads get p's value, not the previous
// policy's or a placeholder: a fixed 10 ms is 10 ms from the first read.
func (th *Threshold) compute(p SpeculativeRetry, m memory, previous time.Duration, next time.Time) *thresholdState {
	n := th.tracker.recorded() // before the quantile, which sees at least these
	d, speculate := p.threshold(th.tracker.quantile, previous)
	if p.keepsThreshold() {
		m.kept = d
	}
	if p.hasPercentile() {
		m.learnt = SpeculativeRetry{kind: KindPercentile, pct: p.norm().pct}
	}
	if p.hasPercentile() && p.keepsThreshold() {
		m.tail = d
	} else { // MIN(Xp,0ms), ALWAYS by another name, too: its threshold is 0
		m.tail, _ = m.learnt.threshold(th.tracker.quantile, m.tail)
	}
	st := &thresholdState{policy: p, d: d, speculate: speculate, memory: m, next: next, due: next}
	if need := p.minSamples(); n < need {
		st.need, st.due = need, time.Time{}
	}
	return st
}

// Load returns the threshold at time now: a read that has not completed d
// after it started should speculate, unless speculate is false (NEVER).
// A now more than a refresh interval before the last refresh (a wall clock
// set back) refreshes the threshold too, so that it follows the table's
// latency from there on.
// Load does not compare d with the read timeout or a deadline; the caller
// does, so that it can count the speculations it suppresses.
func (th *Threshold) Load(now time.Time) (d time.Duration, speculate bool) {
	st := th.state.Load()
	if !now.Before(st.due) || now.Before(st.from) {
		st = th.recompute(now)
	}
	return st.d, st.speculate
}

// LoadFor is Load for a caller that holds policy p, which SetPolicy may
// have replaced since it took it: a read that must finish under the policy
// it started with. The policy in force, or one Equal to it, answers as
// Load does; another one gets its own threshold over the same tracker,
// computed for this call and not kept (a read that races an ALTER TABLE,
// so rare).
func (th *Threshold) LoadFor(p SpeculativeRetry, now time.Time) (d time.Duration, speculate bool) {
	st := th.state.Load()
	if st.policy.Equal(p) {
		if now.Before(st.due) && !now.Before(st.from) {
			return st.d, st.speculate
		}
		// recompute loads the state again: a SetPolicy since may have
		// put in another policy, whose threshold is not p's.
		if st = th.recompute(now); st.policy.Equal(p) {
			return st.d, st.speculate
		}
	}
	own := th.compute(p, st.memory, st.memory.kept, time.Time{})
	return own.d, own.speculate
}

// recompute refreshes a stale threshold, or one whose table now has enough
// samples for its first value, unless another Load already is: then it
// returns the state in force rather than wait or repeat the work.
func (th *Threshold) recompute(now time.Time) *thresholdState {
	st := th.state.Load()
	if th.fresh(st, now) || !th.refreshing.CompareAndSwap(false, true) {
		return st
	}
	defer th.refreshing.Store(false)
	// The claim orders this after any earlier refresh: a Load that loaded
	// the state before another refreshed it, and claims after that one
	// ended, finds it fresh.
	if st = th.state.Load(); th.fresh(st, now) {
		return st
	}
	next := th.compute(st.policy, st.memory, st.d, now.Add(th.refresh))
	next.from = now.Add(-max(th.refresh, 0))
	th.state.CompareAndSwap(st, next) // lost only to SetPolicy, whose state then stands
	return next
}

// fresh reports whether st needs no refresh at now: its refresh interval
// has not ended, the clock has not stepped back before it, and it has its
// first threshold or still too few samples for it.
func (th *Threshold) fresh(st *thresholdState, now time.Time) bool {
	return now.Before(st.next) && !now.Before(st.from) && (st.need == 0 || th.tracker.recorded() < st.need)
}

// SetPolicy replaces the policy, as ALTER TABLE does at run time: Loads
// from now on get the threshold under p. A p Equal to the policy in force
// changes nothing but how Policy spells it: its threshold is refreshed on
// its schedule, not recomputed from the samples of the moment.
func (th *Threshold) SetPolicy(p SpeculativeRetry) {
	for {
		st := th.state.Load()
		next := *st
		next.policy = p
		if !st.policy.Equal(p) {
			next = *th.compute(p, st.memory, st.memory.kept, time.Time{})
		}
		if th.state.CompareAndSwap(st, &next) {
			return
		}
	}
}

// Tail returns the latency past which a read is in the table's tail, as of
// the last refresh, whatever the policy: its threshold under a policy with
// a percentile (PERCENTILE, MIN, MAX), else the threshold that the last
// such policy's percentile (99p if none) would have set then (half the
// read timeout before any sample); under MIN(Xp,0ms), whose threshold is
// ALWAYS's 0, the one Xp would have set. A caller that records the reads it gave
// up on only once they ran into the tail, the rest telling nothing of it,
// records the same reads under ALWAYS, NEVER or a fixed delay as under
// that percentile, so that a percentile policy set back does not learn
// from a window that lost the slow reads the policy between cut short.
func (th *Threshold) Tail() time.Duration { return th.state.Load().tail }

// Policy returns the policy in force.
func (th *Threshold) Policy() SpeculativeRetry { return th.state.Load().policy }
