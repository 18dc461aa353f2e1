package coordinator

import (
	"sync/atomic"
	"unsafe"
)

// scoreCache finds a replica's score by where its ID's bytes are, before
// the snitch's map hashes the ID: a locator hands the same replicas to
// every read, whose Endpoint returns the same strings, so a pointer
// comparison finds most scores (the map lookup was a twentieth of a read
// at ONE among nine replicas). A slot holds a score whose ID shares those
// bytes, which the score keeps alive, so equal pointers and lengths mean
// equal IDs. The first score to a slot keeps it until forgotten: replicas
// whose slots collide, or whose IDs are built afresh for every read, take
// the map's path, as every read did before, and no read writes a slot
// other cores are reading.
type scoreCache [1 << scoreCacheBits]atomic.Pointer[score]

const scoreCacheBits = 8 // 256 slots

// slot is where a score for id would be.
func (c *scoreCache) slot(id string) *atomic.Pointer[score] {
	p := uint64(uintptr(unsafe.Pointer(unsafe.StringData(id))))
	return &c[(p*0x9E3779B97F4A7C15)>>(64-scoreCacheBits)] // Fibonacci hashing: the top bits
}

// find returns the score cached for id, or nil.
func (c *scoreCache) find(id string) *score {
	sc := c.slot(id).Load()
	if sc == nil || unsafe.StringData(sc.id) != unsafe.StringData(id) || len(sc.id) != len(id) || sc.forgotten.Load() {
		return nil
	}
	return sc
}

// keep caches sc, found by id, if id's bytes are sc's own and its slot is
// free or holds a forgotten score.
func (c *scoreCache) keep(id string, sc *score) {
	if unsafe.StringData(sc.id) != unsafe.StringData(id) || len(id) == 0 {
		return
	}
	s := c.slot(id)
	if old := s.Load(); old == nil || old.forgotten.Load() {
		s.CompareAndSwap(old, sc)
	}
}
