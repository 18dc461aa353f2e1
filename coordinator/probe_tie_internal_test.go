package coordinator

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A claimed probe puts its replica first by zeroing its score, which puts
// it before replicas with measured latencies but only level with those
// that answer in no measurable time (replicatest's replicas by default,
// in a synctest bubble): a probed replica last in placement order was not
// among a read's contacts, its miss stayed, and it got no reads, probe
// after probe (found by an operator's exercise of node recovery). It goes
// first, as a probe's replica does whatever the others' scores.
func TestAClaimedProbeGoesFirstAmongReplicasThatAnswerAtOnce(t *testing.T) {
	for _, badness := range []float64{0, 0.1} {
		s := newSnitch(SnitchConfig{Badness: badness, ResetInterval: time.Second})
		t0 := int64(1e12)
		probe := t0 + int64(time.Second) + 1
		a := rankCandidate("a", "r1", 0, 0, probe)
		b := rankCandidate("b", "r2", 0, 0, probe)
		healed := rankCandidate("healed", "r3", 0, 1, t0)
		cs := []candidate{a, b, healed}
		require.True(t, s.rank(cs, probe, 2, true), "badness %v: the read claims healed's probe", badness)
		assert.Equal(t, "healed", rankIDs(cs)[0], "badness %v", badness)
	}
}
