package coordinator_test

import (
	"context"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// goexitOnHedge calls runtime.Goexit when told of a hedge.
type goexitOnHedge struct{}

func (goexitOnHedge) OnHedge(coordinator.HedgeEvent)   { runtime.Goexit() }
func (goexitOnHedge) OnRepair(coordinator.RepairEvent) {}

// goexitOnHedgeContext is goexitOnHedge as a ContextObserver.
type goexitOnHedgeContext struct{ goexitOnHedge }

func (goexitOnHedgeContext) OnHedgeContext(context.Context, coordinator.HedgeEvent)   { runtime.Goexit() }
func (goexitOnHedgeContext) OnRepairContext(context.Context, coordinator.RepairEvent) {}

// readUnwound reads key at QUORUM on a goroutine of its own, which a hook
// may end with runtime.Goexit or a panic (returned), and waits for it and
// for what it left running.
func readUnwound(c *coordinator.Coordinator) (recovered any) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { recovered = recover() }()
		c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	}()
	<-done
	time.Sleep(time.Second)
	synctest.Wait()
	return recovered
}

// An Observer that calls Goexit (t.FailNow in a test double) when told of
// a hedge ends the reading goroutine after the hedge was counted: the
// hedge must still end as won or failed, so that SpeculativeRetries stays
// HedgeWins plus FailedSpeculations, and the read count as failed.
func TestObserverGoexitOnHedgeLeavesTheHedgeBooked(t *testing.T) {
	for name, obs := range map[string]coordinator.Observer{
		"OnHedge": goexitOnHedge{}, "OnHedgeContext": goexitOnHedgeContext{},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				e.behave(t, B, constant(ms(50))) // A and B contacted; C is hedged to at 5 ms
				c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: e.cluster, Observer: obs,
					Snitch: coordinator.SnitchConfig{Disabled: true}, DefaultTable: policy(t, "5ms"),
					HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				require.NoError(t, err)
				defer c.Close()
				readUnwound(c)
				m := c.Metrics().Total
				require.Equal(t, int64(1), m.SpeculativeRetries)
				assert.Equal(t, m.SpeculativeRetries, m.HedgeWins+m.FailedSpeculations,
					"a hedge neither won nor failed:\n%v", c.Metrics())
				require.Equal(t, int64(1), m.Reads)
				assert.Equal(t, int64(1), m.OtherErrors, "a read neither failed nor succeeded: %+v", m)
			})
		})
	}
}
