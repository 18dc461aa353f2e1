package ring

import (
	"fmt"
	"testing"
	"time"

	"github.com/readpath/readpath/replica"
)

// The table IsAlive reads shrinks as failed nodes are forgotten: 4,096
// nodes convicted, then all but 10 forgotten, left it at 8,192 slots,
// 4,086 of them markers that lookups of healthy nodes probe past, for as
// long as no other node failed (now 64 slots, 15 used).
func TestForgetShrinksTheNodeTable(t *testing.T) {
	d, err := NewDetector(DetectorConfig{ReadmitAfter: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const n, kept = 4096, 10
	for i := range n {
		d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: fmt.Sprint("n", i)}, Err: replica.ErrConnectionFailed})
	}
	peak := len(d.nodes.Load().slots)
	for i := kept; i < n; i++ {
		d.Forget(fmt.Sprint("n", i))
	}
	tb := d.nodes.Load()
	if len(tb.slots) > 8*kept || tb.used > 2*kept {
		t.Errorf("%d slots, %d used, after forgetting all but %d nodes (%d slots at the peak)", len(tb.slots), tb.used, kept, peak)
	}
	for i := range n {
		if got, want := d.IsAlive(replica.Endpoint{ID: fmt.Sprint("n", i)}), i >= kept; got != want {
			t.Fatalf("n%d alive %v, want %v", i, got, want)
		}
	}
}

// Churn does not grow the table: 5,000 distinct nodes failing and being
// forgotten, three at a time, leave it at its first 16 slots.
func TestNodeTableStaysSmallUnderChurn(t *testing.T) {
	d, err := NewDetector(DetectorConfig{ReadmitAfter: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i := range 5000 {
		d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: fmt.Sprint("n", i)}, Err: replica.ErrConnectionFailed})
		if i >= 3 {
			d.Forget(fmt.Sprint("n", i-3))
		}
		if tb := d.nodes.Load(); len(tb.slots) > 16 {
			t.Fatalf("after %d nodes: %d slots (%d used, %d live)", i+1, len(tb.slots), tb.used, tb.live)
		}
	}
	d.addMu.Lock()
	defer d.addMu.Unlock()
	if len(d.all) != 3 {
		t.Errorf("%d nodes tracked, want 3", len(d.all))
	}
}
