package coordinator

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// A read's gcBefore is its time less the table's grace, saturating at
// math.MinInt64. A clock before 1970 (a negative read time, which only the
// coordinator's clock gives: Request refuses one) with a grace near
// math.MaxInt64 wrapped around to a gcBefore after the read's time, which
// would purge every tombstone at a replica that does not check its Command.
func TestGCBeforeSaturates(t *testing.T) {
	c, err := New(Config{Locator: nowhere{}})
	require.NoError(t, err)
	defer c.Close()
	for _, grace := range []int64{math.MaxInt64, math.MaxInt64 - 1, 1 << 62, 864000, 1, 0, -1, math.MinInt64} {
		tab := c.addTable("t", TableOptions{GCGraceSeconds: grace})
		for _, now := range []int64{math.MinInt64, math.MinInt64 + 1, -2, -1, 1, 1_700_000_000, math.MaxInt64} {
			r := newRead(c, tab, Request{Table: "t", Key: "k", NowInSec: now})
			g := tab.opts.Load().gcGrace()
			want := new(big.Int).Sub(big.NewInt(now), big.NewInt(g))
			if want.Cmp(big.NewInt(math.MinInt64)) < 0 {
				want.SetInt64(math.MinInt64)
			}
			require.Equal(t, want.Int64(), r.gcBefore, "read at %d, GCGraceSeconds %d (grace %d)", now, grace, g)
			require.LessOrEqual(t, r.gcBefore, r.nowInSec)
			r.release()
		}
		c.DropTable("t")
	}
}
