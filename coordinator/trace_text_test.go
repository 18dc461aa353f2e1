package coordinator_test

import (
	"encoding"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A trace's enums marshal as the names they print and parse, so that an
// exporter (JSON, an OpenTelemetry attribute) writes "short read", not 4,
// and read back; an undefined value is an error, as Strategy's is, and a
// name that does not parse leaves the value unchanged.
func TestTraceEnumsMarshalAsNames(t *testing.T) {
	t.Run("RequestKind", func(t *testing.T) {
		checkText(t, coordinator.ErrUnknownRequestKind, coordinator.RequestKind(3),
			coordinator.KindData, coordinator.KindDigest, coordinator.KindRepair)
	})
	t.Run("Phase", func(t *testing.T) {
		checkText(t, coordinator.ErrUnknownPhase, coordinator.Phase(5),
			coordinator.PhaseInitial, coordinator.PhaseSpeculative, coordinator.PhaseReconcile,
			coordinator.PhaseRepair, coordinator.PhaseShortRead)
	})
	t.Run("Outcome", func(t *testing.T) {
		checkText(t, coordinator.ErrUnknownOutcome, coordinator.Outcome(3),
			coordinator.Pending, coordinator.Answered, coordinator.Failed)
	})
	t.Run("SuppressCause", func(t *testing.T) {
		checkText(t, coordinator.ErrUnknownSuppressCause, coordinator.SuppressCause(4),
			coordinator.NotSuppressed, coordinator.SuppressedBudget, coordinator.SuppressedOverload,
			coordinator.NoCandidate)
	})
}

// checkText checks that each of values marshals as its String and
// unmarshals back, in upper case too, that undefined does not marshal, and
// that a bad name leaves the value unchanged.
func checkText[T interface {
	comparable
	String() string
	encoding.TextMarshaler
}, P interface {
	*T
	encoding.TextUnmarshaler
}](t *testing.T, sentinel error, undefined T, values ...T) {
	t.Helper()
	for _, v := range values {
		b, err := v.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, v.String(), string(b))
		var got T
		if v == got { // start from another value, so that a no-op fails
			got = values[len(values)-1]
		}
		require.NoError(t, P(&got).UnmarshalText(b))
		assert.Equal(t, v, got)
	}
	_, err := undefined.MarshalText()
	require.ErrorIs(t, err, sentinel)
	got := values[1]
	for _, bad := range []string{"nonsense", undefined.String(), " " + values[1].String()} {
		require.ErrorIs(t, P(&got).UnmarshalText([]byte(bad)), sentinel, "%q", bad)
		assert.Equal(t, values[1], got, "%q left it unchanged", bad)
	}
}

// In JSON a trace's requests and hedges, and a HedgeEvent, carry the
// names, and read back into the same values.
func TestTraceJSONCarriesNames(t *testing.T) {
	tr := coordinator.Trace{
		Requests: []coordinator.RequestTrace{
			{Endpoint: "a", Kind: coordinator.KindDigest, Phase: coordinator.PhaseShortRead, Outcome: coordinator.Answered},
			{Endpoint: "b", Kind: coordinator.KindRepair, Phase: coordinator.PhaseRepair, Outcome: coordinator.Pending},
		},
		Hedge:           coordinator.HedgeTrace{Suppressed: coordinator.NoCandidate},
		ReconcileHedge:  coordinator.HedgeTrace{Fired: true, To: "c"},
		AdditionalWrite: coordinator.HedgeTrace{Suppressed: coordinator.SuppressedBudget},
	}
	b, err := json.Marshal(tr)
	require.NoError(t, err)
	for _, want := range []string{`"Kind":"digest"`, `"Phase":"short read"`, `"Outcome":"answered"`,
		`"Kind":"repair"`, `"Outcome":"pending"`, `"Suppressed":"no candidate"`, `"Suppressed":""`,
		`"Suppressed":"budget"`} {
		assert.Contains(t, string(b), want)
	}
	var back coordinator.Trace
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, tr, back)

	ev := coordinator.HedgeEvent{To: replica.Endpoint{ID: "c"}, Kind: coordinator.KindData, Phase: coordinator.PhaseReconcile}
	b, err = json.Marshal(ev)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"Kind":"data","Phase":"reconcile"`)
	var evBack coordinator.HedgeEvent
	require.NoError(t, json.Unmarshal(b, &evBack))
	assert.Equal(t, ev, evBack)
}

// A trace's text says what its read did and only that: the threshold
// ("none" only when the table never speculates: ALWAYS's threshold is 0,
// its extra request sent up front, DESIGN.md 2.2), a hedge held back by
// any cause, a digest mismatch even when nothing was repaired (read
// repair NONE), a reconcile read whether or not it won, the tombstones
// only past the warning threshold, and a rack only when the endpoint has
// one.
func TestTraceTextSaysWhatTheReadDid(t *testing.T) {
	for _, c := range []struct {
		name      string
		tr        coordinator.Trace
		want, not string
	}{
		{"ALWAYS", coordinator.Trace{Speculate: true}, "threshold 0s", "none"},
		{"a percentile", coordinator.Trace{Speculate: true, Threshold: 4 * time.Millisecond}, "threshold 4ms", "none"},
		{"NEVER", coordinator.Trace{Threshold: 4 * time.Millisecond}, "threshold none", "4ms"},
		{"no budget", coordinator.Trace{Hedge: coordinator.HedgeTrace{Suppressed: coordinator.SuppressedBudget}},
			"hedge suppressed: budget", "hedged"},
		{"mismatch, no repair", coordinator.Trace{DigestMismatch: true}, "digest mismatch, repaired []", "additional"},
		{"reconcile read lost", coordinator.Trace{DigestMismatch: true, ReconcileHedge: coordinator.HedgeTrace{Fired: true, To: "c", At: 3 * time.Millisecond}},
			"reconcile read to c at 3ms", "postponed"},
		{"tombstones under the warning", coordinator.Trace{Tombstones: 3}, "read:", "tombstones"},
		{"no rack", coordinator.Trace{Requests: []coordinator.RequestTrace{{Endpoint: "a", Outcome: coordinator.Answered, Used: true}}},
			"-> a        answered at 0s, used", "()"},
	} {
		got := c.tr.String()
		assert.Contains(t, got, c.want, c.name)
		assert.NotContains(t, got, c.not, c.name)
	}
}
