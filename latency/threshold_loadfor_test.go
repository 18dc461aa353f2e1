package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// LoadFor answers as Load for the policy in force, and for another policy
// (a read that started before SetPolicy, or after the table's options
// changed but before SetPolicy) that policy's threshold over the same
// tracker, without making it the one in force.
func TestLoadForAnswersUnderTheCallersPolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, th, warm := warmThreshold(t)
		d, ok := th.LoadFor(latency.SpeculativeRetry{}, time.Now())
		assert.Equal(t, warm, d)
		assert.True(t, ok)

		for _, s := range []struct {
			policy string
			d      time.Duration
			ok     bool
		}{{"25ms", 25 * time.Millisecond, true}, {"NEVER", 0, false}, {"ALWAYS", 0, true}, {"MAX(99p,30ms)", 30 * time.Millisecond, true}, {"MIN(99p,30ms)", warm, true}} {
			d, ok := th.LoadFor(mustParse(t, s.policy), time.Now())
			assert.Equal(t, s.d, d, s.policy)
			assert.Equal(t, s.ok, ok, s.policy)
			assert.Equal(t, latency.SpeculativeRetry{}, th.Policy(), "%s was not put in force", s.policy)
		}

		th.SetPolicy(mustParse(t, "NEVER"))
		d, ok = th.LoadFor(latency.SpeculativeRetry{}, time.Now()) // a read that began under 99p
		assert.Equal(t, warm, d)
		assert.True(t, ok)
		_, ok = th.Load(time.Now())
		assert.False(t, ok, "NEVER stays in force")
	})
}
