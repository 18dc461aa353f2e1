package coordinator

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// snitchAlpha is the weight of a new sample in a replica's latency score:
// small, so that the ordinary jitter of a healthy replica (a log-normal
// spread) moves its score by a few percent, well inside the badness margin,
// while one stall of many times the usual latency still demotes it at once.
const snitchAlpha = 0.02

// snitch keeps a recent-latency score per replica (a "dynamic snitch") and
// orders candidates by it. Safe for concurrent use; lock-free once a
// replica has been seen.
type snitch struct {
	cfg    SnitchConfig
	scores sync.Map // replica ID -> *score
}

// score is an exponentially weighted moving average of a replica's
// response times, in nanoseconds, and when it was last updated.
type score struct {
	bits    atomic.Uint64 // math.Float64bits of the average
	updated atomic.Int64  // UnixNano
}

// observe folds one response time into the replica's score.
func (s *snitch) observe(id string, d time.Duration, now time.Time) {
	v, ok := s.scores.Load(id)
	if !ok {
		v, _ = s.scores.LoadOrStore(id, new(score))
	}
	sc := v.(*score)
	for {
		old := sc.bits.Load()
		avg := math.Float64frombits(old)
		next := float64(d)
		if sc.updated.Load() != 0 {
			next = avg + snitchAlpha*(float64(d)-avg)
		}
		if sc.bits.CompareAndSwap(old, math.Float64bits(next)) {
			break
		}
	}
	sc.updated.Store(now.UnixNano())
}

// current returns the replica's score, or 0 when it has none. A score
// older than the reset interval is forgotten for one read only: that read
// claims the probe (by resetting the score's age) and sees 0, so it tries
// the replica first, while concurrent reads keep the old score until the
// probe answers. A replica that timed out is thus probed by one read per
// interval, not by every read in flight.
func (s *snitch) current(id string, now time.Time) float64 {
	v, ok := s.scores.Load(id)
	if !ok {
		return 0
	}
	sc := v.(*score)
	seen := sc.updated.Load()
	if now.UnixNano()-seen > int64(s.cfg.ResetInterval) && sc.updated.CompareAndSwap(seen, now.UnixNano()) {
		return 0
	}
	return math.Float64frombits(sc.bits.Load())
}

// rank orders one proximity group by score, in place. Replicas without a
// score come first, so they get measured. Scores are compared in buckets
// Badness wide, keeping the static order within a bucket, so that replicas
// of similar latency do not swap places on noise.
func (s *snitch) rank(cs []candidate, now time.Time) {
	if s.cfg.Disabled || len(cs) < 2 {
		return
	}
	var keys [16]float64
	if len(cs) > len(keys) {
		return
	}
	for i, c := range cs {
		keys[i] = s.current(c.ep.ID, now)
	}
	bucketize(keys[:len(cs)], s.cfg.Badness)
	sortByKeys(cs, keys[:len(cs)])
}

// bucketize replaces each score by its bucket relative to the best known
// score: -1 for unknown, then 0, 1, … per factor of (1+badness).
func bucketize(keys []float64, badness float64) {
	best := math.Inf(1)
	for _, k := range keys {
		if k > 0 && k < best {
			best = k
		}
	}
	for i, k := range keys {
		switch {
		case k <= 0:
			keys[i] = -1
		case badness <= 0:
			keys[i] = k
		default:
			keys[i] = math.Floor(math.Log(k/best) / math.Log1p(badness))
		}
	}
}

// sortByKeys stably sorts cs by keys (insertion sort: groups are tiny and
// this allocates nothing).
func sortByKeys(cs []candidate, keys []float64) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}
