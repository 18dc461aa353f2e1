package coordinator_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
)

// effective is what reads of a table run with: grace in seconds and the
// tombstone thresholds, 0 being none.
type effective struct {
	grace         int64
	warn, failure int
}

func effectiveOf(o coordinator.TableOptions) effective {
	g, w, f := coordinator.Effective(o)
	return effective{g, w, f}
}

var cassandraDefaults = effective{864000, 1000, 100000}

// In JSON gc_grace_seconds is Cassandra's: 0 is no grace, not the default.
func TestTableOptionsJSONReadsCassandraValues(t *testing.T) {
	for _, c := range []struct {
		json string
		want effective
	}{
		{`{}`, cassandraDefaults},
		{`{"gc_grace_seconds":null}`, cassandraDefaults},
		{`{"gc_grace_seconds":0}`, effective{0, 1000, 100000}},
		{`{"gc_grace_seconds":3600}`, effective{3600, 1000, 100000}},
		{`{"tombstone_warn_threshold":0,"tombstone_failure_threshold":0}`, cassandraDefaults},
		// The older JSON's default grace came beside both thresholds 0: a 0 grace beside a
		// warn threshold of 0 and a written failure threshold is Cassandra's, no grace.
		{`{"gc_grace_seconds":0,"tombstone_warn_threshold":0,"tombstone_failure_threshold":5}`,
			effective{0, 1000, 5}},
		{`{"tombstone_warn_threshold":-1,"tombstone_failure_threshold":-5}`, effective{864000, 0, 0}},
		{`{"tombstone_warn_threshold":10,"tombstone_failure_threshold":20}`, effective{864000, 10, 20}},
	} {
		var o coordinator.TableOptions
		require.NoError(t, json.Unmarshal([]byte(c.json), &o), c.json)
		assert.Equal(t, c.want, effectiveOf(o), c.json)
	}
}

// A negative gc_grace_seconds is refused, naming the field and value, and
// changes nothing.
func TestTableOptionsJSONRefusesNegativeGrace(t *testing.T) {
	o := coordinator.TableOptions{GCGraceSeconds: 60, TombstoneWarnThreshold: 7}
	err := json.Unmarshal([]byte(`{"gc_grace_seconds":-1,"tombstone_warn_threshold":9}`), &o)
	require.ErrorIs(t, err, coordinator.ErrInvalidGCGrace)
	assert.ErrorContains(t, err, "gc_grace_seconds -1")
	assert.Equal(t, coordinator.TableOptions{GCGraceSeconds: 60, TombstoneWarnThreshold: 7}, o)
}

// Options written to JSON carry their effective Cassandra values, and read
// back, run reads as before.
func TestTableOptionsJSONRoundTripKeepsEffectiveValues(t *testing.T) {
	for _, c := range []struct {
		o    coordinator.TableOptions
		json string // the three fields as written
	}{
		{coordinator.TableOptions{}, `864000,1000,100000`},
		{coordinator.TableOptions{GCGraceSeconds: -1}, `0,1000,100000`},
		{coordinator.TableOptions{GCGraceSeconds: -86400}, `0,1000,100000`},
		{coordinator.TableOptions{GCGraceSeconds: 1}, `1,1000,100000`},
		{coordinator.TableOptions{TombstoneWarnThreshold: -1, TombstoneFailureThreshold: -3}, `864000,-1,-1`},
		{coordinator.TableOptions{TombstoneWarnThreshold: 5, TombstoneFailureThreshold: 6}, `864000,5,6`},
	} {
		b, err := json.Marshal(c.o)
		require.NoError(t, err)
		var fields struct {
			G int64 `json:"gc_grace_seconds"`
			W int   `json:"tombstone_warn_threshold"`
			F int   `json:"tombstone_failure_threshold"`
		}
		require.NoError(t, json.Unmarshal(b, &fields))
		got, _ := json.Marshal([]any{fields.G, fields.W, fields.F})
		assert.Equal(t, "["+c.json+"]", string(got), "%+v", c.o)

		var back coordinator.TableOptions
		require.NoError(t, json.Unmarshal(b, &back), string(b))
		assert.Equal(t, effectiveOf(c.o), effectiveOf(back), string(b))
	}
}

// Whatever JSON TableOptions accepts, it writes back as JSON that reads to
// the same effective options and writes the same bytes again.
func FuzzTableOptionsJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"gc_grace_seconds":0}`, `{"gc_grace_seconds":-1}`,
		`{"tombstone_warn_threshold":-1,"strategy":"digest_first"}`, `null`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var o coordinator.TableOptions
		if json.Unmarshal([]byte(s), &o) != nil {
			return
		}
		b, err := json.Marshal(o)
		require.NoError(t, err)
		var back coordinator.TableOptions
		require.NoError(t, json.Unmarshal(b, &back), string(b))
		assert.Equal(t, effectiveOf(o), effectiveOf(back))
		again, err := json.Marshal(back)
		require.NoError(t, err)
		assert.Equal(t, string(b), string(again))
	})
}

// JSON readpath wrote before its values were Cassandra's held the default
// grace as 0, beside both thresholds as 0, which MarshalJSON never writes:
// it still reads as the default grace, not as none, so that tombstones are
// kept as they were; a 0 grace beside written thresholds is none.
func TestTableOptionsJSONReadsTheOlderDefault(t *testing.T) {
	older := `{"speculative_retry":"99p","read_repair":"BLOCKING","strategy":"DATA_AND_DIGESTS",` +
		`"additional_write_policy":"99p","gc_grace_seconds":0,"tombstone_warn_threshold":0,` +
		`"tombstone_failure_threshold":0,"no_clustering_columns":false}`
	var o coordinator.TableOptions
	require.NoError(t, json.Unmarshal([]byte(older), &o))
	assert.Equal(t, cassandraDefaults, effectiveOf(o))

	var none coordinator.TableOptions
	require.NoError(t, json.Unmarshal([]byte(`{"gc_grace_seconds":0,"tombstone_warn_threshold":1000,"tombstone_failure_threshold":0}`), &none))
	assert.Equal(t, effective{0, 1000, 100000}, effectiveOf(none))
}

func TestStrategyMarshalTextRefusesAnUndefinedStrategy(t *testing.T) {
	text, err := coordinator.DigestFirst.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "DIGEST_FIRST", string(text))
	_, err = coordinator.Strategy(9).MarshalText()
	assert.ErrorIs(t, err, coordinator.ErrUnknownStrategy)
}
