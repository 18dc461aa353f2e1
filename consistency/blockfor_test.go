package consistency_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
)

func TestBlockForSingleDatacenter(t *testing.T) {
	// rf -> quorum, written out rather than computed.
	quorums := map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4}
	for rf := 1; rf <= 7; rf++ {
		r := c.Simple(rf)
		q := quorums[rf]
		want := map[c.Level]int{
			c.Any: 1, c.One: 1, c.LocalOne: 1, c.Two: 2, c.Three: 3,
			c.Quorum: q, c.Serial: q, c.LocalQuorum: q, c.LocalSerial: q, c.EachQuorum: q,
			c.All: rf,
		}
		for l, n := range want {
			assert.Equal(t, n, l.BlockFor(r, ""), "rf=%d %s", rf, l)
			assert.Equal(t, n, l.BlockFor(r, "dc1"), "rf=%d %s from a named DC", rf, l)
		}
	}
}

func TestBlockForMultiDatacenter(t *testing.T) {
	tests := []struct {
		name     string
		rf       map[string]int
		total    int
		quorum   int
		each     int
		localQ   map[string]int // seen from each DC, including one the replication lacks
		eachByDC map[string]int
	}{
		{
			name: "dc1:3 dc2:2", rf: map[string]int{"dc1": 3, "dc2": 2},
			total: 5, quorum: 3, each: 4,
			localQ:   map[string]int{"dc1": 2, "dc2": 2, "dc3": 1},
			eachByDC: map[string]int{"dc1": 2, "dc2": 2},
		},
		{
			name: "dc1:3 dc2:3 dc3:1", rf: map[string]int{"dc1": 3, "dc2": 3, "dc3": 1},
			total: 7, quorum: 4, each: 5,
			localQ:   map[string]int{"dc1": 2, "dc2": 2, "dc3": 1, "dc4": 1},
			eachByDC: map[string]int{"dc1": 2, "dc2": 2, "dc3": 1},
		},
		{
			name: "dc1:5 dc2:0", rf: map[string]int{"dc1": 5, "dc2": 0},
			total: 5, quorum: 3, each: 3,
			localQ:   map[string]int{"dc1": 3, "dc2": 1},
			eachByDC: map[string]int{"dc1": 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.NetworkTopology(tt.rf)
			assert.NoError(t, r.Validate())
			assert.Equal(t, tt.eachByDC, c.EachQuorumFor(r))
			for dc, lq := range tt.localQ {
				assert.Equal(t, lq, c.LocalQuorum.BlockFor(r, dc), "LOCAL_QUORUM from %s", dc)
				assert.Equal(t, lq, c.LocalSerial.BlockFor(r, dc), "LOCAL_SERIAL from %s", dc)
				assert.Equal(t, tt.quorum, c.Quorum.BlockFor(r, dc))
				assert.Equal(t, tt.quorum, c.Serial.BlockFor(r, dc))
				assert.Equal(t, tt.each, c.EachQuorum.BlockFor(r, dc))
				assert.Equal(t, tt.total, c.All.BlockFor(r, dc))
				assert.Equal(t, 1, c.LocalOne.BlockFor(r, dc))
				assert.Equal(t, 1, c.One.BlockFor(r, dc))
				assert.Equal(t, 2, c.Two.BlockFor(r, dc))
				assert.Equal(t, 3, c.Three.BlockFor(r, dc))
			}
		})
	}
}

func TestEachQuorumForSimpleIsNil(t *testing.T) {
	assert.Nil(t, c.EachQuorumFor(c.Simple(3)))
}

func TestBlockForUndefinedLevelIsZero(t *testing.T) {
	assert.Equal(t, 0, c.Level(200).BlockFor(c.Simple(3), ""))
}
