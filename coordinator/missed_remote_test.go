package coordinator_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// failsEveryRead fails every read at once, with an ordinary error.
var failsEveryRead = replicatest.Behavior{Fault: replicatest.ErrorAfter(0, errors.New("disk error"))}

// stopsAnswering never answers, but honours its context, as a replica
// must.
var stopsAnswering = constant(time.Hour)

// At a level the remote datacenter may serve, a local replica that missed
// since its last answer ranks behind the remote ones that did not: ranked
// only within the local group, one that failed at once or stopped
// answering was a contact of every QUORUM read over 3+3 (blockFor 4), each
// saved by a hedge until the budget was spent (35 of 50 reads failed), and
// with two such every read failed, under an unlimited budget too, while
// dc2 had an idle replica (found by a user's drill). Only the read that
// finds a replica bad may ask it.
func TestLocalReplicasThatMissedRankBehindRemoteOnes(t *testing.T) {
	for _, c := range []struct {
		name string
		bad  map[string]replicatest.Behavior
	}{
		{"fails", map[string]replicatest.Behavior{d1n2: failsEveryRead}},
		{"stops", map[string]replicatest.Behavior{d1n2: stopsAnswering}},
		{"both", map[string]replicatest.Behavior{d1n2: stopsAnswering, d1n3: failsEveryRead}},
	} {
		for _, level := range []consistency.Level{consistency.One, consistency.Quorum} {
			t.Run(fmt.Sprint(c.name, "/", level), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { readsAroundBadLocals(t, c.bad, level) })
			})
		}
	}
}

func readsAroundBadLocals(t *testing.T, bad map[string]replicatest.Behavior, level consistency.Level) {
	e := newTwoDCs(t, coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "5ms")})
	for range 5 { // every replica answered: each has a score
		_, _, err := e.read(consistency.All)
		require.NoError(t, err)
	}
	for id, b := range bad {
		e.behave(t, id, b)
	}
	for i := range 50 {
		res, _, err := e.read(level)
		settle()
		if i == 0 {
			continue // it finds them bad: two need two hedges, a round takes one
		}
		require.NoError(t, err, "read %d:\n%s", i, res.Trace)
		for _, rq := range res.Trace.Requests {
			_, isBad := bad[rq.Endpoint]
			require.False(t, isBad, "read %d asked %s, which missed, while a remote replica had not:\n%s", i, rq.Endpoint, res.Trace)
		}
	}
}

// A local replica that missed is still probed once its score is older
// than the reset interval: it stays in the local group for the read that
// claims the probe, which asks it first. Put behind the remote replicas,
// it was never probed at ONE (a read there hedges to a local replica
// first), and a healed replica was never asked again.
func TestALocalReplicaThatMissedIsProbedAfterTheResetInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "5ms")})
		e.behave(t, d1n1, failsEveryRead)
		for range 5 {
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
		}
		e.behave(t, d1n1, constant(ms(1)))
		before := e.stats(d1n1).Reads
		for range 20 {
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
			settle()
		}
		assert.Equal(t, before, e.stats(d1n1).Reads, "asked before its reset interval")
		time.Sleep(10*time.Second + time.Millisecond) // the default Snitch.ResetInterval
		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		settle()
		assert.Equal(t, d1n1, res.Trace.Requests[0].Endpoint, "the probe goes first:\n%s", res.Trace)
		assert.Equal(t, before+1, e.stats(d1n1).Reads)
	})
}

// Snitch.Disabled keeps the locator's order, a replica that missed in it.
func TestADisabledSnitchKeepsALocalReplicaThatMissedFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		e.behave(t, d1n1, failsEveryRead)
		for i := range 3 {
			res, _, _ := e.read(consistency.Quorum)
			settle()
			var contacts []string
			for _, rq := range res.Trace.Requests {
				contacts = append(contacts, rq.Endpoint)
			}
			assert.Equal(t, twoDCs[:4], contacts, "read %d", i)
		}
	})
}
