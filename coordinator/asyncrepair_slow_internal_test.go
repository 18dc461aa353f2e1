package coordinator

import (
	"testing"
	"time"
)

// A repair write is slow once it takes half the read timeout or more
// (RepairSlowError): at exactly half, the replica is written one repair at
// a time; a nanosecond less, it is not.
func TestAWriteOfHalfTheReadTimeoutIsSlow(t *testing.T) {
	const timeout = 5 * time.Second
	for _, c := range []struct {
		took, want time.Duration
	}{
		{0, 0},
		{timeout/2 - 1, 0},
		{timeout / 2, timeout / 2},
		{timeout, timeout},
	} {
		if got := slowWrite(c.took, timeout); got != c.want {
			t.Errorf("slowWrite(%v, %v) = %v, want %v", c.took, timeout, got, c.want)
		}
	}
}
