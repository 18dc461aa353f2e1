package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A read interrupted at any moment of its rounds (its first round, a
// hedge, the reconcile round, short-read protection, a repair round and
// its additional writes), while one replica ignores its context: a
// cancelled read returns at once with its cancellation, or its result; one
// in flight when the coordinator is closed, a replica forgotten or its
// table dropped finishes normally with the data it would have returned
// (ReadMany's pages after Close fail with ErrClosed); each counts once, its
// counts add up and nothing is left running on any replica.
func TestAReadInterruptedAtAnyMomentEndsCleanly(t *testing.T) {
	type setup struct {
		spec  string
		strat coordinator.Strategy
	}
	for _, s := range []setup{{"ALWAYS", coordinator.DataAndDigests}, {"2ms", coordinator.DigestFirst}} {
		for _, mode := range []repair.Mode{repair.Blocking, repair.Async} {
			// TWO stands for a ReadMany at QUORUM, paged.
			for _, level := range []consistency.Level{consistency.Quorum, consistency.All, consistency.Two} {
				r := interrupted{spec: s.spec, strat: s.strat, mode: mode, level: level}
				synctest.Test(t, func(t *testing.T) { r.base = r.run(t, "", 0) })
				for _, what := range []string{"cancel", "close", "forget", "drop"} {
					for step := range 10 {
						at := time.Duration(step)*1200*time.Microsecond + 600*time.Microsecond
						synctest.Test(t, func(t *testing.T) { r.run(t, what, at) })
					}
				}
			}
		}
	}
}

// interrupted is one read of TestAReadInterruptedAtAnyMomentEndsCleanly,
// and base what it returns undisturbed.
type interrupted struct {
	spec  string
	strat coordinator.Strategy
	mode  repair.Mode
	level consistency.Level
	base  replica.View
}

var stepKeys = []string{key, "k2", "k3"}

// run reads with what done at at, and returns what the read saw.
func (r interrupted) run(t *testing.T, what string, at time.Duration) replica.View {
	name := fmt.Sprint(r.spec, " ", r.strat, " ", r.mode, " ", r.level, " ", what, " at ", at)
	cl := fiveNodes(t)
	for i, id := range []string{A, B, C, D, E} {
		if err := cl.Replica(id).SetBehavior(constant(ms(1 + 0.5*float64(i)))); err != nil {
			t.Fatal(err)
		}
		// Each replica holds the rows, but for one of the first three, newer
		// deleted: a limit of two needs short-read protection.
		var rows []replica.Row
		for j := range 8 {
			if j == i {
				rows = append(rows, replica.NewRow(fmt.Sprint("r", j)).WithDeletion(replica.Deletion{MarkedForDeleteAt: 30, LocalDeletionTime: 1_700_000_000}))
				continue
			}
			rows = append(rows, replica.NewRow(fmt.Sprint("r", j), replica.Live("v", fmt.Sprint(i), int64(10+i))))
		}
		for _, k := range stepKeys {
			if err := cl.SeedOn(tbl, replica.NewPartition(k, rows...), id); err != nil {
				t.Fatal(err)
			}
		}
	}
	hung := replicatest.Behavior{Latency: replicatest.Constant(ms(8)), Fault: replicatest.IgnoresContext()}
	if err := cl.Replica(C).SetBehavior(hung); err != nil {
		t.Fatal(err)
	}
	o := policy(t, r.spec)
	o.ReadRepair, o.Strategy = r.mode, r.strat
	o.AdditionalWritePolicy = policy(t, "1ms").SpeculativeRetry
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: ms(50),
		Tables: map[string]coordinator.TableOptions{tbl: o}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	switch what {
	case "cancel":
		time.AfterFunc(at, cancel)
	case "close":
		time.AfterFunc(at, func() { c.Close() })
	case "forget":
		time.AfterFunc(at, func() { c.ForgetReplica(A); c.ForgetReplica(C) })
	case "drop":
		time.AfterFunc(at, func() { c.DropTable(tbl) })
	}
	start := time.Now()
	var res coordinator.Result
	if r.level == consistency.Two {
		res, err = readStepPages(ctx, c)
	} else {
		res, err = c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: r.level, Query: replica.Query{Limit: 2}})
	}
	took := time.Since(start)
	closed := what == "close" && r.level == consistency.Two && errors.Is(err, coordinator.ErrClosed)
	switch {
	case closed:
	case what == "cancel" && err != nil:
		if !errors.Is(err, context.Canceled) || took > at {
			t.Errorf("%s: returned at %v with %v", name, took, err)
		}
	case err != nil:
		t.Errorf("%s: %v", name, err)
	case r.level != consistency.Two && res.Partition.LiveRows(replica.Query{Limit: 2}, res.NowInSec) != 2:
		t.Errorf("%s: read %v", name, res.Partition)
	}
	// ReadMany's pages after a forget or a drop may read other replicas,
	// or data the drop left unrepaired.
	same := what == "close" || r.level != consistency.Two && (what == "forget" || what == "drop")
	if err == nil && same && !res.Visible().Equal(r.base) {
		t.Errorf("%s: read\n%v\nwant\n%v", name, res.Visible(), r.base)
	}
	time.Sleep(time.Second) // the hung replica's late answers
	synctest.Wait()
	m := c.Metrics()
	if tot := m.Total; what != "drop" {
		if tot.Timeouts+tot.Failures+tot.OtherErrors+tot.Unavailable != 0 ||
			r.level != consistency.Two && (tot.Reads != 1 || (tot.Cancelled == 1) != (err != nil)) {
			t.Errorf("%s: %v\n%v", name, err, m)
		}
		if tot.RepairsSent != tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned ||
			tot.SpeculativeRetries != tot.HedgeWins+tot.FailedSpeculations {
			t.Errorf("%s: counts do not add up\n%v", name, m)
		}
	}
	for _, rm := range m.Replicas {
		if rm.Outstanding != 0 || rm.Abandoned != 0 {
			t.Errorf("%s: left running %+v", name, rm)
		}
	}
	return res.Visible()
}

// readStepPages reads stepKeys at QUORUM in pages of three rows, and
// returns their rows as one partition's, each clustering prefixed with its
// key, or the first error.
func readStepPages(ctx context.Context, c *coordinator.Coordinator) (coordinator.Result, error) {
	req := coordinator.ManyRequest{Table: tbl, Keys: stepKeys, Level: consistency.Quorum, PageSize: 3, Concurrency: 2}
	var all coordinator.Result
	all.Partition.Key = key
	for {
		rs, err := c.ReadMany(ctx, req)
		if err != nil {
			return coordinator.Result{}, err
		}
		for _, r := range rs {
			if r.Err != nil {
				return coordinator.Result{}, r.Err
			}
			for _, row := range r.Result.Partition.Rows {
				row.Clustering = r.Key + "/" + row.Clustering
				all.Partition.Rows = append(all.Partition.Rows, row)
			}
			all.NowInSec = r.Result.NowInSec
		}
		var more bool
		if req, more = req.Next(rs); !more {
			return all, nil
		}
	}
}
