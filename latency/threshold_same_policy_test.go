package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// Setting the policy in force again (an ALTER TABLE, or SetTableOptions,
// that changes another option) leaves its threshold as it is: it is
// refreshed on its schedule, not from the samples of the moment.
func TestSettingThePolicyInForceKeepsItsThreshold(t *testing.T) {
	for name, again := range map[string]latency.SpeculativeRetry{
		"zero": {}, "99p": mustParse(t, "99p"), "99PERCENTILE": mustParse(t, "99PERCENTILE"),
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr, th, before := warmThreshold(t)
				recordN(tr, 50*time.Millisecond, 500)
				th.SetPolicy(again)
				assert.Equal(t, again, th.Policy(), "the policy as it was set")
				assert.Equal(t, before, load(th), "before the refresh")
				time.Sleep(time.Second)
				withinBucket(t, 50*time.Millisecond, load(th), "at the refresh")
			})
		})
	}
}

// A table still waiting for its first samples keeps waiting for them.
func TestSettingThePolicyInForceKeepsWaitingForSamples(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(latency.SpeculativeRetry{}, tr, readTimeout)
		assert.Equal(t, readTimeout/2, load(th))
		recordN(tr, 10*time.Millisecond, 5)
		th.SetPolicy(latency.SpeculativeRetry{})
		assert.Equal(t, readTimeout/2, load(th), "5 samples, before the first refresh")
		recordN(tr, 10*time.Millisecond, 195)
		withinBucket(t, 10*time.Millisecond, load(th), "200 samples: at once")
	})
}
