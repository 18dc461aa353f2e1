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
	sc.ended(sc.sent(), 10*time.Millisecond, now, context.Canceled, true, false, 0)
	if got := estimate(sc); got != 10*time.Millisecond {
		t.Fatalf("a first cancelled request gives %v, want its 10ms", got)
	}
	sc.ended(sc.sent(), time.Microsecond, now, context.Canceled, true, false, 0)
	if got := estimate(sc); got != 10*time.Millisecond {
		t.Errorf("a request cancelled after 1µs moved the score to %v, want 10ms", got)
	}
	sc.ended(sc.sent(), 50*time.Millisecond, now, context.Canceled, true, false, 0)
	if got := estimate(sc); got <= 10*time.Millisecond {
		t.Errorf("a request cancelled after 50ms left the score at %v, want it raised", got)
	}
}

// A request the read cancelled unanswered is the replica's miss once the
// read had waited more than twice its usual latency (score.ended: "more
// than twice the replica's usual latency"), and not at twice it or less.
func TestACancelledRequestIsAMissPastTwiceTheLatency(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		waited time.Duration
		miss   bool
	}{
		{20 * time.Millisecond, false}, // twice: not late
		{25 * time.Millisecond, true},  // two and a half times: late
	} {
		sc := new(score)
		sc.ended(sc.sent(), 10*time.Millisecond, now, nil, false, false, 0) // its usual latency
		sc.ended(sc.sent(), c.waited, now, context.Canceled, true, false, 0)
		if got := sc.missing() > 0; got != c.miss {
			t.Errorf("cancelled after %v: missed %v, want %v", c.waited, got, c.miss)
		}
	}
}
