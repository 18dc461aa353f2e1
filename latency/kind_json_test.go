package latency_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// A Kind in JSON is its name and reads back; the zero or an undefined Kind
// does not marshal, and an unknown name leaves the value unchanged.
func TestKindJSONIsItsName(t *testing.T) {
	for k := latency.KindNever; k <= latency.KindMax; k++ {
		b, err := json.Marshal(k)
		require.NoError(t, err)
		assert.Equal(t, `"`+k.String()+`"`, string(b))
		var back latency.Kind
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, k, back)
	}
	for _, k := range []latency.Kind{0, 7} {
		_, err := json.Marshal(k)
		assert.ErrorIs(t, err, latency.ErrUnknownKind, "%d", k)
	}
	back := latency.KindMin
	assert.ErrorIs(t, json.Unmarshal([]byte(`"HYBRID"`), &back), latency.ErrUnknownKind)
	assert.Equal(t, latency.KindMin, back)
}
