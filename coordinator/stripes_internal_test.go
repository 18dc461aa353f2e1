package coordinator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Two goroutines whose stacks share a stripe read by turns: within
// dealAfter turns the coordinator deals them onto different stripes, and
// then they stay there. One goroutine reading alone never deals anew.
func TestReadersSharingAStripeAreParted(t *testing.T) {
	c, err := New(Config{Locator: nowhere{}})
	require.NoError(t, err)
	defer c.Close()
	read := func(me uintptr) { c.noteReader(&c.unplaced.m.hot[c.dealer.Of(me)], me) }
	dealing := func() (s []int) { // where 64 stacks are dealt
		for x := range uintptr(64) {
			s = append(s, c.dealer.Of(x*977+1<<16))
		}
		return s
	}

	a, b := uintptr(1<<20), uintptr(1<<20+1)
	for c.dealer.Of(b) != c.dealer.Of(a) {
		b++
	}
	before := dealing()
	for range 100 * dealAfter {
		read(a)
	}
	require.Equal(t, before, dealing(), "a lone reader dealt the stripes anew")
	turns := 0
	for ; c.dealer.Of(a) == c.dealer.Of(b); turns++ {
		require.LessOrEqual(t, turns, dealAfter+1, "still sharing a stripe")
		read(a)
		read(b)
	}
	before = dealing()
	for range 100 * dealAfter {
		read(a)
		read(b)
	}
	require.Equal(t, before, dealing(), "parted readers dealt anew")
}
