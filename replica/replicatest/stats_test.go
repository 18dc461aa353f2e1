package replicatest_test

import (
	"sync"
	"testing"
	"testing/synctest"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatsCountWhatArrived(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))))
		var wg sync.WaitGroup
		for _, digestOnly := range []bool{false, true, true} {
			wg.Go(func() {
				_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k", DigestOnly: digestOnly})
				assert.NoError(t, err)
			})
		}
		wg.Go(func() {
			assert.NoError(t, r.Apply(t.Context(), replica.Mutation{Table: table, Partition: partition("k", "v", 1)}))
		})
		synctest.Wait()
		assert.Equal(t, replicatest.Stats{Reads: 3, DataReads: 1, DigestReads: 2, Mutations: 1, InFlight: 4}, r.Stats())
		require.NoError(t, r.Seed(table, partition("k", "w", 2)))
		synctest.Wait()
		assert.Equal(t, int64(4), r.Stats().InFlight, "seeding is not a request")
		wg.Wait()
		assert.Zero(t, r.Stats().InFlight)
	})
}

func TestStatsSettleWhenRequestsEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))))
		concurrentReads(t, r, 3)
		assert.Equal(t, replicatest.Stats{Reads: 3, DataReads: 3}, r.Stats())
	})
}

func TestStatsAddAndString(t *testing.T) {
	a := replicatest.Stats{Reads: 3, DataReads: 1, DigestReads: 2, Mutations: 4, Cancellations: 5, Errors: 6, Overloaded: 7, Panics: 8, LateAnswers: 9, InFlight: 10}
	assert.Equal(t, replicatest.Stats{Reads: 6, DataReads: 2, DigestReads: 4, Mutations: 8, Cancellations: 10, Errors: 12, Overloaded: 14, Panics: 16, LateAnswers: 18, InFlight: 20}, a.Add(a))
	assert.Equal(t, "reads 3 (data 1, digest 2), mutations 4, cancellations 5, errors 6 (overloaded 7), panics 8, late 9, in flight 10", a.String())
}

// A read refused past its tombstone failure threshold is an error of the
// read, as Stats.Errors and RequestError say: Op "read", Respond's error
// inside, counted once among Errors.
func TestStatsCountATombstoneRefusalAsAnError(t *testing.T) {
	r := newReplica(t)
	require.NoError(t, r.Seed(table, replica.NewPartition("k", replica.NewRow("row",
		replica.Tombstone("a", 1, 50), replica.Tombstone("b", 1, 50)))))
	_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k", TombstoneFailureThreshold: 1})
	var re *replicatest.RequestError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "read", re.Op)
	var te *replica.TombstoneOverwhelmingError
	assert.ErrorAs(t, err, &te)
	assert.Equal(t, replicatest.Stats{Reads: 1, DataReads: 1, Errors: 1}, r.Stats())
}
