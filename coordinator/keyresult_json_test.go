package coordinator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// ReadMany's results written as JSON keep a failed key's reason as its
// text, and read back: a nil error is null, and the other keys' results
// and traces are intact.
func TestKeyResultJSONKeepsErr(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := manyKeys(t, e, 3)
		bad := coordinator.LocatorFunc(func(table, key string) ([]replica.Replica, consistency.Replication, error) {
			if key == "k1" {
				return nil, consistency.Replication{}, fmt.Errorf("no ring for %q", key)
			}
			return e.cluster.Locate(table, key)
		})
		c, err := coordinator.New(coordinator.Config{Locator: bad, Liveness: e.cluster})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum})
		require.NoError(t, err)
		require.Len(t, res, 3)
		require.Error(t, res[1].Err)
		b, err := json.Marshal(res)
		require.NoError(t, err)
		text, _ := json.Marshal(res[1].Err.Error())
		assert.Contains(t, string(b), `"Err":`+string(text))
		assert.Contains(t, string(b), `"Err":null`)
		var back []coordinator.KeyResult
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		require.Len(t, back, 3)
		for i, r := range res {
			got := back[i]
			assert.Equal(t, r.Key, got.Key)
			assert.Equal(t, r.Cut, got.Cut)
			if r.Err == nil {
				assert.NoError(t, got.Err, r.Key)
				assert.True(t, got.Result.Partition.Equal(row(r.Key, "v"+r.Key, 10)), r.Key)
			} else {
				assert.EqualError(t, got.Err, r.Err.Error(), r.Key)
			}
			assert.Equal(t, len(r.Result.Trace.Requests), len(got.Result.Trace.Requests), r.Key)
		}
		for i := range res {
			res[i].Result.Release()
		}
	})
	var back coordinator.KeyResult
	require.Error(t, json.Unmarshal([]byte(`{"Key":"k","Err":{}}`), &back), "an Err that is not text")
}
