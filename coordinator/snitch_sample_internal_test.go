package coordinator

import (
	"context"
	"testing"
	"time"
)

// A cancelled request's time is a lower bound of its replica's latency: it
// raises a score it exceeds, and gives a replica without one its first,
// but one cancelled sooner than the replica usually answers (a ReadMany
// page that filled at once) leaves the score as it was.
func TestACancelledRequestOnlyRaisesTheScore(t *testing.T) {
	now := time.Now()
	estimate := func(sc *score) time.Duration {
		return time.Duration(sc.latency())
	}
	sc := new(score)
	sc.ended(sc.sent(), 10*time.Millisecond, now, context.Canceled, true, false)
	if got := estimate(sc); got != 10*time.Millisecond {
		t.Fatalf("a first cancelled request gives %v, want its 10ms", got)
	}
	sc.ended(sc.sent(), time.Microsecond, now, context.Canceled, true, false)
	if got := estimate(sc); got != 10*time.Millisecond {
		t.Errorf("a request cancelled after 1µs moved the score to %v, want 10ms", got)
	}
	sc.ended(sc.sent(), 50*time.Millisecond, now, context.Canceled, true, false)
	if got := estimate(sc); got <= 10*time.Millisecond {
		t.Errorf("a request cancelled after 50ms left the score at %v, want it raised", got)
	}
}
