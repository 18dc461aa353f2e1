package coordinator

import (
	"context"
	"errors"
	"math"
	"slices"
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

	inflight atomic.Int64  // requests sent and not yet answered
	sentAll  atomic.Int64  // requests ever sent, for Metrics
	bits     atomic.Uint64 // math.Float64bits of the EWMA of response times, ns
	_        [stripe.CacheLine - 24]byte

	missAll atomic.Int64 // misses ever, for Metrics
	updated atomic.Int64 // snitchClock.Nanos of the last answer; 0 before the first
	misses  atomic.Int64 // requests ended without an answer since the last one
	// failedAt stands in for updated before the first answer: the
	// snitchClock.Nanos of the first miss, or of the last probe since.
	failedAt atomic.Int64
	// abandoned counts requests (reads and repair writes) whose reads
	// have returned while the replica has not (see BacklogError).
	abandoned atomic.Int64
	repairs   atomic.Int64 // read-repair writes it was sent as a stale replica, for Metrics
	// reset is set when a read claims the probe of an expired score: the
	// next sample replaces the score instead of joining its average.
	reset atomic.Bool
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
		fresh := &score{id: ep.ID}
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

// sent counts a request as outstanding on the replica.
func (sc *score) sent() {
	sc.inflight.Add(1)
	sc.sentAll.Add(1)
}

// ended ends a request that took d. An answer resets the replica's
// misses. A request that ended without one is a miss when it failed or
// timed out, or when the read that cancelled it had waited more than twice
// the replica's usual latency (which it has only from its first sample
// on): so a replica that stops answering loses its rank after a read or
// two, while a healthy loser of a hedged read keeps it, its first one
// too. A failure's time is not a latency (a replica failing at once must
// not look fast); a cancelled request's is a lower bound of one, and is
// recorded when it says more than the score does (or the replica has no
// score: its 0, which ranks first, only rises), so that a replica always
// hedged around still looks slow, while a request cancelled at once (a
// ReadMany page that filled) does not make a scored replica look fast. A
// refusal for tombstones is neither: every replica holds the same data,
// as Cassandra's snitch ignores a failure response. cancelled says
// whether the read cancelled the request; an error wrapping
// context.Canceled otherwise is the replica's failure.
func (sc *score) ended(d time.Duration, now time.Time, err error, cancelled bool) {
	sc.inflight.Add(-1)
	if err != nil && errors.Is(err, replica.ErrTombstoneOverwhelming) {
		return // a refusal for the data's tombstones says nothing of the replica
	}
	switch {
	case err == nil:
		if sc.misses.Load() != 0 { // a store would take the line from other cores
			sc.misses.Store(0)
		}
	case !cancelled || (sc.updated.Load() != 0 && float64(d) > 2*math.Float64frombits(sc.bits.Load())):
		sc.missAll.Add(1)
		if sc.updated.Load() == 0 { // its misses need an age to expire
			sc.failedAt.CompareAndSwap(0, snitchClock.Nanos(now))
		}
		if sc.misses.Add(1) > maxMisses {
			sc.misses.Store(maxMisses)
		}
	}
	switch {
	case err == nil, errors.Is(err, context.DeadlineExceeded):
		sc.sample(d, now)
	case cancelled && (sc.updated.Load() == 0 || float64(d) > math.Float64frombits(sc.bits.Load())):
		sc.sample(d, now)
	}
}

// sample folds one response time into the score.
func (sc *score) sample(d time.Duration, now time.Time) {
	fresh := sc.reset.Load() && sc.reset.Swap(false) // the first answer since a reset
	for {
		old := sc.bits.Load()
		next := float64(d)
		if !fresh && sc.updated.Load() != 0 {
			next = math.Float64frombits(old) + snitchAlpha*(float64(d)-math.Float64frombits(old))
		}
		if sc.bits.CompareAndSwap(old, math.Float64bits(next)) {
			break
		}
	}
	// The score's age is for expiry, minutes long: a store on every answer
	// only took the line from other cores.
	if at := snitchClock.Nanos(now); at-sc.updated.Load() >= int64(time.Millisecond) {
		sc.updated.Store(at)
	}
}

// latency returns the replica's latency score, or 0 when it has none.
func (sc *score) latency() float64 { return math.Float64frombits(sc.bits.Load()) }

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
	seen, age := sc.updated.Load(), &sc.updated
	if seen == 0 {
		seen, age = sc.failedAt.Load(), &sc.failedAt
		if seen == 0 {
			return false
		}
	}
	if at-seen <= int64(reset) {
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

// rank puts the best k candidates of one proximity group first, in order;
// the rest keep the locator's order, behind any the rack spread took out
// of the k. A replica's key is its latency times one plus its outstanding
// requests; one never measured and idle comes first, to be measured; one
// that missed since its last answer comes after every one that did not.
// Keys are compared in buckets Badness wide, keeping the static order
// within a bucket, so that replicas of similar standing do not swap places
// on noise. Ranking only the replicas a read may contact keeps a read at
// ONE among nine replicas nearly as cheap as among three.
func (s *snitch) rank(cs []candidate, now int64, k int) {
	if s.cfg.Disabled || len(cs) < 2 || k <= 0 {
		return
	}
	var keyBuf [inlineRank]float64
	var missBuf [inlineRank]int64
	keys, misses := keyBuf[:], missBuf[:]
	if len(cs) > inlineRank { // rare: ranked the same way, on the heap
		keys, misses = make([]float64, len(cs)), make([]int64, len(cs))
	}
	s.rankWith(cs, now, k, keys, misses)
}

// inlineRank is how many candidates rank orders without allocating.
const inlineRank = 16

// rankWith is rank's work, with room for a key and a miss count per
// candidate (at least len(cs) of each); k ≥ 1. now is a snitchClock.Nanos
// reading: converted once a plan, not once a candidate (a fifth of ranking
// nine).
func (s *snitch) rankWith(cs []candidate, now int64, k int, keys []float64, misses []int64) {
	// Resliced here, every index below is provably in range and goes
	// unchecked, as it did when rank indexed arrays of its own.
	keys, misses = keys[:len(cs)], misses[:len(cs)]
	k = min(k, len(cs))
	best := math.Inf(1)
	for i, c := range cs {
		keys[i], misses[i] = c.score.latency(), c.score.misses.Load()
		if keys[i] > 0 {
			best = min(best, keys[i])
		}
	}
	// One probe a read, of a replica that missed or scores behind the
	// best: the read tries it first, and one claimed besides would not be
	// tried (its probe put off by an interval, every interval, when the
	// two expire together), nor does a replica of the best standing need
	// trying again.
	bar, probing := best*(1+s.cfg.Badness), false
	for i, c := range cs {
		behind := misses[i] > 0 || (keys[i] > best && keys[i] >= bar)
		if c.score.expire(now, s.cfg.ResetInterval, behind && !probing) {
			keys[i], misses[i], probing = 0, 0, true // forgotten, for its read alone
		}
	}
	if probing {
		best = math.Inf(1)
		for _, key := range keys {
			if key > 0 {
				best = min(best, key)
			}
		}
	}
	if math.IsInf(best, 1) {
		best = 1 // nothing measured: outstanding requests alone decide
	}
	clean := 0.0 // the largest key of a replica that has not missed
	for i, c := range cs {
		keys[i] = weigh(keys[i], best, c.score.inflight.Load())
		if misses[i] == 0 {
			clean = max(clean, keys[i])
		}
	}
	// A replica that missed since its last answer goes behind every one
	// that has not, however many requests those have out: a replica that
	// fails at once never has any out, and would otherwise come first for
	// every read under load. Among those that missed, fewer misses first.
	// The factor puts it at least one Badness bucket behind.
	behind := 2 * (1 + s.cfg.Badness)
	for i := range cs {
		if misses[i] > 0 {
			keys[i] = max(keys[i], clean, best) * behind * float64(misses[i])
		}
	}
	bucketize(keys, s.cfg.Badness, s.logBadness, k)
	selectByKeys(cs, keys, k)
	spreadRacks(cs, keys, k)
}

// spreadRacks reorders the first k candidates so that, going down the
// order, a candidate on a rack not yet used comes before one of equal key
// on a rack already used: replicas of equal standing are then contacted
// across racks, and a rack's trouble does not take several of a read's
// contacts at once. Within that, the order is kept. The one of equal key
// may lie past the k selected (which kept the locator's order among equal
// keys): at TWO among five equal replicas, four on one rack, it is the
// only one on another.
func spreadRacks(cs []candidate, keys []float64, k int) {
	for i := 1; i < k; i++ {
		if !rackUsed(cs[:i], cs[i].ep) {
			continue
		}
		for j := i + 1; j < len(cs); j++ {
			if keys[j] != keys[i] {
				if j < k {
					break // the k selected are in key order: the run has ended
				}
				continue // the rest are not, and none has a lesser key
			}
			if !rackUsed(cs[:i], cs[j].ep) {
				c, key := cs[j], keys[j]
				copy(cs[i+1:j+1], cs[i:j])
				copy(keys[i+1:j+1], keys[i:j])
				cs[i], keys[i] = c, key
				break
			}
		}
	}
}

func rackUsed(cs []candidate, ep replica.Endpoint) bool {
	for _, c := range cs {
		if c.ep.Rack == ep.Rack && c.ep.Datacenter == ep.Datacenter {
			return true
		}
	}
	return false
}

// weigh turns a latency score into a rank key: the latency times one plus
// the requests outstanding. An unmeasured replica with requests
// outstanding is taken to be as fast as the best.
func weigh(lat, best float64, inflight int64) float64 {
	switch {
	case inflight <= 0 && lat <= 0:
		return 0
	case lat <= 0:
		lat = best
	}
	return lat * float64(1+max(inflight, 0))
}

// bucketize replaces each key by its bucket relative to the best: -1 for
// 0 (unmeasured and idle), then 0, 1, … per factor of (1+badness), whose
// logarithm is logBadness. Only the k least buckets are ever selected
// (selectByKeys), so a key two buckets or more above the k-th least key
// gets +Inf instead of a logarithm: at nine replicas, the logarithms were
// a quarter of ranking.
func bucketize(keys []float64, badness, logBadness float64, k int) {
	best := math.Inf(1)
	for _, key := range keys {
		if key > 0 && key < best {
			best = key
		}
	}
	limit := math.Inf(1)
	if badness > 0 && k < len(keys) {
		// A key of at least kth·(1+badness)² has a bucket above kth's,
		// and the k keys up to kth have buckets up to kth's. The square,
		// not one factor, keeps rounding at a bucket's edge out of it.
		limit = max(kthLeast(keys, k)*(1+badness)*(1+badness), 0)
	}
	for i, key := range keys {
		switch {
		case key <= 0:
			keys[i] = -1
		case badness <= 0:
			keys[i] = key
		case key >= limit:
			keys[i] = math.Inf(1) // never among the k selected
		case key < best*(1+badness):
			keys[i] = 0 // within the margin of the best: no logarithms
		default:
			keys[i] = math.Floor(math.Log(key/best) / logBadness)
		}
	}
}

// kthLeast returns the k-th least of keys (k ≥ 1).
func kthLeast(keys []float64, k int) float64 {
	if k > inlineRank { // only in a group larger than rank's room: sort a copy
		sorted := slices.Clone(keys)
		slices.Sort(sorted)
		return sorted[k-1]
	}
	var least [inlineRank]float64 // the k least so far, ascending
	n := 0
	for _, key := range keys {
		if n == k && key >= least[n-1] {
			continue
		}
		j := min(n, k-1) // insert key in order, dropping the largest if full
		for j > 0 && least[j-1] > key {
			least[j] = least[j-1]
			j--
		}
		least[j] = key
		n = min(n+1, k)
	}
	return least[k-1]
}

// selectByKeys moves the k candidates of least keys to the front, in
// order, stably (the first of equal keys first); the others keep their
// relative order behind them. O(n·k), and nothing allocated: groups are
// small (more than 16 replicas in one is rare).
func selectByKeys(cs []candidate, keys []float64, k int) {
	for i := range k {
		m := i
		for j := i + 1; j < len(cs); j++ {
			if keys[j] < keys[m] {
				m = j
			}
		}
		if m == i {
			continue
		}
		c, key := cs[m], keys[m]
		copy(cs[i+1:m+1], cs[i:m])
		copy(keys[i+1:m+1], keys[i:m])
		cs[i], keys[i] = c, key
	}
}
