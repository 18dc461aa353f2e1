package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A request that ends after ForgetReplica is not told to Config.Outcomes
// (ForgetReplica's doc): a failure detector that forgot the departed node
// too would track it again, convicted, when its request failed as its
// connection closed.
func TestARequestEndingAfterForgetReplicaIsNotToldToOutcomes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &outcomeLog{got: map[string]int64{}}
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "NEVER"), Outcomes: log})
		e.hangs(t, A)
		e.timeOut(t, 1, consistency.All) // A's request abandoned, still out
		e.c.ForgetReplica(A)
		log.mu.Lock()
		before := log.got[A]
		log.mu.Unlock()
		drain() // A returns from it now
		log.mu.Lock()
		defer log.mu.Unlock()
		assert.Equal(t, before, log.got[A], "A's request ended after it was forgotten")
		assert.Positive(t, log.got[B], "B's answers are told")
	})
}
