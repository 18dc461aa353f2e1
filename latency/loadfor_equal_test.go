package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/latency"
)

// LoadFor answers as Load does for a policy Equal to the one in force,
// though not ==: the zero SpeculativeRetry and a parsed 99p are the same
// policy, and a read holding one while the threshold holds the other got a
// threshold of its own, the 99th percentile of 10 samples, during the
// warm-up for which Load answers half the read timeout.
func TestLoadForAnEqualPolicyAnswersAsLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		parsed, err := latency.ParseSpeculativeRetry("99p")
		if err != nil {
			t.Fatal(err)
		}
		if !parsed.Equal(latency.SpeculativeRetry{}) {
			t.Fatal("99p not Equal to the zero policy")
		}
		for _, c := range []struct {
			name             string
			inForce, callers latency.SpeculativeRetry
		}{{"parsed in force, zero held", parsed, latency.SpeculativeRetry{}},
			{"zero in force, parsed held", latency.SpeculativeRetry{}, parsed}} {
			tr := latency.NewTracker()
			th := latency.NewThreshold(c.inForce, tr, 10*time.Second)
			th.Load(time.Now()) // the first refresh: empty window, 5s
			time.Sleep(100 * time.Millisecond)
			for range 10 {
				tr.Record(time.Millisecond)
			}
			now := time.Now()
			dLoad, _ := th.Load(now)
			dFor, _ := th.LoadFor(c.callers, now)
			if dLoad != dFor {
				t.Errorf("%s: Load=%v but LoadFor(an Equal policy)=%v", c.name, dLoad, dFor)
			}
		}
	})
}
