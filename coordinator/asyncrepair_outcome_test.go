package coordinator_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// outcomeLog counts the outcomes told to Config.Outcomes, by replica.
type outcomeLog struct {
	mu  sync.Mutex
	got map[string]int64
}

func (l *outcomeLog) ReportOutcome(o replica.Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got[o.Endpoint.ID]++
}

// Config.Outcomes is told how every replica request ended, a repair write
// the ASYNC queue runs too, as a BLOCKING repair's write is: a failure
// detector that counts connection failures must hear of a stale replica's
// refused repair whichever mode the table reads in.
func TestOutcomesHearOfEveryRepairWrite(t *testing.T) {
	for _, mode := range []repair.Mode{repair.Blocking, repair.Async} {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				log := &outcomeLog{got: map[string]int64{}}
				opts := policy(t, "NEVER")
				opts.ReadRepair = mode
				e := newEnv(t, coordinator.Config{DefaultTable: opts, Outcomes: log})
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))

				res, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				require.Equal(t, []string{B}, res.Trace.Repaired)
				time.Sleep(ms(10)) // the ASYNC repair's write takes B 1 ms
				settle()

				want := map[string]int64{}
				for _, id := range []string{A, B, C} {
					if s := e.stats(id); s.Reads+s.Mutations > 0 {
						want[id] = s.Reads + s.Mutations
					}
				}
				require.Equal(t, int64(1), e.stats(B).Mutations)
				log.mu.Lock()
				defer log.mu.Unlock()
				assert.Equal(t, want, log.got, "one outcome per request a replica received")
			})
		})
	}
}
