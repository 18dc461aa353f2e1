package coordinator_test

import (
	"math"
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// maxTTL is Cassandra's Attributes.MAX_TTL: 20 years, in seconds.
const maxTTL = 20 * 365 * 24 * 60 * 60

// Ports of TTLTest.testCapExpirationDateOverflowPolicy's verifyData
// (apache/cassandra, test/unit/org/apache/cassandra/cql3/validation/
// operations/TTLTest.java) at the real MAX_TTL, written just before the
// limits of Cassandra's local deletion time: 2038 (a signed 32-bit
// second, before 5.0) and 2106 (unsigned, 5.0). Cassandra caps such an
// expiry at its maximum, or rejects the write, so its ttl(b) comes out
// below MAX_TTL (checkTTLIsCapped). readpath's times are 64-bit: nothing
// overflows, ttl(b) is the TTL written, and the rows live the full TTL.
func TestCassandraTTLMaxTTLPastTheDeletionTimeLimits(t *testing.T) {
	for _, at := range []int64{math.MaxInt32 - 10, math.MaxUint32 - 10} {
		for _, clustering := range []bool{true, false} {
			tab := func() *cqlTable { return cqlSchema("k:int", []string{"a:int"}, "b") }
			if !clustering {
				tab = func() *cqlTable { return cqlSchema("k:int", nil, "a:int", "b:int") }
			}
			src := "TTLTest.testCapExpirationDateOverflowPolicy"
			runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
				db.now = at
				db.insert(map[string]any{"k": 2, "a": 2}, wopt{ttl: maxTTL})
				db.update(map[string]any{"k": 1, "a": 1, "b": 1}, wopt{ttl: maxTTL})
			}, []cqlVector{
				{src: src, sel: cqlSelect{}, want: [][]any{r(1, 1, 1), r(2, 2, nil)}},
				{src: src + " (checkTTLIsCapped)", sel: cqlSelect{cols: []string{"ttl(b)"}, pks: []any{1}}, want: [][]any{r(maxTTL)}},
				{src: src + " (a second before expiry)", sel: cqlSelect{cols: []string{"ttl(b)"}, pks: []any{1}}, want: [][]any{r(1)},
					before: func(db *cqlDB) { db.now += maxTTL - 1 }},
				{src: src + " (at expiry)", sel: cqlSelect{}, before: func(db *cqlDB) { db.now++ }},
			})
		}
	}
}

// TTLTest.testCapNoWarnExpirationOverflowPolicyDefaultTTL: a table whose
// default_time_to_live is MAX_TTL gives a write without a TTL that TTL,
// uncapped in readpath (see above); USING TTL 0 overrides the default
// (CASSANDRA-11207), so that row never expires.
func TestCassandraTTLDefaultMaxTTL(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", nil, "i:int") }
	src := "TTLTest.testCapNoWarnExpirationOverflowPolicyDefaultTTL"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.now = math.MaxInt32 - 10
		db.defaultTTL = maxTTL
		db.insert(map[string]any{"k": 1, "i": 1})
		db.insert(map[string]any{"k": 2, "i": 2}, wopt{zeroTTL: true})
	}, []cqlVector{
		{src: src, sel: cqlSelect{cols: []string{"k", "ttl(i)"}}, want: [][]any{r(1, maxTTL), r(2, nil)}},
		{src: src + " (expired)", sel: cqlSelect{}, want: [][]any{r(2, 2)},
			before: func(db *cqlDB) { db.now += maxTTL }},
	})
}
