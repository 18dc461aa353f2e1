package coordinator_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A probe its replica refuses for the data's tombstones sooner than its
// old score tells nothing of the replica (the refusal is no miss and no
// sample): the next read probes it again. It kept the claim, and the
// healed A, asked at ONE only when probed, waited a whole further
// ResetInterval because the read that probed it was of a partition full
// of tombstones (found by review). One refused as slowly as its score
// says keeps it, as a probe that timed out does: a sick replica is not
// probed, and waited for, by every read of such a partition.
func TestAProbeRefusedForTombstonesIsReleased(t *testing.T) {
	for _, healed := range []bool{true, false} {
		name, now, want := "healed", ms(1), A
		if !healed {
			name, now, want = "still slow", ms(10), B
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := policy(t, "NEVER")
				o.TombstoneFailureThreshold = 100
				e := newEnv(t, coordinator.Config{DefaultTable: o,
					Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
				const dead = "deleted"
				rows := []replica.Row{replica.NewRow("a", replica.Live("v", "x", 10))}
				for i := range 150 {
					rows = append(rows, replica.NewRow(fmt.Sprintf("d%04d", i)).
						WithDeletion(replica.DeletedAt(20, 1_700_000_000)))
				}
				require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(dead, rows...)))
				expireDemotedA(t, e, now)

				res, err := e.c.Read(t.Context(), coordinator.Request{Table: tbl, Key: dead, Level: consistency.One})
				var toe *replica.TombstoneOverwhelmingError
				require.True(t, errors.As(err, &toe), "%v", err)
				require.Equal(t, A, firstContact(t, res), "the read probed A")
				settle()

				res, _, err = e.read(consistency.One)
				require.NoError(t, err)
				assert.Equal(t, want, firstContact(t, res), "the next read's first contact")
			})
		})
	}
}
