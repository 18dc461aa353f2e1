package coordinator

import "time"

// A read runs in rounds, and every round is the same machine: send
// requests, wait until enough successful answers are in (one of them data,
// if the round needs data; at EACH_QUORUM enough in every datacenter),
// and speculate once — to a replica the round would not otherwise ask —
// when the answers are not in by the round's threshold, or at once when
// failures leave the requests still out unable to complete it. The first
// round, the reconcile reads after a digest mismatch and the repair writes
// are such rounds; they differ only in what they send and to whom they
// speculate (see speculate.go).

// round is the state of the round running.
type round struct {
	phase    Phase
	ch       chan int // its requests' indexes as they answer, and the timer's ticks
	need     int      // successful answers that complete it
	needData bool     // one of them must be data

	received, failures, outstanding, outData int
	refused                                  int // requests refused unsent (BacklogError)
	adopted                                  int // requests of an earlier round it took over (see askData)
	dataIn                                   bool
	dc                                       []dcCount // EACH_QUORUM: per datacenter, as plan.dcs

	maySpeculate bool          // it may still speculate
	mayReplace   bool          // it may still replace a request refused unsent (see decideAlways)
	spent        bool          // it took its speculative action (see mayStandIn)
	drawn        time.Time     // when its speculation drew on the budgets; zero if it did not
	armed        bool          // the timer is set for its speculation, not the deadline
	first        int           // the index of its first request
	wait         time.Duration // how long its speculation waits for answers
}

// dcCount is one datacenter's answers in a round at EACH_QUORUM.
type dcCount struct{ need, received, outstanding int }

// maxTicks is room kept on a round's channel for the timer's ticks: the
// speculation, the deadline, and one spare.
const maxTicks = 3

// newRound starts a round of the given phase that may send up to
// requests requests, and points the read's timer at its channel. It takes
// the spare channel only if that is exactly the size it would make: a
// larger one would hide a round that sends more than it said it would
// until a worker blocked on a smaller one.
func (r *read) newRound(ph Phase, requests int, needData, maySpeculate bool) {
	ch := r.spareCh
	if cap(ch) == requests+maxTicks {
		r.spareCh = nil
	} else {
		ch = make(chan int, requests+maxTicks)
	}
	if r.w == nil {
		r.w = newWaker()
	} else {
		r.w.reset()
	}
	r.rd = round{
		phase: ph, ch: ch, need: r.plan.blockFor,
		needData: needData, maySpeculate: maySpeculate, first: len(r.calls),
	}
	r.dropEarlierReasons()
	if r.plan.dcs != nil {
		r.rd.dc = make([]dcCount, len(r.plan.dcs))
		for i, d := range r.plan.dcs {
			r.rd.dc[i].need = d.need
		}
	}
}

// needEvery makes the round wait for n answers, whatever their datacenter:
// every request it sends must succeed.
func (rd *round) needEvery(n int) { rd.need, rd.dc = n, nil }

// sent counts a request to c as outstanding in the round.
func (rd *round) sent(c *candidate, data bool) {
	rd.outstanding++
	if data {
		rd.outData++
	}
	if d := rd.dcOf(c); d != nil {
		d.outstanding++
	}
}

// ended counts the end of a request to c: an answer when ok, else a failure.
func (rd *round) ended(c *candidate, data, ok bool) {
	rd.outstanding--
	if data {
		rd.outData--
	}
	if d := rd.dcOf(c); d != nil {
		d.outstanding--
	}
	if !ok {
		rd.failures++
		return
	}
	rd.credit(c, data)
}

// credit counts a successful answer from c: one in hand from an earlier
// round, or one that just arrived.
func (rd *round) credit(c *candidate, data bool) {
	rd.received++
	if data {
		rd.dataIn = true
	}
	if d := rd.dcOf(c); d != nil {
		d.received++
	}
}

func (rd *round) dcOf(c *candidate) *dcCount {
	if rd.dc == nil || c.dc < 0 {
		return nil
	}
	return &rd.dc[c.dc]
}

// short is how many more successful answers could complete the round:
// the read waits for as many before it looks again (a failure or a tick
// wakes it at once). At EACH_QUORUM it looks at every answer.
func (rd *round) short() int {
	if rd.dc != nil {
		return 1
	}
	return rd.need - rd.received
}

// done reports whether the round has the answers it needs.
func (rd *round) done() bool {
	if rd.received < rd.need || (rd.needData && !rd.dataIn) {
		return false
	}
	for _, d := range rd.dc {
		if d.received < d.need {
			return false
		}
	}
	return true
}

// counted is how many of the round's answers count towards its need, for
// its error: at EACH_QUORUM a datacenter's answers beyond its quorum (or
// from a datacenter without one) do not stand in for another's, so the
// count stays below BlockFor while any datacenter is short.
func (rd *round) counted() int {
	if rd.dc == nil {
		return rd.received
	}
	n := 0
	for _, d := range rd.dc {
		n += min(d.received, d.need)
	}
	return n
}

// standsIn reports whether a speculation now would stand in for requests
// refused unsent, without which the round cannot complete: one that adds
// no load, as a healthy read would have sent those (see allowed).
func (rd *round) standsIn() bool { return rd.refused > 0 && !rd.reachable() }

// reachable reports whether the requests still out can complete the round.
func (rd *round) reachable() bool {
	if rd.received+rd.outstanding < rd.need || (rd.needData && !rd.dataIn && rd.outData == 0) {
		return false
	}
	for _, d := range rd.dc {
		if d.received+d.outstanding < d.need {
			return false
		}
	}
	return true
}

// gather waits for the round's answers until it is done. It speculates
// when the timer ticks for it, or at once when the requests still out can
// no longer complete the round, and fails when even that cannot help.
func (r *read) gather() error {
	rd := &r.rd
	for !rd.done() {
		if r.overwhelmed {
			return r.failure() // another replica would meet the same tombstones
		}
		if !rd.reachable() {
			if r.ctx.Err() == nil && r.speculate() {
				continue
			}
			if r.ctx.Err() != nil {
				// The deadline or the caller ended the read, and the
				// replicas failed because of it, or the deadline passed
				// while it looked for a stand-in (see outOfTime): not
				// their failure.
				return r.interrupted()
			}
			return r.failure()
		}
		idx, ok := r.receive()
		switch {
		case !ok:
			r.acceptAnswered()
			return r.interrupted()
		case idx != tick:
			r.accept(idx)
		case r.ctx.Err() != nil: // the deadline
			return r.interrupted()
		case rd.armed:
			r.acceptWaiting()
			switch {
			case rd.done(), r.overwhelmed: // its answers were waiting behind the tick
			case r.ctx.Err() != nil: // a tick taken with them was the deadline's
				return r.interrupted()
			case r.postponeSpeculation():
			default:
				r.speculate()
				r.armDeadline()
			}
		}
	}
	return nil
}

// receive returns the next answer or tick, waiting for as many answers as
// could complete the round, or for the caller to give up.
func (r *read) receive() (int, bool) {
	return r.w.wait(r.rd.ch, r.rd.short(), r.parent.Done())
}

// armSpeculation sets the timer for the round's speculation a wait after
// from, or for the deadline when the round may not speculate or that is
// not before the deadline. A first-round threshold within 1/64 of the read
// timeout is at it (see atTimeout): no hedge is due, and a slow read
// counts no suppressed one. The round keeps wait: a postponed speculation
// waits as long again.
func (r *read) armSpeculation(from time.Time, wait time.Duration) {
	r.rd.wait = wait
	if at := from.Add(wait); r.rd.maySpeculate && at.Before(r.ctx.deadline) && !r.thresholdPastTimeout() {
		r.setTimer(at, true)
		return
	}
	r.armDeadline()
}

// armDeadline sets the timer for the read's deadline.
func (r *read) armDeadline() { r.setTimer(r.ctx.deadline, false) }

// postponeSpeculation sets the round's speculation its wait from now, and
// reports so, when a request of the round still out has not yet been taken
// up by a worker. Then the delay is the coordinator's own (a collector's
// pause, cores busy elsewhere), not the replica's, and a speculative
// request would only wait behind the same: it goes once the requests out
// have had their wait at the replicas. A round with no wait speculates at
// once, as asked; one that speculated already, when failures left it no
// other way, has nothing to put off.
func (r *read) postponeSpeculation() bool {
	if r.rd.wait <= 0 || !r.rd.maySpeculate {
		return false
	}
	for i := r.rd.first; i < len(r.calls); i++ {
		if r.trace.Requests[i].Outcome == Pending && !r.calls[i].started.Load() {
			r.roundHedge().Postponed++
			r.t.m.postponed.Add(1)
			r.armSpeculation(r.now(), r.rd.wait)
			return true
		}
	}
	return false
}

// roundHedge is the trace of the running round's speculative action.
func (r *read) roundHedge() *HedgeTrace {
	switch r.rd.phase {
	case PhaseReconcile:
		return &r.trace.ReconcileHedge
	case PhaseRepair:
		return &r.trace.AdditionalWrite
	}
	return &r.trace.Hedge
}

// acceptAnswered accepts the successful answers waiting on the round's
// channel, when the caller gave up: the read was not woken for them, but
// they arrived, and the error's counts and the trace hold them, as they
// did when every answer woke the read. A failure waiting there is left
// pending when it may have come as the caller gave up, most likely for
// that (a request cancelled with the read): not one that arrived before
// the caller's deadline, which woke a read held up elsewhere (see cutOff),
// nor a replica's own error, not a context's, which came before the read's
// context ended whenever the caller gave up (see cutShort).
func (r *read) acceptAnswered() {
	for {
		idx, ok := r.w.next(r.rd.ch)
		if !ok {
			return
		}
		if idx == tick {
			continue
		}
		if k := r.calls[idx]; k.err == nil || !isContextErr(k.err) || !r.cutOff(k.at) {
			r.accept(idx)
		}
	}
}

// acceptWaiting accepts the answers already waiting on the round's
// channel, until it completes. A tick is taken late when the read's
// goroutine did not run for a while, and answers that arrived meanwhile
// wait behind it: they count before the read decides to speculate. It
// stops at a refusal for tombstones, which fails the read however many
// answers follow it, as it does taken on time.
func (r *read) acceptWaiting() {
	for !r.rd.done() && !r.overwhelmed {
		idx, ok := r.w.next(r.rd.ch)
		if !ok {
			return
		}
		if idx != tick {
			r.accept(idx)
		}
	}
}
