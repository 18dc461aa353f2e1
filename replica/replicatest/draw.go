package replicatest

import (
	"math/rand/v2"
	"sync"
	"time"
)

// requestKind tells a replica's requests apart for their draws.
type requestKind uint8

const (
	dataRead requestKind = iota + 1
	digestRead
	mutation
)

// request is what a replica's draws for a request are derived from,
// besides its seed and how many such requests came before: nothing about
// when the request arrives or who sent it.
type request struct {
	kind       requestKind
	table, key string
}

// drawer gives each request its own random source, seeded from the
// replica's seed, the request's kind, table and key, and how many such
// requests drew before it. One shared stream handed a request the draws of
// whichever request reached the lock first, so a request cancelled before
// it arrived (it drew nothing), or two arriving at the same virtual
// instant, shifted every later latency of the replica.
type drawer struct {
	seed uint64

	mu   sync.Mutex        // held only while drawing, never across a wait
	seen map[uint64]uint64 // requests drawn for, by request hash: one entry per key and kind
	pcg  rand.PCG          // reseeded for each request
	rng  *rand.Rand        // reads pcg
}

func newDrawer(seed uint64) *drawer {
	d := &drawer{seed: seed, seen: map[uint64]uint64{}}
	d.rng = rand.New(&d.pcg)
	return d
}

// draws reports whether a request under b draws random values.
func (b *Behavior) draws() bool { return b.Latency != nil || b.PauseChance > 0 }

// draw picks a request's service time: a random pause, if the coin says so,
// plus its latency scaled by the slowdowns.
func (d *drawer) draw(b *Behavior, req request, cluster float64) time.Duration {
	// Two requests whose hashes collide share a count: their draws stay
	// distinct and as reproducible as the rest.
	h := req.hash()
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.seen[h]
	d.seen[h] = n + 1
	s := splitmix(d.seed ^ splitmix(h))
	d.pcg.Seed(s, splitmix(s+n))
	var service, pause time.Duration
	if b.Latency != nil {
		service = max(0, b.Latency.Sample(d.rng))
	}
	if b.PauseChance > 0 && d.rng.Float64() < b.PauseChance {
		pause = max(0, b.PauseLength.Sample(d.rng))
	}
	return addSat(pause, scale(service, b.factor()*cluster))
}

// hash is FNV-1a over the kind, the table's length, the table and the key: stable across runs,
// unlike hash/maphash, and it allocates nothing.
func (req request) hash() uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(req.kind)) * prime
	h = (h ^ uint64(len(req.table))) * prime // so that "ab"+"c" differs from "a"+"bc"
	for i := range len(req.table) {
		h = (h ^ uint64(req.table[i])) * prime
	}
	for i := range len(req.key) {
		h = (h ^ uint64(req.key[i])) * prime
	}
	return h
}

// splitmix is splitmix64's step: nearby inputs give unrelated outputs.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
