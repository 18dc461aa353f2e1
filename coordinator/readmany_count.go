package coordinator

import (
	"context"

	"github.com/readpath/readpath/internal/stripe"
)

// countNotStarted counts the keys of a page's results that were not read
// because ctx ended as Read counts a read whose context ended before it
// sent anything: in Reads and ReadsByLevel, and in Cancelled, or in
// Timeouts when ctx's deadline passed (Read's ReadTimeoutError; not a
// cancel whose cause wraps context.DeadlineExceeded, as an errgroup's
// sibling's timeout does: Read counts that cancelled), so that a page cut
// short by its caller's deadline shows on a dashboard as its failed keys.
// Keys left out of the page, which Next reads again, count nothing. No
// Locator placed them: they count in the table's counters while it has
// state, else (unknown, or dropped) in Total's alone.
func (c *Coordinator) countNotStarted(ctx context.Context, req ManyRequest, out []KeyResult) {
	var n int64
	for i := range out {
		if out[i].notStarted {
			n++
		}
	}
	if n == 0 {
		return
	}
	c.dropMu.RLock() // DropTable's snapshot comes wholly before or after
	defer c.dropMu.RUnlock()
	m := &c.unplaced.m
	if t, ok := c.lookup(req.Table); ok && !t.dropped {
		m = &t.m
	}
	m.hot[c.dealer.Of(stripe.Stack())].reads[req.Level].Add(n)
	if ctx.Err() == context.DeadlineExceeded {
		m.timeouts.Add(n)
		return
	}
	for i := range out {
		if out[i].notStarted {
			m.countError(out[i].Err)
		}
	}
}
