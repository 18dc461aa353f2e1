package coordinator

import (
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/internal/monoclock"
	"github.com/readpath/readpath/internal/stripe"
	"github.com/readpath/readpath/replica"
)

// snitchAlpha is the weight of a new sample in a replica's latency score:
// small, so that the ordinary jitter of a healthy replica (a log-normal
// spread) moves its score by a few percent, well inside the badness margin,
// while one stall of many times the usual latency still demotes it at once.
const snitchAlpha = 0.02

// snitch orders a read's candidates by how soon each is likely to answer
// (a "dynamic snitch"). Safe for concurrent use; lock-free once a replica
// has been seen.
//
// Latency alone herds: the replica that looks fastest gets every read
// until it is overloaded, and a demoted replica is never measured again.
// So a replica's rank weighs its recent latency by the requests this
// coordinator has outstanding on it, as C3 (Suresh et al., NSDI 2015) does
// for Cassandra: traffic flows to where it will be served soonest, and
// back when that replica's queue grows.
type snitch struct {
	cfg    SnitchConfig
	scores sync.Map // replica ID -> *score
	cache  scoreCache
	// logBadness is log(1 + cfg.Badness), a bucket's width in log space.
	logBadness float64
	// abandonCap is Config.MaxAbandonedPerReplica; 0 for none.
	abandonCap int64
	// lastSince is the UnixNano of the last score's since (see newSince).
	lastSince atomic.Int64
}

// ranksLast reports whether ranking puts sc's replica behind every other:
// it is at its cap (see capsLast), and the snitch is not disabled.
func (s *snitch) ranksLast(sc *score) bool { return !s.cfg.Disabled && s.atCap(sc) }

// atCap reports whether sc's replica holds as many abandoned requests as
// it may (see BacklogError): a request to it would be refused unsent.
func (s *snitch) atCap(sc *score) bool {
	return s.abandonCap > 0 && sc != nil && sc.abandoned.Load() >= s.abandonCap
}

// snitchClock dates the scores' answers by the monotonic clock: dated by
// the wall clock, a step back of an hour left every score unprobed for the
// hour, so a replica that had timed out stayed last in every ranking.
var snitchClock = monoclock.New()

func newSnitch(cfg SnitchConfig) snitch {
	cfg.Badness = max(cfg.Badness, 0) // negative: no margin
	return snitch{cfg: cfg, logBadness: math.Log1p(cfg.Badness)}
}

// score is what the snitch knows of one replica. Every request writes to
// it, from whichever core runs it: the counts every request writes have a
// cache line of their own, apart from ep, which every plan reads, and from
// what a request reads or a failure writes, so that a read on one core
// does not wait for the line another core's request just wrote more often
// than it must.
type score struct {
	// ep is where the replica was when a read last planned it: an ID
	// replaced by a node in another rack or datacenter moves with it.
	ep atomic.Pointer[replica.Endpoint]
	id string // the key it was stored under
	// forgotten is set when ForgetReplica removes it: the cache no longer
	// finds it.
	forgotten atomic.Bool
	_         [stripe.CacheLine - 32]byte

	// sentAll counts the requests ever sent (a request's number is the
	// count it made), and endedAll those ended: the difference is the
	// requests out (see outstanding), one count written a request where
	// a count of those out took two.
	sentAll  atomic.Int64
	endedAll atomic.Int64
	bits     atomic.Uint64 // math.Float64bits of the EWMA of response times, ns
	// answeredSeq is the number of the latest-sent request answered: a
	// replica that answered a request sent after one that went unanswered
	// is not missing, whichever of the two ended first.
	answeredSeq atomic.Int64
	_           [stripe.CacheLine - 32]byte

	missAll atomic.Int64 // misses ever, for Metrics
	// timeoutAll and failAll count the misses ever that timed out and
	// that failed, each after missAll: loaded before it, neither shows
	// more than it.
	timeoutAll, failAll atomic.Int64
	// updated is the snitchClock.Nanos of the last answer (or timeout), or
	// of the first lower bound (see bound); 0 before either.
	updated atomic.Int64
	misses  atomic.Int64 // requests ended without an answer since the last one
	// overdue counts its read requests given up at their read's deadline
	// that it has not returned from, and overdueSeq is the number of the
	// latest-sent request ever counted so. Ranking counts them as misses
	// until the replica answers a request sent after that one: their own
	// misses are recorded only when they end, and a retry made the moment
	// a read timed out went to a replica still hanging, which looked fast.
	overdue    atomic.Int64
	overdueSeq atomic.Int64
	// failedAt stands in for updated before the first answer: the
	// snitchClock.Nanos of the first miss, or of the last probe since.
	failedAt atomic.Int64
	// abandoned counts requests (reads and repair writes) whose reads
	// have returned while the replica has not (see BacklogError).
	abandoned atomic.Int64
	// lostReads counts its read requests whose reads have returned while
	// the replica has not, and lostSeq is the number of the latest-sent
	// request ever counted so (see queued).
	lostReads atomic.Int64
	lostSeq   atomic.Int64
	repairs   atomic.Int64 // read-repair writes it was sent as a stale replica, for Metrics
	// reset is set when a read claims the probe of an expired score: the
	// next sample replaces the score instead of joining its average.
	reset atomic.Bool
	// provisional is set while the score holds only lower bounds, the
	// times of requests the read cancelled: the first answer replaces it.
	provisional atomic.Bool
	// asyncWrites counts its ASYNC repair writes running, and
	// asyncTimedOut is the snitchClock.Nanos at which the last one to end
	// failed at its deadline, or 0; asyncSlow how long the last took if
	// that was half a read timeout or more, or 0, and asyncSlowAt the
	// snitchClock.Nanos at which it ended (see repairQueue.claimWrite).
	asyncWrites   atomic.Int32
	asyncTimedOut atomic.Int64
	asyncSlow     atomic.Int64
	asyncSlowAt   atomic.Int64
	// since is when it was made: ReplicaMetrics.Since.
	since time.Time
}

// maxMisses caps a replica's misses, which order the replicas that missed
// among themselves (see rank).
const maxMisses = 8

// entry returns the replica's score, creating it on first sight, and
// records where the replica is if that changed.
func (s *snitch) entry(ep *replica.Endpoint) *score {
	sc := s.cache.find(ep.ID)
	if sc == nil {
		sc = s.lookup(ep)
		s.cache.keep(ep.ID, sc)
	}
	if *sc.ep.Load() != *ep {
		sc.ep.Store(new(*ep))
	}
	return sc
}

// lookup returns the replica's score from the map, creating it on first
// sight.
func (s *snitch) lookup(ep *replica.Endpoint) *score {
	v, ok := s.scores.Load(ep.ID)
	if !ok {
		fresh := &score{id: ep.ID, since: newSince(&s.lastSince)}
		fresh.ep.Store(new(*ep))
		v, _ = s.scores.LoadOrStore(ep.ID, fresh)
	}
	return v.(*score)
}

// forget removes replica id's score, from the cache too.
func (s *snitch) forget(id string) {
	if v, ok := s.scores.LoadAndDelete(id); ok {
		sc := v.(*score)
		sc.forgotten.Store(true)
		s.cache.slot(sc.id).CompareAndSwap(sc, nil)
	}
}

// missing returns the replica's misses since its last answer, and the
// requests overdue on it when it has answered none sent after them (see
// overdue), which ranking counts as misses; maxMisses at most.
func (sc *score) missing() int64 {
	m := sc.misses.Load()
	if n := sc.overdue.Load(); n > 0 && sc.overdueSeq.Load() > sc.answeredSeq.Load() {
		m = min(m+n, maxMisses)
	}
	return m
}

// countOverdue counts request seq, a read request given up at its read's
// deadline at at (a snitchClock.Nanos reading), as overdue, until uncounted
// when the replica returns from it.
func (sc *score) countOverdue(seq, at int64) {
	sc.missedFirst(at)
	storeMax(&sc.overdueSeq, seq)
	sc.overdue.Add(1) // after its number: a ranking that sees it sees that
}

// missedFirst dates, at at, a miss of a replica that has answered nothing
// (an answer dates its score), unless one is dated already: it has no
// other age to expire by (see expire). Every way a request can end
// unanswered dates it, a failure, a request overdue or abandoned: a
// replica whose first request hung past a hedge or a cancelled read, or
// past its deadline, was never probed again, however long ago it healed.
func (sc *score) missedFirst(at int64) {
	if sc.neverAnswered() {
		sc.failedAt.CompareAndSwap(0, at)
	}
}

// unclaim releases the probe a read claimed at at (see expire) and will
// not send (nil: none claimed): the score is left expired, for the next
// read to probe, not dated at as if probed. Kept, the claim put the probe
// off by a whole further ResetInterval. An answer since dated it anew.
func (sc *score) unclaim(at int64, reset time.Duration) {
	if sc == nil {
		return
	}
	age := &sc.updated
	if sc.neverAnswered() {
		age = &sc.failedAt
	}
	age.CompareAndSwap(at, at-int64(reset)-1) // no older than it was: see expire
}

// neverAnswered reports whether the replica has not answered since its
// score was made.
func (sc *score) neverAnswered() bool { return sc.updated.Load() == 0 }

// storeMax raises v to n, if n is more.
func storeMax(v *atomic.Int64, n int64) {
	for old := v.Load(); n > old && !v.CompareAndSwap(old, n); old = v.Load() {
	}
}

// sent counts a request as outstanding on the replica and returns its
// number, which orders it among the replica's requests by when they were
// sent.
func (sc *score) sent() (seq int64) { return sc.sentAll.Add(1) }

// outstanding returns how many requests to the replica are out: sent and
// not yet ended. It reads the ends first, so that it never counts a
// request's end before its send, nor misses one sent before it read the
// ends; what it then reads of the score is as new as those ends.
func (sc *score) outstanding() int64 {
	ended := sc.endedAll.Load()
	return sc.sentAll.Load() - ended
}

// queued returns the requests out that weigh the replica's rank: those
// out, less those whose reads have returned without them (overdue, or
// cancelled) when it has answered a request sent after the latest of them.
// Those are stuck, not queued: counted, a fast replica with one request
// hung for good on a dead connection, a read's at its deadline or a hedge's
// loser, weighed twice its latency for good, and a peer a third slower took
// every read but its probes (6 of 600).
func (sc *score) queued() int64 {
	n := sc.outstanding()
	if l := sc.lostReads.Load(); l > 0 && sc.lostSeq.Load() <= sc.answeredSeq.Load() {
		n = max(n-l, 0) // a lost request counted out, not yet uncounted
	}
	return n
}

// countLost counts read request seq as lost (see lostReads), until
// uncounted when the replica returns from it.
func (sc *score) countLost(seq int64) {
	storeMax(&sc.lostSeq, seq)
	sc.lostReads.Add(1) // after its number: a ranking that sees it sees that
}

// ended ends request seq, which took d. An answer resets the replica's
// misses, and a request sent before the latest answered one is a miss for
// Metrics only (see answeredSeq). A request that ended without one is a
// miss when it failed or timed out, or when the read that cancelled it had
// waited more than twice the replica's usual latency (which it has only
// from its first sample on; before that, its peers', see late): so a
// replica that stops answering loses its rank after a read or two, while a
// healthy loser of a hedged read keeps it, its first one too. A failure's
// time is not a latency (a replica failing at once must not look fast),
// nor is an error's DeadlineExceeded before the read's deadline; a
// cancelled request's is a lower bound of one, and is recorded when it
// says more than the score does (or the replica has no score: its 0,
// which ranks first, only rises, and the first answer replaces such a
// provisional score), so that a replica always hedged around still looks
// slow, while a request cancelled at once (a ReadMany page that filled)
// does not make a replica look fast. A refusal
// for tombstones is neither: every replica holds the same data, as
// Cassandra's snitch ignores a failure response. cancelled says whether the
// read cancelled the request, or its caller's deadline, sooner than the
// read timeout, cut it, which says no more of the replica: judged as
// timeouts, requests cut by callers that give up sooner than replicas
// answer made the replicas they asked look missing, and fast; an error
// wrapping context.Canceled otherwise is the replica's failure. timedOut
// says whether the request ended at the read timeout, whatever error the
// replica's context gave (a derived one says Canceled), or any error it
// returned once the deadline had passed (see cutShort): its time, which
// the caller gives as how long the replica was waited for (a request
// stuck past its deadline that returned a minute late, as a node whose
// connection was reset at last, ranked a healthy replica last), is a
// sample, a lower bound of its latency, as Cassandra's snitch takes an
// expired request's timeout, also when the replica answered a request
// sent later: under concurrent reads it nearly always has, and a replica
// that let one request in ten hang to the timeout, skipped so, kept its
// rank and timed out one read in ten. ended reports whether it recorded
// nothing of the replica: a request cancelled too soon to say anything, or
// refused for tombstones sooner than its score (a replica as slow as its
// score says, refusing, is not taken for one that healed).
func (sc *score) ended(seq int64, d time.Duration, now time.Time, err error, cancelled, timedOut bool, lateAfter time.Duration) (quiet bool) {
	missed := false
	defer func() {
		sc.endedAll.Add(1) // the last count ranking reads: see rankWith
		if missed {
			sc.countMiss(timedOut, cancelled)
		}
	}()
	if err != nil && errors.Is(err, replica.ErrTombstoneOverwhelming) {
		// A refusal for the data's tombstones says nothing of the replica.
		return float64(d) < sc.latency()
	}
	at := snitchClock.Nanos(now)
	switch {
	case err == nil:
		if sc.misses.Load() != 0 { // a store would take the line from other cores
			sc.misses.Store(0)
		}
		storeMax(&sc.answeredSeq, seq)
	case !cancelled || sc.late(d, lateAfter):
		missed = true
		if seq < sc.answeredSeq.Load() {
			break // it answered a later request: a miss for Metrics, not for ranking
		}
		sc.missedFirst(at)
		if sc.misses.Add(1) > maxMisses {
			sc.misses.Store(maxMisses)
		}
	}
	switch {
	case err == nil, timedOut:
		if sc.provisional.Load() {
			sc.provisional.Store(false)
			sc.reset.Store(true)
		}
		sc.sample(d, at)
	case cancelled && (sc.updated.Load() == 0 || float64(d) > math.Float64frombits(sc.bits.Load())):
		if sc.updated.Load() == 0 || sc.provisional.Load() {
			// A bound on an empty or provisional score replaces it, and
			// is replaced in turn by the first answer: it is not one, and
			// joined to the average a request cancelled early kept a
			// replica looking fast for dozens of answers.
			sc.reset.Store(true)
			sc.bound(d, at)
			sc.provisional.Store(true)
			return
		}
		sc.bound(d, at)
	default:
		quiet = !missed // cancelled before it was late, and said no more
	}
	return quiet
}

// countMiss counts a request that missed, after its end, in the counters
// Metrics alone reads: the miss, then whether it timed out or failed. A
// snapshot loads them in the reverse order (see replicaMetrics), so that
// none shows more than the one loaded after it: counted before its end, a
// miss showed in a snapshot that had not yet seen the request end.
func (sc *score) countMiss(timedOut, cancelled bool) {
	sc.missAll.Add(1)
	switch {
	case timedOut:
		sc.timeoutAll.Add(1)
	case !cancelled:
		sc.failAll.Add(1)
	}
}

// bound folds d, the time of a request cancelled unanswered (a lower bound
// of the replica's latency), into the score, ended at at. It dates only a
// score it makes, the replica's first: not an answer, it must not put off
// the probe of a replica that missed (see expire), whose hedges, lost to
// slower contacts, each dated its score, so that it was never probed and
// never a contact again, while it answered faster than they did.
func (sc *score) bound(d time.Duration, at int64) {
	sc.fold(d)
	sc.updated.CompareAndSwap(0, at)
}

// late reports whether a request out for d without an answer is late by
// the replica's own measure, more than twice its latency score, which it
// has from its first answer on; before that, by its peers': more than
// lateAfter, twice the slowest answer its read had (see
// call.lateAfter), if it had one. Without theirs, a replica that
// hung from its first request was hedged around by every read until one
// timed out on it, and at a level a remote datacenter serves it stayed a
// local contact (see snitch.missedOut).
func (sc *score) late(d, lateAfter time.Duration) bool {
	if sc.updated.Load() == 0 || sc.provisional.Load() {
		return lateAfter > 0 && d > lateAfter
	}
	return float64(d) > 2*math.Float64frombits(sc.bits.Load())
}

// sample folds one response time, ended at at (a snitchClock.Nanos
// reading), into the score. An answer under half the score does not date
// it: a replica that healed, asked only by the odd hedge, had each of its
// answers put its probe off, while each moved the average 2 % its way, so
// it stayed out for as many answers as that took (a minute and more),
// where the probe's answer, due a ResetInterval after the last answer
// like the score, replaces it.
func (sc *score) sample(d time.Duration, at int64) {
	// The score's age is for expiry, minutes long: a store on every answer
	// only took the line from other cores.
	if old := sc.fold(d); 2*float64(d) >= old && at-sc.updated.Load() >= int64(time.Millisecond) {
		sc.updated.Store(at)
	}
}

// fold folds one response time into the score, or makes it the score when
// there is none or it was reset, and returns the score it held (0 for
// none or a reset one).
func (sc *score) fold(d time.Duration) (before float64) {
	fresh := sc.reset.Load() && sc.reset.Swap(false) // the first answer since a reset
	for {
		old := sc.bits.Load()
		next := float64(d)
		if !fresh && sc.updated.Load() != 0 {
			before = math.Float64frombits(old)
			next = before + snitchAlpha*(float64(d)-before)
		}
		if sc.bits.CompareAndSwap(old, math.Float64bits(next)) {
			return before
		}
	}
}

// latency returns the replica's latency score, or 0 when it has none.
func (sc *score) latency() float64 { return math.Float64frombits(sc.bits.Load()) }

// age returns when the replica last answered, or, if it has answered
// nothing, when it first missed (0 for neither), and the field that holds
// it.
func (sc *score) age() (int64, *atomic.Int64) {
	if seen := sc.updated.Load(); seen != 0 {
		return seen, &sc.updated
	}
	return sc.failedAt.Load(), &sc.failedAt
}

// probeDue reports whether a read ranking the replica at at, a
// snitchClock.Nanos reading, may claim its probe (see expire).
func (sc *score) probeDue(at int64, reset time.Duration) bool {
	seen, _ := sc.age()
	return seen != 0 && at-seen > int64(reset)
}

// expire reports whether the read claimed the probe of the replica, whose
// score is older than the reset interval at at, a snitchClock.Nanos
// reading. A probe claimed (by resetting the score's age) makes the read
// see 0 and no misses, so it tries the replica first, while concurrent
// reads keep the old score and misses until the probe answers; the probe's
// answer then replaces the score rather than joining its average. A replica
// that timed out or failed is thus probed by one read per interval, not by
// every read in flight, and one that healed ranks by how it answers now.
// One that has only ever failed has no score, and its misses expire the
// same way: else it was never asked again at ONE or QUORUM, however long
// ago it healed. Without claim an expired score stays expired, for a later
// read to probe, and its next answer replaces it.
func (sc *score) expire(at int64, reset time.Duration, claim bool) (probe bool) {
	seen, age := sc.age()
	if seen == 0 || at-seen <= int64(reset) {
		return false
	}
	if claim && !age.CompareAndSwap(seen, at) {
		return false // another read claimed it
	}
	if age == &sc.updated && !sc.reset.Load() { // a first sample replaces no score
		sc.reset.Store(true)
	}
	return claim
}
