package coordinator

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

type deadSet map[string]bool

func (d deadSet) IsAlive(ep replica.Endpoint) bool { return !d[ep.ID] }

// threeDCPlacement is three datacenters of eight replicas each (24, past
// the inline room), interleaved, on four racks each.
func threeDCPlacement() ([]replica.Replica, []replica.Endpoint, consistency.Replication) {
	var eps []replica.Endpoint
	for i := range 8 {
		for _, dc := range []string{"dc1", "dc2", "dc3"} {
			eps = append(eps, replica.Endpoint{ID: fmt.Sprintf("%s-n%d", dc, i), Datacenter: dc, Rack: fmt.Sprint("r", i%4)})
		}
	}
	return make([]replica.Replica, len(eps)), eps,
		consistency.NetworkTopology(map[string]int{"dc1": 8, "dc2": 8, "dc3": 8})
}

func planWith(t *testing.T, level consistency.Level, dead deadSet, sn *snitch) plan {
	t.Helper()
	reps, eps, repl := threeDCPlacement()
	p, err := makePlan(planInput{level: level, repl: repl, localDC: "dc2", live: dead, snitch: sn, now: time.Now()},
		reps, eps, nil)
	require.NoError(t, err)
	return p
}

// DC-local levels keep only live local replicas; other levels put the
// live local ones first; contacts are blockFor; no dead replica is ever
// in the order.
func TestPlanKeepsLiveLocalReplicasOverTheInlineRoom(t *testing.T) {
	dead := deadSet{"dc2-n0": true, "dc2-n5": true, "dc1-n1": true}
	for _, tc := range []struct {
		level         consistency.Level
		order, contac int
		localOnly     bool
	}{
		{consistency.LocalOne, 6, 1, true},
		{consistency.LocalQuorum, 6, 5, true},
		{consistency.One, 21, 1, false},
		{consistency.Quorum, 21, 13, false},
		{consistency.All, 21, 24, false}, // unavailable below
	} {
		sn := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Second})
		if tc.level == consistency.All {
			reps, eps, repl := threeDCPlacement()
			_, err := makePlan(planInput{level: tc.level, repl: repl, localDC: "dc2", live: dead, snitch: &sn, now: time.Now()}, reps, eps, nil)
			var ue *consistency.UnavailableError
			require.ErrorAs(t, err, &ue)
			continue
		}
		p := planWith(t, tc.level, dead, &sn)
		require.Len(t, p.order, tc.order, "%v", tc.level)
		assert.Equal(t, tc.contac, p.contacts, "%v", tc.level)
		seenRemote := false
		for _, c := range p.order {
			assert.False(t, dead[c.ep.ID], "%v plans dead %s", tc.level, c.ep.ID)
			if c.ep.Datacenter != "dc2" {
				assert.False(t, tc.localOnly, "%v plans remote %s", tc.level, c.ep.ID)
				seenRemote = true
			} else {
				assert.False(t, seenRemote, "%v: local %s after a remote one", tc.level, c.ep.ID)
			}
		}
		// The first local contacts span the racks: six live local
		// replicas on four racks, all unmeasured (equal keys).
		racks := map[string]bool{}
		for _, c := range p.order[:min(4, p.contacts+2)] {
			racks[c.ep.Rack] = true
		}
		assert.Len(t, racks, min(4, p.contacts+2), "%v: order %v", tc.level, rankIDs(p.order))
	}
}

// EACH_QUORUM contacts exactly a quorum of every datacenter, the closest
// of each, and nothing else.
func TestEachQuorumContactsAQuorumOfEveryDatacenter(t *testing.T) {
	sn := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	slow := map[string]bool{"dc1-n0": true, "dc3-n2": true}
	now := time.Now()
	reps, eps, repl := threeDCPlacement()
	for i := range eps {
		sc := sn.entry(&eps[i])
		sc.bits.Store(0)
		lat := 1e6
		if slow[eps[i].ID] {
			lat = 100e6
		}
		sc.sample(time.Duration(lat), snitchClock.Nanos(now))
	}
	p, err := makePlan(planInput{level: consistency.EachQuorum, repl: repl, localDC: "dc2", snitch: &sn, now: now.Add(time.Millisecond)}, reps, eps, nil)
	require.NoError(t, err)
	require.Equal(t, 15, p.contacts)
	per := map[string]int{}
	for _, c := range p.order[:p.contacts] {
		per[c.ep.Datacenter]++
		assert.False(t, slow[c.ep.ID], "slow %s contacted while faster ones are left", c.ep.ID)
	}
	assert.Equal(t, map[string]int{"dc1": 5, "dc2": 5, "dc3": 5}, per)
}
