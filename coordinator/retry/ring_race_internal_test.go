package retry

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// An event that passed add's late check, then found its slot taken by an
// event more than maxLate laps later (which ahead takes for a stale lap),
// is refused, and the slot keeps the later window's count: overwritten, it
// lost it, and a spent floor there was granted again (found by review; the
// interleaving is forced here: newest and the slot as the later event
// left them).
func TestRingTakeRefusesAnEventFarBehindItsSlot(t *testing.T) {
	var r ring
	e := uint64(1000 * ringSlots)
	far := e + (maxLate+44)*ringSlots
	r.newest.Store(far)
	s, lap := r.locate(e)
	farWord := pack(uint32(far/ringSlots), 1)
	s.Store(farWord)
	assert.False(t, r.take(s, e, lap))
	assert.Equal(t, farWord, s.Load(), "the later window keeps its count")
	assert.Equal(t, uint64(1), r.sum(far))
}

// An event whose slot held its lap when add loaded it, then was taken by
// an event a lap later before add counted it, is not counted in that later
// lap: the later window held two events where either order of the two
// counts one (found by review; forced here, the slot as the later event
// left it).
func TestRingAddCountsNothingInALaterLap(t *testing.T) {
	var r ring
	e := uint64(1000 * ringSlots)
	s, lap := r.locate(e)
	later := pack(lap+1, 1)
	s.Store(later)
	assert.False(t, r.kept(s, s.Add(1), lap), "add's atomic add, after the later event")
	assert.Equal(t, later, s.Load(), "the later window counts its own event only")

	s.Store(pack(lap, 1))
	assert.True(t, r.kept(s, s.Add(1), lap))
	assert.Equal(t, pack(lap, 2), s.Load())
}
