package coordinator

import (
	"math"
	"slices"

	"github.com/readpath/readpath/replica"
)

// rank puts the best k candidates of one proximity group first, in order;
// the rest keep the locator's order, behind any the rack spread took out
// of the k. A replica's key is its latency times one plus its outstanding
// requests; one never measured and idle comes first, to be measured; one
// that missed since its last answer comes after every one that did not.
// Keys are compared in buckets Badness wide, keeping the static order
// within a bucket, so that replicas of similar standing do not swap places
// on noise. Ranking only the replicas a read may contact keeps a read at
// ONE among nine replicas nearly as cheap as among three. With probe, the
// read may claim the probe of a replica whose score expired (see
// rankWith), which it then asks first; rank reports whether it did.
// Replicas at their backlog cap go behind all the others first, and are
// not ranked: a request to one is refused unsent. Disabled keeps the
// locator's order, theirs too.
func (s *snitch) rank(cs []candidate, now int64, k int, probe bool) (probed bool) {
	if s.cfg.Disabled || k <= 0 {
		return false
	}
	if cs = cs[:s.capsLast(cs)]; len(cs) < 2 {
		return false
	}
	var keyBuf [inlineRank]float64
	var countBuf [2 * inlineRank]int64
	keys, counts := keyBuf[:], countBuf[:]
	if len(cs) > inlineRank { // rare: ranked the same way, on the heap
		keys, counts = make([]float64, len(cs)), make([]int64, 2*len(cs))
	}
	return s.rankWith(cs, now, k, probe, keys, counts)
}

// capsLast moves the candidates at their backlog cap behind the others,
// keeping the order of both, and returns how many are not. A hung replica
// records no miss and keeps the score it had, so ranked among the others
// it came first: two at their cap among five were every QUORUM read's
// contacts, refused unsent, and the reads failed while a replica sat
// idle; and its stale key set the bar the others' buckets were cut at.
func (s *snitch) capsLast(cs []candidate) int {
	n := len(cs)
	for i := n - 1; i >= 0; i-- {
		if s.ranksLast(cs[i].score) {
			c := cs[i]
			copy(cs[i:n-1], cs[i+1:n])
			cs[n-1] = c
			n--
		}
	}
	return n
}

// inlineRank is how many candidates rank orders without allocating.
const inlineRank = 16

// rankWith is rank's work, with room for a key per candidate and for two
// counts, its misses and its requests out (at least len(cs) keys, twice
// that counts); k ≥ 1. now is a snitchClock.Nanos reading: converted once
// a plan, not once a candidate (a fifth of ranking nine).
func (s *snitch) rankWith(cs []candidate, now int64, k int, probe bool, keys []float64, counts []int64) (probing bool) {
	// Resliced here, every index below is provably in range and goes
	// unchecked, as it did when rank indexed arrays of its own.
	keys = keys[:len(cs)]
	misses, inflight := counts[:len(cs)], counts[len(cs):2*len(cs)]
	k = min(k, len(cs))
	best := math.Inf(1)
	for i, c := range cs {
		// Requests out first: a request's end counts it out last (see
		// score.ended), so a replica seen with none out is seen with that
		// request's miss and latency too, never as idle and unmeasured
		// (first in the order) just as it failed.
		inflight[i] = c.score.queued()
		keys[i], misses[i] = c.score.latency(), c.score.missing()
		if keys[i] > 0 {
			best = min(best, keys[i])
		}
	}
	// One probe a read, of a replica that missed, has requests out or
	// scores behind the best: the read tries it first, and one claimed
	// besides would not be tried (its probe put off by an interval, every
	// interval, when the two expire together), nor does a replica of the
	// best standing need trying again. Requests out count, as they rank it
	// behind: a replica stuck on one request a read had hedged around
	// ranked behind its idle peers for good, was never asked, so its score
	// expired, and was never probed.
	bar := best * (1 + s.cfg.Badness)
	probed := -1
	for i, c := range cs {
		behind := misses[i] > 0 || inflight[i] > 0 || (keys[i] > best && keys[i] >= bar)
		if c.score.expire(now, s.cfg.ResetInterval, probe && behind && !probing) {
			// Forgotten, for its read alone, requests out too: weighed by
			// them, the probe of a replica with one stuck went elsewhere,
			// every interval, and it was never asked again.
			keys[i], misses[i], inflight[i], probing, probed = 0, 0, 0, true, i
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
	for i := range cs {
		keys[i] = weigh(keys[i], best, inflight[i])
		if misses[i] == 0 {
			clean = max(clean, keys[i])
		}
	}
	// A replica that missed since its last answer goes behind every one
	// that has not, however many requests those have out: a replica that
	// fails at once never has any out, and would otherwise come first for
	// every read under load. Among those that missed, fewer misses first
	// (see putBehind).
	putBehind(keys, misses, max(clean, best), 2*(1+s.cfg.Badness))
	bucketize(keys, s.cfg.Badness, s.logBadness, k)
	if probed >= 0 {
		// First, not level with replicas that answer in no measurable
		// time (key 0 too): placed after them, it went unasked, probe
		// after probe, and was never read again.
		keys[probed] = -2
	}
	selectByKeys(cs, keys, k)
	spreadRacks(cs, keys, k)
	return probing
}

// putBehind puts the keys of the replicas that missed behind floor, the
// largest key of those that did not, by fewer misses first and then by
// key: a replica that fails at once keeps the fast score it had, and
// weighed by its misses alone (key times misses) it came before one that
// answers slowly and missed less. Each miss multiplies the key by more
// than the widest ratio of the missed replicas' keys, and by behind, at
// least a Badness bucket, beyond it.
func putBehind(keys []float64, misses []int64, floor, behind float64) {
	lo, hi := math.Inf(1), 0.0
	for i, m := range misses {
		if m > 0 {
			base := max(keys[i], floor)
			lo, hi = min(lo, base), max(hi, base)
		}
	}
	if hi == 0 {
		return // none missed
	}
	step := behind * hi / lo
	for i, m := range misses {
		if m > 0 {
			keys[i] = floor * behind * math.Pow(step, float64(m-1)) * max(keys[i], floor) / lo
		}
	}
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
