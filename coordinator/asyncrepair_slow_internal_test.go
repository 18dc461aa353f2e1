package coordinator

import (
	"testing"
	"time"
)

// A repair write is slow once it takes half the read timeout or more
// (RepairSlowError): at exactly half, the replica is written one repair at
// a time; a nanosecond less, it is not. Under a read timeout of 1 ns, half
// is 0, and a write that took no time (a fake clock's) is slow too: it is
// told as 1 ns, since 0 says "not slow".
func TestAWriteOfHalfTheReadTimeoutIsSlow(t *testing.T) {
	const timeout = 5 * time.Second
	for _, c := range []struct {
		took, timeout, want time.Duration
	}{
		{0, timeout, 0},
		{timeout/2 - 1, timeout, 0},
		{timeout / 2, timeout, timeout / 2},
		{timeout, timeout, timeout},
		{0, 1, 1},
	} {
		if got := slowWrite(c.took, c.timeout); got != c.want {
			t.Errorf("slowWrite(%v, %v) = %v, want %v", c.took, c.timeout, got, c.want)
		}
	}
}
