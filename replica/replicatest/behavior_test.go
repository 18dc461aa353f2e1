package replicatest_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBehaviorValidate(t *testing.T) {
	pause := replicatest.Constant(ms(50))
	cases := []struct {
		name string
		b    replicatest.Behavior
		ok   bool
	}{
		{"zero", replicatest.Behavior{}, true},
		{"everything", replicatest.Behavior{
			Latency: replicatest.LogNormal(ms(2), 0.5), Slowdown: 3, PauseChance: 0.01, PauseLength: pause,
			Pauses: []replicatest.Window{{0, ms(1)}, {ms(100), ms(180)}}, Fault: replicatest.IgnoresContext(),
		}, true},
		{"speed-up", replicatest.Behavior{Slowdown: 0.5}, true},
		{"certain pause", replicatest.Behavior{PauseChance: 1, PauseLength: pause}, true},
		{"length without chance", replicatest.Behavior{PauseLength: pause}, true},
		{"negative slowdown", replicatest.Behavior{Slowdown: -1}, false},
		{"NaN slowdown", replicatest.Behavior{Slowdown: math.NaN()}, false},
		{"infinite slowdown", replicatest.Behavior{Slowdown: math.Inf(1)}, false},
		{"negative pause chance", replicatest.Behavior{PauseChance: -0.1, PauseLength: pause}, false},
		{"pause chance above 1", replicatest.Behavior{PauseChance: 1.1, PauseLength: pause}, false},
		{"NaN pause chance", replicatest.Behavior{PauseChance: math.NaN(), PauseLength: pause}, false},
		{"pause chance without length", replicatest.Behavior{PauseChance: 0.5}, false},
		{"window before start", replicatest.Behavior{Pauses: []replicatest.Window{{-ms(1), ms(1)}}}, false},
		{"empty window", replicatest.Behavior{Pauses: []replicatest.Window{{ms(1), ms(1)}}}, false},
		{"inverted window", replicatest.Behavior{Pauses: []replicatest.Window{{ms(2), ms(1)}}}, false},
		{"negative error delay", replicatest.Behavior{Fault: replicatest.ErrorAfter(-1, nil)}, false},
		{"nil pointer latency", replicatest.Behavior{Latency: (*stepLatency)(nil)}, false},
		{"nil pointer pause length", replicatest.Behavior{PauseChance: 0.5, PauseLength: (*stepLatency)(nil)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.b.Validate()
			if c.ok {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, replicatest.ErrInvalidConfig)
			assert.Contains(t, err.Error(), "replicatest: invalid ")
		})
	}
}

func TestInvalidBehaviorChangesNothing(t *testing.T) {
	b := replicatest.Behavior{Latency: replicatest.Constant(ms(3)), Pauses: []replicatest.Window{{0, ms(5)}}}
	r := newReplica(t, with(b))
	require.ErrorIs(t, r.SetBehavior(replicatest.Behavior{Slowdown: -1}), replicatest.ErrInvalidConfig)
	require.ErrorIs(t, r.SetLatency(replicatest.Constant(-1)), replicatest.ErrInvalidConfig)
	require.ErrorIs(t, r.SetSlowdown(math.NaN()), replicatest.ErrInvalidConfig)
	require.ErrorIs(t, r.SetFault(replicatest.ErrorAfter(-1, nil)), replicatest.ErrInvalidConfig)
	require.ErrorIs(t, r.AddPause(replicatest.Window{Start: ms(2), End: ms(1)}), replicatest.ErrInvalidConfig)
	assert.Equal(t, b, r.Behavior())
}

func TestSettersChangeOnlyTheirField(t *testing.T) {
	r := newReplica(t)
	require.NoError(t, r.SetLatency(replicatest.Constant(ms(3))))
	require.NoError(t, r.SetSlowdown(2))
	require.NoError(t, r.SetFault(replicatest.Down()))
	require.NoError(t, r.AddPause(replicatest.Window{Start: ms(1), End: ms(2)}))
	require.NoError(t, r.AddPause(replicatest.Window{Start: ms(5), End: ms(8)}))
	assert.Equal(t, replicatest.Behavior{
		Latency: replicatest.Constant(ms(3)), Slowdown: 2, Fault: replicatest.Down(),
		Pauses: []replicatest.Window{{ms(1), ms(2)}, {ms(5), ms(8)}},
	}, r.Behavior())
}

func TestBehaviorIsCopied(t *testing.T) {
	windows := []replicatest.Window{{0, ms(5)}}
	r := newReplica(t)
	require.NoError(t, r.SetBehavior(replicatest.Behavior{Pauses: windows}))
	windows[0].End = ms(9)
	got := r.Behavior()
	assert.Equal(t, ms(5), got.Pauses[0].End, "SetBehavior keeps its own copy")
	got.Pauses[0].End = ms(7)
	assert.Equal(t, ms(5), r.Behavior().Pauses[0].End, "Behavior returns a copy")
}

func TestBehaviorString(t *testing.T) {
	b := replicatest.Behavior{
		Latency: replicatest.Constant(ms(3)), Slowdown: 2, PauseChance: 0.01, PauseLength: replicatest.Constant(ms(50)),
		Pauses: []replicatest.Window{{ms(100), ms(180)}}, Fault: replicatest.Down(),
	}
	assert.Equal(t, "latency Constant(3ms), slowdown 2, pause chance 0.01 of Constant(50ms), pauses [[100ms, 180ms)], fault down", b.String())
	assert.Equal(t, "latency <nil>, slowdown 1, fault none", replicatest.Behavior{}.String())
}

// stepLatency is an embedder's latency model on a pointer.
type stepLatency struct{ d time.Duration }

func (s *stepLatency) Sample(*rand.Rand) time.Duration { return s.d }
