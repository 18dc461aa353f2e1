package ring_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// Phi at a time before the latest heartbeat is 0, not negative: a
// heartbeat stamped ahead of the clock Phi is read at (a sender's glitch)
// exported a phi of -1462 to a gauge.
func TestPhiBeforeTheLatestHeartbeatIsZero(t *testing.T) {
	w, err := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_700_000_000, 0)
	w.Add(t0)
	w.Add(t0.Add(time.Hour))
	if phi := w.Phi(t0.Add(time.Second)); phi != 0 {
		t.Errorf("phi an hour before the latest heartbeat = %v, want 0", phi)
	}
}

// An OnChange that panics is abandoned, as a probe that panics fails: the
// detector goes on, and tells the next change. It ran on the detector's
// goroutine, where the panic ended the process.
func TestAnOnChangeThatPanicsIsAbandoned(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var told []ring.Change
		d, err := ring.NewDetector(ring.DetectorConfig{ReadmitAfter: time.Second, OnChange: func(c ring.Change) {
			told = append(told, c)
			if len(told) == 1 {
				panic("exporter bug")
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: "n1"}, Err: replica.ErrConnectionFailed})
		time.Sleep(2 * time.Second) // readmitted after ReadmitAfter
		synctest.Wait()
		if len(told) != 2 || told[0].Alive || !told[1].Alive {
			t.Errorf("told %v, want n1 down, then up", told)
		}
	})
}
