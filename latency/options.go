package latency

import "time"

// DefaultWindow is how far back a Tracker looks unless WithWindow says
// otherwise.
const DefaultWindow = time.Minute

// MinWindow is the shortest window WithWindow takes: one nanosecond for
// each of the sub-windows it slides by.
const MinWindow = parts * time.Nanosecond

// Option configures a Tracker (and, through NewRegistry, every tracker of a
// registry). Options are immutable and may be shared between goroutines.
type Option func(*trackerConfig)

type trackerConfig struct {
	window time.Duration
	clock  func() time.Time // nil: time.Now, read as cheaply as possible
}

// WithWindow sets how far back quantiles look: samples older than d no
// longer count, and samples count for at least two thirds of d (the window
// slides a third at a time). A window shorter than MinWindow cannot be cut
// up and selects DefaultWindow instead; Tracker.Window reports the window
// in force, d rounded down to a multiple of 3 ns.
func WithWindow(d time.Duration) Option {
	return func(c *trackerConfig) {
		if d >= MinWindow {
			c.window = d
		} else {
			c.window = DefaultWindow
		}
	}
}

// WithClock sets the clock that ages samples; the default is time.Now, which
// inside a testing/synctest bubble is the bubble's virtual clock. A nil clock
// selects the default. A clock that steps back behind the current third (a
// wall clock without a monotonic reading, such as time.Now().UTC(), set
// back) resumes that third where it began at the next query, as if no time
// had passed, so the window slides on as the clock moves on. The clock is
// read on the goroutines that record and query, so it must be safe for
// concurrent use. Its panic reaches the caller of the query or record that
// read it, and leaves the tracker as usable as before.
func WithClock(now func() time.Time) Option {
	return func(c *trackerConfig) { c.clock = now }
}

func newTrackerConfig(opts []Option) trackerConfig {
	c := trackerConfig{window: DefaultWindow}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}
