package replica_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/readpath/readpath/replica"
)

// Cassandra refuses a TTL past Attributes.MAX_TTL, 20 years ("ttl is too
// large. requested (%d) maximum (%d)"; TTLTest.testTTLPerRequestLimit), so
// no cell or row liveness carries one: Validate names the TTL and the
// limit. MAX_TTL itself is valid, on a cell written at the epoch too.
func TestValidateRejectsTTLPastMaxTTL(t *testing.T) {
	const now = 1_700_000_000
	if replica.MaxTTL != 630720000 {
		t.Fatalf("MaxTTL = %d, want Cassandra's 630720000", replica.MaxTTL)
	}
	for _, ttl := range []int32{replica.MaxTTL + 1, math.MaxInt32 - 1} {
		exp := now + int64(ttl)
		for name, p := range map[string]replica.Partition{
			"cell": replica.NewPartition("k", replica.NewRow("r", replica.Expiring("c", "v", 1, ttl, exp))),
			"element": replica.NewPartition("k", replica.NewRow("r",
				replica.Expiring("m", "v", 1, ttl, exp).WithPath("x"))),
			"static":   replica.NewPartition("k").WithStatic(replica.Expiring("s", "v", 1, ttl, exp)),
			"liveness": replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(1, ttl, exp))),
		} {
			err := p.Validate()
			var ve *replica.ValidationError
			if !errors.As(err, &ve) {
				t.Errorf("%s with TTL %d: Validate() = %v, want a *ValidationError", name, ttl, err)
				continue
			}
			if !strings.Contains(ve.Reason, "TTL "+strconv.Itoa(int(ttl))) || !strings.Contains(ve.Reason, "630720000") {
				t.Errorf("%s with TTL %d: reason %q names not both the TTL and the limit", name, ttl, ve.Reason)
			}
		}
	}
	for name, p := range map[string]replica.Partition{
		"cell":     replica.NewPartition("k", replica.NewRow("r", replica.Expiring("c", "v", 1, replica.MaxTTL, now))),
		"epoch":    replica.NewPartition("k", replica.NewRow("r", replica.Expiring("c", "v", 1, replica.MaxTTL, int64(replica.MaxTTL)))),
		"liveness": replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(1, replica.MaxTTL, now))),
	} {
		if err := p.Validate(); err != nil {
			t.Errorf("%s with TTL MaxTTL: Validate() = %v, want nil", name, err)
		}
	}
}
