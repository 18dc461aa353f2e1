package coordinator

import (
	"errors"
	"testing"
	"time"

	"github.com/readpath/readpath/internal/monoclock/monoclocktest"
)

// A replica whose score is older than the reset interval is probed by the
// monotonic clock, whatever the wall clock did meanwhile: dated by the wall
// clock, a step back of an hour left a replica that had timed out unprobed,
// and last in every ranking, for the hour.
func TestAScoreExpiresWhenTheWallClockStepsBack(t *testing.T) {
	const reset = 10 * time.Second
	now := time.Now()
	sc := new(score)
	sc.ended(sc.sent(), time.Second, now, nil, false, false, 0)
	sc.ended(sc.sent(), time.Second, now, errors.New("refused"), false, false, 0) // then it stopped answering
	later, ok := monoclocktest.StepWall(now.Add(reset+time.Second), -time.Hour)
	if !ok {
		t.Skip("cannot build a time whose wall clock stepped: time.Time's layout changed")
	}
	if probe := sc.expire(snitchClock.Nanos(later), reset, true); !probe {
		t.Errorf("a score %v old by the monotonic clock was not probed after the wall clock stepped back an hour", reset+time.Second)
	}
	if probe := sc.expire(snitchClock.Nanos(now.Add(reset/2)), reset, true); probe {
		t.Errorf("a score %v old was probed", reset/2)
	}
}
