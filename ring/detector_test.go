package ring_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// recorder collects a detector's changes.
type recorder struct {
	mu      sync.Mutex
	changes []ring.Change
}

func (r *recorder) on(c ring.Change) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, c)
}

func (r *recorder) list() []ring.Change {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.changes)
}

// newDetector returns a detector with no probe jitter, so that probe
// times are exact, recording its changes.
func newDetector(t *testing.T, cfg ring.DetectorConfig) (*ring.Detector, *recorder) {
	t.Helper()
	rec := new(recorder)
	cfg.OnChange = rec.on
	if cfg.Probe.Jitter == 0 {
		cfg.Probe.Jitter = -1
	}
	d, err := ring.NewDetector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d, rec
}

// read makes a read of r and reports its outcome to d, as the coordinator
// does.
func read(d *ring.Detector, r replica.Replica, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	_, err := r.Read(ctx, replica.Command{Table: "t", Key: "k"})
	d.ReportOutcome(replica.Outcome{Replica: r, Endpoint: r.Endpoint(), Err: err, Latency: time.Since(start)})
	return err
}

func node(id, dc string) *replicatest.Replica {
	return replicatest.NewReplica(replica.Endpoint{ID: id, Datacenter: dc, Rack: "r1"})
}

func wantChanges(t *testing.T, rec *recorder, want ...ring.Change) {
	t.Helper()
	synctest.Wait()
	got := rec.list()
	if len(got) != len(want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	for i := range got {
		if got[i].Endpoint.ID != want[i].Endpoint.ID || got[i].Alive != want[i].Alive ||
			got[i].Cause != want[i].Cause || !got[i].At.Equal(want[i].At) {
			t.Errorf("change %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func change(id string, alive bool, cause ring.Cause, at time.Time) ring.Change {
	return ring.Change{Endpoint: replica.Endpoint{ID: id}, Alive: alive, Cause: cause, At: at}
}

// wantProbedBack checks that replica "a", convicted at convicted, is alive
// again, readmitted by a probe after after, and that nothing else changed.
func wantProbedBack(t *testing.T, d *ring.Detector, rec *recorder, convicted time.Time, after time.Duration) {
	t.Helper()
	synctest.Wait()
	if !d.IsAlive(replica.Endpoint{ID: "a"}) {
		t.Fatalf("not readmitted by the probe at +%v", after)
	}
	wantChanges(t, rec,
		change("a", false, ring.ConnectionFailed, convicted),
		change("a", true, ring.ProbeSucceeded, convicted.Add(after)))
}

// With ConnectionFailures 3, the third connection failure in a row
// convicts; a success in between starts the count again.
func TestConnectionFailuresConvict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ConnectionFailures: 3})
		defer d.Close()
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		read(d, a, time.Second)
		read(d, a, time.Second)
		_ = a.SetFault(replicatest.Fault{})
		read(d, a, time.Second) // a success resets the count
		_ = a.SetFault(replicatest.Down())
		read(d, a, time.Second)
		read(d, a, time.Second)
		if !d.IsAlive(a.Endpoint()) {
			t.Fatal("convicted after two failures in a row")
		}
		read(d, a, time.Second)
		if d.IsAlive(a.Endpoint()) || !slices.Equal(d.Down(), []string{"a"}) {
			t.Fatalf("not convicted after three failures in a row: down %v", d.Down())
		}
		wantChanges(t, rec, change("a", false, ring.ConnectionFailed, time.Now()))
	})
}

// A convicted replica is probed after 1 s, 2 s, 4 s... (no jitter here)
// and readmitted by the first probe after it comes back.
func TestConvictedReplicaIsProbedBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		convicted := time.Now()
		read(d, a, time.Second)
		time.Sleep(3500 * time.Millisecond) // probes at +1 s and +3 s fail
		_ = a.SetFault(replicatest.Fault{})
		time.Sleep(3500*time.Millisecond - time.Nanosecond)
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("readmitted before the probe at +7 s")
		}
		time.Sleep(time.Nanosecond)
		wantProbedBack(t, d, rec, convicted, 7*time.Second)
	})
}

// hidden hides a replica's Probe method.
type hidden struct{ replica.Replica }

// Without a Prober, a convicted replica is readmitted ReadmitAfter later.
func TestReplicaWithoutProberIsReadmittedAfterADelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ReadmitAfter: 3 * time.Second})
		defer d.Close()
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		start := time.Now()
		read(d, hidden{a}, time.Second)
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if !d.IsAlive(a.Endpoint()) {
			t.Fatal("not readmitted after ReadmitAfter")
		}
		wantChanges(t, rec,
			change("a", false, ring.ConnectionFailed, start),
			change("a", true, ring.ReadmitTimeout, start.Add(3*time.Second)))
	})
}

// An outcome that names its replica but leaves Endpoint zero counts
// against the replica's endpoint: its connection failure convicts it.
func TestAnOutcomeWithoutItsEndpointCountsForItsReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		d.ReportOutcome(replica.Outcome{Replica: a, Err: replicatest.ErrDown})
		if d.IsAlive(a.Endpoint()) {
			t.Errorf("a refused, reported without its endpoint, is not convicted; Nodes %+v", d.Nodes(time.Now()))
		}
	})
}

// A replica that only times out, or fails with its own errors, is never
// convicted, however often.
func TestTimeoutsNeverConvict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		slow, failing := node("slow", "dc1"), node("failing", "dc1")
		_ = slow.SetFault(replicatest.Unreachable())
		_ = failing.SetFault(replicatest.ErrorAfter(time.Millisecond, nil))
		for range 100 {
			if err := read(d, slow, 100*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("slow read: %v", err)
			}
			if err := read(d, failing, 100*time.Millisecond); !errors.Is(err, replicatest.ErrInjected) {
				t.Fatalf("failing read: %v", err)
			}
			d.ReportOutcome(replica.Outcome{Endpoint: slow.Endpoint(), Err: context.Canceled})
		}
		if !d.IsAlive(slow.Endpoint()) || !d.IsAlive(failing.Endpoint()) || len(d.Down()) != 0 {
			t.Errorf("convicted on timeouts or errors: %v", d.Down())
		}
		wantChanges(t, rec)
	})
}

// A node whose heartbeats stop is convicted at the first check at which
// phi exceeds 8, about 18.4 mean intervals after its last heartbeat, and
// readmitted by its next heartbeat.
func TestHeartbeatsStopConvictAtPhiBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		start := time.Now()
		model, _ := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
		for range 10 { // heartbeats at 0 s .. 9 s
			d.Heartbeat("a", time.Now())
			model.Add(time.Now())
			time.Sleep(time.Second)
		}
		last, _ := model.Last()
		convict := start // the first check (every 1 s from start) with phi > 8
		for model.Phi(convict) <= 8 {
			convict = convict.Add(time.Second)
		}
		if bound := model.SilenceBound(8); convict.Sub(last) <= bound || convict.Sub(last) > bound+time.Second {
			t.Fatalf("model: conviction %v after the last heartbeat, bound %v", convict.Sub(last), bound)
		}
		time.Sleep(time.Until(convict) - time.Nanosecond)
		synctest.Wait()
		if !d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Fatalf("convicted before %v", convict.Sub(start))
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Fatalf("alive at %v, phi %.3f", convict.Sub(start), d.Phi("a", time.Now()))
		}
		time.Sleep(5 * time.Second)
		d.Heartbeat("a", time.Now())
		if !d.IsAlive(replica.Endpoint{ID: "a"}) || d.Phi("a", time.Now()) != 0 {
			t.Fatal("a heartbeat did not readmit")
		}
		wantChanges(t, rec,
			change("a", false, ring.HeartbeatsStopped, convict),
			change("a", true, ring.HeartbeatsResumed, convict.Add(5*time.Second)))
	})
}

// The phi bound scales with the heartbeat period: beating every 100 ms,
// a node is convicted within a few seconds.
func TestPhiBoundFollowsTheHeartbeatPeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{InitialInterval: 200 * time.Millisecond, CheckInterval: 100 * time.Millisecond})
		defer d.Close()
		for range 100 {
			d.Heartbeat("a", time.Now())
			time.Sleep(100 * time.Millisecond)
		}
		// mean ≈ 101 ms: phi 8 after ≈ 1.87 s of silence since the last beat
		time.Sleep(1700 * time.Millisecond)
		synctest.Wait()
		alive := d.IsAlive(replica.Endpoint{ID: "a"})
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if !alive || d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Errorf("alive at 1.8 s of silence: %v, at 2.1 s: %v", alive, d.IsAlive(replica.Endpoint{ID: "a"}))
		}
	})
}

// A heartbeat delivered twice counts once: it neither shortens the silence
// that convicts (intervals of zero would halve the mean here) nor, when it
// arrives after a conviction, readmits the node.
func TestDuplicateHeartbeatsCountOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		var last time.Time
		for range 100 {
			last = time.Now()
			d.Heartbeat("a", last)
			d.Heartbeat("a", last)
			time.Sleep(time.Second)
		}
		// mean ≈ 1 s: phi 8 after ≈ 18.4 s of silence, not 9.3 s
		time.Sleep(17 * time.Second)
		synctest.Wait()
		if !d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Fatalf("convicted after %v of silence, phi %.2f", time.Since(last), d.Phi("a", time.Now()))
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		d.Heartbeat("a", last) // the last one, late again
		if d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Fatal("an old heartbeat readmitted a convicted node")
		}
		if got := len(rec.list()); got != 1 {
			t.Fatalf("%d changes, want the one conviction", got)
		}
	})
}

// A partition of dc2 convicts dc2's nodes only: by heartbeats, and by the
// coordinator's connection failures.
func TestPartitionConvictsOneDatacenter(t *testing.T) {
	ids := []string{"a1", "a2", "a3", "b1", "b2", "b3"}
	dcOf := func(id string) string { return map[byte]string{'a': "dc1", 'b': "dc2"}[id[0]] }
	t.Run("heartbeats", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			d, _ := newDetector(t, ring.DetectorConfig{})
			defer d.Close()
			for i := range 60 {
				for _, id := range ids {
					if i < 10 || dcOf(id) == "dc1" { // dc2 is cut off after 10 s
						d.Heartbeat(id, time.Now())
					}
				}
				time.Sleep(time.Second)
			}
			if got := d.Down(); !slices.Equal(got, []string{"b1", "b2", "b3"}) {
				t.Errorf("down %v, want dc2's nodes", got)
			}
		})
	})
	t.Run("connections", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			d, _ := newDetector(t, ring.DetectorConfig{})
			defer d.Close()
			var nodes []*replicatest.Replica
			for _, id := range ids {
				n := node(id, dcOf(id))
				if dcOf(id) == "dc2" {
					_ = n.SetFault(replicatest.Down())
				}
				nodes = append(nodes, n)
			}
			for range 10 {
				for _, n := range nodes {
					read(d, n, time.Second)
				}
			}
			if got := d.Down(); !slices.Equal(got, []string{"b1", "b2", "b3"}) {
				t.Errorf("down %v, want dc2's nodes", got)
			}
		})
	})
}

// Close stops probing and OnChange; nothing is left running (the bubble
// would not end otherwise).
func TestCloseStopsProbes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		read(d, a, time.Second)
		time.Sleep(10 * time.Second)
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal("second Close:", err)
		}
		_ = a.SetFault(replicatest.Fault{})
		b := node("b", "dc1")
		_ = b.SetFault(replicatest.Down())
		read(d, b, time.Second) // after Close: convicts, starts nothing
		time.Sleep(time.Hour)
		if n := len(rec.list()); n != 1 {
			t.Errorf("%d changes, want only a's conviction before Close", n)
		}
	})
}

func TestNewDetectorRejectsBadConfig(t *testing.T) {
	for name, cfg := range map[string]ring.DetectorConfig{
		"negative threshold":       {PhiConvictThreshold: -1},
		"NaN threshold":            {PhiConvictThreshold: math.NaN()},
		"negative window":          {WindowSize: -1},
		"negative failures":        {ConnectionFailures: -2},
		"negative CheckInterval":   {CheckInterval: -time.Second},
		"negative InitialInterval": {InitialInterval: -time.Second},
		"negative MaxInterval":     {MaxInterval: -time.Second},
		"negative readmit":         {ReadmitAfter: -1},
		"backoff max < init":       {Probe: ring.Backoff{Initial: time.Minute, Max: time.Second}},
		"jitter 1":                 {Probe: ring.Backoff{Jitter: 1}},
		"pause below 2 checks":     {CheckInterval: time.Second, MaxLocalPause: 1999 * time.Millisecond},
	} {
		d, err := ring.NewDetector(cfg)
		if d != nil || !errors.Is(err, ring.ErrInvalidConfig) {
			t.Errorf("%s: NewDetector = %v, %v", name, d, err)
			if d != nil {
				d.Close()
			}
		}
	}
}

func TestUnknownNodesAreAlive(t *testing.T) {
	d, _ := ring.NewDetector(ring.DetectorConfig{})
	defer d.Close()
	d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: "a"}}) // a success tracks nothing
	if !d.IsAlive(replica.Endpoint{ID: "a"}) || !d.IsAlive(replica.Endpoint{ID: "never"}) || d.Phi("never", time.Now()) != 0 {
		t.Error("a node never convicted is not alive")
	}
}

func TestIsAliveAllocatesNothing(t *testing.T) {
	d, _ := ring.NewDetector(ring.DetectorConfig{})
	defer d.Close()
	ep := replica.Endpoint{ID: "a"}
	d.Heartbeat("a", time.Now())
	ok := replica.Outcome{Endpoint: ep}
	if n := testing.AllocsPerRun(1000, func() {
		_ = d.IsAlive(ep)
		d.ReportOutcome(ok)
	}); n != 0 {
		t.Errorf("IsAlive and a success's ReportOutcome allocate %v times, want 0", n)
	}
}

// Learning a node costs the same memory however many the detector knows.
// It copied the map IsAlive reads for every node learned: 100 more nodes
// cost over ten times as much beside 4,000 as beside 100.
func TestLearningANodeCostsTheSameAtAnyClusterSize(t *testing.T) {
	learn := func(known int) uint64 {
		d, _ := ring.NewDetector(ring.DetectorConfig{})
		defer d.Close()
		at := time.Now()
		for i := range known {
			d.Heartbeat(fmt.Sprintf("known%05d", i), at)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range 100 {
			d.Heartbeat(fmt.Sprintf("new%05d", i), at)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := learn(100), learn(4000)
	if large > 2*small {
		t.Errorf("100 nodes learned beside 4,000 allocate %d B, beside 100 %d B: want at most twice", large, small)
	}
}

// A node learned by heartbeat holds its state and the interval it sent,
// nothing for the probes it may never need: a context and a random source
// for every node learned were four allocations of seven, and half the
// time.
func TestLearningANodeAllocatesOnlyItsState(t *testing.T) {
	d, _ := ring.NewDetector(ring.DetectorConfig{})
	defer d.Close()
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("node%05d", i)
	}
	at := time.Now()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, id := range ids {
		d.Heartbeat(id, at)
	}
	runtime.ReadMemStats(&after)
	// The node, its window, the window's first slots; the map's growth
	// adds a fraction.
	if per := float64(after.Mallocs-before.Mallocs) / float64(len(ids)); per > 4 {
		t.Errorf("learning a node allocates %.2f times, want at most 4", per)
	}
}

// While nodes are learned by heartbeat from other goroutines, a node
// convicted by connection failures is down as soon as ReportOutcome
// returns, and a success between failures still resets the count.
func TestConvictionIsSeenWhileNodesAreLearned(t *testing.T) {
	// In a bubble, so that no readmission (ReadmitAfter) can intervene.
	synctest.Test(t, func(t *testing.T) {
		d, _ := ring.NewDetector(ring.DetectorConfig{ConnectionFailures: 2})
		defer d.Close()
		at := time.Now()
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 500 {
					d.Heartbeat(fmt.Sprintf("learned%d-%03d", g, i), at)
				}
			})
		}
		refused := func(id string) replica.Outcome {
			return replica.Outcome{Endpoint: replica.Endpoint{ID: id}, Err: replica.ErrConnectionFailed}
		}
		for i := range 200 {
			id := fmt.Sprintf("learned%d-%03d", i%4, i)
			d.Heartbeat(id, at)
			d.ReportOutcome(refused(id))
			d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: id}}) // resets the count
			d.ReportOutcome(refused(id))
			if !d.IsAlive(replica.Endpoint{ID: id}) {
				t.Fatalf("%s convicted by failures that a success separated", id)
			}
			d.ReportOutcome(refused(id))
			if d.IsAlive(replica.Endpoint{ID: id}) {
				t.Fatalf("%s alive after two connection failures in a row", id)
			}
		}
		wg.Wait()
		if got := len(d.Down()); got != 200 {
			t.Errorf("%d nodes down, want 200", got)
		}
	})
}
