package coordinator

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stripeReads simulates reads on c's hot counters by the goroutines whose
// stacks are given, started at *at.
type stripeReads struct {
	c  *Coordinator
	at time.Time
}

func (s *stripeReads) read(me uintptr) {
	s.c.noteReader(&s.c.unplaced.m.hot[s.c.dealer.Of(me)], me, s.at)
}

// dealing is where 64 stacks are dealt.
func (s *stripeReads) dealing() (d []int) {
	for x := range uintptr(64) {
		d = append(d, s.c.dealer.Of(x*977+1<<16))
	}
	return d
}

func newStripeReads(t *testing.T) *stripeReads {
	c, err := New(Config{Locator: nowhere{}})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return &stripeReads{c: c, at: time.Now()}
}

// Two goroutines whose stacks share a stripe read by turns: within
// dealAfter turns the coordinator deals them onto different stripes, and
// then they stay there. One goroutine reading alone never deals anew.
func TestReadersSharingAStripeAreParted(t *testing.T) {
	s := newStripeReads(t)
	a, b := uintptr(1<<20), uintptr(1<<20+1)
	for s.c.dealer.Of(b) != s.c.dealer.Of(a) {
		b++
	}
	before := s.dealing()
	for range 100 * dealAfter {
		s.read(a)
	}
	require.Equal(t, before, s.dealing(), "a lone reader dealt the stripes anew")
	turns := 0
	for ; s.c.dealer.Of(a) == s.c.dealer.Of(b); turns++ {
		require.LessOrEqual(t, turns, dealAfter+1, "still sharing a stripe")
		s.read(a)
		s.read(b)
	}
	before = s.dealing()
	for range 100 * dealAfter {
		s.read(a)
		s.read(b)
	}
	require.Equal(t, before, s.dealing(), "parted readers dealt anew")
}

// Many more goroutines than stripes, reading by turns, are dealt anew at
// most once a dealGap.
func TestManyReadersAreDealtAtMostOnceAGap(t *testing.T) {
	s := newStripeReads(t)
	deals, last := 0, s.dealing()
	for gap := range 3 {
		s.at = s.at.Add(time.Duration(gap) * dealGap)
		for i := range 100 * dealAfter {
			s.read(uintptr(1<<20 + i%64))
			if d := s.dealing(); !slices.Equal(d, last) {
				deals, last = deals+1, d
			}
		}
		require.LessOrEqual(t, deals, gap+1, "dealt %d times in %d gaps", deals, gap+1)
	}
	require.Positive(t, deals, "readers by turns were never dealt anew")
}
