package consistency_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
)

// A WriteType marshals as text as a Level does: by its protocol name, so
// that JSON and other text encodings hold "BATCH_LOG", not 4, and an
// unknown name or an undefined value is an error wrapping
// ErrUnknownWriteType.
func TestWriteTypeTextRoundTrips(t *testing.T) {
	ws := consistency.WriteTypes()
	require.Len(t, ws, 8)
	for i, w := range ws {
		assert.Equal(t, consistency.WriteType(i), w)
		assert.True(t, w.Valid(), "%s", w)
		text, err := w.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, w.String(), string(text))
		var back consistency.WriteType
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, w, back)
	}
	for _, w := range []consistency.WriteType{8, 42, 255} {
		assert.False(t, w.Valid(), "%s", w)
		_, err := w.MarshalText()
		assert.ErrorIs(t, err, consistency.ErrUnknownWriteType, "%s", w)
	}
	ws[0] = consistency.WriteCDC
	assert.Equal(t, consistency.WriteSimple, consistency.WriteTypes()[0], "WriteTypes is the caller's to modify")
}

func TestWriteTypeUnmarshalTextLeavesItOnError(t *testing.T) {
	w := consistency.WriteCAS
	for _, in := range []string{"", "LOGGED", " CAS", "CAS\x00", "5"} {
		err := w.UnmarshalText([]byte(in))
		assert.ErrorIs(t, err, consistency.ErrUnknownWriteType, "%q", in)
		assert.Equal(t, consistency.WriteCAS, w, "%q", in)
	}
}

func TestWriteTypeJSON(t *testing.T) {
	type report struct {
		Level     consistency.Level     `json:"level"`
		WriteType consistency.WriteType `json:"write_type"`
	}
	b, err := json.Marshal(report{consistency.Quorum, consistency.WriteUnloggedBatch})
	require.NoError(t, err)
	assert.JSONEq(t, `{"level":"QUORUM","write_type":"UNLOGGED_BATCH"}`, string(b))
	var back report
	require.NoError(t, json.Unmarshal([]byte(`{"level":"one","write_type":"batch_log"}`), &back))
	assert.Equal(t, report{consistency.One, consistency.WriteBatchLog}, back)
	err = json.Unmarshal([]byte(`{"write_type":"LOGGED"}`), &back)
	assert.ErrorIs(t, err, consistency.ErrUnknownWriteType)
	_, err = json.Marshal(report{WriteType: 9})
	assert.ErrorIs(t, err, consistency.ErrUnknownWriteType)
}
